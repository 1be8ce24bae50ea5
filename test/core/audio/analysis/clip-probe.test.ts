import { describe, expect, it } from 'vitest';
import { analyseClip } from '../../../../src/core/audio/analysis/clip.ts';
import { probeClip } from '../../../../src/core/audio/analysis/clip-probe.ts';
import { buildWav, fixture, sine } from '../fixtures.ts';
import { longMp3, mp3WithHiddenHours } from '../../../../fixtures/long-mp3.ts';

describe('probeClip: the length from headers, no decoding', () => {
  it.each([
    ['too-long-61s.mp3', 'mp3', 'over', 61], // Info frame count, LAME delay/padding removed
    ['truncated.mp3', 'mp3', 'truncated', undefined], // cut mid-frame long before its Info tag's 11.39 s
    ['tone-330hz-5s-vbr-noxing.mp3', 'mp3', 'fits', undefined],
    ['tone-330hz-5s-vbr.mp3', 'mp3', 'fits', undefined],
    ['tone-220hz-5s-48k.wav', 'wav', 'fits', 5],
    ['too-short-2s.wav', 'wav', 'fits', 2],
    ['speech-en.m4a', 'm4a', 'fits', 8.657],
    ['not-allowed-ogg-5s.ogg', 'ogg', 'fits', undefined],
  ] as const)('%s: %s, %s, %s s', (name, format, verdict, seconds) => {
    const probe = probeClip(fixture(name), 60);
    expect(probe).toMatchObject({ format, verdict });
    const found = 'seconds' in probe ? probe.seconds : undefined;
    if (seconds === undefined) expect(found).toBeUndefined();
    else expect(found).toBeCloseTo(seconds, 3);
  });

  it('finds a 20 MB MP3 at 8 kb/s over a minute after reading about a minute of frame headers', () => {
    const probe = probeClip(longMp3(20_000_000), 60);
    // No Xing/Info tag: the rest is estimated from the frames read (CBR here, so exactly).
    expect(probe).toEqual({ format: 'mp3', verdict: 'over', seconds: 19999.44 });
  });
});

describe('analyseClip with maxSeconds', () => {
  it('decodes no more than the limit of an MP3 hiding hours behind junk', async () => {
    const info = await analyseClip(mp3WithHiddenHours(5, 150_000), { maxSeconds: 60 });
    expect(info.samples?.length).toBeLessThanOrEqual(61 * 8_000);
    expect(info.durationSeconds).toBeGreaterThan(60);
  });

  it('decodes no more than the limit of a long WAV, whose duration stays exact from its header', async () => {
    const info = await analyseClip(buildWav(sine(220, 90, 8_000), { sampleRate: 8_000, channels: 1 }), {
      maxSeconds: 60,
    });
    expect(info.durationSeconds).toBe(90);
    expect(info.samples?.length).toBeLessThanOrEqual(60 * 8_000 + 1);
  });
});
