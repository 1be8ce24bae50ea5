// A free voice's part: spoken by SayBot (eSpeak NG, src/core/free-voice/) off the main thread, or by one of the owner's
// engines (engine-port.ts) over HTTP, its audio streaming to the audio worker as it arrives; cached like any part once
// it came whole, never paid.
import { Readable } from 'node:stream';
import { AudioFill } from '../cache/audio-fill.ts';
import { speakFreeLine } from '../free-voice/free-voice-engine.ts';
import { isEngineVoice } from '../free-voice/free-voices.ts';
import type { EnginePort } from './engine-port.ts';
import type { Flight, PartStore } from './part-flight.ts';
import type { ServiceRequest } from '../settings/speech-request.ts';

/** `text` in the free voice of `request`, in its owner's (server's and member's) share of its speaker, kept under `key`. */
export async function freePart(
  store: PartStore,
  engines: EnginePort | undefined,
  request: ServiceRequest,
  text: string,
  key: string,
  generation: number,
  owner: { guildId: string; userId: string } | undefined,
  /** Fires when nobody wants the line any more, or at shutdown: an engine's request is closed, its slot freed. */
  signal: AbortSignal,
): Promise<Flight> {
  let line: { body: Readable; cutAt?: number };
  if (isEngineVoice(request.voice)) {
    // The part source refuses an engine voice before this when no engine is configured.
    if (engines === undefined) throw new Error(`${request.voice}: no engine is configured`);
    const owned = owner ?? { guildId: '', userId: '' };
    line = { body: await engines.speakLine(text, request.voice, request.engine, owned, signal) };
  } else {
    const { wav, cutAt } = await speakFreeLine(text, request.voice, owner?.guildId, owner?.userId);
    line = { body: Readable.from([wav]), ...(cutAt === undefined ? {} : { cutAt }) };
  }
  // Marked when cut at its cap: the cache keeps neither it nor any copy made of it (AudioCache.put).
  const fill = new AudioFill({ format: 'wav', ...line }, store.encoding);
  const cached = fill.complete.then(
    (entry) => store.cache?.put(key, request.voice, entry, generation),
    (error: unknown) => store.log.debug({ err: error, key }, 'free part not cached'),
  );
  return { from: 'free', part: () => fill.part(), done: cached };
}
