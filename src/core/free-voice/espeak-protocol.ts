// The messages between the free voice engine (free-voice-engine.ts) and its worker thread (espeak-worker.ts).

/** Speak `text` in eSpeak NG's `voice`; at most `maxSeconds` of audio is kept. */
export interface EspeakJob {
  id: number;
  text: string;
  voice: string;
  maxSeconds: number;
}

/**
 * A WAV file (its buffer moved, not copied), or why there is none: `tooLong`, its audio went past `maxSeconds`;
 * otherwise eSpeak NG itself failed.
 */
export type EspeakReply =
  { id: number; ok: true; wav: ArrayBuffer } | { id: number; ok: false; message: string; tooLong?: true };
