import { DiscordAPIError, PermissionFlagsBits, type AttachmentPayload, type ChatInputCommandInteraction } from 'discord.js';
import type { DiscordGatewayAdapterCreator } from '@discordjs/voice';
import type { Requester, SpeechOrder, SpeechOutcome, SpeechRequest } from '../speech/pipeline.ts';
import type { PlayerRegistry } from '../voice/player-registry.ts';
import { acknowledge } from './acknowledge.ts';
import type { CommandContext } from './command.ts';
import { UserError, describeFailure } from './failures.ts';
import { t } from './i18n.ts';
import { showResult } from './replies.ts';

/** The `output` option: where the member wants the audio (absent: their voice channel if they are in one). */
export type OutputChoice = 'voice' | 'file' | undefined;

/** Where a command's audio goes, and why a file when it is one (the reply says so). */
export type ChosenTarget =
  | { kind: 'voice'; channelId: string; adapterCreator: DiscordGatewayAdapterCreator }
  | { kind: 'file'; because: 'asked' | 'no-voice' };

const channel = (id: string) => `<#${id}>`;
const seconds = (s: number) => s.toFixed(1);

/**
 * The member's voice channel, if the bot may speak there: refused at once when it may not (joining would only
 * time out, much later), and when the bot is speaking to others elsewhere (it never leaves them for a caller).
 */
export function memberVoiceChannel(interaction: ChatInputCommandInteraction<'cached'>, players: PlayerRegistry): Extract<ChosenTarget, { kind: 'voice' }> {
  const voiceChannel = interaction.member.voice.channel;
  if (!voiceChannel) throw new UserError('error.voice.notInVoice');
  const channelId = voiceChannel.id;
  const me = interaction.guild.members.me;
  const canSpeak = me === null || voiceChannel.permissionsFor(me).has(PermissionFlagsBits.Speak);
  if (!voiceChannel.joinable || !canSpeak) throw new UserError('error.voice.joinFailed', { channel: channel(channelId) });
  const player = players.find(interaction.guildId);
  const current = player?.channelId;
  if (player && current !== undefined && current !== channelId && player.busy) {
    throw new UserError('error.voice.busyElsewhere', { channel: channel(current) });
  }
  return { kind: 'voice', channelId, adapterCreator: interaction.guild.voiceAdapterCreator };
}

/** Where the audio goes: a caller outside voice gets a file, unless they insisted on voice. */
export function chooseTarget(interaction: ChatInputCommandInteraction<'cached'>, output: OutputChoice, players: PlayerRegistry): ChosenTarget {
  if (output === 'file') return { kind: 'file', because: 'asked' };
  if (!interaction.member.voice.channel && output !== 'voice') return { kind: 'file', because: 'no-voice' };
  return memberVoiceChannel(interaction, players);
}

/** The member behind a slash command, as the pipeline records them. */
export function requesterOf(interaction: ChatInputCommandInteraction<'cached'>): Requester {
  return {
    guildId: interaction.guildId,
    userId: interaction.user.id,
    source: interaction.commandName,
    id: interaction.id,
    askedAt: interaction.createdTimestamp,
  };
}

/** A speaking command's whole path: chooses the target, speaks through the pipeline, and answers the member. */
export async function speakForCommand(
  interaction: ChatInputCommandInteraction<'cached'>,
  context: CommandContext,
  request: SpeechRequest,
  output: OutputChoice,
  /** How replies name the voice, e.g. with why it was chosen (speech-settings.ts). */
  voiceLabel: string,
): Promise<void> {
  const target = chooseTarget(interaction, output, context.players);
  await speakAndReply(interaction, context, { request, requester: requesterOf(interaction) }, target, voiceLabel);
}

/**
 * Hands the order to the pipeline and turns what it says into the member's words. The interaction is acknowledged
 * as soon as the request is accepted, while the voice join and the first part's request are already under way.
 */
export async function speakAndReply(
  interaction: ChatInputCommandInteraction<'cached'>,
  context: CommandContext,
  order: Omit<SpeechOrder, 'target'>,
  target: ChosenTarget,
  voice: string,
): Promise<void> {
  const job = context.speech.speak({
    ...order,
    target: target.kind === 'file' ? { kind: 'file' } : { kind: 'voice', channelId: target.channelId, adapterCreator: target.adapterCreator },
  });
  const accepted = await job.accepted;
  await acknowledge(interaction);
  if (target.kind === 'voice') {
    if (accepted.ahead > 0) await showResult(interaction, 'say.queued', { voice, count: accepted.parts, ahead: accepted.ahead });
    // Said when it is true: once the first frame is out (a clip that ends before that goes straight to its result).
    else if (await Promise.race([job.firstAudio.then(() => true), job.outcome.then(() => false)])) {
      await showResult(interaction, 'say.speaking', { voice, channel: channel(target.channelId) });
    }
  }
  await showOutcome(interaction, await job.outcome, target, order.request.voice, voice);
}

async function showOutcome(interaction: ChatInputCommandInteraction<'cached'>, outcome: SpeechOutcome, target: ChosenTarget, voiceId: string, voice: string): Promise<void> {
  const where = target.kind === 'voice' ? channel(target.channelId) : '';
  switch (outcome.kind) {
    case 'files': {
      const files: AttachmentPayload[] = outcome.files.map((part, index) => ({
        attachment: part.data,
        name: `saybot-${voiceId}${outcome.files.length > 1 ? `-${index + 1}` : ''}.${part.format}`,
      }));
      const format = [...new Set(outcome.files.map((p) => p.format))].join('+');
      const key = target.kind === 'file' && target.because === 'asked' ? 'say.file' : 'say.fileBecauseNoVoice';
      try {
        await showResult(interaction, key, { voice, seconds: seconds(outcome.seconds), format }, files);
      } catch (error) {
        if (error instanceof DiscordAPIError) throw new UserError('error.discord.uploadFailed');
        throw error;
      }
      return;
    }
    case 'played':
      return showResult(interaction, 'say.spoke', { voice, channel: where, seconds: seconds(outcome.seconds) });
    case 'skipped':
      return showResult(interaction, 'say.skipped', { voice, seconds: seconds(outcome.seconds) });
    case 'stopped':
      return showResult(interaction, 'say.stopped', { voice });
    case 'cut-off':
      // The connection went away (kicked, channel deleted, voice server gone): not a /stop, so do not say "Stopped".
      return showResult(interaction, 'say.cutOff', { voice, channel: where, seconds: seconds(outcome.seconds) });
    case 'failed': {
      if (outcome.secondsHeard === 0) throw outcome.error;
      // Part of it was heard: say so, with the cause in the caller's language.
      const cause = describeFailure(outcome.error).message;
      throw new UserError('error.voice.streamFailed', { detail: t(interaction.locale, cause.key, cause.params) }, { cause: outcome.error, level: 'warn' });
    }
  }
}
