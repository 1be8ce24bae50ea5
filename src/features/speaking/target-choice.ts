// Where a member asks and where their audio goes (one job: choosing the target, before anything is paid): the place
// the gate reads (placeOf) and what an order does there (effectsAt), built once here for every front-end that speaks
// for a member (a command, a menu, a reply's button, a scene); and the target: their voice channel, a file or
// a voice message, by the command's `output` option, whether they are in voice, and their own and the server's
// defaults; refused at once where the member or SayBot may not speak (the rights asked through the core:
// src/core/order/rights-asker.ts). Answering the member is the answering modules' (outcome-words.ts, reply-answer.ts,
// voice-message-reply.ts); a command's whole path, from this choice to its answer, is speaking-command.ts.
import type { DiscordGatewayAdapterCreator } from '@discordjs/voice';
import type { SpeechPipeline, SpeechTarget } from '../../core/order/pipeline.ts';
import type { Revocation } from '../../core/order/revocation.ts';
import type { OutputDefaults, OutsideVoiceOutput } from '../../core/store/output-defaults-store.ts';
import type { PlayerRegistry } from '../../core/voice/player-registry.ts';
import type { ButtonInteraction } from 'discord.js';
import type { AnsweredInteraction, ChannelReading, CommandContext } from '../../core/interactions/command.ts';
import { UserError } from '../../core/interactions/failures.ts';
import { requireManager } from '../../core/interactions/preconditions.ts';
import './strings.ts';
import { claimMemberVoiceMessage, type MemberVoiceMessageBar } from './voice-message-rights.ts';
import type { Effect, Effects, Place } from './gate-types.ts';

/** The `output` option: where the member wants the audio (absent: their voice channel, else their default). */
export type OutputChoice = 'voice' | 'file' | 'voice-message' | undefined;

/** Where a command's audio goes, and why a file or a voice message when it is one (the reply says so). */
export type ChosenTarget =
  | { kind: 'voice'; channelId: string; adapterCreator: DiscordGatewayAdapterCreator }
  | { kind: 'file'; because: 'asked' | 'no-voice' }
  /** `bar`: the member may not post it in this channel (rights, slowmode): the audio goes to them privately. */
  | { kind: 'voice-message'; because: 'asked' | 'no-voice'; bar?: MemberVoiceMessageBar };

/** A slash command or the Speak menu, in a server: what the front-end needs of either. */
type SpeakingInteraction = AnsweredInteraction<'cached'>;

const channel = (id: string) => `<#${id}>`;

/** The order's rights as the core asks them (src/core/order/rights-asker.ts), for what is asked before an order. */
type Rights = Pick<SpeechPipeline, 'rights'>;

/**
 * The rights' word on a command's order before it is built, for a command that must acknowledge early (/clone's
 * download): refused (thrown), or whether its answer must be the member's alone. The core asks again as it takes it.
 */
export function admitted(
  interaction: SpeakingInteraction,
  speech: Rights,
  target: ChosenTarget,
): { privately: boolean } {
  return speech.rights.requireAdmitted(
    effectsAt(placeOf(interaction, target.kind === 'voice' ? target.channelId : undefined), target),
  );
}

/**
 * The member's voice channel, if the rights let SayBot speak there for them (asked through the core, answered by
 * the gate: refused at once when the member may not speak there themselves, when SayBot may not, which would only
 * time out much later), and SayBot is not speaking to others elsewhere (it never leaves them for a caller).
 */
export function memberVoiceChannel(
  interaction: MemberPlace,
  { players, speech }: { players: PlayerRegistry; speech: Rights },
  /** Auto-read, when the server may be read aloud: it keeps SayBot in the channel it reads into. */
  reading?: ChannelReading,
  /**
   * `managersMove`: a member with Manage Server may move it there all the same (/join). `joinOnly`: SayBot joins
   * but says nothing for the member (/join, /autoread start), so the member's own voice rights are not asked.
   */
  options: { managersMove?: boolean; joinOnly?: boolean } = {},
): Extract<ChosenTarget, { kind: 'voice' }> {
  const voiceChannel = interaction.member.voice.channel;
  if (!voiceChannel) throw new UserError('error.voice.notInVoice');
  const channelId = voiceChannel.id;
  const read = reading?.readingIn(interaction.guildId);
  if (read !== undefined && read.voiceChannelId !== channelId) {
    const where = { channel: channel(read.textChannelId), voice: channel(read.voiceChannelId) };
    if (options.managersMove === true) requireManager(interaction, 'autoread.guard.move', where);
    else throw new UserError('autoread.guard.elsewhere', where);
  }
  const at = placeOf(interaction, channelId);
  speech.rights.requireAdmitted(
    options.joinOnly === true ? { does: ['join-voice'], at } : effectsAt(at, { kind: 'voice' }),
  );
  const player = players.find(interaction.guildId);
  const current = player?.channelId;
  if (player && current !== undefined && current !== channelId && player.busy) {
    throw new UserError('error.voice.busyElsewhere', { channel: channel(current) });
  }
  return { kind: 'voice', channelId, adapterCreator: interaction.guild.voiceAdapterCreator };
}

/**
 * How a member outside voice is answered when the command does not say: their own default, else the server's,
 * else `builtin` (a file for the slash commands, as always; a voice message for the Speak menu).
 */
export function outsideVoiceOutput(defaults: OutputDefaults, builtin: OutsideVoiceOutput): OutsideVoiceOutput {
  return defaults.member ?? defaults.server ?? builtin;
}

/**
 * Where the audio goes: the command's `output` option first; without it, the member's voice channel when they are
 * in one, else the member's default, the server's, then `builtin`. The store is read only in that last case.
 */
export async function chooseTarget(
  interaction: SpeakingInteraction,
  output: OutputChoice,
  context: Pick<CommandContext, 'players' | 'speech' | 'store' | 'reading'>,
  builtin: OutsideVoiceOutput = 'file',
): Promise<ChosenTarget> {
  const where = await chooseDestination(interaction, output, context, builtin);
  return where.kind === 'voice-message' ? voiceMessageTarget(interaction, context.speech, where.because) : where;
}

/**
 * Where the audio would go, by chooseTarget's rule, without taking the member's slowmode turn for a voice message:
 * for what posts nothing yet (a scene's preview), the turn being taken when it is posted.
 */
export async function chooseDestination(
  interaction: SpeakingInteraction,
  output: OutputChoice,
  context: Pick<CommandContext, 'players' | 'speech' | 'store' | 'reading'>,
  builtin: OutsideVoiceOutput = 'file',
): Promise<
  Extract<ChosenTarget, { kind: 'voice' }> | { kind: 'file' | 'voice-message'; because: 'asked' | 'no-voice' }
> {
  if (output === 'file' || output === 'voice-message') return { kind: output, because: 'asked' };
  if (output === 'voice' || interaction.member.voice.channel)
    return memberVoiceChannel(interaction, context, context.reading);
  const defaults = await context.store.outputDefaults.get(interaction.guildId, interaction.user.id);
  return { kind: outsideVoiceOutput(defaults, builtin), because: 'no-voice' };
}

/** A voice message, with the member's bar to posting it here, if any (checked now, before anything is paid). */
function voiceMessageTarget(
  interaction: SpeakingInteraction,
  speech: Rights,
  because: 'asked' | 'no-voice',
): ChosenTarget {
  const bar = claimMemberVoiceMessage(interaction, speech.rights);
  return bar === undefined ? { kind: 'voice-message', because } : { kind: 'voice-message', because, bar };
}

/**
 * The member's own voice rights where their speech plays, as the core asks them again before each part (for an
 * order built elsewhere, the dashboard's studio: src/app/dashboard-bot.ts).
 */
export function memberStillSpeaks(
  speech: Rights,
  interaction: MemberPlace,
  channelId: string,
): () => Revocation | undefined {
  const effects = effectsAt(placeOf(interaction, channelId), { kind: 'voice' });
  return () => speech.rights.stillAllows(effects);
}

/** A file carries Discord's upload limit for this interaction (`attachment_size_limit`), when Discord sent one. */
export function speechTarget(target: ChosenTarget, sizeLimit: number | undefined): SpeechTarget {
  if (target.kind === 'voice')
    return { kind: 'voice', channelId: target.channelId, adapterCreator: target.adapterCreator };
  if (target.kind === 'file') return sizeLimit === undefined ? { kind: 'file' } : { kind: 'file', sizeLimit };
  return { kind: target.kind };
}

/**
 * What the voice checks read of where a member asks: a command, a reply's button ("Play in my voice channel"), or the
 * dashboard's studio (the server, the member fetched afresh, and their permissions, all SayBot's own view).
 */
export type MemberPlace = Pick<
  ButtonInteraction<'cached'>,
  'guildId' | 'guild' | 'member' | 'user' | 'memberPermissions'
>;

/** Where a member asks, for the gate: their rights in the interaction's channel and, when given, their voice channel. */
export function placeOf(
  interaction: MemberPlace & Partial<Pick<AnsweredInteraction<'cached'>, 'channel' | 'appPermissions'>>,
  voiceChannelId?: string,
): Place {
  return {
    guild: interaction.guild,
    memberId: interaction.user.id,
    member: interaction.member,
    text: {
      thread: interaction.channel?.isThread() ?? false,
      channelId: interaction.channel?.id,
      member: interaction.memberPermissions,
      bot: interaction.appPermissions ?? null,
    },
    voiceChannelId,
  };
}

/** An order's effects where a member asks, by where its audio goes: always words of the member's own choosing. */
export function effectsAt(place: Place, target: { kind: 'voice' | 'file' | 'voice-message' }): Effects {
  const does: Effect[] =
    target.kind === 'voice'
      ? ['speak-in-voice', 'member-words']
      : [target.kind === 'file' ? 'attach-file' : 'post-voice-message', 'member-words'];
  return { does, at: place };
}
