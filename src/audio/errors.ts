import type { AudioFormat } from './format.ts';

export type ClipErrorCode = 'unsupported-format' | 'corrupt' | 'empty';

/**
 * The bytes cannot be used as audio: not a format handled here, damaged, or holding no audio.
 * Thrown by analyseClip and by the streaming decoders alike, so callers have one type to check.
 */
export class ClipError extends Error {
  readonly code: ClipErrorCode;

  constructor(code: ClipErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'ClipError';
    this.code = code;
  }
}

/**
 * A format that is recognised but cannot be decoded here (FLAC, M4A and Ogg Vorbis for playback; WAV encodings
 * other than PCM/float). `message` is a short label of the format ('FLAC', 'Ogg Vorbis'), fit to show a user.
 */
export class UnsupportedAudioError extends ClipError {
  readonly format: AudioFormat | undefined;

  constructor(format: AudioFormat | undefined, message: string) {
    super('unsupported-format', message);
    this.name = 'UnsupportedAudioError';
    this.format = format;
  }
}

/** Speed, volume or joining could not run now (audio-thread.ts): too much waiting, too slow, or its thread failed. */
export class AudioBusyError extends Error {
  readonly reason: 'busy' | 'timeout' | 'crashed';

  constructor(reason: 'busy' | 'timeout' | 'crashed', message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'AudioBusyError';
    this.reason = reason;
  }
}
