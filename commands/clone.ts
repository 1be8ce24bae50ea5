import { PermissionFlagsBits } from 'discord.js';
import type { AnsweredInteraction, CommandModule, ServiceName, Services } from '../src/core/interactions/command.ts';
import {
  attachmentOption,
  booleanOption,
  slashCommand,
  stringOption,
} from '../src/core/interactions/command-builder.ts';
import { UserError } from '../src/core/interactions/failures.ts';
import { t, type MessageKey } from '../src/core/i18n/catalogue.ts';
import { outputOption, readOutput } from '../src/core/interactions/options.ts';
import type { Requirements } from '../src/core/interactions/preconditions.ts';
import { checkReferenceClip, downloadClip, type CheckedClip } from '../src/features/voices/index.ts';
import {
  chooseTarget,
  allowedHere,
  type ChosenTarget,
  type OutputChoice,
} from '../src/features/speaking/index-targets.ts';
import { requesterOf, speakAndReply, SPEAKING_USES } from '../src/features/speaking/index.ts';
import { describeFailure, refusalAfterPaying } from '../src/features/speaking/index-words.ts';
import { namedVoice } from '../src/core/interactions/safe-text.ts';
import {
  CLIP_FILE_TYPES,
  FIRST_LINE_MAX_LENGTH,
  cloneForm,
  isClipFileName,
  isCloneForm,
  openFormRow,
  readCloneForm,
} from '../src/features/voices/index.ts';
import { acknowledge, responseStarted, startResponse } from '../src/core/interactions/acknowledge.ts';
import { echo, showResult } from '../src/core/interactions/replies.ts';
import { RenderStoppedError } from '../src/core/order-errors.ts';
import { countCharacters } from '../src/core/characters.ts';
import { NAME_MAX_LENGTH, isValidName, tidyName } from '../src/core/store/names.ts';

export const uses = [...SPEAKING_USES, 'config'] as const satisfies readonly ServiceName[];
type Uses = (typeof uses)[number];

/** A server's voice library stays small enough to list and to choose from. */
export const MAX_CLONED_VOICES_PER_GUILD = 25;

/** Cloning someone's voice must be deliberate: admins only by default; servers can widen it in Integrations. */
export const requires: Requirements = { adminsByDefault: true };

// Without a clip, /clone shows its form (clone-form.ts); with one, the options say the rest, as they always did.
export const data = slashCommand('clone', requires)
  .addAttachmentOption(attachmentOption('audio', { required: false }).setFileTypes(...CLIP_FILE_TYPES))
  .addStringOption(stringOption('text', { description: 'clone', required: false, maxLength: FIRST_LINE_MAX_LENGTH }))
  .addStringOption(stringOption('name', { description: 'clone', required: false, maxLength: NAME_MAX_LENGTH }))
  .addBooleanOption(booleanOption('consent', { required: false }))
  .addStringOption(outputOption());

/** How long a name stays held for a /clone under way if the process dies before it can give it back. */
const NAME_RESERVATION_MS = 10 * 60_000;

/** Its result is for the channel: a deferral forced by the deadline is public too. */
export const publicReply = true;

export const execute: CommandModule<Uses>['execute'] = async (interaction, context) => {
  const { options } = interaction;
  const attachment = options.getAttachment('audio');
  const [name, text, consent, output] = [
    options.getString('name'),
    options.getString('text'),
    options.getBoolean('consent'),
    readOutput(options),
  ];
  if (!attachment) {
    // A modal must be the first response: before anything is awaited, and never after the deadline's deferral.
    if (responseStarted(interaction))
      throw new Error('the clone form could not be shown: the interaction was already answered');
    await startResponse(interaction, () =>
      interaction.showModal(cloneForm(interaction.locale, { output, name, text, nameMaxLength: NAME_MAX_LENGTH })),
    );
    return;
  }
  if (name === null || text === null || consent === null) {
    // Nothing to download yet: the member is told what is missing, with the form one press away.
    context.logger.info(
      { code: 'clone.error.incomplete', guildId: interaction.guildId, userId: interaction.user.id },
      'clone refused: a clip without its name, text or consent',
    );
    await showResult(interaction, 'clone.error.incomplete', {}, [], [openFormRow(interaction.locale)]);
    return;
  }
  const clip = { url: attachment.url, size: attachment.size, filename: attachment.name };
  await cloneFrom(interaction, context, { name, text, consent, clip, output }, 'clone.error.consent');
};

/** "Clone a voice" (clone-form.ts openFormRow): shows the form, which can only be the press's first answer. */
export const button: CommandModule<Uses>['button'] = async (interaction) => {
  await interaction.showModal(cloneForm(interaction.locale, { nameMaxLength: NAME_MAX_LENGTH }));
};

/** The form's submit: from here on, the slash command's path. */
export const modalSubmit: CommandModule<Uses>['modalSubmit'] = async (interaction, context) => {
  if (!isCloneForm(interaction.customId)) throw new Error(`not /clone's form: ${interaction.customId}`);
  const { clip, ...fields } = readCloneForm(interaction);
  if (!clip) throw new UserError('clone.error.noClip');
  await cloneFrom(interaction, context, { ...fields, clip }, 'clone.error.consentBox');
};

interface CloneInput {
  name: string;
  text: string;
  consent: boolean;
  clip: { url: string; size: number; filename: string };
  output: OutputChoice;
}

/** A clone asked for by the slash command or by its form: checked, paid once, kept, and its first line spoken. */
async function cloneFrom(
  interaction: AnsweredInteraction<'cached'>,
  context: Services<Uses>,
  input: CloneInput,
  noConsent: MessageKey,
): Promise<void> {
  // What costs nothing first (answers, names, file, rights, the clip); budgets and the paid call last.
  if (!input.consent) throw new UserError(noConsent);
  const name = tidyName(input.name);
  if (!isValidName(name)) throw new UserError('clone.error.nameInvalid', { max: NAME_MAX_LENGTH });
  if (await context.store.voiceLibrary.findByName(interaction.guildId, name))
    throw new UserError('clone.error.nameTaken', { name });
  const text = input.text.trim();
  if (text === '') throw new UserError('error.input.emptyText');
  const max = context.config.maxCharsPerRequest;
  if (countCharacters(text) > max) throw new UserError('clone.error.textTooLong', { max });
  const { filename } = input.clip;
  // Discord filters the pickers by name (file_types); a client that does not is refused here, before any download.
  if (!isClipFileName(filename)) throw new UserError('clone.error.fileType', { name: echo(filename, 60) });
  const target = await chooseTarget(interaction, input.output, context);
  // Its /stop reaches it from before acknowledgement to its first line handed over: a stop mid-download ends it unsent.
  const requester = requesterOf(interaction, 'clone');
  const order = context.speech.stoppableClone(requester);
  try {
    // The download may outlast Discord's 3 s: acknowledge first, privately where the gate says so.
    await acknowledge(interaction, allowedHere(interaction, context.speech, target).privately);
    await downloadAndClone(interaction, context, { ...input, name, text, target }, requester, order);
  } finally {
    order.done();
  }
}

async function downloadAndClone(
  interaction: AnsweredInteraction<'cached'>,
  context: Services<Uses>,
  input: CloneInput & { target: ChosenTarget },
  requester: ReturnType<typeof requesterOf>,
  order: { readonly signal: AbortSignal; done(): void },
): Promise<void> {
  const { name, text, target } = input;
  const { filename } = input.clip;
  const clip = await checkReferenceClip(
    await downloadClip(input.clip.url, input.clip.size, context.config.clipDownload),
    interaction.guildId,
  );

  // The name is held before anything is paid, so of two clones of one name at once, one is refused for free.
  const held = await context.store.voiceLibrary.reserveName({
    guildId: interaction.guildId,
    name,
    reservedBy: interaction.user.id,
    ttlMs: NAME_RESERVATION_MS,
    maxPerGuild: MAX_CLONED_VOICES_PER_GUILD,
    // A server may let members without Manage Server clone (Integrations): each then adds at most their share.
    manager: interaction.memberPermissions.has(PermissionFlagsBits.ManageGuild),
  });
  if (held.status === 'name-taken') throw new UserError('clone.error.nameTaken', { name });
  if (held.status === 'full') throw new UserError('clone.error.libraryFull', { limit: held.limit });
  if (held.status === 'member-share')
    throw new UserError('clone.error.memberShare', { share: held.share, limit: held.limit });
  const reservation = held.token;
  try {
    await cloneStoppable(interaction, context, { name, text, filename, clip, target, reservation }, requester, order);
  } finally {
    // Taken by the voice when it was added; otherwise (refused, or the call failed) the name is free again.
    await context.store.voiceLibrary
      .releaseName(reservation)
      .catch((error: unknown) => context.logger.warn({ err: error }, 'could not release a clone name'));
  }
}

async function cloneStoppable(
  interaction: AnsweredInteraction<'cached'>,
  context: Services<Uses>,
  {
    name,
    text,
    filename,
    clip,
    target,
    reservation,
  }: { name: string; text: string; filename: string; clip: CheckedClip; target: ChosenTarget; reservation: string },
  requester: ReturnType<typeof requesterOf>,
  order: { readonly signal: AbortSignal; done(): void },
): Promise<void> {
  // Budgets and the monthly quota are checked (a clone is never cached) before the paid call, and its spend recorded.
  let cloned;
  try {
    cloned = await context.speech.cloneVoice(
      requester,
      text,
      { data: clip.data, filename, contentType: clip.contentType },
      order.signal,
    );
  } catch (error) {
    // Stopped before the service answered: never sent, or closed and counted as it may have been charged.
    if (!(error instanceof RenderStoppedError)) throw error;
    if (error.unconfirmed + error.paid <= 0) throw new UserError('clone.stoppedUnsent', {}, { cause: error });
    throw new UserError(
      'clone.stoppedClosed',
      { characters: error.unconfirmed + error.paid },
      { cause: error, level: 'info' },
    );
  }
  const saved = await context.store.voiceLibrary.add(
    {
      guildId: interaction.guildId,
      name,
      voiceId: cloned.voiceId,
      createdBy: interaction.user.id,
      clipSeconds: clip.durationSeconds,
    },
    { maxPerGuild: MAX_CLONED_VOICES_PER_GUILD, reservation },
  );
  if (saved.status !== 'added') {
    cloned.audio?.body.destroy();
    context.logger.warn(
      { guildId: interaction.guildId, voiceId: cloned.voiceId, status: saved.status },
      'cloned voice not kept',
    );
    if (saved.status === 'name-taken') throw new UserError('clone.error.nameTaken', { name });
    throw new UserError('clone.error.libraryFull', { limit: saved.limit });
  }
  context.logger.info(
    { guildId: interaction.guildId, voiceId: cloned.voiceId, clipSeconds: clip.durationSeconds },
    'voice cloned',
  );
  const id = namedVoice(cloned.voiceId);
  // Its audio was paid for and lost on the way: speaking the line again would pay for it twice.
  if (cloned.audioLost) throw new UserError('clone.audioLost', { name, id }, { level: 'warn' });
  // Stopped once the service had answered: the voice is paid for and kept, its line neither played nor posted.
  if (order.signal.aborted) {
    cloned.audio?.body.destroy();
    throw new UserError('clone.madeStopped', { name, id }, { level: 'info' });
  }

  const label = t(interaction.locale, 'clone.voiceLabel', {
    name,
    id,
    seconds: clip.durationSeconds.toFixed(1),
  });
  // The clone's own audio speaks the first line; a service answering without audio costs a second call, not rechecked.
  const request = cloned.audio
    ? ({ kind: 'ready', text, voice: cloned.voiceId, response: cloned.audio } as const)
    : ({ kind: 'tts', text, voice: cloned.voiceId, format: 'wav' } as const);
  // From here the line's own order is what /stop reaches, handed over before any await: no /stop falls between.
  order.done();
  try {
    await speakAndReply(interaction, context, { request, requester, followUp: true }, target, label);
  } catch (error) {
    // A line refused before it played leaves the clone's audio unread: let its call end now, not at shutdown.
    cloned.audio?.body.destroy();
    // Its member stopped the line's file or voice message: the voice is made and paid for, never "nothing charged".
    if (error instanceof RenderStoppedError)
      throw new UserError('clone.madeStopped', { name, id }, { cause: error, level: 'info' });
    // The voice is made, paid and kept whatever refuses its first line: said first, or the member would pay again.
    const cause = describeFailure(error);
    throw new UserError(
      'clone.madeLineFailed',
      { name, id, reason: refusalAfterPaying(interaction.locale, cause.message) },
      { cause: error, level: cause.level },
    );
  }
}
