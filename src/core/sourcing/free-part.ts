// A free voice's part: spoken by SayBot (eSpeak NG, src/core/free-voice/) off the main thread, cached like any
// part, never paid.
import { Readable } from 'node:stream';
import { AudioFill } from '../cache/audio-fill.ts';
import { speakFreeLine } from '../free-voice/free-voice-engine.ts';
import type { Flight, PartStore } from './part-flight.ts';
import type { ServiceRequest } from '../settings/speech-request.ts';

/** `text` in the free voice of `request`, in its owner's (server's and member's) share of the free voice, kept under `key`. */
export async function freePart(
  store: PartStore,
  request: ServiceRequest,
  text: string,
  key: string,
  generation: number,
  owner?: { guildId: string; userId: string },
): Promise<Flight> {
  const { wav, cutAt } = await speakFreeLine(text, request.voice, owner?.guildId, owner?.userId);
  // Marked when cut at its cap: the cache keeps neither it nor any copy made of it (AudioCache.put).
  const fill = new AudioFill({ format: 'wav', body: Readable.from([wav]), cutAt }, store.encoding);
  const cached = fill.complete.then(
    (entry) => store.cache?.put(key, request.voice, entry, generation),
    (error: unknown) => store.log.debug({ err: error, key }, 'free part not cached'),
  );
  return { from: 'free', part: () => fill.part(), done: cached };
}
