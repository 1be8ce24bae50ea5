// A part at another speed or volume: its own cache entry first, else the service's original (paid or saved once, by
// the part source), changed in the audio worker once for identical requests at once, and cached with its packets.
import { Readable } from 'node:stream';
import { applyEffectsOffThread } from '../audio/jobs/audio-thread/audio-thread.ts';
import { gather, partViews } from '../audio/workers/byte-blocks.ts';
import { UnsupportedAudioError } from '../audio/errors.ts';
import type { AudioFormat } from '../audio/codecs/format.ts';
import type { AudioEffects } from '../audio/effects/effect-types.ts';
import { AudioFill, cachedPart } from '../cache/audio-fill.ts';
import type { Charge } from '../quota/accounting.ts';
import type { ServiceRequest } from '../settings/speech-request.ts';
import { abortable } from '../abortable.ts';
import type { OrderAccount, SpeechAudio } from './order-account.ts';
import { effectsKey, withoutEffects } from './part-request.ts';
import { SingleFlight, filled, lookUp, type FlightAudio, type PartStore } from './flights.ts';

/** What a changed part needs of the part source: the original's key and audio, and a saving written down once. */
export interface Originals {
  key(request: ServiceRequest, text: string): string;
  fetch(request: ServiceRequest, text: string, signal: AbortSignal, order?: OrderAccount): Promise<SpeechAudio>;
  saved(charge: Charge | undefined, request: ServiceRequest, text: string): void;
}

export class ChangedParts {
  readonly #store: PartStore;
  readonly #originals: Originals;
  readonly #changing = new SingleFlight<Promise<FlightAudio>>();

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
    const original = withoutEffects(request);
    const key = effectsKey(this.#originals.key(original, text), effects);
    // Taken before anything is awaited: a voice purged from here on must not get this changed part back.
    const generation = this.#store.cache?.generation(request.voice) ?? 0;
    const hit = await lookUp(this.#store, key, request.voice);
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

  async drained(): Promise<void> {
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
  ): Promise<FlightAudio> {
    const { log, encoding } = this.#store;
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
    const body = Readable.from([changed.data]);
    return filled(this.#store, { format: changed.format, body, cutAt: audio.cutAt }, key, voiceId, generation);
  }
}
