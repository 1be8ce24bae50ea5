// The user-installable app: /say and /emote where SayBot is not a server member (DMs, group DMs, servers without
// the bot), behind the operator's USER_INSTALL switch. There is no voice channel there, so the answer is a file.
// The definitions that offer it: user-install-definition.ts.
import { DiscordAPIError, type AttachmentPayload, type ChatInputCommandInteraction } from 'discord.js';
import type { UserInstallSetting } from '../../config.ts';
import type { Requester, SpeechOutcome, SpeechRequest } from '../../speech/pipeline.ts';
import { chooseSettings, type SpeechSettings } from '../../speech/settings.ts';
import { acknowledge } from '../interactions/acknowledge.ts';
import type { CommandContext } from '../interactions/command.ts';
import { UserError } from '../interactions/failures.ts';
import { receivedAtEpochMs } from '../interactions/received.ts';
import { showResult } from '../interactions/replies.ts';
import { voiceLabel, type ChosenSettings } from './speech-settings.ts';

/**
 * The budget key for every use outside a server: one pseudo-guild (snowflake 1, which no Discord guild can have;
 * 0 is the quota probe's) for all of them, so the operator's monthly server budget bounds user installs together,
 * and each user's own daily budget and cooldown apply within it as a member's do.
 */
export const USER_INSTALL_GUILD = '1';

/** Whether the operator lets this user use SayBot outside a server. */
export function userInstallAllows(setting: UserInstallSetting, userId: string): boolean {
  if (setting.mode === 'everyone') return true;
  return setting.mode === 'allowlist' && setting.users.includes(userId);
}

/** Whether an interaction comes from where SayBot is not a server member (a DM, a group DM, a server without it). */
export function outsideServer(interaction: ChatInputCommandInteraction): boolean {
  return !interaction.inCachedGuild();
}

/** Refuses a user the operator did not let in (USER_INSTALL off, or not on the allow-list), before anything is paid. */
export function requireUserInstall(context: CommandContext, interaction: ChatInputCommandInteraction): void {
  if (!userInstallAllows(context.settings.userInstall, interaction.user.id)) {
    throw new UserError(context.settings.userInstall.mode === 'off' ? 'userInstall.off' : 'userInstall.notAllowed');
  }
}

/**
 * The settings outside a server: the command's options, else the built-in voice of the user's language. There
 * are no server presets or member defaults there (the pseudo-guild has none), so nothing of a server leaks out.
 */
export async function settingsOutsideServer(
  interaction: ChatInputCommandInteraction,
  context: CommandContext,
  options: SpeechSettings,
  presetName: string | undefined,
  builtinVoice?: string,
): Promise<ChosenSettings> {
  requireUserInstall(context, interaction);
  const settings = await chooseSettings(context.store, {
    guildId: USER_INSTALL_GUILD, userId: interaction.user.id, options, presetName, guildLocale: interaction.locale, builtinVoice,
  });
  return { settings, voiceLabel: voiceLabel(interaction.locale, settings, builtinVoice !== undefined) };
}

/**
 * Speaks `request` into a file and answers with it. The requester is the user in the user-install pseudo-guild:
 * their daily budget, the cooldown and the shared monthly budget apply as for a member, checked before paying.
 */
export async function speakOutsideServer(
  interaction: ChatInputCommandInteraction,
  context: CommandContext,
  request: SpeechRequest,
  voice: string,
): Promise<void> {
  requireUserInstall(context, interaction);
  const requester: Requester = {
    guildId: USER_INSTALL_GUILD, userId: interaction.user.id, source: interaction.commandName, id: interaction.id,
    askedAt: receivedAtEpochMs(interaction),
  };
  const job = context.speech.speak({ request, requester, target: { kind: 'file', sizeLimit: interaction.attachmentSizeLimit } });
  await job.accepted;
  await acknowledge(interaction, false);
  await showFile(interaction, await job.outcome, request.voice, voice);
}

const seconds = (s: number) => s.toFixed(1);

async function showFile(interaction: ChatInputCommandInteraction, outcome: SpeechOutcome, voiceId: string, voice: string): Promise<void> {
  let files: AttachmentPayload[];
  let format: string;
  if (outcome.kind === 'files') {
    files = outcome.files.map((part, index) => ({
      attachment: part.data, name: `saybot-${voiceId}${outcome.files.length > 1 ? `-${index + 1}` : ''}.${part.format}`,
    }));
    format = [...new Set(outcome.files.map((p) => p.format))].join('+');
  } else if (outcome.kind === 'voice-message') {
    // Over the upload limit: the same speech as a (much smaller) Ogg Opus file.
    files = [{ attachment: outcome.message.ogg, name: `saybot-${voiceId}.ogg` }];
    format = 'ogg';
  } else if (outcome.kind === 'failed') {
    throw outcome.error;
  } else {
    throw new Error(`a file request ended as ${outcome.kind}`);
  }
  try {
    await showResult(interaction, 'userInstall.file', { voice, seconds: seconds(outcome.seconds), format }, files);
  } catch (error) {
    if (error instanceof DiscordAPIError) throw new UserError('error.discord.uploadFailed', {}, { cause: error });
    throw error;
  }
}
