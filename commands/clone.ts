import type { Attachment } from 'discord.js';
import type { CommandContext, CommandModule } from '../src/bot/interactions/command.ts';
import { attachmentOption, booleanOption, slashCommand, stringOption } from '../src/bot/interactions/command-builder.ts';
import { UserError } from '../src/bot/interactions/failures.ts';
import { t } from '../src/bot/i18n.ts';
import { outputOption, readOutput } from '../src/bot/interactions/options.ts';
import type { Requirements } from '../src/bot/interactions/preconditions.ts';
import { checkReferenceClip, downloadClip, type CheckedClip } from '../src/bot/frontend/reference-clip.ts';
import { chooseTarget, requesterOf, speakAndReply, type ChosenTarget } from '../src/bot/frontend/speak.ts';
import { countCharacters } from '../src/speech/split-text.ts';
import { NAME_MAX_LENGTH, isValidName, tidyName } from '../src/store/names.ts';
import { acknowledge } from '../src/bot/interactions/acknowledge.ts';

/** A server's voice library stays small enough to list and to choose from. */
export const MAX_CLONED_VOICES_PER_GUILD = 25;

/** Cloning someone's voice must be deliberate: admins only by default; servers can widen it in Integrations. */
export const requires: Requirements = { adminsByDefault: true };

export const data = slashCommand('clone', requires)
  .addAttachmentOption(attachmentOption('audio', { required: true }))
  .addStringOption(stringOption('text', { description: 'clone', required: true, maxLength: 1000 }))
  .addStringOption(stringOption('name', { description: 'clone', required: true, maxLength: NAME_MAX_LENGTH }))
  .addBooleanOption(booleanOption('consent', { required: true }))
  .addStringOption(outputOption());

/** How long a name stays held for a /clone under way if the process dies before it can give it back. */
const NAME_RESERVATION_MS = 10 * 60_000;

/** Its result is for the channel: a deferral forced by the deadline is public too. */
export const publicReply = true;

export const execute: CommandModule['execute'] = async (interaction, context) => {
  // What costs nothing comes first: options, name rules, permissions, then (after the download) the clip.
  // Budgets and the monthly quota come after all of those, and the paid call last.
  if (!interaction.options.getBoolean('consent', true)) throw new UserError('clone.error.consent');
  const name = tidyName(interaction.options.getString('name', true));
  if (!isValidName(name)) throw new UserError('clone.error.nameInvalid', { max: NAME_MAX_LENGTH });
  if (await context.store.voiceLibrary.findByName(interaction.guildId, name)) throw new UserError('clone.error.nameTaken', { name });
  const text = interaction.options.getString('text', true).trim();
  if (text === '') throw new UserError('error.input.emptyText');
  const max = context.settings.maxCharsPerRequest;
  if (countCharacters(text) > max) throw new UserError('clone.error.textTooLong', { max });
  const attachment = interaction.options.getAttachment('audio', true);
  const target = await chooseTarget(interaction, readOutput(interaction.options), context);
  // The download may take longer than Discord's 3 s: acknowledge first.
  await acknowledge(interaction);
  const clip = await checkReferenceClip(await downloadClip(attachment.url, attachment.size, context.settings.clipDownload));

  // The name is held before anything is paid, so of two clones of one name at once, one is refused for free.
  const held = await context.store.voiceLibrary.reserveName({
    guildId: interaction.guildId, name, reservedBy: interaction.user.id, ttlMs: NAME_RESERVATION_MS, maxPerGuild: MAX_CLONED_VOICES_PER_GUILD,
  });
  if (held.status === 'name-taken') throw new UserError('clone.error.nameTaken', { name });
  if (held.status === 'full') throw new UserError('clone.error.libraryFull', { limit: held.limit });
  const reservation = held.token;
  try {
    await cloneAndSpeak(interaction, context, { name, text, attachment, clip, target, reservation });
  } finally {
    // Taken by the voice when it was added; otherwise (refused, or the call failed) the name is free again.
    await context.store.voiceLibrary.releaseName(reservation).catch((error: unknown) => context.logger.warn({ err: error }, 'could not release a clone name'));
  }
};

async function cloneAndSpeak(
  interaction: Parameters<CommandModule['execute']>[0],
  context: CommandContext,
  { name, text, attachment, clip, target, reservation }:
  { name: string; text: string; attachment: Attachment; clip: CheckedClip; target: ChosenTarget; reservation: string },
): Promise<void> {
  const requester = requesterOf(interaction);
  // Budgets and the monthly quota are checked (a clone is never cached) before the paid call, and its spend recorded.
  const cloned = await context.speech.cloneVoice(requester, text, { data: clip.data, filename: attachment.name, contentType: clip.contentType });
  const saved = await context.store.voiceLibrary.add(
    { guildId: interaction.guildId, name, voiceId: cloned.voiceId, createdBy: interaction.user.id, clipSeconds: clip.durationSeconds },
    { maxPerGuild: MAX_CLONED_VOICES_PER_GUILD, reservation },
  );
  if (saved.status !== 'added') {
    cloned.audio?.body.destroy();
    context.logger.warn({ guildId: interaction.guildId, voiceId: cloned.voiceId, status: saved.status }, 'cloned voice not kept');
    if (saved.status === 'name-taken') throw new UserError('clone.error.nameTaken', { name });
    throw new UserError('clone.error.libraryFull', { limit: saved.limit });
  }
  context.logger.info({ guildId: interaction.guildId, voiceId: cloned.voiceId, clipSeconds: clip.durationSeconds }, 'voice cloned');
  // Its audio was paid for and lost on the way: speaking the line again would pay for it twice.
  if (cloned.audioLost) throw new UserError('clone.audioLost', { name, id: cloned.voiceId }, { level: 'warn' });

  const label = t(interaction.locale, 'clone.voiceLabel', { name, id: cloned.voiceId, seconds: clip.durationSeconds.toFixed(1) });
  // The clone's own audio speaks the first line; only a service that answers without audio costs a second call,
  // part of this request: recorded, not checked again.
  const request = cloned.audio
    ? ({ kind: 'ready', text, voice: cloned.voiceId, response: cloned.audio } as const)
    : ({ kind: 'tts', text, voice: cloned.voiceId, format: 'wav' } as const);
  await speakAndReply(interaction, context, { request, requester, followUp: true }, target, label);
}
