import type { Readable } from 'node:stream';
import { analyseClip } from '../audio/clip.ts';
import type { AudioFormat } from '../audio/format.ts';
import { exactMp3File } from '../audio/mp3-file.ts';
import { createOpusPacketStream } from '../audio/playback.ts';
import { exactWavFile } from '../audio/wav-file.ts';
import type { Logger } from '../log.ts';
import type { Charge } from '../quota/accounting.ts';
import type { PlaybackItem } from '../voice/guild-player.ts';
import type { PartSource, SpeechAudio } from './part-source.ts';
import type { SpeechRequest } from './pipeline.ts';

/** One part as a clip of the guild's queue, with the hook the pipeline uses to learn when its first frame went out. */
export type PartClip = PlaybackItem & { started?: () => void };

/**
 * One part as a clip for the guild's player. Its audio is requested at `prepare()` (the clip before it started, or
 * the pipeline starting it beside the voice join) or at the latest when its turn comes.
 */
export function partClip(source: PartSource, request: SpeechRequest, text: string, label: string, charge: Charge, log: Logger): PartClip {
  const prefetch = new AbortController();
  let pending: Promise<SpeechAudio> | undefined;
  const start = () => (pending ??= source.fetch(request, text, prefetch.signal, charge));
  return {
    label,
    prepare: () => {
      // A prefetch that fails is reported when the clip is opened; until then nobody awaits it.
      start().catch(() => undefined);
    },
    dispose: () => {
      prefetch.abort();
      pending?.then((response) => response.body.destroy()).catch(() => undefined);
    },
    open: async (signal: AbortSignal): Promise<Readable> => {
      const onAbort = () => prefetch.abort(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
      try {
        const response = await start();
        log.debug({ label, requestId: response.requestId, format: response.format }, 'audio response started');
        // A cached or shared part brings its Opus packets: nothing to decode or encode again.
        if (response.packets) {
          response.body.destroy();
          return response.packets(signal);
        }
        return createOpusPacketStream(response.body, response.format, { signal });
      } finally {
        signal.removeEventListener('abort', onAbort);
      }
    },
  };
}

/** One part read whole as a file every player reads, with its duration measured from its own samples. */
export async function partFile(source: PartSource, request: SpeechRequest, text: string, charge: Charge): Promise<{ data: Buffer; format: AudioFormat; seconds: number }> {
  const response = await source.fetch(request, text, new AbortController().signal, charge);
  const data = exactFile(response.format, Buffer.concat(await response.body.toArray()));
  const info = await analyseClip(data);
  return { data, format: response.format, seconds: info.durationSeconds };
}

/** The bytes as a file every player reads: exact WAV sizes whatever header was streamed, no cut MP3 frame. */
function exactFile(format: AudioFormat, data: Buffer): Buffer {
  const fixed = format === 'wav' ? exactWavFile(data) : format === 'mp3' ? exactMp3File(data) : data;
  return fixed === data ? data : Buffer.from(fixed.buffer, fixed.byteOffset, fixed.byteLength);
}
