// exactWavFile / exactMp3File: what a file posted to Discord is made into, whatever the service streamed.
import { describe, expect, it } from 'vitest';
import { analyseClip } from '../../../src/core/audio/analysis/clip.ts';
import { exactMp3File } from '../../../src/core/audio/codecs/mp3-file.ts';
import { parseWavHeader } from '../../../src/core/audio/codecs/wav.ts';
import { exactWavFile } from '../../../src/core/audio/codecs/wav-file.ts';
import { damageMp3, encodeMp3, encodeWav, toneSamples, WAV_HEADER_FORMS } from '@saybot/voice-sandbox/synth.ts';

const RATE = 24_000;
const tone = (seconds: number, sampleRate = RATE) => toneSamples({ pitchHz: 220, seconds, amplitude: 0.4, sampleRate });

function headerOf(bytes: Uint8Array) {
  const parsed = parseWavHeader(bytes);
  if (!('header' in parsed)) throw new Error('no WAV header');
  return parsed.header;
}

describe('exactWavFile', () => {
  it.each(WAV_HEADER_FORMS)('turns a %s header into RIFF with exact sizes, the samples unchanged', async (form) => {
    const samples = tone(1.25);
    const out = exactWavFile(encodeWav(samples, RATE, form));
    const view = Buffer.from(out);
    expect(view.toString('ascii', 0, 4)).toBe('RIFF');
    expect(view.readUInt32LE(4)).toBe(out.length - 8);
    const header = headerOf(out);
    expect(header.dataBytes).toBe(samples.length * 2);
    expect(header.dataOffset + samples.length * 2).toBe(out.length);
    expect(view.readInt16LE(header.dataOffset + 2000)).toBe(samples[1000]);
    expect((await analyseClip(out)).durationSeconds).toBeCloseTo(1.25, 6);
  });

  it('drops half a sample frame at the end and bytes after the data chunk', () => {
    const whole = encodeWav(tone(0.5), RATE, 'exact');
    const trailing = Buffer.concat([whole, Buffer.from('LIST\x04\x00\x00\x00INFO')]);
    expect(exactWavFile(trailing)).toEqual(whole);
    const streamedOdd = Buffer.concat([encodeWav(tone(0.5), RATE, 'streamed'), Buffer.from([7])]);
    const fixed = exactWavFile(streamedOdd);
    expect(headerOf(fixed).dataBytes).toBe(0.5 * RATE * 2);
  });

  it('keeps the rate and layout of other formats (48 kHz)', async () => {
    const out = exactWavFile(encodeWav(tone(0.3, 48_000), 48_000, 'rf64'));
    const info = await analyseClip(out);
    expect(info.sampleRate).toBe(48_000);
    expect(info.durationSeconds).toBeCloseTo(0.3, 6);
  });
});

describe('exactMp3File', () => {
  it('leaves a whole MP3 as it is', async () => {
    const mp3 = await encodeMp3(tone(1), RATE, 64);
    expect(Buffer.from(exactMp3File(mp3)).equals(Buffer.from(mp3))).toBe(true);
  });

  it('removes a last frame cut in the middle', async () => {
    const cut = damageMp3(await encodeMp3(tone(1), RATE, 64), 'cut-last-frame');
    expect((await analyseClip(cut)).truncated).toBe(true);
    const fixed = exactMp3File(cut);
    expect(fixed.length).toBeLessThan(cut.length);
    const info = await analyseClip(fixed);
    expect(info.truncated).toBe(false);
    expect(info.durationSeconds).toBeGreaterThan(0.9);
  });

  it('makes an Info header that counts missing frames count the frames there are', async () => {
    const short = damageMp3(await encodeMp3(tone(1), RATE, 64), 'xing-overcounts');
    expect((await analyseClip(short)).truncated).toBe(true);
    const info = await analyseClip(exactMp3File(short));
    expect(info.truncated).toBe(false);
    // Four 576-sample frames at 24 kHz are missing: 96 ms.
    expect(info.durationSeconds).toBeGreaterThan(0.85);
    expect(info.durationSeconds).toBeLessThan(0.95);
  });
});
