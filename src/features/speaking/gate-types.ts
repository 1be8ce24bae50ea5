// What an order does in Discord and where: the gate's input, type-only so front-ends name effects without the gate.
// Merged into the core's OrderEffects (src/core/order/rights.ts), which carries them unread to `gatePort`.
import type { Guild, GuildMember, PermissionsBitField } from 'discord.js';

declare module '../../core/order/rights.ts' {
  // oxlint-disable-next-line typescript/no-empty-object-type -- its members are the speaking effects'
  interface OrderEffects extends Effects {}
}

/**
 * One thing an order does: `post`, `attach-file`, `post-voice-message`, `speak-in-voice` (in the member's channel),
 * `member-words` (words a member chose are spoken, whoever asked), `join-voice` (joins, says nothing for the member),
 * `save-sound` (to the soundboard).
 */
export type Effect =
  'post' | 'attach-file' | 'post-voice-message' | 'speak-in-voice' | 'member-words' | 'join-voice' | 'save-sound';

/** Where an order has its effects, as SayBot sees it. */
export interface Place {
  /** The server, when SayBot is in it. */
  guild: Guild | null;
  /** Outside a server SayBot is in (the user install): the answer is the only place the audio can go. */
  outsideServer?: boolean;
  /** The member whose rights are asked: who asked, or whose words are spoken (an announcement). */
  memberId: string;
  /** The member as the interaction had them, when the cache has none. */
  member?: GuildMember | null | undefined;
  /** The text channel it posts in: the member's and SayBot's rights there, as Discord sent them with the interaction. */
  text?: {
    thread: boolean;
    /** The channel, so the gate can ask again before posting with the rights as they are then. */
    channelId?: string | undefined;
    /** Absent: none to ask (a DM, the user's own conversation); null: none sent, so none assumed. */
    member?: Readonly<PermissionsBitField> | null;
    bot: Readonly<PermissionsBitField> | null;
  };
  /** The voice channel it speaks in. */
  voiceChannelId?: string | undefined;
  /** The server as the bot that speaks there holds it (a helper's own client): its rights; absent, `guild`'s. */
  seatGuild?: Guild | undefined;
}

/** The member whose words an order speaks when it is not the member who asked (a message read by the Speak menu). */
export interface WordsAuthor {
  memberId: string;
  /** The author as the message had them, when the cache has none. */
  member?: GuildMember | null | undefined;
  /** Discord answered that the author is no longer a member of the server (Unknown Member). */
  left?: boolean;
}

/** An order's effects and their place; `at` null: nothing happens in Discord (a sample for the dashboard's page). */
export interface Effects {
  does: readonly Effect[];
  at: Place | null;
  /** `member-words` of another member than `at.memberId`: the author is held to the same rights there. */
  author?: WordsAuthor | undefined;
}
