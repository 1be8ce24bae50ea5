// Messages between measureClipOffThread (main thread) and its worker (clip-worker.ts): one request, one reply.
import type { ClipErrorCode } from '../../errors.ts';
import type { AudioFormat } from '../../codecs/format.ts';

export interface ClipJob {
  id: number;
  /** The buffer holding the clip, transferred to the worker (and back with a measured clip's reply). */
  data: ArrayBuffer;
  /** Where in `data` the clip lies. */
  byteOffset: number;
  byteLength: number;
  maxSeconds: number;
}

/** What the worker measured: no samples cross back, only the figures the checks need. */
export interface MeasuredClip {
  format: AudioFormat;
  sampleRate: number;
  channels: number;
  durationSeconds: number;
  truncated: boolean;
  /** RMS level of what was decoded; undefined where the codec cannot be decoded here (M4A). */
  levelDbfs: number | undefined;
}

export type ClipJobReply =
  /** `data`: the job's buffer, transferred back unchanged. */
  | { id: number; ok: true; clip: MeasuredClip; data: ArrayBuffer }
  | { id: number; ok: false; code: ClipErrorCode | undefined; message: string };
