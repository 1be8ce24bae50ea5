// A file of paid parts that came in pieces (the service's body streamed over HTTP) copies no whole part on the main
// thread: each piece is copied as it arrives into blocks of the request's own, the blocks move to the audio worker
// and are joined there (src/core/audio/workers/byte-blocks.ts). The pieces stay as they were: a flight's other
// readers and the cache hold them too.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Charge } from '../../../src/core/quota/charge.ts';
import { partsFile } from '../../../src/core/speech/clips.ts';
import type { PartSource, SpeechAudio } from '../../../src/core/speech/part-source.ts';
import type { SpeechRequest } from '../../../src/core/speech/request.ts';
import { encodeWav, toneSamples } from '../../../src/sandbox/synth.ts';
import { mainThreadCopies } from '../../support/main-thread-copies.ts';

const RATE = 24000;
const PIECE = 64 * 1024;
const charge = { context: { guildId: 'guild-1', userId: 'member-1', command: 'say' } } as unknown as Charge;
const request: SpeechRequest = { kind: 'tts', text: 'one two', voice: 'voice-b-en-f-01', format: 'wav' };

/** A WAV of `seconds` as the service streams it: pieces of 64 KiB, each a buffer of its own. */
function pieces(seconds: number, pitchHz: number): Buffer[] {
  const wav = Buffer.from(encodeWav(toneSamples({ pitchHz, seconds, amplitude: 0.3, sampleRate: RATE }), RATE));
  const out: Buffer[] = [];
  for (let at = 0; at < wav.length; at += PIECE) out.push(Buffer.from(wav.subarray(at, at + PIECE)));
  return out;
}

describe('a file of parts streamed in pieces', () => {
  it('is joined without one copy larger than a piece on the main thread, the pieces left as they were', async () => {
    const parts = [pieces(40, 200), pieces(25, 300)];
    const before = parts.map((part) => part.map((piece) => Buffer.from(piece)));
    const source = {
      fetch: (_request: SpeechRequest, text: string): Promise<SpeechAudio> => {
        const part = parts[Number(text)] ?? [];
        return Promise.resolve({ format: 'wav', body: Readable.from(part), requestId: text } as unknown as SpeechAudio);
      },
    } as unknown as PartSource;
    const { result, copies } = await mainThreadCopies(() =>
      partsFile(source, request, ['0', '1'], charge, () => Promise.resolve()),
    );
    expect(copies.length).toBeGreaterThan(0); // the pieces, as they arrived
    expect(copies.filter((copy) => copy.bytes > PIECE)).toEqual([]);
    expect(parts).toEqual(before);
    const [file] = result.files;
    expect(result.files).toHaveLength(1);
    expect(result.seconds).toBeCloseTo(65, 2);
    // One header and both parts' samples (each 24 kHz mono 16-bit).
    expect(file?.data.length).toBe(44 + 65 * RATE * 2);
  });
});
