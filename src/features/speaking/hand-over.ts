// A member's order, made and handed over: where its audio goes (their voice channel, a file or a voice message, by
// the `output` option, voice presence and defaults), what it does there for the gate (placeOf, effectsAt), who asked
// (requesterOf), and the one call of the pipeline's speak() (test/structure/one-way-to-speak.test.ts). Where SayBot
// or the member may not speak, it is refused at once, before anything is paid; no front-end checks a right itself.
import type { DiscordGatewayAdapterCreator } from '@discordjs/voice';
import type { BaseInteraction, ButtonInteraction } from 'discord.js';
import { receivedAtEpochMs } from '../../core/interactions/acknowledge.ts';
import type { AnsweredInteraction, ChannelReading, CommandContext } from '../../core/interactions/command.ts';
import { UserError } from '../../core/interactions/failures.ts';
import { requireManager } from '../../core/interactions/preconditions.ts';
import {
  MEMBER_REQUEST,
  type OrderEvents,
  type Requester,
  type SpeechOrder,
  type SpeechPipeline,
  type SpeechTarget,
} from '../../core/order/pipeline.ts';
import type { Revocation, RightsAnswered } from '../../core/order/rights.ts';
import type { ChoiceSetting } from '../../core/settings/setting-types.ts';
import type { OutputDefaults, OutsideVoiceOutput } from '../../core/store/output-defaults-store.ts';
import type { PlayerRegistry } from '../../core/voice/guild-player.ts';
import type { Effect, Effects, Place } from './gate-types.ts';
import './strings.ts';
import { claimMemberVoiceMessage, type MemberVoiceMessageBar } from './voice-message-rights.ts';

/** The `output` option: where the member wants the audio (absent: their voice channel, else their default). */
export type OutputChoice = 'voice' | 'file' | 'voice-message' | undefined;

/** Where a command's audio goes, and why a file or a voice message when it is one (the reply says so). */
export type ChosenTarget =
  | { kind: 'voice'; channelId: string; adapterCreator: DiscordGatewayAdapterCreator }
  | { kind: 'file'; because: 'asked' | 'no-voice' }
  /** `bar`: the member may not post it in this channel (rights, slowmode): the audio goes to them privately. */
  | { kind: 'voice-message'; because: 'asked' | 'no-voice'; bar?: MemberVoiceMessageBar };

/** A slash command or the Speak menu, in a server: what the front-end needs of either. */
export type SpeakingInteraction = AnsweredInteraction<'cached'>;

const channel = (id: string) => `<#${id}>`;

/** The order's rights as the core asks them (src/core/order/rights.ts), for what is asked before an order. */
type Rights = Pick<SpeechPipeline, 'rights'>;

/** The rights' word before a command's order is built (/clone's download): thrown, or whether the answer is private. */
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
 * The member's voice channel, if the rights let SayBot speak there for them (refused at once rather than timing out
 * later), and SayBot is not speaking to others elsewhere (it never leaves them for a caller).
 */
export function memberVoiceChannel(
  interaction: MemberPlace,
  { players, speech }: { players: PlayerRegistry; speech: Rights },
  /** Auto-read, when the server may be read aloud: it keeps SayBot in the channel it reads into. */
  reading?: ChannelReading,
  /** `managersMove`: Manage Server may move it (/join). `joinOnly`: joins but says nothing, no member voice rights. */
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

/** Outside voice without `output`: their default, the server's, else `builtin` (a file; Speak menu: voice message). */
export function outsideVoiceOutput(defaults: OutputDefaults, builtin: OutsideVoiceOutput): OutsideVoiceOutput {
  return defaults.member ?? defaults.server ?? builtin;
}

/** Where the audio goes: `output`, else their voice channel, else defaults (the store read only in that last case). */
export async function chooseTarget(
  interaction: SpeakingInteraction,
  output: OutputChoice,
  context: Pick<CommandContext, 'players' | 'speech' | 'store' | 'reading'>,
  builtin: OutsideVoiceOutput = 'file',
): Promise<ChosenTarget> {
  const where = await chooseDestination(interaction, output, context, builtin);
  if (where.kind !== 'voice-message') return where;
  // The member's bar to posting it here, if any, checked now: before anything is paid.
  const bar = claimMemberVoiceMessage(interaction, context.speech.rights);
  return bar === undefined ? where : { ...where, bar };
}

/** chooseTarget without taking the slowmode turn: for what posts nothing yet (a scene's preview). */
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

/** The member's own voice rights where it plays, for an order built elsewhere (src/app/dashboard-bot.ts). */
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
  if (target.kind === 'voice') return target;
  if (target.kind === 'file') return sizeLimit === undefined ? { kind: 'file' } : { kind: 'file', sizeLimit };
  return { kind: target.kind };
}

/** Where a member asks, for the voice checks: a command, a reply's button, or the dashboard's studio. */
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

/** The output default outside voice (/output), declared with the settings kit; `reset` falls back a layer. */
export const OUTSIDE_VOICE: ChoiceSetting<OutsideVoiceOutput> = {
  kind: 'choice',
  values: ['voice-message', 'file'],
  none: 'reset',
  column: 'output',
  option: 'outside_voice',
  words: { 'voice-message': 'choice.output.voice-message', file: 'choice.output.file' },
  shown: { as: 'choice' },
};

/** A front-end's order: the pipeline's, with its effects in Discord (required: no order speaks without). */
export type DeclaredOrder = SpeechOrder & { effects: Effects };

/**
 * Hands `order` to the pipeline: its acceptance, first frame and one outcome for the front-end to word; whether its
 * answer is the member's alone, and the same asked again before its post.
 */
export function handOver(speech: Pick<SpeechPipeline, 'speak'>, order: DeclaredOrder): OrderEvents & RightsAnswered {
  return speech.speak(order);
}

/** The member behind an interaction: `command` records the spends, `guildId` the budget (pseudo-guild outside one). */
export function requesterOf(
  interaction: BaseInteraction,
  command: string,
  guildId: string | null = interaction.guildId,
): Requester {
  if (guildId === null) throw new Error('a requester outside a server needs the guild its budget counts against');
  return {
    guildId,
    userId: interaction.user.id,
    command,
    policy: MEMBER_REQUEST,
    id: interaction.id,
    // This host's clock at receipt: the ID's time is Discord's clock, and the two may be minutes apart.
    askedAt: receivedAtEpochMs(interaction),
  };
}
