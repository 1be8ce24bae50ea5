// Distinct voices (voices:distinct): which pool voice a member is given, and who spoke lately in which voice. Pure.
import { defaultVoiceFor } from '../../../core/sourcing/voice-choice.ts';
import { PRESET_VOICE_ID, type PresetVoice } from '../../../core/voice-catalogue/voices.ts';
import { createHash } from 'node:crypto';

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

/** The language pool voices speak: the server's, else English. */
export function poolLanguage(locale: string | null | undefined): string {
  return locale ? languageOf(locale) : (PRESET_VOICE_ID.exec(defaultVoiceFor(locale))?.[1] ?? 'en');
}

/** Variants once plain voices are all given: ±3 semitones or an audibly other pace, made from the same paid audio. */
export const VARIANTS: readonly Variant[] = [{ pitch: 3 }, { pitch: -3 }, { speed: 1.25 }, { speed: 0.8 }];

/** The most voices the default pool holds (presets, cloned voices and variants together). */
export const DEFAULT_POOL_MAX = 100;

export type Variant = { speed: number; pitch?: undefined } | { pitch: number; speed?: undefined };

/** A pool voice as kept in the pool and given to members: a voice ID, or a preset's variant. */
export type PoolVoice = { voice: string } & (Variant | { speed?: undefined; pitch?: undefined });

/** A variant as kept: `<preset>~speed<x>` or `<preset>~pitch<±n>`. */
const VARIANT = /^(voice-b-[a-z]{2,3}-[fm]-\d{2})~(?:speed(\d(?:\.\d{1,2})?)|pitch([+-]\d{1,2}))$/;

export function poolEntry(entry: PoolVoice): string {
  if (entry.speed !== undefined) return `${entry.voice}~speed${entry.speed}`;
  if (entry.pitch !== undefined) return `${entry.voice}~pitch${entry.pitch > 0 ? '+' : ''}${entry.pitch}`;
  return entry.voice;
}

export function parsePoolEntry(entry: string): PoolVoice {
  const variant = VARIANT.exec(entry);
  const voice = variant?.[1];
  if (voice === undefined) return { voice: entry };
  return variant?.[2] !== undefined ? { voice, speed: Number(variant[2]) } : { voice, pitch: Number(variant?.[3]) };
}

/** Whether a pool voice is a variant of a preset. */
export const isVariant = (entry: PoolVoice): boolean => entry.speed !== undefined || entry.pitch !== undefined;

/** The pool when the managers chose none: every preset (the server's language's first), clones, then variants. */
export function defaultPool(
  locale: string | null | undefined,
  presets: readonly PresetVoice[],
  cloned: readonly string[],
): string[] {
  const language = poolLanguage(locale);
  const plain = [
    ...presets.filter((preset) => preset.language === language),
    ...presets.filter((preset) => preset.language !== language),
  ].map((preset) => preset.id);
  const variants = VARIANTS.flatMap((variant) => plain.map((voice) => poolEntry({ voice, ...variant })));
  return [...plain, ...cloned, ...variants].slice(0, DEFAULT_POOL_MAX);
}

/** A member's own fixed ranking of a voice: the same wherever the voice stands in the pool (rendezvous hashing). */
function weight(userId: string, voice: string): string {
  return createHash('sha256').update(`${userId}\u0000${voice}`).digest('hex');
}

/** A pool voice for a member: fewest speaking now, then fewest given, plain first, then a stable member hash. */
export function chooseVoice(
  userId: string,
  pool: readonly string[],
  speakingNow: ReadonlyMap<string, number>,
  given: ReadonlyMap<string, number>,
): string | undefined {
  let best: { voice: string; rank: number[]; weight: string } | undefined;
  for (const voice of pool) {
    const entry = parsePoolEntry(voice);
    // Who speaks now is known by the voice heard (RecentSpeakers), so a variant counts as busy with its preset.
    const rank = [speakingNow.get(entry.voice) ?? 0, given.get(voice) ?? 0, isVariant(entry) ? 1 : 0];
    const candidate = { voice, rank, weight: weight(userId, voice) };
    if (best === undefined || before(candidate, best)) best = candidate;
  }
  return best?.voice;
}

function before(a: { rank: number[]; weight: string }, b: { rank: number[]; weight: string }): boolean {
  for (const [i, value] of a.rank.entries()) {
    const other = b.rank[i] ?? 0;
    if (value !== other) return value < other;
  }
  return a.weight > b.weight;
}

/** Who was read lately in one server, and in which voice: bounded in members and in time, in memory only. */
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

  /** The members remembered (at most RECENT_SPEAKERS_MAX). */
  members(): IterableIterator<string> {
    return this.#byMember.keys();
  }

  /** Forgets a member (their data deleted on request). */
  forget(userId: string): void {
    this.#byMember.delete(userId);
  }
}
