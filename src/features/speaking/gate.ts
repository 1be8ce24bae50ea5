// The one gate for rights (test/structure/one-gate.test.ts): an order states its effects, and this module alone turns
// them into the rights the member and SayBot need there and reads them: SayBot never does for a member what they
// could not. It answers the core's rights port (gatePort): judge, recheck before each part, mustPostPrivately, each
// asked in one place (rightsPort).
import {
  ChannelType,
  PermissionFlagsBits,
  type Guild,
  type GuildMember,
  type PermissionsBitField,
  type VoiceBasedChannel,
  type VoiceState,
} from 'discord.js';
import { UnmetError, type MemberVoiceRight } from '../../core/interactions/preconditions.ts';
import { UserError } from '../../core/interactions/failures.ts';
import { helperOf, seatWords } from './seat-words.ts';
import type { OrderRights, Revocation, RightsVerdict } from '../../core/order/rights.ts';
import type { Effect, Effects, Place } from './gate-types.ts';
import './strings.ts';

/** A right of the member's where the order has its effect. */
export type MemberRight =
  | 'view-channel'
  | 'send-messages'
  | 'attach-files'
  | 'send-voice-messages'
  | 'in-the-channel'
  | 'view-voice-channel'
  | 'connect'
  | 'speak'
  | 'not-server-muted'
  | 'not-stage-listener'
  | 'not-timed-out'
  | 'create-expressions';

/** A right SayBot itself needs there. */
export type BotRight =
  'attach-files' | 'connect' | 'speak' | 'not-server-muted' | 'stage-speaker' | 'create-expressions';

/**
 * Effect -> rights: the one table. Text rights are read where the order posts, voice rights where it speaks. Discord
 * takes Connect and Speak from whoever may not view a voice channel though the bits stay set, so View Channel is
 * asked on its own. A missing post right is answered privately; a missing voice right, or a timeout, refuses.
 */
export const EFFECT_RIGHTS: Readonly<Record<Effect, { member: readonly MemberRight[]; bot: readonly BotRight[] }>> = {
  post: { member: ['not-timed-out', 'view-channel', 'send-messages'], bot: [] },
  'attach-file': { member: ['not-timed-out', 'view-channel', 'send-messages', 'attach-files'], bot: ['attach-files'] },
  'post-voice-message': {
    member: ['not-timed-out', 'view-channel', 'send-messages', 'attach-files', 'send-voice-messages'],
    bot: ['attach-files'],
  },
  'speak-in-voice': {
    member: [
      'not-timed-out',
      'in-the-channel',
      'view-voice-channel',
      'connect',
      'not-server-muted',
      'not-stage-listener',
      'speak',
    ],
    bot: ['connect', 'speak', 'not-server-muted', 'stage-speaker'],
  },
  'member-words': {
    member: ['not-timed-out', 'not-server-muted', 'not-stage-listener', 'view-voice-channel', 'speak'],
    bot: ['not-server-muted', 'stage-speaker'],
  },
  'join-voice': { member: [], bot: ['connect', 'speak'] },
  'save-sound': { member: ['create-expressions'], bot: ['create-expressions'] },
};

/** The rights `effects` need, each once, in the table's order. */
export function rightsFor(effects: readonly Effect[]): { member: MemberRight[]; bot: BotRight[] } {
  const member = new Set<MemberRight>();
  const bot = new Set<BotRight>();
  for (const effect of effects) {
    for (const right of EFFECT_RIGHTS[effect].member) member.add(right);
    for (const right of EFFECT_RIGHTS[effect].bot) bot.add(right);
  }
  return { member: [...member], bot: [...bot] };
}

/** The text rights and their bits (in a thread, Send Messages is Send Messages in Threads). */
const TEXT_FLAGS: Partial<Record<MemberRight, bigint>> = {
  'view-channel': PermissionFlagsBits.ViewChannel,
  'send-messages': PermissionFlagsBits.SendMessages,
  'attach-files': PermissionFlagsBits.AttachFiles,
  'send-voice-messages': PermissionFlagsBits.SendVoiceMessages,
};

/** Whether an order with these effects may be accepted, and whether its post must be private. Reads caches only. */
function judge(effects: Effects): RightsVerdict {
  const place = effects.at;
  if (place === null) return { kind: 'allowed', privately: false };
  const { member: memberRights, bot: botRights } = rightsFor(effects.does);
  const speaks = place.voiceChannelId !== undefined;
  let privately = false;
  for (const right of memberRights) {
    const thread = right === 'send-messages' && place.text?.thread === true;
    const flag = thread ? PermissionFlagsBits.SendMessagesInThreads : TEXT_FLAGS[right];
    if (flag !== undefined) {
      if (!memberMayInText(place, flag)) privately = true;
      continue;
    }
    if (right === 'create-expressions') {
      if (place.text?.member?.has(PermissionFlagsBits.CreateGuildExpressions) === false)
        return { kind: 'refused', error: new UserError('sound.memberPermission') };
      continue;
    }
    const unmet = unmetVoiceRight(place, right, speaks);
    if (unmet !== undefined) return { kind: 'refused', error: unmetError(unmet, place) };
  }
  for (const right of botRights) {
    if (!botLacks(place, right)) continue;
    // Outside a server the answer is the only place the audio can go: without Attach Files there is none.
    if (right === 'attach-files' && place.outsideServer === true)
      return { kind: 'refused', error: new UserError('userInstall.noAttachFiles') };
    if (right === 'attach-files') privately = true;
    else return { kind: 'refused', error: botError(place, right) };
  }
  const { author } = effects;
  if (author === undefined) return { kind: 'allowed', privately };
  // Why the author's words are not spoken, to the member who asked: the author named (never pinged), and where.
  const member = `<@${author.memberId}>`;
  if (authorLeft(effects)) return { kind: 'refused', error: new UserError('error.voice.authorLeft', { member }) };
  if (authorBar(effects) === undefined) return { kind: 'allowed', privately };
  const channel = `<#${place.voiceChannelId ?? ''}>`;
  return { kind: 'refused', error: new UserError('error.voice.authorMayNotSpeak', { member, channel }) };
}

/** The right the words' author (not the asker) lacks where they would be spoken; undefined when they may or unknown. */
function authorBar(effects: Effects): MemberVoiceRight | undefined {
  const place = effects.at;
  const author = effects.author;
  if (place === null || author === undefined || author.memberId === place.memberId) return undefined;
  if (!effects.does.includes('member-words')) return undefined;
  const theirs: Place = { ...place, memberId: author.memberId, member: author.member };
  for (const right of EFFECT_RIGHTS['member-words'].member) {
    const unmet = unmetVoiceRight(theirs, right, place.voiceChannelId !== undefined);
    if (unmet !== undefined && unmet !== 'no-channel') return unmet;
  }
  return undefined;
}

/** The words' author is no longer a member (left, kicked, banned): their words are not said for anyone. */
function authorLeft(effects: Effects): boolean {
  const author = effects.author;
  return (
    effects.at !== null &&
    author?.left === true &&
    author.memberId !== effects.at.memberId &&
    effects.does.includes('member-words')
  );
}

/**
 * Asked again before each part is fetched and plays: the member's voice rights there (posts are already made). `now`:
 * the channel it plays in now, where a moderator dragged the bot; the member still needs to be in the one they asked in.
 */
function recheck(effects: Effects, now?: string): Revocation | undefined {
  const asked = effects.at;
  if (asked === null || asked.voiceChannelId === undefined) return undefined;
  const place = { ...asked, voiceChannelId: now ?? asked.voiceChannelId };
  const channelId = place.voiceChannelId;
  for (const right of rightsFor(effects.does).member) {
    if (TEXT_FLAGS[right] !== undefined || right === 'create-expressions') continue;
    const unmet = unmetVoiceRight(right === 'in-the-channel' ? asked : place, right, true);
    // The channel gone: the voice side ends what it was playing there.
    if (unmet !== undefined && unmet !== 'no-channel') return { code: unmet, channelId };
  }
  // The author of the words muted or denied Speak meanwhile: the rest of their words are not said either.
  const author = authorBar({ ...effects, at: place });
  if (author !== undefined) return { code: author, channelId };
  // SayBot itself where nobody hears it: server-muted, or in a Stage's audience and unable to become a speaker.
  const me = seatOf(place)?.members.me;
  const channel = voiceChannelOf(place, seatOf(place));
  if (me?.voice.channelId !== channelId || channel === undefined) return undefined;
  const unheard = me.voice.serverMute === true || (me.voice.suppress === true && !maySpeakOnStage(me, channel));
  return unheard ? { code: 'bot-unheard', channelId, helperId: helperOf(seatOf(place), place.guild) } : undefined;
}

/** Asked right before a post: must it now be the member's alone, by the caches now? Paid audio is still delivered. */
function mustPostPrivately(effects: Effects): boolean {
  const place = effects.at;
  if (place === null || place.text === undefined) return false;
  const verdict = judge({
    does: effects.does,
    at: { ...place, text: { ...place.text, member: textRightsNow(place) } },
  });
  return verdict.kind === 'refused' || verdict.privately;
}

/** The member's rights in the order's text channel now, from the caches; else as the interaction had them. */
function textRightsNow(place: Place): Readonly<PermissionsBitField> | null | undefined {
  const sent = place.text?.member;
  const channelId = place.text?.channelId;
  const member = memberOf(place);
  if (sent === undefined || channelId === undefined || member === undefined) return sent;
  const channel = place.guild?.channels.cache.get(channelId);
  if (channel === undefined || !('permissionsFor' in channel)) return sent;
  return channel.permissionsFor(member);
}

/** Whether the member's own state in a voice channel they just left (server-muted) barred their words there. */
export function leftBarred(left: VoiceState): boolean {
  return left.serverMute === true;
}

/** The member's rights in the interaction's channel, as Discord computed them (overwrites and timeout applied). */
function memberMayInText(place: Place, flag: bigint): boolean {
  // Absent: none to ask (a DM, the user's own conversation); null: none sent, so none assumed.
  const rights = place.text?.member;
  return rights === undefined || (rights !== null && rights.has(flag));
}

/** The member as the caches have them now (Discord's events keep them current), else as the interaction had them. */
function memberOf(place: Place): GuildMember | undefined {
  return place.guild?.members.cache.get(place.memberId) ?? place.member ?? undefined;
}

/** The server as the bot that speaks holds it: a helper's rights are its own. */
function seatOf(place: Place): Guild | null {
  return place.seatGuild ?? place.guild;
}

/** The voice channel as `guild` (the main bot's, or the seat's) holds it. */
function voiceChannelOf(place: Place, guild: Guild | null = place.guild): VoiceBasedChannel | undefined {
  if (place.voiceChannelId === undefined) return undefined;
  const channel = guild?.channels.cache.get(place.voiceChannelId);
  return channel?.isVoiceBased() ? channel : undefined;
}

/** Which voice right the member lacks; `no-channel`: the voice channel is not (or no longer) known. */
function unmetVoiceRight(
  place: Place,
  right: MemberRight,
  speaks: boolean,
): MemberVoiceRight | 'no-channel' | undefined {
  const member = memberOf(place);
  if (right === 'not-timed-out') return member?.isCommunicationDisabled() === true ? 'timed-out' : undefined;
  if (!speaks || member === undefined) return undefined;
  const channel = voiceChannelOf(place);
  if (right === 'in-the-channel')
    return member.voice.channelId === (channel?.id ?? place.voiceChannelId) ? undefined : 'not-in-voice';
  if (right === 'not-server-muted') return member.voice.serverMute === true ? 'muted' : undefined;
  if (right === 'not-stage-listener')
    return member.voice.channelId === place.voiceChannelId && member.voice.suppress === true ? 'suppressed' : undefined;
  if (channel === undefined) return 'no-channel';
  if (right === 'view-voice-channel')
    return channel.permissionsFor(member).has(PermissionFlagsBits.ViewChannel) ? undefined : 'may-not-view';
  if (right === 'connect')
    return channel.permissionsFor(member).has(PermissionFlagsBits.Connect) ? undefined : 'may-not-connect';
  return channel.permissionsFor(member).has(PermissionFlagsBits.Speak) ? undefined : 'may-not-speak';
}

function unmetError(unmet: MemberVoiceRight | 'no-channel', place: Place): Error {
  if (unmet === 'not-in-voice' || unmet === 'no-channel') return new UnmetError({ code: 'not-in-voice' });
  if (unmet === 'timed-out') return new UnmetError({ code: 'timed-out' });
  return new UnmetError({ code: unmet, channelId: place.voiceChannelId ?? '' });
}

/** Whether SayBot lacks `right` where the order has its effect. */
function botLacks(place: Place, right: BotRight): boolean {
  if (right === 'attach-files') {
    const app = place.text?.bot;
    return app !== undefined && app !== null && !app.has(PermissionFlagsBits.AttachFiles);
  }
  if (right === 'create-expressions') {
    const me = place.guild?.members.me ?? null;
    return me !== null && !me.permissions.has(PermissionFlagsBits.CreateGuildExpressions);
  }
  // In voice, the rights of the bot that speaks there: the seat's.
  const me = seatOf(place)?.members.me ?? null;
  const channel = voiceChannelOf(place, seatOf(place));
  if (me === null || channel === undefined) return false;
  if (right === 'connect') return !channel.joinable;
  if (right === 'speak') return !channel.permissionsFor(me).has(PermissionFlagsBits.Speak);
  // A server mute follows SayBot from channel to channel, as Discord keeps it.
  if (right === 'not-server-muted') return me.voice.serverMute === true;
  return !maySpeakOnStage(me, channel);
}

function botError(place: Place, right: BotRight): Error {
  if (right === 'create-expressions') return new UserError('sound.botPermission');
  const channel = { channel: `<#${place.voiceChannelId ?? ''}>` };
  const key = right === 'stage-speaker' ? 'error.voice.botStageAudience' : 'error.voice.joinFailed';
  const helper = helperOf(seatOf(place), place.guild);
  const words = seatWords(right === 'not-server-muted' ? 'error.voice.botMuted' : key, channel, helper);
  return new UserError(words.key, words.params);
}

/**
 * Whether SayBot's audio would be heard: anywhere but a Stage; on a Stage when it speaks already or may make itself
 * a speaker (Mute Members). Otherwise it would join the audience, whose audio Discord forwards to nobody.
 */
function maySpeakOnStage(me: GuildMember, voiceChannel: VoiceBasedChannel): boolean {
  if (voiceChannel.type !== ChannelType.GuildStageVoice) return true;
  if (me.voice.channelId === voiceChannel.id && me.voice.suppress === false) return true;
  return voiceChannel.permissionsFor(me).has(PermissionFlagsBits.MuteMembers);
}

/** Whether SayBot itself may post a voice message where `rights` are its own (a thread: Send Messages in Threads). */
export function botMayPostVoiceMessage(rights: Readonly<PermissionsBitField> | null, thread: boolean): boolean {
  const { ViewChannel, SendMessages, SendMessagesInThreads, AttachFiles, SendVoiceMessages } = PermissionFlagsBits;
  const post = thread ? SendMessagesInThreads : SendMessages;
  return rights === null || rights.has([ViewChannel, post, AttachFiles, SendVoiceMessages]);
}

/** The three questions an order asks, each of its effects; each reads what is known now and never waits. */
export interface RightsQuestions {
  /** May an order with these effects be accepted, and must its answer be the member's alone? */
  mayAccept(effects: Effects): RightsVerdict;
  /** May its next part be fetched or played now? A Revocation when what was accepted may no longer be said. */
  mayPlay(effects: Effects, voiceChannelId?: string): Revocation | undefined;
  /** Right before its file or voice message is posted: publicly, or only to the member who asked? */
  mayPost(effects: Effects): 'publicly' | 'privately';
}

/** The core's rights port (src/core/order/rights.ts) asking `questions`: the one place they are asked. */
export function rightsPort(questions: RightsQuestions): OrderRights {
  const requireAllowed = (effects: Effects) => {
    const verdict = questions.mayAccept(effects);
    if (verdict.kind === 'refused') throw verdict.error;
    return verdict;
  };
  return {
    allows: (effects) => questions.mayAccept(effects),
    requireAllowed,
    stillAllows: (effects) => questions.mayPlay(effects),
    allow(order) {
      const { effects } = order;
      if (effects === undefined) return { kind: 'allowed', order, privately: false, postsPrivately: () => false };
      const verdict = questions.mayAccept(effects);
      if (verdict.kind === 'refused') return verdict;
      // Held to the gate before each part, ahead of what the order is held to besides (auto-read's ignore list).
      const more = order.stillAllowed;
      return {
        kind: 'allowed',
        order: { ...order, stillAllowed: (now) => questions.mayPlay(effects, now) ?? more?.(now) },
        privately: verdict.privately,
        postsPrivately: () => questions.mayPost(effects) === 'privately',
      };
    },
  };
}

/**
 * The gate as the core's rights port, given to the pipeline by src/app/start-saybot.ts; and its word on a seat's bot
 * (Seats' mayJoin): may it connect and speak in that channel, a join's rights asked of the seat's own server.
 */
export const gatePort: OrderRights & { mayJoin: (seatGuild: Guild, voiceChannelId: string) => boolean } = {
  ...rightsPort({
    mayAccept: (effects) => judge(effects),
    mayPlay: (effects, now) => recheck(effects, now),
    mayPost: (effects) => (mustPostPrivately(effects) ? 'privately' : 'publicly'),
  }),
  mayJoin: (guild, voiceChannelId) =>
    judge({ does: ['join-voice'], at: { guild, memberId: '', voiceChannelId } }).kind === 'allowed',
};
