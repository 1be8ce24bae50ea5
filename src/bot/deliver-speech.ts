import { DiscordAPIError, PermissionFlagsBits, type AttachmentPayload, type ChatInputCommandInteraction } from 'discord.js';
import type { Charge } from '../quota/accounting.ts';
import type { SpeechRequest } from '../speech/service.ts';
import type { GuildPlayer } from '../voice/guild-player.ts';
import type { CommandContext } from './command.ts';
import { UserError, describeFailure } from './failures.ts';
import { t } from './i18n.ts';
import { showResult } from './replies.ts';
import { acknowledge } from './acknowledge.ts';

export type OutputChoice = 'voice' | 'file' | undefined;

export type Target =
  | { kind: 'voice'; player: GuildPlayer; channelId: string }
  | { kind: 'file'; because: 'asked' | 'no-voice' };

const channel = (id: string) => `<#${id}>`;
const seconds = (s: number) => s.toFixed(1);

/**
 * Where the audio goes. A caller outside voice gets a file (unless they insisted on voice). The bot never
 * leaves a channel where it is speaking to others: a caller elsewhere is told where it is instead.
 */
export function chooseTarget(
  interaction: ChatInputCommandInteraction<'cached'>,
  output: OutputChoice,
  context: CommandContext,
): Target {
  if (output === 'file') return { kind: 'file', because: 'asked' };
  const voiceChannel = interaction.member.voice.channel;
  if (!voiceChannel) {
    if (output === 'voice') throw new UserError('error.voice.notInVoice');
    return { kind: 'file', because: 'no-voice' };
  }
  const channelId = voiceChannel.id;
  // Checked up front: joining a channel we may not use would only time out, much later.
  const me = interaction.guild.members.me;
  const canSpeak = me === null || voiceChannel.permissionsFor(me).has(PermissionFlagsBits.Speak);
  if (!voiceChannel.joinable || !canSpeak) throw new UserError('error.voice.joinFailed', { channel: channel(channelId) });
  const player = context.players.get(interaction.guildId, interaction.guild.voiceAdapterCreator);
  const current = player.channelId;
  if (current !== undefined && current !== channelId && player.busy) {
    throw new UserError('error.voice.busyElsewhere', { channel: channel(current) });
  }
  return { kind: 'voice', player, channelId };
}

/**
 * The one path from a resolved request to the caller: plays it in their voice channel while it streams in, or
 * posts it as audio files. Used by every speaking command, so they all behave alike.
 */
export async function deliverSpeech(
  interaction: ChatInputCommandInteraction<'cached'>,
  request: SpeechRequest,
  output: OutputChoice,
  context: CommandContext,
  /** How replies name the voice, e.g. with why it was chosen (speech-settings.ts); default: its ID. */
  voiceLabel = `\`${request.voice}\``,
): Promise<void> {
  const parts = context.speech.parts(request);
  if (parts.length === 0) throw new UserError('error.input.emptyText');
  const target = chooseTarget(interaction, output, context);
  // The month and the budgets are checked before anything is sent; cached parts cost nothing.
  const charge = await context.accounting.authorize(spendContext(interaction), context.audio.needs(request, parts));
  try {
    await acknowledge(interaction);
    await deliverTo(interaction, target, request, context, voiceLabel, charge);
  } finally {
    charge.close();
  }
}

/** Who a command's spends are recorded under. */
export function spendContext(interaction: ChatInputCommandInteraction<'cached'>) {
  return { guildId: interaction.guildId, userId: interaction.user.id, command: interaction.commandName };
}

/** The second half of deliverSpeech, for commands that must do slow work between choosing and speaking (/clone). */
export async function deliverTo(
  interaction: ChatInputCommandInteraction<'cached'>,
  target: Target,
  request: SpeechRequest,
  context: CommandContext,
  voice: string,
  charge: Charge,
): Promise<void> {
  if (target.kind === 'file') {
    const spoken = await context.speech.renderFiles(request, undefined, charge);
    const files: AttachmentPayload[] = spoken.parts.map((part, index) => ({
      attachment: part.data,
      name: `saybot-${request.voice}${spoken.parts.length > 1 ? `-${index + 1}` : ''}.${part.format}`,
    }));
    const format = [...new Set(spoken.parts.map((p) => p.format))].join('+');
    const key = target.because === 'asked' ? 'say.file' : 'say.fileBecauseNoVoice';
    try {
      await showResult(interaction, key, { voice, seconds: seconds(spoken.seconds), format }, files);
    } catch (error) {
      if (error instanceof DiscordAPIError) throw new UserError('error.discord.uploadFailed');
      throw error;
    }
    return;
  }

  await target.player.connect(target.channelId);
  const playback = context.speech.play(request, target.player, `${interaction.commandName}:${interaction.id}`, charge);
  const metrics = context.metrics;
  // From the member's command as Discord stamped it (what they wait through) to its first frame going out.
  if (metrics) void playback.firstAudio.then(() => metrics.timeToFirstAudio(Math.max(0, Date.now() - interaction.createdTimestamp) / 1000));
  const where = channel(target.channelId);
  if (playback.ahead > 0) await showResult(interaction, 'say.queued', { voice, count: playback.parts, ahead: playback.ahead });
  else await showResult(interaction, 'say.speaking', { voice, channel: where });

  const result = await playback.done;
  if (result.status === 'played') {
    await showResult(interaction, 'say.spoke', { voice, channel: where, seconds: seconds(result.seconds) });
  } else if (result.status === 'skipped') {
    await showResult(interaction, 'say.skipped', { voice, seconds: seconds(result.seconds) });
  } else if (result.status === 'stopped') {
    await showResult(interaction, 'say.stopped', { voice });
  } else if (result.status === 'cut-off') {
    // The connection went away (kicked, channel deleted, voice server gone): not a /stop, so do not say "Stopped".
    await showResult(interaction, 'say.cutOff', { voice, channel: where, seconds: seconds(result.seconds) });
  } else if (result.seconds > 0) {
    // Part of it was heard: say so, with the cause in the caller's language.
    const cause = describeFailure(result.error).message;
    throw new UserError(
      'error.voice.streamFailed',
      { detail: t(interaction.locale, cause.key, cause.params) },
      { cause: result.error, level: 'warn' },
    );
  } else {
    throw result.error;
  }
}
