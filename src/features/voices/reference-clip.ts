import './strings.ts';
import { request } from 'undici';
import { probeClip, type ClipProbe } from '../../core/audio/analysis/clip-probe.ts';
import {
  ClipCheckUnavailableError,
  measureClipOffThread,
  type MeasuredClip,
} from '../../core/audio/jobs/clip-check/clip-thread.ts';
import { ClipError } from '../../core/audio/errors.ts';
import { UserError } from '../../core/interactions/failures.ts';

/** What the Voice API accepts as a reference clip (voice-api.md, /v1/voice-clone). */
export const CLIP_MIN_SECONDS = 3;
export const CLIP_MAX_SECONDS = 60;
const ACCEPTED_FORMATS = new Set(['wav', 'mp3', 'm4a']);
/** Quieter than this over the whole clip is silence, or too quiet to clone a voice from. */
const SILENCE_DBFS = -50;

export interface ClipDownloadLimits {
  /** Hosts a clip may come from: Discord's attachment hosts in production. */
  allowedHosts: readonly string[];
  maxBytes: number;
  timeoutMs: number;
}

export interface CheckedClip {
  data: Uint8Array;
  format: 'wav' | 'mp3' | 'm4a';
  contentType: string;
  durationSeconds: number;
}

const CONTENT_TYPES = { wav: 'audio/wav', mp3: 'audio/mpeg', m4a: 'audio/mp4' } as const;
const mb = (bytes: number) => (bytes / (1024 * 1024)).toFixed(1);

/**
 * Downloads an attachment from an allowed host, capped in size and time (no internal addresses, no endless bodies),
 * into one buffer: joining tens of megabytes at the end would hold the main thread.
 */
export async function downloadClip(
  url: string,
  declaredSize: number | undefined,
  limits: ClipDownloadLimits,
): Promise<Uint8Array> {
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  if (!parsed || !limits.allowedHosts.includes(parsed.host)) {
    throw new UserError('clone.error.host', { host: parsed?.host ?? 'an invalid address' });
  }
  if (declaredSize !== undefined && declaredSize > limits.maxBytes) {
    throw new UserError('clone.error.tooLarge', { size: mb(declaredSize), limit: mb(limits.maxBytes) });
  }
  const signal = AbortSignal.timeout(limits.timeoutMs);
  let response: Awaited<ReturnType<typeof request>>;
  try {
    response = await request(parsed, { method: 'GET', signal, maxRedirections: 0 });
  } catch (error) {
    throw new UserError(
      'clone.error.download',
      { detail: signal.aborted ? 'timed out' : 'connection failed' },
      { cause: error, level: 'warn' },
    );
  }
  // The timeout signal stays armed on the body; its late abort must not surface as an unhandled 'error'.
  response.body.on('error', () => undefined);
  if (response.statusCode !== 200) {
    response.body.destroy();
    throw new UserError('clone.error.download', { detail: `HTTP ${response.statusCode}` }, { level: 'warn' });
  }
  const announced = Number(response.headers['content-length']);
  if (Number.isSafeInteger(announced) && announced > limits.maxBytes) {
    response.body.destroy();
    throw new UserError('clone.error.tooLarge', { size: mb(announced), limit: mb(limits.maxBytes) });
  }
  const body = new BodyBuffer(Number.isSafeInteger(announced) ? announced : (declaredSize ?? 0), limits.maxBytes);
  try {
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      if (!body.append(chunk)) {
        throw new UserError('clone.error.tooLarge', { size: `>${mb(limits.maxBytes)}`, limit: mb(limits.maxBytes) });
      }
    }
  } catch (error) {
    if (error instanceof UserError) throw error;
    throw new UserError(
      'clone.error.download',
      { detail: signal.aborted ? 'timed out' : 'cut off' },
      { cause: error, level: 'warn' },
    );
  }
  return body.bytes();
}

/** A download's bytes in one buffer sized as announced, doubled up to the cap only when a body runs past it. */
class BodyBuffer {
  #buffer: Uint8Array;
  #length = 0;
  readonly #max: number;

  constructor(expected: number, max: number) {
    this.#max = max;
    this.#buffer = new Uint8Array(Math.min(Math.max(expected, 64 * 1024), max));
  }

  /** False when the body would pass the cap. */
  append(chunk: Uint8Array): boolean {
    const needed = this.#length + chunk.length;
    if (needed > this.#max) return false;
    if (needed > this.#buffer.length) {
      const grown = new Uint8Array(Math.min(Math.max(needed, this.#buffer.length * 2), this.#max));
      grown.set(this.#buffer.subarray(0, this.#length));
      this.#buffer = grown;
    }
    this.#buffer.set(chunk, this.#length);
    this.#length = needed;
    return true;
  }

  bytes(): Uint8Array {
    return this.#buffer.subarray(0, this.#length);
  }
}

/**
 * Checks a clip before upload: real format, exact duration, whole, not silent (M4A: no loudness, no AAC decoder). Over
 * 60 s is refused from its headers; the rest decoded in a worker, so the caller uses the result's `data`.
 */
export async function checkReferenceClip(data: Uint8Array, guild = ''): Promise<CheckedClip> {
  let probe: ClipProbe;
  try {
    probe = probeClip(data, CLIP_MAX_SECONDS);
  } catch (error) {
    throw clipRefusal(error);
  }
  if (!ACCEPTED_FORMATS.has(probe.format))
    throw new UserError('clone.error.format', { found: probe.format.toUpperCase() });
  if (probe.verdict === 'truncated') throw new UserError('clone.error.corrupt', {});
  if (probe.verdict === 'over') throw durationRefusal(probe.seconds);
  const format = probe.format as CheckedClip['format'];

  // M4A is measured from its header alone; other clips' bytes move to the worker and back: use the result's.
  const measured: { clip: Pick<MeasuredClip, 'durationSeconds' | 'truncated' | 'levelDbfs'>; bytes: Uint8Array } =
    format === 'm4a'
      ? { clip: { durationSeconds: probe.seconds ?? 0, truncated: false, levelDbfs: undefined }, bytes: data }
      : await measureClipOffThread(data, CLIP_MAX_SECONDS, guild).catch((error: unknown) => {
          if (error instanceof ClipCheckUnavailableError && error.reason === 'owner-busy')
            throw new UserError('clone.error.checkBusyServer', { limit: error.limit ?? 0 }, { cause: error });
          if (error instanceof ClipCheckUnavailableError)
            throw new UserError('clone.error.checkBusy', {}, { cause: error, level: 'warn' });
          throw clipRefusal(error);
        });
  const info = measured.clip;
  if (info.truncated) throw new UserError('clone.error.corrupt', {});
  const seconds = info.durationSeconds;
  if (seconds < CLIP_MIN_SECONDS || seconds > CLIP_MAX_SECONDS) throw durationRefusal(seconds);
  const level = info.levelDbfs;
  if (level !== undefined && level < SILENCE_DBFS)
    throw new UserError('clone.error.silent', { level: Number.isFinite(level) ? level.toFixed(0) : '-∞' });
  return { data: measured.bytes, format, contentType: CONTENT_TYPES[format], durationSeconds: seconds };
}

function clipRefusal(error: unknown): UserError {
  if (error instanceof ClipError && error.code === 'unsupported-format')
    return new UserError('clone.error.format', { found: 'not audio' });
  return new UserError('clone.error.corrupt', {}, { cause: error });
}

// Two decimals, so 2.9 s does not read as "3.0 s: too short".
const durationRefusal = (seconds: number): UserError =>
  new UserError('clone.error.duration', { seconds: seconds.toFixed(2), min: CLIP_MIN_SECONDS, max: CLIP_MAX_SECONDS });
