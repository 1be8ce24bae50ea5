// Why an engine did not speak a line, in domain terms: the integration words it in the member's language. The message
// is for the log and the doctor: it names the engine and what went wrong, never the key, the text or a body.
import type { EngineName } from './engine-types.ts';

/**
 * - `down`: the engine's circuit is open (it failed lately): not tried, fails at once;
 * - `timeout`: no headers, or not the whole body, within its deadline;
 * - `refused`: the engine answered 4xx (or a redirect, never followed), or the line is past what it may be sent;
 * - `failed`: no connection, a reset, a 5xx;
 * - `bad-answer`: a 2xx that is not the audio asked for (not WAV PCM 16-bit, an HTML page, too large, malformed);
 * - `unknown-voice`: the voice is not offered now (not in the engine's catalogue, or the engine is not configured);
 * - `busy`: the engine's queue, or this server's share of it, is full.
 */
export type EngineFailure = 'down' | 'timeout' | 'refused' | 'failed' | 'bad-answer' | 'unknown-voice' | 'busy';

export class EngineError extends Error {
  readonly reason: EngineFailure;
  readonly engine: EngineName;
  /** The engine's HTTP status, when it answered one. */
  readonly status: number | undefined;

  constructor(engine: EngineName, reason: EngineFailure, message: string, status?: number) {
    super(`${ENGINE_TITLES[engine]}: ${message}`);
    this.name = 'EngineError';
    this.engine = engine;
    this.reason = reason;
    this.status = status;
  }

  /** Whether this failure says the engine is unwell (marks it down): no connection, a timeout, a 5xx. */
  get marksDown(): boolean {
    return this.reason === 'failed' || this.reason === 'timeout';
  }
}

/** The engines' names for people (logs, the doctor). */
export const ENGINE_TITLES: Readonly<Record<EngineName, string>> = {
  voicevox: 'VOICEVOX engine',
  speech: 'speech server',
};
