// An order's lines as spoken, what acceptance settles and its place in voice: types only.
import type { Accepted } from '../quota/money.ts';
import type { SpeechRequest } from '../settings/speech-request.ts';
import type { GuildPlayer, Turn } from '../voice/guild-player.ts';

/** One line of an order as spoken: its request, its text split into parts, after a pause (a scene's; 0 otherwise). */
export interface SpokenLine {
  request: SpeechRequest;
  texts: readonly string[];
  pauseBefore: number;
}

/** Voice only: the guild's player and the order's turn there, held from acceptance until it is over. */
export interface VoicePlace {
  player: GuildPlayer;
  turn: Turn;
}

/**
 * What acceptance settles (Money's `Accepted`: the lines as they will be spoken, or a plain request refused for money
 * in their free-voice version, and what they are held and paid on), and its place in voice.
 */
export type AcceptedTerms = Accepted<SpokenLine> & {
  /** Clips ahead of it in the guild's queue when it was accepted (voice). */
  ahead?: number;
  /** Voice only: where it is played, and its turn there. */
  playback?: VoicePlace | undefined;
};
