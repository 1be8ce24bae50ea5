// Pacing and the streamed WAV header: the body arrives in pieces while the sandbox is still sending it.
// Assertions are on order and counts, never on how long anything took.
import { Writable } from 'node:stream';
import { beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/core/log.ts';
import { startSandbox } from '@saybot/voice-sandbox';
import { emotionTts, hear, readPieces, totalLength, tts, until, useStartedSandbox } from './helpers.ts';

const rig = useStartedSandbox();
beforeEach(() => {
  rig.sandbox.setPacing({ startDelayMs: 0, realtimeFactor: 0, chunkBytes: 4096, streamedWavHeader: false });
});

// 1.2 s of audio: 57,644 bytes of WAV at 24 kHz.
const TEXT = { text: 'Twenty characters!!!', voice_id: 'voice-b-de-f-01' };

describe('pacing', () => {
  it('sends a paced body chunked, in order, while still synthesising', async () => {
    rig.sandbox.setPacing({ realtimeFactor: 0.25, chunkBytes: 2048 });
    // This case's own request: another case of the file may have run first (the suite shuffles them).
    const mine = rig.sandbox.requests.length;
    const response = await tts(rig.sandbox, TEXT);
    expect(response.headers.get('transfer-encoding')).toBe('chunked');
    expect(response.headers.get('content-length')).toBeNull();
    const reader = (response.body ?? expect.fail('no body')).getReader();
    const first = await reader.read();
    // The first piece is here; the sandbox has more to send.
    const record = rig.sandbox.requests[mine] ?? expect.fail('no record');
    expect(record.outcome).toBeUndefined();
    expect(record.bodyBytes).toBeLessThan(57_644);
    const pieces = [first.value ?? expect.fail('empty body')];
    for (let r = await reader.read(); !r.done; r = await reader.read()) pieces.push(r.value);
    expect(pieces.length).toBeGreaterThan(5);
    expect(rig.sandbox.requests[mine]).toMatchObject({
      outcome: 'complete',
      bodyBytes: 57_644,
      chunks: Math.ceil(57_644 / 2048),
    });

    // The same bytes, in the same order, as an unpaced response.
    rig.sandbox.setPacing({ realtimeFactor: 0 });
    const whole = new Uint8Array(await (await tts(rig.sandbox, TEXT)).arrayBuffer());
    expect(Buffer.concat(pieces).equals(whole)).toBe(true);
  });

  it('sends an unpaced body with Content-Length in chunkBytes writes', async () => {
    rig.sandbox.setPacing({ chunkBytes: 1000 });
    const mine = rig.sandbox.requests.length;
    const response = await tts(rig.sandbox, TEXT);
    expect(response.headers.get('content-length')).toBe('57644');
    const { pieces, error } = await readPieces(response);
    expect(error).toBeUndefined();
    expect(totalLength(pieces)).toBe(57_644);
    expect(rig.sandbox.requests[mine]?.chunks).toBe(58);
  });

  it('holds the headers back for startDelayMs, and stops waiting when the client leaves', async () => {
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const own = await startSandbox({ logger: createLogger({ destination }), pacing: { startDelayMs: 60_000 } });
    try {
      const controller = new AbortController();
      const pending = tts(own, TEXT, { signal: controller.signal }).catch((e: unknown) => e);
      // Synthesised (the voice is known) but no status sent.
      await until(() => own.requests[0]?.voice !== undefined);
      expect(own.requests[0]?.status).toBeUndefined();
      controller.abort();
      expect(await pending).toMatchObject({ name: 'AbortError' });
      // The request's log line is written when its handling ends: long before the 60 s delay.
      await until(() => lines.some((line) => line.includes('"outcome":"client-aborted"')));
      expect(own.requests[0]?.status).toBeUndefined();
      expect(lines.join('')).toContain(`"keyHint":"…${own.testKey.slice(-4)}"`);
      expect(lines.join('')).not.toContain(own.testKey);
    } finally {
      await own.close();
    }
  });

  it('does not delay error responses', async () => {
    rig.sandbox.setPacing({ startDelayMs: 60_000 });
    expect((await tts(rig.sandbox, { text: 'hi', voice_id: 'nope' })).status).toBe(400);
  });

  it('close() ends paced responses promptly', async () => {
    const own = await startSandbox({ pacing: { realtimeFactor: 100 } });
    const response = await tts(own, TEXT);
    const reader = (response.body ?? expect.fail('no body')).getReader();
    await reader.read();
    const next = reader.read();
    await own.close();
    await expect(next).rejects.toThrow();
  });

  it('rejects bad pacing', () => {
    expect(() => rig.sandbox.setPacing({ chunkBytes: 0 })).toThrow();
    expect(() => rig.sandbox.setPacing({ realtimeFactor: -1 })).toThrow();
    expect(rig.sandbox.pacing.chunkBytes).toBe(4096);
  });
});

describe('streamed WAV header', () => {
  it('carries sizes of 0xFFFFFFFF and a LIST chunk before data, and still decodes', async () => {
    rig.sandbox.setPacing({ streamedWavHeader: true });
    for (const response of [
      await tts(rig.sandbox, TEXT),
      await emotionTts(rig.sandbox, { text: TEXT.text, voice: TEXT.voice_id }),
    ]) {
      expect(response.headers.get('content-length')).toBeNull();
      const heard = await hear(response);
      const view = new DataView(heard.bytes.buffer, heard.bytes.byteOffset);
      const ascii = (at: number) => Buffer.from(heard.bytes.subarray(at, at + 4)).toString('latin1');
      expect(ascii(0)).toBe('RIFF');
      expect(view.getUint32(4, true)).toBe(0xffffffff);
      expect(ascii(36)).toBe('LIST');
      const dataAt = 36 + 8 + view.getUint32(40, true);
      expect(ascii(dataAt)).toBe('data');
      expect(view.getUint32(dataAt + 4, true)).toBe(0xffffffff);
      expect(Math.abs(heard.info.durationSeconds - 1.2)).toBeLessThan(0.1);
      expect(Math.abs((heard.pitchHz ?? 0) - 465)).toBeLessThan(3);
    }
  });

  it('leaves MP3 alone: Content-Length, no WAV header', async () => {
    rig.sandbox.setPacing({ streamedWavHeader: true });
    const response = await tts(rig.sandbox, { ...TEXT, output_format: 'mp3' });
    expect(Number(response.headers.get('content-length'))).toBeGreaterThan(0);
    expect((await hear(response)).info.format).toBe('mp3');
  });

  it('is what a streaming service sends by default, and plain (exact sizes, no LIST) when turned off', async () => {
    const fresh = await startSandbox();
    try {
      expect(fresh.pacing.streamedWavHeader).toBe(true);
      expect(fresh.variants.wavHeader).toBe('streamed');
    } finally {
      await fresh.close();
    }
    // This suite's beforeEach turned it off.
    const heard = await hear(await tts(rig.sandbox, TEXT));
    const view = new DataView(heard.bytes.buffer, heard.bytes.byteOffset);
    expect(view.getUint32(4, true)).toBe(heard.bytes.length - 8);
    expect(Buffer.from(heard.bytes.subarray(36, 40)).toString('latin1')).toBe('data');
    expect(view.getUint32(40, true)).toBe(heard.bytes.length - 44);
  });
});
