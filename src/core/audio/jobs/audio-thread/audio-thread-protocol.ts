// Messages between audio-thread.ts (main thread) and its worker (audio-worker.ts): one request, one reply.
import type { AudioEffects } from '../../effects/effect-types.ts';
import type { ClipErrorCode } from '../../errors.ts';
import type { EditableFormat, SceneMixLine, SceneMixResult } from '../../effects/effect-types.ts';
import type { OggOpusOptions } from '../../codecs/ogg-opus-writer.ts';
import type { PacketBlocks } from '../../codecs/packet-frames.ts';
import type { ClipProbe } from '../../analysis/clip-probe.ts';
import type { AudioFormat } from '../../codecs/format.ts';
import type { SharedBlocks } from '../../workers/byte-block-types.ts';
import type { TranscodeSpec } from '../transcode/transcode-protocol.ts';
import type { VoiceMessageErrorCode } from '../../errors.ts';

/** Bytes handed to the worker: an own buffer transferred, or shared memory shared; never copied on the way. */
export type HandedBytes = ArrayBuffer | Uint8Array<SharedArrayBuffer>;

/** A part as a job takes it: its bytes handed over, or the shared blocks it was gathered in (joined there). */
export type HandedPart = HandedBytes | SharedBlocks;

/** A scene's line as sent to the worker: its parts' bytes and the silence before it. */
type SceneJobLine = Omit<SceneMixLine, 'parts'> & { parts: HandedPart[] };

export type AudioJob =
  /** One part's bytes with speed and volume applied; the result comes back in shared memory. */
  | { id: number; kind: 'effects'; data: HandedPart; effects: AudioEffects }
  /** What a part's headers say of its length against a limit (../../analysis/clip-probe.ts). */
  | { id: number; kind: 'probe'; part: HandedPart; limitSeconds: number }
  /** A part posted as a file of its own, as sent (a format not joined): its sizes made exact, its length measured. */
  | { id: number; kind: 'file'; part: HandedPart; format: AudioFormat }
  /** A request's parts as one file. */
  | { id: number; kind: 'join'; parts: HandedPart[]; format: EditableFormat }
  /** A scene's lines mixed as one file (../../effects/scene-mix.ts). */
  | { id: number; kind: 'scene'; lines: SceneJobLine[]; format: EditableFormat }
  /** A voice message's Opus packets written as one Ogg Opus file (pages and their CRCs); the blocks transferred. */
  | { id: number; kind: 'ogg'; packets: PacketBlocks; options: OggOpusOptions }
  /** A WAV or MP3 file made a voice message here: encoded as the player encodes, measured, written as Ogg Opus. */
  | { id: number; kind: 'voice-message'; file: HandedPart; spec: TranscodeSpec };

export type AudioJobReply =
  | {
      id: number;
      ok: true;
      /** Shared for an 'effects' job (the changed part is read, cached and mixed where it is), else moved. */
      data: ArrayBuffer | SharedArrayBuffer;
      format: EditableFormat;
      seconds?: number;
      /** A scene's figures (everything of SceneMixResult but its bytes, format and length). */
      scene?: Pick<SceneMixResult, 'cut' | 'sampleRate' | 'lines' | 'loudness'>;
    }
  /** A 'voice-message' job's file (moved), its length and waveform. */
  | { id: number; ok: true; voiceMessage: { ogg: ArrayBuffer; durationSecs: number; waveform: string } }
  /** An 'ogg' job's file. */
  | { id: number; ok: true; ogg: ArrayBuffer }
  /** A 'file' job's file (moved) and its length. */
  | { id: number; ok: true; file: ArrayBuffer; seconds: number }
  /** A 'probe' job's verdict. */
  | { id: number; ok: true; probe: ClipProbe }
  /** `range`: the job asked for something out of bounds (a scene over its length): a RangeError on the main thread. */
  | {
      id: number;
      ok: false;
      code: ClipErrorCode | undefined;
      unsupported: boolean;
      range?: boolean;
      /** A 'voice-message' job's packets could not make one: a VoiceMessageError on the main thread. */
      voiceMessage?: VoiceMessageErrorCode;
      message: string;
    };
