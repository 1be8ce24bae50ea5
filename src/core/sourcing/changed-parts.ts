// A part at another speed or volume: its own cache entry first, else the service's original (paid or saved once),
// changed in the audio worker once for identical requests at once, and cached with its packets.
import { Readable } from 'node:stream';
import { applyEffectsOffThread } from '../audio/jobs/audio-thread/audio-thread.ts';
import { gather, partViews } from '../audio/workers/byte-blocks.ts';
import type { AudioEffects } from '../audio/effects/effect-types.ts';
import { UnsupportedAudioError } from '../audio/errors.ts';
import type { AudioFormat } from '../audio/codecs/format.ts';
import { AudioFill, cachedPart, type PartAudio } from '../cache/audio-fill.ts';
import { effectsKey } from '../cache/audio-cache.ts';
import type { Charge } from '../quota/books.ts';
import type { OrderAccount } from './order-account.ts';
import { abortable, SingleFlight, withoutEffects, type PartStore, type SpeechAudio } from './part-flight.ts';
import type { ServiceRequest } from '../settings/speech-request.ts';

/** A part changed in the audio worker, read by every identical request, cached once whole. */
interface Changed {
  part(): PartAudio;
  done: Promise<unknown>;
}

/** What a changed part needs of the part source: the original's key and audio, and a saving written down once. */
export interface Originals {
  key(request: ServiceRequest, text: string): string;
  fetch(request: ServiceRequest, text: string, signal: AbortSignal, order?: OrderAccount): Promise<SpeechAudio>;
  saved(charge: Charge | undefined, request: ServiceRequest, text: string): void;
}

export class ChangedParts {
  readonly #store: PartStore;
  readonly #originals: Originals;
  readonly #changing = new SingleFlight<Promise<Changed>>();

  constructor(store: PartStore, originals: Originals) {
    this.#store = store;
    this.#originals = originals;
  }

  async fetch(
    request: ServiceRequest,
    effects: AudioEffects,
    text: string,
    signal: AbortSignal,
    order?: OrderAccount,
  ): Promise<SpeechAudio> {
    const { cache, metrics } = this.#store;
    const original = withoutEffects(request);
    const key = effectsKey(this.#originals.key(original, text), effects);
    // Taken before anything is awaited: a voice purged from here on must not get this changed part back.
    const generation = cache?.generation(request.voice) ?? 0;
    const hit = await cache?.get(key, request.voice);
    if (cache) metrics?.cacheLookup(hit ? 'hit' : 'miss');
    if (hit) {
      this.#originals.saved(order?.charge, request, text);
      return cachedPart(hit, this.#store.encoding);
    }
    const audio = await this.#originals.fetch(original, text, signal, order);
    const { value, leader } = this.#changing.join(
      key,
      () => this.#change(audio, effects, key, request.voice, generation, order?.charge.context.guildId),
      (c) => c.then((changed) => changed.done),
    );
    // Identical requests at once: the leader's original is changed, the others' copies are let go.
    if (!leader) audio.body.destroy();
    return (await abortable(value, signal)).part();
  }

  async settled(): Promise<void> {
    await Promise.allSettled(this.#changing.values().map((c) => c.then((changed) => changed.done)));
  }

  /** Changed in the audio worker in `guild`'s turn (identical requests from other servers share the result). */
  async #change(
    audio: SpeechAudio,
    effects: AudioEffects,
    key: string,
    voiceId: string,
    generation: number,
    guild = '',
  ): Promise<Changed> {
    const { cache, log, encoding } = this.#store;
    // Gathered for the worker, never joined here.
    const bytes = await gather(audio.body as AsyncIterable<Buffer>);
    let changed: { format: AudioFormat; data: Buffer };
    try {
      changed = await applyEffectsOffThread(bytes, effects, guild);
    } catch (error) {
      if (!(error instanceof UnsupportedAudioError)) throw error;
      // Audio SayBot cannot decode (the service chose FLAC, M4A or Ogg): heard as sent rather than not at all.
      log.warn(
        { code: 'audio-effects-skipped', format: audio.format },
        'speed and volume not applied: the audio format cannot be changed here',
      );
      const unchanged = new AudioFill(
        { format: audio.format, body: Readable.from(partViews(bytes)), cutAt: audio.cutAt },
        encoding,
      );
      return { part: () => unchanged.part(), done: Promise.resolve() };
    }
    // A copy of a line cut at its cap stays marked as cut: never cached, and heard with the note.
    const fill = new AudioFill(
      { format: changed.format, body: Readable.from([changed.data]), cutAt: audio.cutAt },
      encoding,
    );
    const done = fill.complete.then(
      (entry) => cache?.put(key, voiceId, entry, generation),
      (error: unknown) => log.debug({ err: error, key }, 'changed part not cached'),
    );
    return { part: () => fill.part(), done };
  }
}
