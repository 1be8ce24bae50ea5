import { describe, expect, it } from 'vitest';
import { detectAudioFormat, SNIFF_BYTES } from '../../../../src/core/audio/codecs/format.ts';
import { buildWav, fixture, sine } from '../fixtures.ts';

const head = (bytes: Uint8Array): Uint8Array => bytes.subarray(0, SNIFF_BYTES);

describe('detectAudioFormat', () => {
  it('wants at most 4096 bytes', () => {
    expect(SNIFF_BYTES).toBeGreaterThanOrEqual(12);
    expect(SNIFF_BYTES).toBeLessThanOrEqual(4096);
  });

  it.each([
    ['speech-en-24k-mono.wav', 'wav'],
    ['tone-220hz-5s-48k.wav', 'wav'],
    ['silent-5s.wav', 'wav'],
    ['speech-ko-44k-stereo.mp3', 'mp3'],
    ['tone-330hz-5s-vbr.mp3', 'mp3'],
    ['tone-330hz-5s-vbr-noxing.mp3', 'mp3'],
    ['too-long-61s.mp3', 'mp3'],
    ['truncated.mp3', 'mp3'],
    ['speech-en.m4a', 'm4a'],
    ['tone-440hz-5s.m4a', 'm4a'],
    ['not-allowed-ogg-5s.ogg', 'ogg'],
    ['ogg-renamed-as.wav', 'ogg'],
  ])('detects %s as %s from its first bytes', (name, format) => {
    expect(detectAudioFormat(head(fixture(name)))).toBe(format);
  });

  it('detects an MP3 without its ID3 tag from the bare frame sync', () => {
    const mp3 = fixture('tone-330hz-5s-vbr-noxing.mp3');
    const tagLength = 10 + mp3[9]!; // small tag: only the last syncsafe byte is used
    expect(detectAudioFormat(head(mp3.subarray(tagLength)))).toBe('mp3');
    expect(detectAudioFormat(mp3.subarray(tagLength, tagLength + 4))).toBe('mp3');
  });

  it('detects an MP3 whose ID3 tag is longer than the sniffed bytes', () => {
    const tag = Buffer.from([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0x7f, 0x7f]); // 16 KiB tag body
    expect(detectAudioFormat(Buffer.concat([tag, Buffer.alloc(SNIFF_BYTES)]))).toBe('mp3');
  });

  it('detects FLAC, also behind an ID3 tag', () => {
    const flac = Buffer.concat([Buffer.from('fLaC', 'latin1'), Buffer.alloc(40)]);
    expect(detectAudioFormat(flac)).toBe('flac');
    const tag = Buffer.from([0x49, 0x44, 0x33, 3, 0, 0, 0, 0, 0, 2, 0, 0]);
    expect(detectAudioFormat(Buffer.concat([tag, flac]))).toBe('flac');
  });

  it('detects a streamed WAV header (sizes unknown)', () => {
    const wav = buildWav(sine(440, 0.1, 24000), { sampleRate: 24000, channels: 1, declaredDataBytes: 0xffffffff });
    expect(detectAudioFormat(wav.subarray(0, 12))).toBe('wav');
  });

  it.each([
    ['JSON error', '{"error":{"message":"quota exceeded"}}'],
    ['JSON with whitespace', '  \n{"detail":"bad"}'],
    ['plain text', 'Internal Server Error'],
    ['HTML', '<!DOCTYPE html><html><body>502 Bad Gateway</body></html>'],
    ['empty', ''],
    ['RIFF that is not WAVE', 'RIFF\x10\x00\x00\x00AVI LIST'],
    ['ID3 tag followed by text', 'ID3\x04\x00\x00\x00\x00\x00\x02\x00\x00hello world, this is not audio'],
  ])('returns undefined for %s', (_label, text) => {
    expect(detectAudioFormat(Buffer.from(text, 'latin1'))).toBeUndefined();
  });

  it('does not take a UTF-16 byte-order mark for an MPEG frame sync', () => {
    expect(detectAudioFormat(Buffer.from('\ufeff{"error":"x"}', 'utf16le'))).toBeUndefined();
  });

  it('returns undefined for random bytes with a false 0xFF start', () => {
    expect(detectAudioFormat(Buffer.from([0xff, 0xe0, 0x00, 0x00, 1, 2, 3]))).toBeUndefined();
  });
});
