// Small HTTP and audio helpers for the engine doubles' suites: real requests with fetch, real decoding with
// src/core/audio (SayBot's own reader, which shares no code with the doubles).
import { expect } from 'vitest';
import { analyseClip, dominantPitchHz, rmsDbfs, type ClipInfo } from '../../../src/core/audio/analysis/clip.ts';

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

/** A WAV header's rate, channels and declared data size (the 44-byte form the doubles write). */
export function wavFacts(bytes: Uint8Array): { riff: string; rate: number; channels: number; dataBytes: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return {
    riff: String.fromCharCode(...bytes.subarray(0, 4)),
    channels: view.getUint16(22, true),
    rate: view.getUint32(24, true),
    dataBytes: view.getUint32(40, true),
  };
}

export function postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** Reads a body until at least `atLeast` bytes came, then cancels it; `ended` when the body ended first. */
export async function readSome(response: Response, atLeast: number): Promise<{ bytes: Uint8Array; ended: boolean }> {
  const reader = (response.body ?? expect.fail('no body')).getReader();
  const pieces: Uint8Array[] = [];
  let length = 0;
  while (length < atLeast) {
    const { done, value } = await reader.read();
    if (done) return { bytes: Buffer.concat(pieces), ended: true };
    pieces.push(value);
    length += value.length;
  }
  await reader.cancel();
  return { bytes: Buffer.concat(pieces), ended: false };
}
