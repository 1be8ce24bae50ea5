// How much audio a text may bring: seconds a character (a floor for short texts), in bytes at the audio's own rate
// where its header says it, the format's worst rate otherwise, and never past the byte cap.
import { describe, expect, it } from 'vitest';
import { audioBound, DEFAULT_AUDIO_LIMITS } from '../../../src/core/api/audio-body.ts';
import { encodeWav, toneSamples } from '@saybot/voice-sandbox/synth.ts';

const wavHead = (rate: number) =>
  encodeWav(toneSamples({ pitchHz: 200, seconds: 0.01, amplitude: 0.5, sampleRate: rate }), rate).subarray(0, 1024);
const ALLOWANCE = 256 * 1024;

describe('audioBound', () => {
  it('a WAV: seconds from the characters (30 s at least) at the rate its header gives', () => {
    expect(audioBound(DEFAULT_AUDIO_LIMITS, 'hi', 'wav', wavHead(24_000))).toEqual({
      maxSeconds: 30,
      maxBytes: 30 * 48_000 + ALLOWANCE,
    });
    expect(audioBound(DEFAULT_AUDIO_LIMITS, 'x'.repeat(100), 'wav', wavHead(16_000)).maxBytes).toBe(
      100 * 32_000 + ALLOWANCE,
    );
  });

  it('an MP3 at 320 kb/s at most; an unreadable header at 48 kHz stereo 32-bit; never past maxBytes', () => {
    expect(audioBound(DEFAULT_AUDIO_LIMITS, 'hi', 'mp3', new Uint8Array(10)).maxBytes).toBe(30 * 40_000 + ALLOWANCE);
    expect(audioBound(DEFAULT_AUDIO_LIMITS, 'hi', 'wav', new Uint8Array(10)).maxBytes).toBe(30 * 384_000 + ALLOWANCE);
    expect(
      audioBound({ ...DEFAULT_AUDIO_LIMITS, maxBytes: 1000 }, 'x'.repeat(5000), 'flac', new Uint8Array(10)).maxBytes,
    ).toBe(1000);
  });
});
