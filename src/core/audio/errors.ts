import type { AudioFormat } from './codecs/format.ts';
import type { JobThreadFailure } from './workers/job-thread.ts';

export type ClipErrorCode = 'unsupported-format' | 'corrupt' | 'empty';

/** The bytes cannot be used as audio (unknown format, damaged, empty): one type for analyseClip and the decoders. */
export class ClipError extends Error {
  readonly code: ClipErrorCode;

  constructor(code: ClipErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'ClipError';
    this.code = code;
  }
}

/** A format recognised but not decoded here (FLAC, M4A, Ogg Vorbis, non-PCM WAV); `message` names it for the user. */
export class UnsupportedAudioError extends ClipError {
  readonly format: AudioFormat | undefined;

  constructor(format: AudioFormat | undefined, message: string) {
    super('unsupported-format', message);
    this.name = 'UnsupportedAudioError';
    this.format = format;
  }
}

/** A worker job (src/core/audio/workers/job-thread.ts) that could not run now; each use subclasses it for its words. */
export class JobUnavailableError extends Error {
  readonly reason: JobThreadFailure;
  /** For 'owner-busy': how many jobs one server may have under way or waiting. */
  readonly limit: number | undefined;

  constructor(reason: JobThreadFailure, message: string, options?: ErrorOptions & { limit?: number }) {
    super(message, options);
    this.name = new.target.name;
    this.reason = reason;
    this.limit = options?.limit;
  }
}

/** Speed, volume or joining could not run now (src/core/audio/jobs/audio-thread/). */
export class AudioBusyError extends JobUnavailableError {}

/** What a cap on the length of audio bounds: one line of the free voice, or a whole scene. */
export type LengthCapped = 'free-line' | 'scene';

/** Audio that would be longer than its cap (`maxSeconds`): refused, in the figure of that cap. */
export class AudioTooLongError extends Error {
  readonly capped: LengthCapped;
  readonly maxSeconds: number;

  constructor(capped: LengthCapped, maxSeconds: number, options?: ErrorOptions) {
    super(`the audio of this ${capped} would last longer than ${maxSeconds} s`, options);
    this.name = 'AudioTooLongError';
    this.capped = capped;
    this.maxSeconds = maxSeconds;
  }
}

export type VoiceMessageErrorCode = 'no-audio' | 'bad-packet';

/**
 * The packets cannot make a voice message: none that carry audio, or one that does not decode. Thrown where they are
 * measured (voice-message/packet-meter.ts), in the audio worker too, and made again from the worker's answer.
 */
export class VoiceMessageError extends Error {
  readonly code: VoiceMessageErrorCode;

  constructor(code: VoiceMessageErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'VoiceMessageError';
    this.code = code;
  }
}
