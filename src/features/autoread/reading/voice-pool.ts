// Distinct voices in auto-read (/autoread settings voices:distinct): which voice of the pool a member is given, and
// the memory of who spoke lately in which voice. Pure, so each rule is a row in a table test; voice.ts keeps the
// choice in the store, where it stays the member's across restarts and pool changes.
import { createHash } from 'node:crypto';
import { DOCUMENTED_VOICES, PRESET_VOICE_ID, defaultVoiceFor } from '../../../core/voice-catalogue/catalogue.ts';

/** The most voices a server's pool holds: more than a channel's listeners can tell apart, and autocomplete's 25. */
export const VOICE_POOL_MAX = 25;

/** A server keeps at most this many members' pool voices; past it the oldest go (given again when next read). */
export const MEMBER_VOICES_MAX = 5000;

/** Members read within this long are "speaking now": a newcomer is given a voice none of them has, if one is left. */
export const RECENT_SPEAKERS_WINDOW_MS = 10 * 60_000;

/** The most members remembered as speaking now, per server (the oldest forgotten first). */
export const RECENT_SPEAKERS_MAX = 50;

/** The language of a Discord locale (`en-US` -> `en`, `zh-CN` -> `zh`). */
const languageOf = (locale: string): string => locale.split('-')[0]?.toLowerCase() ?? '';

/**
 * The pool when the managers chose none: the documented presets of the server's language; for a language without
 * any, those of the language whose voice the server speaks in by default (English).
 */
export function defaultPool(locale: string | null | undefined): string[] {
  const own = locale ? DOCUMENTED_VOICES.filter((voice) => voice.language === languageOf(locale)) : [];
  if (own.length > 0) return own.map((voice) => voice.id);
  const fallback = PRESET_VOICE_ID.exec(defaultVoiceFor(locale))?.[1];
  return DOCUMENTED_VOICES.filter((voice) => voice.language === fallback).map((voice) => voice.id);
}

/** A member's own fixed ranking of a voice: the same wherever the voice stands in the pool (rendezvous hashing). */
function weight(userId: string, voice: string): string {
  return createHash('sha256').update(`${userId}\u0000${voice}`).digest('hex');
}

/**
 * The pool voice a member without one is given: among the pool, the one fewest members speaking now have; among
 * those, the one fewest members of the server were given; among those, the member's own highest ranking (a
 * stable hash of member and voice, so the pool's order never matters). Undefined for an empty pool.
 */
export function chooseVoice(
  userId: string,
  pool: readonly string[],
  speakingNow: ReadonlyMap<string, number>,
  given: ReadonlyMap<string, number>,
): string | undefined {
  let best: { voice: string; now: number; given: number; weight: string } | undefined;
  for (const voice of pool) {
    const candidate = {
      voice,
      now: speakingNow.get(voice) ?? 0,
      given: given.get(voice) ?? 0,
      weight: weight(userId, voice),
    };
    if (
      best === undefined ||
      candidate.now < best.now ||
      (candidate.now === best.now &&
        (candidate.given < best.given || (candidate.given === best.given && candidate.weight > best.weight)))
    )
      best = candidate;
  }
  return best?.voice;
}

/**
 * Who was read lately in one server, in which voice (their own /myvoice voice or their pool voice): the members
 * "speaking now" a newcomer's voice should differ from. Bounded in members and in time; in memory only.
 */
export class RecentSpeakers {
  /** Oldest first: a member heard again moves to the end. */
  readonly #byMember = new Map<string, { voice: string; at: number }>();
  readonly #windowMs: number;
  readonly #max: number;

  constructor(windowMs = RECENT_SPEAKERS_WINDOW_MS, max = RECENT_SPEAKERS_MAX) {
    this.#windowMs = windowMs;
    this.#max = max;
  }

  /** A member was read in `voice` at `at` (ms since epoch). */
  heard(userId: string, voice: string, at: number): void {
    this.#byMember.delete(userId);
    this.#byMember.set(userId, { voice, at });
    for (const oldest of this.#byMember.keys()) {
      if (this.#byMember.size <= this.#max) break;
      this.#byMember.delete(oldest);
    }
  }

  /** How many of the other members read within the window speak in each voice. */
  voicesBesides(userId: string, now: number): Map<string, number> {
    const counts = new Map<string, number>();
    for (const [member, { voice, at }] of this.#byMember) {
      if (now - at > this.#windowMs) {
        this.#byMember.delete(member);
        continue;
      }
      if (member !== userId) counts.set(voice, (counts.get(voice) ?? 0) + 1);
    }
    return counts;
  }

  /** Forgets a member (their data deleted on request). */
  forget(userId: string): void {
    this.#byMember.delete(userId);
  }
}
