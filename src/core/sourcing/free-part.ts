// A free voice's part: spoken by SayBot (eSpeak NG, src/core/free-voice/) off the main thread, or by one of the owner's
// engines (engine-port.ts) over HTTP; cached like any part, never paid.
import { Readable } from 'node:stream';
import { AudioFill } from '../cache/audio-fill.ts';
import { speakFreeLine, type FreeLine } from '../free-voice/free-voice-engine.ts';
import { isEngineVoice } from '../free-voice/free-voices.ts';
import type { EnginePort } from './engine-port.ts';
import type { Flight, PartStore } from './part-flight.ts';
import type { ServiceRequest } from '../settings/speech-request.ts';

/** Where a free part is spoken, and what ends its wait (shutdown: an engine's request is aborted). */
interface FreeSpeakers {
  engines: EnginePort | undefined;
  signal: AbortSignal;
}

/** `text` in the free voice of `request`, in its owner's (server's and member's) share of its speaker, kept under `key`. */
export async function freePart(
  store: PartStore,
  speakers: FreeSpeakers,
  request: ServiceRequest,
  text: string,
  key: string,
  generation: number,
  owner?: { guildId: string; userId: string },
): Promise<Flight> {
  const { wav, cutAt } = await speakLine(speakers, request, text, owner);
  // Marked when cut at its cap: the cache keeps neither it nor any copy made of it (AudioCache.put).
  const fill = new AudioFill({ format: 'wav', body: Readable.from([wav]), cutAt }, store.encoding);
  const cached = fill.complete.then(
    (entry) => store.cache?.put(key, request.voice, entry, generation),
    (error: unknown) => store.log.debug({ err: error, key }, 'free part not cached'),
  );
  return { from: 'free', part: () => fill.part(), done: cached };
}

function speakLine(
  { engines, signal }: FreeSpeakers,
  request: ServiceRequest,
  text: string,
  owner: { guildId: string; userId: string } | undefined,
): Promise<FreeLine> {
  if (!isEngineVoice(request.voice)) return speakFreeLine(text, request.voice, owner?.guildId, owner?.userId);
  // The part source refuses an engine voice before this when no engine offers it.
  if (engines === undefined) throw new Error(`${request.voice}: no engine is configured`);
  return engines.speakLine(text, request.voice, request.engine, owner ?? { guildId: '', userId: '' }, signal);
}
