import { describe, expect, it } from 'vitest';
import { analyseClip, ClipError, dominantPitchHz, rmsDbfs } from '../../../../src/core/audio/analysis/clip.ts';
import type { ClipInfo } from '../../../../src/core/audio/analysis/clip.ts';
import { findFirstMpegFrame, readVbrHeader, skipId3v2 } from '../../../../src/core/audio/codecs/mpeg.ts';
import { liveMp3Decoders } from '../../../../src/core/audio/codecs/mpg123.ts';
import { buildWav, fixture, sine } from '../fixtures.ts';

const DURATION_TOLERANCE = 0.05;

async function clip(name: string): Promise<ClipInfo> {
  return analyseClip(fixture(name));
}

async function clipError(bytes: Uint8Array): Promise<ClipError> {
  const error: unknown = await analyseClip(bytes).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ClipError);
  return error as ClipError;
}

describe('analyseClip on the fixture clips', () => {
  // [file, format, README duration, sample rate, channels, pitch (where decodable)]
  it.each([
    ['speech-en-24k-mono.wav', 'wav', 8.66, 24000, 1, undefined],
    ['tone-220hz-5s-48k.wav', 'wav', 5.0, 48000, 1, 220],
    ['too-short-2s.wav', 'wav', 2.0, 24000, 1, undefined],
    ['silent-5s.wav', 'wav', 5.0, 24000, 1, undefined],
    ['speech-ko-44k-stereo.mp3', 'mp3', 11.39, 44100, 2, undefined],
    ['tone-330hz-5s-vbr.mp3', 'mp3', 5.0, 44100, 1, 330],
    ['tone-330hz-5s-vbr-noxing.mp3', 'mp3', 5.0, 44100, 1, 330],
    ['speech-en.m4a', 'm4a', 8.66, 44100, 1, undefined],
    ['tone-440hz-5s.m4a', 'm4a', 5.0, 22050, 1, undefined],
    ['too-short-2.9s.m4a', 'm4a', 2.9, 44100, undefined, undefined],
    ['not-allowed-ogg-5s.ogg', 'ogg', 5.0, undefined, undefined, undefined],
    ['ogg-renamed-as.wav', 'ogg', 5.0, undefined, undefined, undefined],
  ] as const)('%s: %s, %f s', async (name, format, seconds, rate, channels, pitch) => {
    const info = await clip(name);
    expect(info.format).toBe(format);
    expect(info.durationSeconds).toBeGreaterThan(seconds - DURATION_TOLERANCE);
    expect(info.durationSeconds).toBeLessThan(seconds + DURATION_TOLERANCE);
    expect(info.truncated).toBe(false);
    if (rate !== undefined) expect(info.sampleRate).toBe(rate);
    if (channels !== undefined) expect(info.channels).toBe(channels);
    if (format === 'wav' || format === 'mp3') {
      expect(info.samples).toBeInstanceOf(Float32Array);
      // The samples are the duration: nothing added, nothing lost.
      expect(info.samples!.length).toBe(Math.round(info.durationSeconds * info.sampleRate));
    } else {
      expect(info.samples).toBeUndefined();
    }
    if (pitch !== undefined) {
      expect(Math.abs(dominantPitchHz(info.samples!, info.sampleRate)! - pitch)).toBeLessThan(3);
    }
  });

  it('removes the LAME encoder delay and padding: the VBR tone is 5.00 s exactly', async () => {
    const info = await clip('tone-330hz-5s-vbr.mp3');
    expect(info.durationSeconds).toBeCloseTo(5.0, 3);
  });

  it('without a Xing/LAME header, reports every decoded frame (5.04 s: 5 s + padding), not a size estimate', async () => {
    const info = await clip('tone-330hz-5s-vbr-noxing.mp3');
    expect(info.durationSeconds).toBeCloseTo((193 * 1152) / 44100, 4); // ffprobe's size-based 4.72 s is far off
  });

  it('too-long-61s.mp3 holds 61.00 s of audio; the README 61.09 s counts the encoder delay and padding too', async () => {
    const info = await clip('too-long-61s.mp3');
    expect(info.durationSeconds).toBeCloseTo(61.0, 3);
    expect(info.durationSeconds).toBeGreaterThan(60);
    const bytes = fixture('too-long-61s.mp3');
    const first = findFirstMpegFrame(bytes, skipId3v2(bytes))!;
    const vbr = readVbrHeader(bytes, first.offset, first.header)!;
    expect((vbr.frames! * first.header.samplesPerFrame) / first.header.sampleRate).toBeCloseTo(61.09, 2);
    expect(vbr.encoderDelay! + vbr.encoderPadding!).toBe(576 + 896);
  });

  it('finds the 440 Hz tone in the short WAV', async () => {
    const info = await clip('too-short-2s.wav');
    expect(Math.abs(dominantPitchHz(info.samples!, info.sampleRate)! - 440)).toBeLessThan(3);
  });

  it('flags truncated.mp3 as truncated, with about 1.25 s of frames', async () => {
    const info = await clip('truncated.mp3');
    expect(info.truncated).toBe(true);
    expect(info.format).toBe('mp3');
    expect(info.durationSeconds).toBeGreaterThan(1.15);
    expect(info.durationSeconds).toBeLessThan(1.3);
  });

  it('a speech fixture has a voice-range pitch and a speech-like level', async () => {
    const info = await clip('speech-en-24k-mono.wav');
    const pitch = dominantPitchHz(info.samples!, info.sampleRate)!;
    expect(pitch).toBeGreaterThan(60);
    expect(pitch).toBeLessThan(400);
    expect(rmsDbfs(info.samples!)).toBeGreaterThan(-40);
  });

  it('reads digital silence as -Infinity dBFS and finds no pitch in it', async () => {
    const info = await clip('silent-5s.wav');
    expect(rmsDbfs(info.samples!)).toBe(-Infinity);
    expect(dominantPitchHz(info.samples!, info.sampleRate)).toBeUndefined();
  });

  it('frees every mpg123 decoder it creates', async () => {
    await Promise.all([clip('tone-330hz-5s-vbr.mp3'), clip('truncated.mp3')]);
    expect(liveMp3Decoders()).toBe(0);
  });
});

describe('analyseClip on built WAVs', () => {
  it('reads a streamed-header WAV: data size 0xFFFFFFFF, LIST chunk before data', async () => {
    const list = Buffer.concat([
      Buffer.from('INFOISFT', 'latin1'),
      Buffer.from([13, 0, 0, 0]),
      Buffer.from('SayBot test\0\0', 'latin1'),
    ]);
    const wav = buildWav(sine(300, 1.5, 22050), {
      sampleRate: 22050,
      channels: 1,
      declaredDataBytes: 0xffffffff,
      extraChunks: [{ id: 'LIST', body: list }],
    });
    const info = await analyseClip(wav);
    expect(info).toMatchObject({ format: 'wav', sampleRate: 22050, channels: 1, truncated: false });
    expect(info.durationSeconds).toBeCloseTo(1.5, 6);
    expect(Math.abs(dominantPitchHz(info.samples!, 22050)! - 300)).toBeLessThan(1);
  });

  it('reads data size 0 as "until the end", with a fact chunk and an odd-sized chunk before data', async () => {
    const fact = Buffer.alloc(4);
    fact.writeUInt32LE(24000, 0);
    const wav = buildWav(sine(200, 1, 24000), {
      sampleRate: 24000,
      channels: 1,
      declaredDataBytes: 0,
      extraChunks: [
        { id: 'fact', body: fact },
        { id: 'odd ', body: Buffer.from('abc') },
      ],
    });
    expect((await analyseClip(wav)).durationSeconds).toBeCloseTo(1, 6);
  });

  it.each([
    [8, false],
    [16, false],
    [24, false],
    [32, false],
    [32, true],
  ] as const)('decodes %i-bit (float: %s) stereo and mixes it to mono', async (bits, float) => {
    const wav = buildWav(sine(500, 0.5, 44100, 2, 0.5), { sampleRate: 44100, channels: 2, bitsPerSample: bits, float });
    const info = await analyseClip(wav);
    expect(info).toMatchObject({ sampleRate: 44100, channels: 2 });
    expect(info.durationSeconds).toBeCloseTo(0.5, 6);
    expect(Math.abs(rmsDbfs(info.samples!) - 20 * Math.log10(0.5 / Math.SQRT2))).toBeLessThan(0.1); // 8-bit: 127/128 scale
    expect(Math.abs(dominantPitchHz(info.samples!, 44100)! - 500)).toBeLessThan(1);
  });

  it('flags a WAV whose data chunk claims more than the file holds', async () => {
    const wav = buildWav(sine(440, 1, 24000), { sampleRate: 24000, channels: 1 });
    const info = await analyseClip(wav.subarray(0, wav.length - 1001));
    expect(info.truncated).toBe(true);
    expect(info.durationSeconds).toBeCloseTo(1 - 501 / 24000, 6); // the half sample is dropped
  });

  it('rejects non-audio, empty and damaged input with a coded ClipError', async () => {
    expect((await clipError(Buffer.from('{"error":{"message":"Unauthorized"}}'))).code).toBe('unsupported-format');
    expect((await clipError(new Uint8Array(0))).code).toBe('empty');
    const header = buildWav(new Float32Array(0), { sampleRate: 24000, channels: 1 });
    expect((await clipError(header)).code).toBe('empty');
    expect((await clipError(header.subarray(0, 30))).code).toBe('corrupt');
    const adpcm = Buffer.from(header);
    adpcm.writeUInt16LE(2, 20); // fmt tag 2: MS ADPCM
    expect((await clipError(adpcm)).code).toBe('unsupported-format');
  });
});

describe('signal measurements', () => {
  it('rmsDbfs: a full-scale sine is -3 dBFS, half scale -9 dBFS, empty is -Infinity', () => {
    expect(rmsDbfs(sine(1000, 1, 48000, 1, 1))).toBeCloseTo(-3.01, 1);
    expect(rmsDbfs(sine(1000, 1, 48000, 1, 0.5))).toBeCloseTo(-9.03, 1);
    expect(rmsDbfs(new Float32Array(0))).toBe(-Infinity);
  });

  it('dominantPitchHz finds the fundamental of a harmonic-rich tone, not its loudest harmonic', () => {
    const rate = 24000;
    const x = new Float32Array(rate);
    for (let i = 0; i < x.length; i++) {
      const t = i / rate;
      x[i] =
        0.2 * Math.sin(2 * Math.PI * 150 * t) +
        0.4 * Math.sin(2 * Math.PI * 300 * t) +
        0.3 * Math.sin(2 * Math.PI * 450 * t);
    }
    expect(Math.abs(dominantPitchHz(x, rate)! - 150)).toBeLessThan(1);
  });

  it('dominantPitchHz returns undefined for noise and for too little audio', () => {
    let seed = 1;
    const noise = new Float32Array(48000).map(() => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 30 - 1);
    expect(dominantPitchHz(noise, 48000)).toBeUndefined();
    expect(dominantPitchHz(sine(440, 0.01, 48000), 48000)).toBeUndefined();
  });
});
