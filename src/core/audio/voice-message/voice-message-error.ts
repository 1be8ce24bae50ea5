// Why packets cannot make a voice message; thrown where they are measured (packet-meter.ts), on the main thread or in
// the audio worker, and made again on the main thread from the worker's answer.
export type VoiceMessageErrorCode = 'no-audio' | 'bad-packet';

/** The packets cannot make a voice message: none that carry audio, or one that does not decode. */
export class VoiceMessageError extends Error {
  readonly code: VoiceMessageErrorCode;

  constructor(code: VoiceMessageErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'VoiceMessageError';
    this.code = code;
  }
}
