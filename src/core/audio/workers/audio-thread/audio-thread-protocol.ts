// Messages between audio-thread.ts (main thread) and its worker (audio-worker.ts): one request, one reply.
import type { AudioEffects } from '../../effects/effect-types.ts';
import type { ClipErrorCode } from '../../errors.ts';
import type { EditableFormat, SceneMixLine, SceneMixResult } from '../../effects/effect-types.ts';
import type { OggOpusOptions } from '../../codecs/ogg-opus-writer.ts';
import type { PacketBlocks } from '../../codecs/packet-frames.ts';

/**
 * Bytes handed to the worker: a buffer of their own, transferred, or a view of shared memory (the free voice's WAV),
 * shared; either way not copied on the main thread as the message goes.
 */
export type HandedBytes = ArrayBuffer | Uint8Array<SharedArrayBuffer>;

/** A part that came in pieces: blocks of its bytes (../byte-blocks.ts), views of transferred buffers, joined there. */
export type MovedBlocks = Uint8Array<ArrayBuffer>[];

/** A scene's line as sent to the worker: its parts' bytes and the silence before it. */
export type SceneJobLine = Omit<SceneMixLine, 'parts'> & { parts: HandedBytes[] };

export type AudioJob =
  /** One part's bytes with speed and volume applied. */
  | { id: number; kind: 'effects'; data: HandedBytes; effects: AudioEffects }
  /** A request's parts as one file. */
  | { id: number; kind: 'join'; parts: Array<HandedBytes | MovedBlocks>; format: EditableFormat }
  /** A scene's lines mixed as one file (../../effects/scene-mix.ts). */
  | { id: number; kind: 'scene'; lines: SceneJobLine[]; format: EditableFormat }
  /** A voice message's Opus packets written as one Ogg Opus file (pages and their CRCs); the blocks transferred. */
  | { id: number; kind: 'ogg'; packets: PacketBlocks; options: OggOpusOptions };

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
  /** An 'ogg' job's file. */
  | { id: number; ok: true; ogg: ArrayBuffer }
  /** `range`: the job asked for something out of bounds (a scene over its length): a RangeError on the main thread. */
  | {
      id: number;
      ok: false;
      code: ClipErrorCode | undefined;
      unsupported: boolean;
      range?: boolean;
      message: string;
    };
