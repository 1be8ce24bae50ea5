// The messages between the free voice engine (free-voice-engine.ts) and its worker thread (espeak-worker.ts).

/** Speak `text` in eSpeak NG's `voice`; at most `maxSeconds` of audio is kept, the rest cut away. */
export interface EspeakJob {
  id: number;
  text: string;
  voice: string;
  maxSeconds: number;
}

/**
 * A WAV file (in shared memory: the main thread reads it without a copy; `cutAt`: cut at the job's `maxSeconds`,
 * its audio having proved longer), or why there is none. `retire`: eSpeak NG
 * itself failed (its WebAssembly trapped or ran out of memory), so the thread is replaced before it takes another
 * line (../audio/workers/job-thread.ts). `japanese`: the thread holds the Japanese analyser (the owner console's).
 */
export type EspeakReply =
  | { id: number; ok: true; wav: SharedArrayBuffer; cutAt?: number; japanese?: true }
  /** `tooLong`: its text alone is far past what `maxSeconds` can hold, a cap rather than a failure of eSpeak NG. */
  | { id: number; ok: false; message: string; retire?: boolean; tooLong?: true };
