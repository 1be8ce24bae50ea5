// Messages between audio-thread.ts (main thread) and its worker (audio-worker.ts): one request, one reply.
import type { AudioEffects } from '../../effects/effect-types.ts';
import type { ClipErrorCode } from '../../errors.ts';
import type { EditableFormat } from '../../effects/effects.ts';

export type AudioJob =
  /** One part's bytes (transferred) with speed and volume applied. */
  | { id: number; kind: 'effects'; data: ArrayBuffer; effects: AudioEffects }
  /** A request's parts (transferred) as one file. */
  | { id: number; kind: 'join'; parts: ArrayBuffer[]; format: EditableFormat };

export type AudioJobReply =
  | { id: number; ok: true; data: ArrayBuffer; format: EditableFormat; seconds?: number }
  | { id: number; ok: false; code: ClipErrorCode | undefined; unsupported: boolean; message: string };
