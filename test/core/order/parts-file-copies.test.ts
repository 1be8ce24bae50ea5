// A file of paid parts that came in pieces (the service's body streamed over HTTP) copies no whole part on the main
// thread: each piece is copied as it arrives into blocks of the request's own, the blocks move to the audio worker
// and are joined there (src/core/audio/workers/byte-blocks.ts). The pieces stay as they were: a flight's other
// readers and the cache hold them too.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Charge } from '../../../src/core/quota/paid-call.ts';
import { partsFile } from '../../../src/core/order/clips.ts';
import type { PartSource } from '../../../src/core/sourcing/part-source.ts';
import type { SpeechAudio } from '../../../src/core/sourcing/order-account.ts';
import type { SpeechRequest } from '../../../src/core/settings/speech-request.ts';
import { encodeMp3, encodeWav, toneSamples } from '@saybot/voice-sandbox/synth.ts';
import { mainThreadCopies } from '../../support/main-thread-copies.ts';
import { inPieces, PIECE } from '../../support/streamed-pieces.ts';

const RATE = 24000;
const charge = { context: { guildId: 'guild-1', userId: 'member-1', command: 'say' } } as unknown as Charge;
const request: SpeechRequest = { kind: 'tts', text: 'one two', voice: 'voice-b-en-f-01', format: 'wav' };

/** A WAV of `seconds` as the service streams it. */
const pieces = (seconds: number, pitchHz: number): Buffer[] =>
  inPieces(encodeWav(toneSamples({ pitchHz, seconds, amplitude: 0.3, sampleRate: RATE }), RATE));

/** A part source serving `parts` by their index as text, each as a body of its pieces. */
const sourceOf = (parts: Array<{ format: string; pieces: Buffer[] }>) =>
  ({
    fetchPart: (_request: SpeechRequest, text: string): Promise<{ audio: SpeechAudio }> => {
      const part = parts[Number(text)];
      return Promise.resolve({
        audio: {
          format: part?.format,
          body: Readable.from(part?.pieces ?? []),
          requestId: text,
        } as unknown as SpeechAudio,
      });
    },
  }) as unknown as PartSource;

describe('a file of parts streamed in pieces', () => {
  it('is joined without one copy larger than a piece on the main thread, the pieces left as they were', async () => {
    const parts = [pieces(40, 200), pieces(25, 300)];
    const before = parts.map((part) => part.map((piece) => Buffer.from(piece)));
    const source = sourceOf(parts.map((part) => ({ format: 'wav', pieces: part })));
    const { result, copies } = await mainThreadCopies(() =>
      partsFile(source, request, ['0', '1'], { charge }, () => Promise.resolve()),
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

  it('of differing formats is posted as a file a part, each made exact and measured in the audio worker', async () => {
    const wav = pieces(30, 200);
    const mp3 = inPieces(
      await encodeMp3(toneSamples({ pitchHz: 300, seconds: 20, amplitude: 0.3, sampleRate: RATE }), RATE, 64),
    );
    const source = sourceOf([
      { format: 'wav', pieces: wav },
      { format: 'mp3', pieces: mp3 },
    ]);
    const { result, copies } = await mainThreadCopies(() =>
      partsFile(source, request, ['0', '1'], { charge }, () => Promise.resolve()),
    );
    expect(copies.filter((copy) => copy.bytes > PIECE)).toEqual([]);
    expect(result.files.map((file) => file.format)).toEqual(['wav', 'mp3']);
    expect(result.files[0]?.data.length).toBe(44 + 30 * RATE * 2);
    expect(result.seconds).toBeCloseTo(50, 1);
  });
});
