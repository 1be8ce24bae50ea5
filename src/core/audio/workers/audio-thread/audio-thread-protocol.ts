// Messages between audio-thread.ts (main thread) and its worker (audio-worker.ts): one request, one reply.
import type { AudioEffects } from '../../effects/effect-types.ts';
import type { ClipErrorCode } from '../../errors.ts';
import type { EditableFormat, SceneMixLine, SceneMixResult } from '../../effects/effect-types.ts';

/** A scene's line as sent to the worker: its parts' bytes (transferred) and the silence before it. */
export type SceneJobLine = Omit<SceneMixLine, 'parts'> & { parts: ArrayBuffer[] };

export type AudioJob =
  /** One part's bytes (transferred) with speed and volume applied. */
  | { id: number; kind: 'effects'; data: ArrayBuffer; effects: AudioEffects }
  /** A request's parts (transferred) as one file. */
  | { id: number; kind: 'join'; parts: ArrayBuffer[]; format: EditableFormat }
  /** A scene's lines (every part transferred) mixed as one file (../../effects/scene-mix.ts). */
  | { id: number; kind: 'scene'; lines: SceneJobLine[]; format: EditableFormat };

export type AudioJobReply =
  | {
      id: number;
      ok: true;
      data: ArrayBuffer;
      format: EditableFormat;
      seconds?: number;
      /** A scene's figures (everything of SceneMixResult but its bytes, format and length). */
      scene?: Pick<SceneMixResult, 'cut' | 'sampleRate' | 'lines' | 'loudness'>;
    }
  /** `range`: the job asked for something out of bounds (a scene over its length): a RangeError on the main thread. */
  | {
      id: number;
      ok: false;
      code: ClipErrorCode | undefined;
      unsupported: boolean;
      range?: boolean;
      message: string;
    };
