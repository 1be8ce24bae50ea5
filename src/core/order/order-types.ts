// An order's lines as spoken, what acceptance settles and its place in voice: types only.
import type { Accepted } from '../quota/money.ts';
import type { SpeechRequest } from '../settings/speech-request.ts';
import type { GuildPlayer, HeldOrder } from '../voice/guild-player.ts';

/** One line of an order as spoken: its request, its text split into parts, after a pause (a scene's; 0 otherwise). */
export interface SpokenLine {
  request: SpeechRequest;
  texts: readonly string[];
  pauseBefore: number;
}

/** Voice orders of one guild accepted but not yet queued on its player (they may be waiting for the join). */
export interface Lane {
  /** Their clips, counted as ahead of the next order. */
  clips: number;
  /** Settles when the last of them has been queued (or has failed): orders are queued in the order accepted. */
  tail: Promise<void>;
}

/** Voice only: the guild's player, its place in the guild's lane, and the player's hold on it until it is queued. */
export interface VoicePlace {
  player: GuildPlayer;
  lane: Lane;
  held: HeldOrder;
}

/**
 * What acceptance settles (Money's `Accepted`: the lines as they will be spoken, or a plain request refused for money
 * in their free-voice version, and what they are held and paid on), and its place in voice.
 */
export type AcceptedTerms = Accepted<SpokenLine> & {
  /** Clips ahead of it in the guild's queue when it was accepted (voice). */
  ahead?: number;
  /** Voice only: where it is played, held until its clips are queued. */
  playback?: VoicePlace | undefined;
};
