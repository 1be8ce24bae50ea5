// An order's lines as spoken, what acceptance settles and its place in voice: types only.
import type { Charge } from '../quota/charge.ts';
import type { Admission } from '../quota/seconds-bounds.ts';
import type { QuoteAllowance } from '../quota/money.ts';
import type { Refusal } from '../refusal.ts';
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

/** What acceptance settles: the lines as they will be spoken, what they are held and paid on, and its place. */
export interface AcceptedTerms {
  /** The order's lines, or (a plain request refused for money) their free-voice version. */
  lines: readonly SpokenLine[];
  /** Why the paid voice was refused when the free voice speaks instead. */
  fallback?: Refusal | undefined;
  charge: Charge;
  /** Its place in the queue bounds' figures, released when it is settled. */
  admission: Admission;
  /** What it may still pay for parts counted free at acceptance (OrderAccount.late). */
  late?: QuoteAllowance | undefined;
  /** Clips ahead of it in the guild's queue when it was accepted (voice). */
  ahead?: number;
  /** Voice only: where it is played, and its turn there. */
  playback?: VoicePlace | undefined;
}
