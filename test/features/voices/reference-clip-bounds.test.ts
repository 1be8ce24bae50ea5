import { describe, expect, it, vi } from 'vitest';
import type * as Mpg123 from '../../../src/core/audio/codecs/mpg123.ts';
import { checkReferenceClip } from '../../../src/features/voices/reference-clip.ts';
import { MAX_CLIPS_PER_GUILD, MAX_WAITING_CLIPS } from '../../../src/core/audio/jobs/clip-check/clip-thread.ts';
import { fixture } from '../../core/audio/fixtures.ts';
import { refusal } from '../../core/interactions/refusal.ts';
import { longMp3, mp3WithHiddenHours } from '../../../fixtures/long-mp3.ts';

// A clip's check is bounded in time and memory whatever the file, and decodes nothing on the main
// thread. Every MP3 decoder this thread opens is counted here (the worker thread has its own module instance).
const opened = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../../src/core/audio/codecs/mpg123.ts', async (importOriginal) => {
  const real = await importOriginal<typeof Mpg123>();
  return {
    ...real,
    openMp3Decoder: (options: { gapless: boolean }) => {
      opened.count++;
      return real.openMp3Decoder(options);
    },
  };
});

describe('checkReferenceClip, bounded', () => {
  it('refuses a 20 MB MP3 at 8 kb/s (5.6 hours) as too long from its frame headers: no decoder opened', async () => {
    const huge = longMp3(20_000_000);
    opened.count = 0;
    expect(await refusal(checkReferenceClip(huge))).toBe('The clip lasts 19999.44 s; it must last 3 to 60 seconds.');
    expect(opened.count).toBe(0);
  });

  it('decodes a clip that fits in a worker thread, not on this one, and keeps its figures', async () => {
    opened.count = 0;
    const clip = await checkReferenceClip(fixture('tone-330hz-5s-vbr.mp3'));
    expect(clip.durationSeconds).toBeCloseTo(5, 2);
    expect(await refusal(checkReferenceClip(fixture('silent-5s.wav')))).toBe(
      'The clip is silent (-∞ dBFS). Attach a recording of the person speaking.',
    );
    expect(opened.count).toBe(0);
  });

  it('decodes at most a minute of a clip whose header walk stops early (frames hidden behind junk), and refuses it', async () => {
    // 5 s of frames, junk, then ~35 minutes more: the headers say "fits"; only the decoder's own limit bounds it.
    const message = await refusal(checkReferenceClip(mp3WithHiddenHours(5, 150_000)));
    const seconds = Number(/^The clip lasts (\d+\.\d\d) s;/.exec(message)?.[1]);
    expect(seconds).toBeGreaterThan(60);
    expect(seconds).toBeLessThan(62); // what was decoded before stopping, not the whole file
  });

  it('refuses a WAV whose data chunk holds more than a minute from its header alone', async () => {
    // A header that promises 2 hours of 8 kHz 16-bit mono, followed by a minute and a half of it.
    const header = Buffer.alloc(44);
    header.write('RIFF', 0);
    header.writeUInt32LE(36 + 2 * 3600 * 16_000, 4);
    header.write('WAVEfmt ', 8);
    header.writeUInt32LE(16, 16);
    header.writeUInt16LE(1, 20);
    header.writeUInt16LE(1, 22);
    header.writeUInt32LE(8_000, 24);
    header.writeUInt32LE(16_000, 28);
    header.writeUInt16LE(2, 32);
    header.writeUInt16LE(16, 34);
    header.write('data', 36);
    header.writeUInt32LE(90 * 16_000, 40);
    const wav = Buffer.concat([header, Buffer.alloc(90 * 16_000, 1)]);
    expect(await refusal(checkReferenceClip(wav))).toBe('The clip lasts 90.00 s; it must last 3 to 60 seconds.');
  });

  it('lets a few clips wait for the decoder and refuses more at once, with a clear answer', async () => {
    const clip = () => fixture('tone-220hz-5s-48k.wav');
    // One decoding and MAX_WAITING_CLIPS waiting fit; the next asked at the same moment is told to try again.
    const results = await Promise.all(
      Array.from({ length: MAX_WAITING_CLIPS + 2 }, () =>
        checkReferenceClip(clip()).then(
          () => 'ok',
          (e: unknown) => refusal(Promise.reject(e)),
        ),
      ),
    );
    expect(results.slice(0, MAX_WAITING_CLIPS + 1)).toEqual(results.slice(0, MAX_WAITING_CLIPS + 1).map(() => 'ok'));
    expect(results[MAX_WAITING_CLIPS + 1]).toBe(
      'Too many clips are being checked right now. Please attach yours again in a minute.',
    );
  });

  it("refuses a server's clip past its share of the decoder, in words of its own", async () => {
    const clip = () => fixture('tone-220hz-5s-48k.wav');
    const results = await Promise.all(
      Array.from({ length: MAX_CLIPS_PER_GUILD + 1 }, () =>
        checkReferenceClip(clip(), 'guild-a').then(
          () => 'ok',
          (e: unknown) => refusal(Promise.reject(e)),
        ),
      ),
    );
    expect(results.filter((r) => r === 'ok')).toHaveLength(MAX_CLIPS_PER_GUILD);
    expect(results).toContain(
      `This server already has ${MAX_CLIPS_PER_GUILD} clips being checked. Wait for their answers, then attach yours again.`,
    );
  });
});
