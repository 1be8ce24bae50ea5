// How a free line fails for its own cause (free-voice-engine.ts), so that the member reads what failed: eSpeak NG
// stopped on the line's text, or took longer than a line may. Never another line's cause: a failing thread is
// replaced before it takes the next line.

/** 'stopped': eSpeak NG failed on this line (a trap, out of memory, no audio, too long); 'timeout': past its limit. */
export type FreeVoiceFailure = 'stopped' | 'timeout';

export class FreeVoiceFailedError extends Error {
  readonly reason: FreeVoiceFailure;

  constructor(reason: FreeVoiceFailure, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'FreeVoiceFailedError';
    this.reason = reason;
  }
}
