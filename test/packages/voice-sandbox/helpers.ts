// Small HTTP and audio helpers for the sandbox suites: real requests with fetch, real decoding with src/core/audio.
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { analyseClip, dominantPitchHz, rmsDbfs, type ClipInfo } from '../../../src/core/audio/analysis/clip.ts';
import { startSandbox, type Sandbox } from '@saybot/voice-sandbox';
import { made } from '../../support/made.ts';

export { fixture } from '../../core/audio/fixtures.ts';

interface PostOptions {
  /** The key to send; null sends no Authorization header. Default: the sandbox's test key. */
  key?: string | null;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

function authHeaders(sandbox: Sandbox, key: string | null | undefined): Record<string, string> {
  const k = key === undefined ? sandbox.testKey : key;
  return k === null ? {} : { Authorization: `Bearer ${k}` };
}

/** POSTs `body` as JSON (a string is sent as it is, for malformed bodies). */
export function postJson(sandbox: Sandbox, path: string, body: unknown, options: PostOptions = {}): Promise<Response> {
  return fetch(`${sandbox.url}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...authHeaders(sandbox, options.key), ...options.headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    signal: options.signal,
  });
}

export function tts(sandbox: Sandbox, body: unknown, options?: PostOptions): Promise<Response> {
  return postJson(sandbox, '/v1/tts', body, options);
}

export function emotionTts(sandbox: Sandbox, body: unknown, options?: PostOptions): Promise<Response> {
  return postJson(sandbox, '/v1/emotion-tts', body, options);
}

/** POSTs a multipart voice clone; `refAudio` undefined leaves the file part out. */
export function cloneVoice(
  sandbox: Sandbox,
  fields: { text?: string; refAudio?: Uint8Array; filename?: string },
  options: PostOptions = {},
): Promise<Response> {
  const form = new FormData();
  if (fields.text !== undefined) form.set('text', fields.text);
  if (fields.refAudio !== undefined)
    form.set('ref_audio', new Blob([fields.refAudio]), fields.filename ?? 'reference.wav');
  return fetch(`${sandbox.url}/v1/voice-clone`, {
    method: 'POST',
    headers: { ...authHeaders(sandbox, options.key), ...options.headers },
    body: form,
    signal: options.signal,
  });
}

export interface Heard {
  bytes: Uint8Array;
  info: ClipInfo;
  pitchHz: number | undefined;
  levelDbfs: number;
}

/** Decodes a successful audio response and measures what it sounds like. */
export async function hear(response: Response): Promise<Heard> {
  expect(response.status).toBe(200);
  const bytes = new Uint8Array(await response.arrayBuffer());
  const info = await analyseClip(bytes);
  const samples = info.samples ?? expect.fail(`no samples decoded from ${info.format}`);
  return { bytes, info, pitchHz: dominantPitchHz(samples, info.sampleRate), levelDbfs: rmsDbfs(samples) };
}

/** Reads an error response: its status and {"error": {"code", "message"}} body. */
export async function errorOf(
  response: Response,
): Promise<{ status: number; code: string; message: string; text: string }> {
  const text = await response.text();
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const body = JSON.parse(text) as { error?: { code?: unknown; message?: unknown } };
  expect(typeof body.error?.code).toBe('string');
  expect(typeof body.error?.message).toBe('string');
  return { status: response.status, code: String(body.error?.code), message: String(body.error?.message), text };
}

/** Polls until `condition` holds (the sandbox records as it goes); throws after `ms`. */
export async function until(condition: () => boolean, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Reads a body piece by piece as it arrives; stops with the error that ended it, if any. */
export async function readPieces(response: Response): Promise<{ pieces: Uint8Array[]; error?: unknown }> {
  const pieces: Uint8Array[] = [];
  const reader = (response.body ?? expect.fail('no body')).getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { pieces };
      pieces.push(value);
    }
  } catch (error) {
    return { pieces, error };
  }
}

export function totalLength(pieces: readonly Uint8Array[]): number {
  return pieces.reduce((n, p) => n + p.length, 0);
}

/** One sandbox for a test file: started before its tests, its counters reset before each, closed after. */
export function useStartedSandbox(): { readonly sandbox: Sandbox } {
  let sandbox: Sandbox | undefined;
  beforeAll(async () => {
    sandbox = await startSandbox();
  });
  beforeEach(() => sandbox?.resetCounters());
  afterAll(() => sandbox?.close());
  return made<{ sandbox: Sandbox }>({ sandbox: () => sandbox });
}
