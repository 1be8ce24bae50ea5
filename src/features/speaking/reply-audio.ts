// What a reply's buttons replay, kept in memory under a short random ID the custom_ids carry (text does not fit in
// 100 characters, and any client sees a custom_id: nothing secret in it). Bounded in count and age; past them, a
// press is told the buttons no longer work.
import { randomBytes } from 'node:crypto';
import type { SpeechRequest } from '../../core/order/pipeline.ts';

/** A request the pipeline spoke for a reply: text-to-speech or emotion, never a ready-made clip. */
export type ReplayableRequest = Extract<SpeechRequest, { kind: 'tts' | 'emotion' }>;

export interface ReplyAudio {
  request: ReplayableRequest;
  guildId: string;
  /** The member who asked: only they may press the buttons (what SayBot does with them is attributable to them). */
  askerId: string;
  /** How long the audio is, as heard or rendered. */
  seconds: number;
}

/** Entries kept at most: about 6 KB each at worst (the text), so a few MB. */
export const REPLY_AUDIO_MAX_ENTRIES = 1000;
/** The buttons work this long at most (the count bound above usually ends them first on a busy bot). */
export const REPLY_AUDIO_TTL_MS = 24 * 3_600_000;

export class ReplyAudioRegistry {
  readonly #entries = new Map<string, { audio: ReplyAudio; expiresAt: number }>();
  readonly #now: () => number;

  constructor(options: { now?: () => number } = {}) {
    this.#now = options.now ?? Date.now;
  }

  /** Keeps `audio` and returns its ID (16 URL-safe characters); the oldest entry goes past the bound. */
  register(audio: ReplyAudio): string {
    const id = randomBytes(12).toString('base64url');
    this.#entries.set(id, { audio, expiresAt: this.#now() + REPLY_AUDIO_TTL_MS });
    while (this.#entries.size > REPLY_AUDIO_MAX_ENTRIES) {
      const oldest = this.#entries.keys().next().value;
      if (oldest === undefined) break;
      this.#entries.delete(oldest);
    }
    return id;
  }

  get(id: string): ReplyAudio | undefined {
    const entry = this.#entries.get(id);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.#now()) {
      this.#entries.delete(id);
      return undefined;
    }
    return entry.audio;
  }

  get size(): number {
    return this.#entries.size;
  }
}
