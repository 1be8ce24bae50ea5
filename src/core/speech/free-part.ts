// A free voice's part: spoken by SayBot (eSpeak NG, src/core/free-voice/) off the main thread, cached like any
// part, never paid.
import { Readable } from 'node:stream';
import { AudioFill } from '../cache/audio-fill.ts';
import { speakFreeLine } from '../free-voice/free-voice-engine.ts';
import type { Flight, PartStore } from './part-flight.ts';
import type { ServiceRequest } from './request.ts';

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
  const fill = new AudioFill({ format: 'wav', body: Readable.from([wav]) }, store.encoding);
  // A line cut at its cap is not kept: a hit would hand it out with no word of the cut; made again, it says so.
  const cache = cutAt === undefined ? store.cache : undefined;
  const cached = fill.complete.then(
    (entry) => cache?.put(key, request.voice, entry, generation),
    (error: unknown) => store.log.debug({ err: error, key }, 'free part not cached'),
  );
  return { from: 'free', part: () => fill.part(), done: cached, ...(cutAt === undefined ? {} : { cutAt }) };
}
