import { getEventListeners } from 'node:events';
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { analyseClip, ClipError, dominantPitchHz } from '../../../src/core/audio/analysis/clip.ts';
import type { AudioFormat } from '../../../src/core/audio/codecs/format.ts';
import { liveMp3Decoders } from '../../../src/core/audio/codecs/mpg123.ts';
import { UnsupportedAudioError } from '../../../src/core/audio/errors.ts';
import { createOpusPacketStream } from '../../../src/core/cache/audio-fill.ts';
import { buildWav, fixture, sine, stereo } from '../audio/fixtures.ts';
import { buildOggOpus } from '../audio/ogg-opus.ts';
import {
  bytewiseStart,
  collectPackets,
  decodePackets,
  irregularChunks,
  nextPacket,
  streamError,
} from '../audio/stream-helpers.ts';

const FRAME_SECONDS = 0.02;

function play(bytes: Uint8Array, format: AudioFormat, chunks = irregularChunks(bytes)): Readable {
  return createOpusPacketStream(Readable.from(chunks), format);
}

/** A stream whose source has delivered only `firstBytes` of the body so far, and the first packet it gave. */
async function startPlaying(bytes: Uint8Array, format: AudioFormat, firstBytes: number, signal?: AbortSignal) {
  const source = new PassThrough();
  const sourceEvents = source.eventNames();
  const output = createOpusPacketStream(source, format, { signal });
  source.write(bytes.subarray(0, firstBytes));
  const first = await nextPacket(output);
  return { source, sourceEvents, output, first };
}

describe('createOpusPacketStream: fixtures in small irregular chunks', () => {
  it.each([
    ['tone-220hz-5s-48k.wav', 'wav', 220],
    ['speech-en-24k-mono.wav', 'wav', undefined],
    ['too-short-2s.wav', 'wav', 440],
    ['silent-5s.wav', 'wav', undefined],
    ['tone-330hz-5s-vbr.mp3', 'mp3', 330],
    ['tone-330hz-5s-vbr-noxing.mp3', 'mp3', 330],
    ['speech-ko-44k-stereo.mp3', 'mp3', undefined],
    ['truncated.mp3', 'mp3', undefined],
  ] as const)('%s: 20 ms 48 kHz stereo packets, as long as the clip, same pitch', async (name, format, pitch) => {
    const bytes = fixture(name);
    const clip = await analyseClip(bytes);
    const packets = await collectPackets(play(bytes, format));
    const decoded = decodePackets(packets);
    expect(decoded.seconds).toBeCloseTo(packets.length * FRAME_SECONDS, 6); // every packet is 960 samples
    // Whole 20 ms frames, the last one padded: never shorter, at most one frame longer. One exception: for a cut
    // MP3, analyseClip does not trust the (stale) LAME header and keeps the encoder priming; streaming mpg123
    // drops the priming (576 + 529 samples) all the same.
    const priming = clip.truncated ? (576 + 529) / clip.sampleRate : 0;
    expect(decoded.seconds).toBeGreaterThanOrEqual(clip.durationSeconds - priming - 1e-9);
    expect(decoded.seconds).toBeLessThan(clip.durationSeconds + FRAME_SECONDS);
    if (pitch !== undefined) {
      expect(Math.abs(dominantPitchHz(decoded.left, 48000)! - pitch)).toBeLessThan(3);
      expect(Math.abs(dominantPitchHz(decoded.right, 48000)! - pitch)).toBeLessThan(3);
    }
  });

  it('plays the 61 s MP3 to its true length (61.00 s)', async () => {
    const packets = await collectPackets(play(fixture('too-long-61s.mp3'), 'mp3'));
    expect(packets.length).toBe(3050);
  });

  it('produces the very same packets whatever the chunking (state carried across joins)', async () => {
    for (const [name, format] of [
      ['speech-en-24k-mono.wav', 'wav'],
      ['tone-330hz-5s-vbr.mp3', 'mp3'],
    ] as const) {
      const bytes = fixture(name);
      const whole = await collectPackets(play(bytes, format, [bytes]));
      const irregular = await collectPackets(play(bytes, format, irregularChunks(bytes, 5)));
      const bytewise = await collectPackets(play(bytes, format, bytewiseStart(bytes, 3000)));
      expect(irregular).toEqual(whole);
      expect(bytewise).toEqual(whole);
    }
  });

  it.each([
    [22050, 1, 16],
    [24000, 1, 16],
    [44100, 2, 16],
    [16000, 1, 24],
    [32000, 2, 32],
  ] as const)(
    'resamples %i Hz, %i channel(s), %i-bit WAV to 48 kHz with the pitch kept',
    async (rate, channels, bits) => {
      const mono = sine(350, 2, rate, 1, 0.5);
      const wav = buildWav(channels === 2 ? stereo(mono, mono) : mono, {
        sampleRate: rate,
        channels,
        bitsPerSample: bits,
      });
      const decoded = decodePackets(await collectPackets(play(wav, 'wav')));
      expect(decoded.seconds).toBeCloseTo(2, 1);
      expect(decoded.seconds).toBeGreaterThanOrEqual(2);
      expect(Math.abs(dominantPitchHz(decoded.left, 48000)! - 350)).toBeLessThan(2);
    },
  );

  it('keeps stereo channels apart: 300 Hz left, 500 Hz right', async () => {
    const wav = buildWav(stereo(sine(300, 1.5, 44100), sine(500, 1.5, 44100)), { sampleRate: 44100, channels: 2 });
    const decoded = decodePackets(await collectPackets(play(wav, 'wav')));
    expect(Math.abs(dominantPitchHz(decoded.left, 48000)! - 300)).toBeLessThan(2);
    expect(Math.abs(dominantPitchHz(decoded.right, 48000)! - 500)).toBeLessThan(2);
  });

  it('reads a streamed WAV (data size 0xFFFFFFFF, LIST chunk before data) arriving a byte at a time', async () => {
    const list = Buffer.concat([
      Buffer.from('INFOISFT', 'latin1'),
      Buffer.from([5, 0, 0, 0]),
      Buffer.from('test\0\0', 'latin1'),
    ]);
    const wav = buildWav(sine(250, 1, 24000), {
      sampleRate: 24000,
      channels: 1,
      declaredDataBytes: 0xffffffff,
      extraChunks: [{ id: 'LIST', body: list }],
    });
    const chunks = [...bytewiseStart(wav.subarray(0, 200), 200), ...irregularChunks(wav.subarray(200))];
    const decoded = decodePackets(await collectPackets(play(wav, 'wav', chunks)));
    expect(decoded.seconds).toBeCloseTo(1, 6);
    expect(Math.abs(dominantPitchHz(decoded.left, 48000)! - 250)).toBeLessThan(2);
  });

  it('ignores bytes after a WAV data chunk of known size', async () => {
    const wav = buildWav(sine(250, 1, 24000), { sampleRate: 24000, channels: 1 });
    const trailer = Buffer.concat([Buffer.from('LIST\x40\x00\x00\x00', 'latin1'), Buffer.alloc(64, 0x7f)]);
    const decoded = decodePackets(await collectPackets(play(Buffer.concat([wav, trailer]), 'wav')));
    expect(decoded.seconds).toBeCloseTo(1, 6);
  });
});

describe('createOpusPacketStream: streaming behaviour', () => {
  it.each([
    ['speech-en-24k-mono.wav', 'wav'],
    ['speech-ko-44k-stereo.mp3', 'mp3'],
  ] as const)('%s: emits the first packet while the source is still open', async (name, format) => {
    const bytes = fixture(name);
    // A fraction of the body; the rest has not "arrived".
    const { source, output, first } = await startPlaying(bytes, format, 8000);
    expect(first.length).toBeGreaterThan(0);
    expect(source.writableEnded).toBe(false);
    source.end(bytes.subarray(8000));
    const rest = await collectPackets(output);
    expect(1 + rest.length).toBe(Math.ceil((await analyseClip(bytes)).durationSeconds / FRAME_SECONDS));
  });

  it.each([
    ['tone-220hz-5s-48k.wav', 'wav'],
    ['tone-330hz-5s-vbr.mp3', 'mp3'],
  ] as const)('%s: a source error mid-way ends the output with that error', async (name, format) => {
    const bytes = fixture(name);
    const { source, output } = await startPlaying(bytes, format, bytes.length / 2);
    const failure = new Error('connection reset by peer');
    source.destroy(failure);
    expect(await streamError(output)).toBe(failure);
    expect(output.destroyed).toBe(true);
    await vi.waitFor(() => expect(liveMp3Decoders()).toBe(0), { timeout: 20_000 });
  });

  it.each([
    ['speech-en-24k-mono.wav', 'wav'],
    ['speech-ko-44k-stereo.mp3', 'mp3'],
  ] as const)('%s: abort destroys the output and the source, and frees the decoder', async (name, format) => {
    const controller = new AbortController();
    const { source, output } = await startPlaying(fixture(name), format, 20000, controller.signal);
    controller.abort();
    const error = await streamError(output);
    expect(error.name).toBe('AbortError');
    expect(source.destroyed).toBe(true);
    await vi.waitFor(() => expect(liveMp3Decoders()).toBe(0), { timeout: 20_000 });
  });

  it('an already aborted signal fails the stream at once', async () => {
    const controller = new AbortController();
    controller.abort();
    const source = new PassThrough();
    const output = createOpusPacketStream(source, 'mp3', { signal: controller.signal });
    expect((await streamError(output)).name).toBe('AbortError');
    await vi.waitFor(() => expect(liveMp3Decoders()).toBe(0), { timeout: 20_000 });
    expect(source.destroyed).toBe(true);
  });

  it('destroying the output (playback stopped) destroys the source', async () => {
    const { source, output } = await startPlaying(fixture('speech-ko-44k-stereo.mp3'), 'mp3', 20000);
    output.destroy();
    await vi.waitFor(() => expect(source.destroyed).toBe(true), { timeout: 20_000 });
    await vi.waitFor(() => expect(liveMp3Decoders()).toBe(0), { timeout: 20_000 });
  });

  it.each([
    ['too-short-2s.wav', 'wav'],
    ['tone-330hz-5s-vbr.mp3', 'mp3'],
  ] as const)('%s: leaves no listeners behind on the signal or the source once finished', async (name, format) => {
    const controller = new AbortController();
    const source = Readable.from(irregularChunks(fixture(name)));
    const output = createOpusPacketStream(source, format, { signal: controller.signal });
    await collectPackets(output);
    await new Promise((resolve) => setImmediate(resolve));
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    expect(source.eventNames()).toEqual([]);
    expect(liveMp3Decoders()).toBe(0);
  });

  it('leaves no listeners behind on the source after a failure either', async () => {
    const { source, sourceEvents, output } = await startPlaying(fixture('too-short-2s.wav'), 'wav', 5000);
    source.destroy(new Error('reset'));
    await streamError(output);
    await new Promise((resolve) => setImmediate(resolve));
    expect(source.eventNames()).toEqual(sourceEvents);
  });

  it('a source that closes without ending is an error, not a silent short clip', async () => {
    const { source, output } = await startPlaying(fixture('too-short-2s.wav'), 'wav', 5000);
    source.destroy();
    expect((await streamError(output)).message).toMatch(/premature close/i);
  });
});

describe('createOpusPacketStream: Ogg/Opus and formats it cannot play', () => {
  it('passes Ogg/Opus packets through unchanged', async () => {
    const pcm = Buffer.alloc(50 * 3840);
    const tone = sine(440, 1, 48000, 2, 0.5);
    for (let i = 0; i < tone.length; i++) pcm.writeInt16LE(Math.round(tone[i]! * 32767), i * 2);
    const { file, packets } = buildOggOpus(pcm, 7);
    const out = await collectPackets(play(file, 'ogg'));
    expect(out).toEqual(packets);
    expect(Math.abs(dominantPitchHz(decodePackets(out).left, 48000)! - 440)).toBeLessThan(3);
  });

  it('rejects Ogg Vorbis (the fixtures) with an UnsupportedAudioError instead of playing nothing', async () => {
    for (const name of ['not-allowed-ogg-5s.ogg', 'ogg-renamed-as.wav']) {
      const error = await streamError(play(fixture(name), 'ogg'));
      expect(error).toBeInstanceOf(UnsupportedAudioError);
      expect(error.message).toBe('Ogg Vorbis');
    }
  });

  it.each([
    ['flac', 'FLAC', Buffer.concat([Buffer.from('fLaC', 'latin1'), Buffer.alloc(100)])],
    ['m4a', 'M4A/AAC', fixture('speech-en.m4a')],
  ] as const)('fails %s with an UnsupportedAudioError and releases the source', async (format, label, bytes) => {
    const source = Readable.from(irregularChunks(bytes));
    const error = await streamError(createOpusPacketStream(source, format));
    expect(error).toBeInstanceOf(UnsupportedAudioError);
    expect(error).toMatchObject({ code: 'unsupported-format', format, message: label });
    expect(source.destroyed).toBe(true);
  });

  it('fails a WAV encoding it cannot decode (ADPCM) with an UnsupportedAudioError', async () => {
    const wav = buildWav(sine(440, 0.5, 24000), { sampleRate: 24000, channels: 1 });
    wav.writeUInt16LE(2, 20);
    const error = await streamError(play(wav, 'wav'));
    expect(error).toBeInstanceOf(UnsupportedAudioError);
    expect(error).toMatchObject({ format: 'wav', message: 'WAV (format tag 2, 16-bit)' });
  });

  it.each([
    ['wav', 'JSON sent as WAV', Buffer.from('{"error":{"message":"internal"}}'), 'corrupt'],
    ['wav', 'an empty body', Buffer.alloc(0), 'corrupt'],
    ['wav', 'a WAV header and no samples', buildWav(new Float32Array(0), { sampleRate: 24000, channels: 1 }), 'empty'],
    ['mp3', 'text sent as MP3', Buffer.from('Internal Server Error '.repeat(50)), 'corrupt'],
    ['ogg', 'an Ogg stream cut before its header', Buffer.from('OggS\0\x02', 'latin1'), 'corrupt'],
  ] as const)('%s: %s ends with a ClipError', async (format, _what, bytes, code) => {
    const error = await streamError(play(bytes, format, bytes.length ? irregularChunks(bytes) : []));
    expect(error).toBeInstanceOf(ClipError);
    expect((error as ClipError).code).toBe(code);
    await vi.waitFor(() => expect(liveMp3Decoders()).toBe(0), { timeout: 20_000 });
  });
});
