// The audio worker thread on real files: speed and volume applied to WAV and MP3 parts (pitch, length, level),
// a request's parts joined into one file with one header and exact sizes, and a scene's lines mixed as one.
import opus from '@discordjs/opus';
import { describe, expect, it, vi } from 'vitest';
import { dominantPitchHz } from '../../../../../src/core/audio/analysis/analysis.ts';
import { analyseClip } from '../../../../../src/core/audio/analysis/clip.ts';
import {
  applyEffectsOffThread,
  joinPartsOffThread,
  MAX_LONG_JOBS_PER_MEMBER,
  mixSceneOffThread,
} from '../../../../../src/core/audio/jobs/audio-thread/audio-thread.ts';
import { describeFailure } from '../../../../../src/features/speaking/failure-words.ts';
import { MAX_SCENE_SECONDS } from '../../../../../src/core/audio/effects/scene-mix.ts';
import { AudioBusyError, UnsupportedAudioError } from '../../../../../src/core/audio/errors.ts';
import { LIMIT } from '../../../../../src/core/audio/effects/gain.ts';
import {
  findFirstMpegFrame,
  readVbrHeader,
  skipId3v2,
  walkMpegFrames,
} from '../../../../../src/core/audio/codecs/mpeg.ts';
import { parseWavHeader } from '../../../../../src/core/audio/codecs/wav.ts';
import { encodeMp3, encodeWav, toneSamples } from '@saybot/voice-sandbox/synth.ts';
import { onWork, type WorkEvent } from '../../../../../src/core/audio/workers/work-trace.ts';
import { fileAsVoiceMessage } from '../../../../../src/core/order/clips.ts';
import { OPUS_ENCODER_SETTINGS } from '../../../../../src/core/cache/audio-fill.ts';

const RATE = 24_000;
const tone = (pitchHz: number, seconds: number, amplitude = 0.5) =>
  toneSamples({ pitchHz, seconds, amplitude, sampleRate: RATE });
const peak = (x: Float32Array) => x.reduce((m, v) => Math.max(m, Math.abs(v)), 0);

describe('applyEffectsOffThread', () => {
  it('a WAV part at speed 1.5 lasts 2/3 as long at the same pitch, as a WAV with exact sizes', async () => {
    const { format, data } = await applyEffectsOffThread(encodeWav(tone(180, 3), RATE, 'streamed'), {
      speed: 1.5,
      volumeDb: 0,
    });
    expect(format).toBe('wav');
    const parsed = parseWavHeader(data);
    if (!('header' in parsed)) throw new Error('no header');
    expect(parsed.header.dataOffset + (parsed.header.dataBytes ?? 0)).toBe(data.length);
    const info = await analyseClip(data);
    expect(info.durationSeconds).toBeCloseTo(2, 2);
    expect(Math.abs((dominantPitchHz(info.samples ?? new Float32Array(0), RATE) ?? 0) - 180)).toBeLessThan(2);
  });

  it('an MP3 part at speed 0.5 and +6 dB lasts twice as long, stays an MP3, and never clips', async () => {
    const mp3 = await encodeMp3(tone(220, 2, 0.9), RATE, 64);
    const { format, data } = await applyEffectsOffThread(mp3, { speed: 0.5, volumeDb: 6 });
    expect(format).toBe('mp3');
    const info = await analyseClip(data);
    expect(info.format).toBe('mp3');
    expect(Math.abs(info.durationSeconds - 4)).toBeLessThan(0.05);
    // The encoder may overshoot the limiter's -1 dBFS a little; full scale is never reached.
    expect(peak(info.samples ?? new Float32Array(0))).toBeLessThan(1);
    expect(peak(info.samples ?? new Float32Array(0))).toBeGreaterThan(LIMIT * 0.9);
  });

  it('refuses audio it cannot decode as unsupported (the caller plays it unchanged)', async () => {
    const ogg = Buffer.concat([Buffer.from('OggS'), Buffer.alloc(100)]);
    await expect(applyEffectsOffThread(ogg, { speed: 1.5, volumeDb: 0 })).rejects.toBeInstanceOf(UnsupportedAudioError);
  });
});

describe('joinPartsOffThread', () => {
  it('joins WAV parts (each with its streamed header) into one WAV: one RIFF header, exact sizes, every sample', async () => {
    const parts = [tone(200, 1.2), tone(300, 0.8), tone(250, 2)].map((s) => encodeWav(s, RATE, 'streamed'));
    const { data, seconds } = await joinPartsOffThread(parts, 'wav');
    expect(data.subarray(0, 4).toString('latin1')).toBe('RIFF');
    expect(data.readUInt32LE(4)).toBe(data.length - 8);
    expect(data.indexOf('RIFF', 4, 'latin1')).toBe(-1);
    const parsed = parseWavHeader(data);
    if (!('header' in parsed)) throw new Error('no header');
    expect(parsed.header.dataBytes).toBe((1.2 + 0.8 + 2) * RATE * 2);
    expect(seconds).toBeCloseTo(4, 3);
  });

  it('joins MP3 parts frame by frame: one Info frame whose counts are true, the length the sum of the parts', async () => {
    const lengths = [1.5, 1, 2.5];
    const parts = await Promise.all(lengths.map((s, i) => encodeMp3(tone(200 + 50 * i, s), RATE, 64)));
    const { data, seconds } = await joinPartsOffThread(parts, 'mp3');
    const first = findFirstMpegFrame(data, skipId3v2(data));
    if (!first) throw new Error('no frame');
    const vbr = readVbrHeader(data, first.offset, first.header);
    expect(vbr?.kind).toBe('Info');
    expect(vbr?.frames).toBe(walkMpegFrames(data, first.offset).frames - 1);
    // One Info frame: the later parts' own were left out.
    expect(data.indexOf('Info', first.offset + 40, 'latin1')).toBe(-1);
    // Each later part keeps its encoder priming and padding (under 0.1 s each).
    const sum = lengths.reduce((a, b) => a + b, 0);
    expect(seconds).toBeGreaterThanOrEqual(sum - 0.01);
    expect(seconds).toBeLessThan(sum + 0.1 * (lengths.length - 1));
  });

  it('joins WAV parts of different rates by converting them to the first one', async () => {
    const parts = [
      encodeWav(tone(200, 1), RATE),
      encodeWav(toneSamples({ pitchHz: 200, seconds: 1, amplitude: 0.5, sampleRate: 16_000 }), 16_000),
    ];
    const { data, seconds } = await joinPartsOffThread(parts, 'wav');
    const info = await analyseClip(data);
    expect(info.sampleRate).toBe(RATE);
    expect(seconds).toBeCloseTo(2, 2);
  });

  it('makes WAV parts (the free voice, an engine) the MP3 asked for: one Info frame, their length and pitch', async () => {
    const rate = 22_050; // eSpeak NG's
    const parts = [1.2, 0.8].map((s, i) =>
      encodeWav(toneSamples({ pitchHz: 200 + 100 * i, seconds: s, amplitude: 0.5, sampleRate: rate }), rate),
    );
    const { data, seconds } = await joinPartsOffThread(parts, 'mp3');
    expect(data.subarray(0, 4).toString('latin1')).not.toBe('RIFF');
    const first = findFirstMpegFrame(data, skipId3v2(data));
    if (!first) throw new Error('no frame');
    expect(first.header).toMatchObject({ layer: 3, sampleRate: rate });
    expect(readVbrHeader(data, first.offset, first.header)?.kind).toBe('Info');
    const info = await analyseClip(data);
    expect(info.format).toBe('mp3');
    // Encoded once from all the samples: gapless, no priming between the parts.
    expect(info.durationSeconds).toBeCloseTo(2, 2);
    expect(seconds).toBeCloseTo(info.durationSeconds, 5);
    const opening = (info.samples ?? new Float32Array(0)).subarray(0, Math.round(rate));
    expect(Math.abs((dominantPitchHz(opening, rate) ?? 0) - 200)).toBeLessThan(3);
  });

  it('makes a WAV at a rate MPEG cannot carry an MP3 at the next rate it can, its length kept', async () => {
    const part = encodeWav(toneSamples({ pitchHz: 250, seconds: 1.5, amplitude: 0.5, sampleRate: 20_000 }), 20_000);
    const { data } = await joinPartsOffThread([part], 'mp3');
    const info = await analyseClip(data);
    expect(info).toMatchObject({ format: 'mp3', sampleRate: 22_050 });
    expect(info.durationSeconds).toBeCloseTo(1.5, 2);
  });

  it('makes a paid MP3 part and a WAV stood in after it one MP3 of both', async () => {
    const mp3 = Uint8Array.from(await encodeMp3(tone(200, 1.5), RATE, 64));
    const wav = encodeWav(toneSamples({ pitchHz: 300, seconds: 1, amplitude: 0.5, sampleRate: 22_050 }), 22_050);
    const { data, seconds } = await joinPartsOffThread([mp3, wav], 'mp3');
    const info = await analyseClip(data);
    expect(info).toMatchObject({ format: 'mp3', sampleRate: RATE });
    expect(data.indexOf('RIFF', 0, 'latin1')).toBe(-1);
    expect(seconds).toBeCloseTo(2.5, 1);
  });

  it('encodes a long WAV to MP3 as long work, by the seconds encoded, though its bytes are few', async () => {
    const events: string[] = [];
    const stop = onWork((event) => {
      if (event.owner === 'guild-encode' && (event.event === 'start' || event.event === 'end'))
        events.push(`${event.workClass} ${event.event}`);
    });
    try {
      // 30 s of 8 kHz mono: 480 kB, short work by its bytes; half a minute to encode.
      const part = encodeWav(toneSamples({ pitchHz: 200, seconds: 30, amplitude: 0.5, sampleRate: 8000 }), 8000);
      expect(part.length).toBeLessThan(1024 * 1024);
      await joinPartsOffThread([part], 'mp3', { guild: 'guild-encode', member: 'member-encode' });
      // Joined as it is (WAV to WAV), the same bytes are short work.
      await joinPartsOffThread([part], 'wav', { guild: 'guild-encode', member: 'member-encode' });
    } finally {
      stop();
    }
    expect(events).toEqual(['long start', 'long end', 'short start', 'short end']);
  });
});

describe('mixSceneOffThread', () => {
  it("mixes a scene's lines in the worker: one rate, levels evened out, parts of their own moved, views copied", async () => {
    const quiet = encodeWav(toneSamples({ pitchHz: 200, seconds: 1, amplitude: 0.05, sampleRate: 16_000 }), 16_000);
    // A part that is a whole buffer of its own: moved.
    const loud = Uint8Array.from(await encodeMp3(tone(300, 1, 0.8), RATE, 64));
    // A view into a larger buffer: copied, so the rest of that buffer stays the caller's.
    const slab = new Uint8Array(quiet.length + 16);
    slab.set(quiet, 16);
    const view = slab.subarray(16);
    const result = await mixSceneOffThread(
      {
        lines: [
          { parts: [view], gapBefore: 0.1 },
          { parts: [loud], gapBefore: 0.2 },
        ],
        format: 'wav',
      },
      { guild: 'guild-scene' },
    );
    expect(result.format).toBe('wav');
    expect(result.sampleRate).toBe(RATE);
    expect(result.lines[1]?.start).toBeCloseTo(1.3, 3);
    expect(result.seconds).toBeCloseTo(2.3, 3);
    expect(result.loudness.spreadBefore).toBeGreaterThan(20);
    expect(result.loudness.spreadAfter).toBeLessThan(1.5);
    const info = await analyseClip(result.data);
    expect(info.sampleRate).toBe(RATE);
    expect(info.durationSeconds).toBeCloseTo(2.3, 3);
    expect(peak(info.samples ?? new Float32Array(0))).toBeLessThanOrEqual(LIMIT + 1 / 32767);
    expect(loud.byteLength).toBe(0); // moved to the worker
    expect(view.byteLength).toBe(quiet.length); // copied
  });

  it(`rejects a scene over ${MAX_SCENE_SECONDS} s with a RangeError from the worker`, async () => {
    const short = encodeWav(tone(200, 0.1), RATE);
    await expect(
      mixSceneOffThread(
        { lines: [{ parts: [short], gapBefore: MAX_SCENE_SECONDS + 1 }], format: 'mp3' },
        { guild: 'guild-scene' },
      ),
    ).rejects.toBeInstanceOf(RangeError);
  });
});

// Long work runs at a low priority: on a machine busy with other work, its jobs may take a while.
describe('the work classes', { timeout: 120_000 }, () => {
  /** A ten-minute free scene: five lines of 120 s of eSpeak's 22,050 Hz WAV. */
  const tenMinuteScene = () => ({
    lines: Array.from({ length: 5 }, (_, i) => ({
      parts: [
        encodeWav(toneSamples({ pitchHz: 150 + 20 * i, seconds: 119, amplitude: 0.3, sampleRate: 22_050 }), 22_050),
      ],
      gapBefore: 0.2,
    })),
    format: 'wav' as const,
  });

  it("mixes a ten-minute scene without holding another server's file: the file is joined before the mix ends", async () => {
    const events: string[] = [];
    const mixed = mixSceneOffThread(tenMinuteScene(), { guild: 'guild-scene', member: 'member-scene' }).then(
      (result) => void events.push(`mixed ${Math.round(result.seconds)} s`),
    );
    const part = encodeWav(tone(220, 0.5), RATE);
    const file = joinPartsOffThread([part, part], 'wav', { guild: 'guild-file', member: 'member-file' }).then(
      (result) => void events.push(`joined ${result.seconds} s`),
    );
    await Promise.all([mixed, file]);
    // Order of events, not time: the short job had a thread of its own while the mix ran.
    expect(events).toEqual(['joined 1 s', 'mixed 596 s']);
  });

  it("rations long work per member even when it costs nothing: a member's second mix is refused, another's runs", async () => {
    const member = { guild: 'guild-replay', member: 'member-a' };
    const first = mixSceneOffThread(tenMinuteScene(), member);
    const second = mixSceneOffThread(tenMinuteScene(), member).catch((error: unknown) => error);
    const other = mixSceneOffThread(
      { lines: [{ parts: [encodeWav(tone(300, 1), RATE)], gapBefore: 0 }], format: 'wav' },
      { guild: 'guild-replay', member: 'member-b' },
    );
    expect(await second).toBeInstanceOf(AudioBusyError);
    expect(await second).toMatchObject({ reason: 'member-busy', limit: MAX_LONG_JOBS_PER_MEMBER });
    expect(describeFailure(await second).message.key).toBe('error.audio.memberBusy');
    expect((await other).seconds).toBeCloseTo(1, 2);
    expect((await first).seconds).toBeGreaterThan(590);
  });
  it("takes a two-line scene as short work, by its cost: mixed while the same member's long scene is under way", async () => {
    const member = { guild: 'guild-two-lines', member: 'member-two-lines' };
    // What each job did, in order (work-trace.ts), not when: the two-line scene runs on short work's thread and ends
    // before the long mix (a minute to MP3), however busy the machine.
    const events: string[] = [];
    const stop = onWork((event) => {
      if (event.owner === 'guild-two-lines' && event.event !== 'slice' && event.event !== 'resume')
        events.push(`${event.workClass} ${event.event}`);
    });
    try {
      const minutes = {
        lines: [0, 1].map((i) => ({ parts: [encodeWav(tone(200 + 50 * i, 30), RATE)], gapBefore: 0.2 })),
        format: 'mp3' as const,
      };
      const long = mixSceneOffThread(minutes, member);
      const twoLines = await mixSceneOffThread(
        {
          lines: [
            { parts: [encodeWav(tone(220, 2), RATE)], gapBefore: 0 },
            { parts: [Uint8Array.from(await encodeMp3(tone(330, 3), RATE, 64))], gapBefore: 0.35 },
          ],
          format: 'mp3',
        },
        member,
      );
      await long;
      // Not refused by long work's ration, and not behind the long mix.
      expect(twoLines.seconds.toFixed(1)).toBe('5.3');
      // Which starts first is the threads' affair; the two-line scene ends on short work's thread before the long mix.
      expect(events.toSorted()).toEqual(['long end', 'long start', 'short end', 'short start']);
      expect(events.indexOf('short end')).toBeLessThan(events.indexOf('long end'));
    } finally {
      stop();
    }
  });

  it("runs a long mix in slices: another server's short job arriving at a slice runs before the mix goes on", async () => {
    const events: string[] = [];
    const joins: Array<Promise<unknown>> = [];
    const part = encodeWav(tone(440, 0.5), RATE);
    const seen = (event: WorkEvent) => {
      if (event.owner === 'guild-sliced' && event.event === 'slice' && joins.length === 0)
        // At the first slice, another server's file: its join is short work waiting when the slice ends.
        joins.push(joinPartsOffThread([part], 'wav', { guild: 'guild-short', member: 'm' }));
      if (event.owner === 'guild-sliced' || event.owner === 'guild-short')
        events.push(`${event.owner === 'guild-sliced' ? 'mix' : 'join'} ${event.event} (${event.workClass})`);
    };
    const stop = onWork(seen);
    try {
      // Half a minute of audio to MP3: long work by its cost, about half a second of encoding.
      const minute = {
        lines: [0, 1].map((i) => ({ parts: [encodeWav(tone(200 + 50 * i, 15), RATE)], gapBefore: 0.2 })),
        format: 'mp3' as const,
      };
      await mixSceneOffThread(minute, { guild: 'guild-sliced', member: 'm' });
      await Promise.all(joins);
    } finally {
      stop();
    }
    const firstSlice = events.indexOf('mix slice (long)');
    expect(events[0]).toBe('mix start (long)');
    expect(firstSlice).toBeGreaterThan(0);
    expect(events.slice(firstSlice, firstSlice + 4)).toEqual([
      'mix slice (long)',
      'join start (short)',
      'join end (short)',
      'mix resume (long)',
    ]);
    expect(events.at(-1)).toBe('mix end (long)');
    expect(events.filter((e) => e === 'mix slice (long)').length).toBeGreaterThan(2);
  });

  it('makes a file a voice message in the audio worker: not one of its packets is decoded on the main thread', async () => {
    // The main thread's decoder (a reply's cached packets are measured there, a second of audio a turn): a ten-minute
    // scene's 30,000 packets decoded there took some 900 ms of its CPU and stretched the voice clock's ticks.
    const decoders = vi.spyOn(opus, 'OpusEncoder');
    try {
      const made = await fileAsVoiceMessage(
        { data: Buffer.from(encodeWav(tone(220, 30), RATE)), format: 'wav' },
        OPUS_ENCODER_SETTINGS,
        { guild: 'guild-vm-main', member: 'm' },
      );
      expect(made.durationSecs).toBeCloseTo(30, 1);
      expect(made.ogg.subarray(0, 4).toString('latin1')).toBe('OggS');
      // A steady tone: every waveform byte within a step of the others but the ends, and loud.
      const levels = [...Buffer.from(made.waveform, 'base64')].slice(2, -2);
      expect(Math.max(...levels) - Math.min(...levels)).toBeLessThanOrEqual(1);
      expect(Math.min(...levels)).toBeGreaterThan(128);
      expect(decoders).not.toHaveBeenCalled();
    } finally {
      decoders.mockRestore();
    }
  });

  it("encodes a file's voice message to Opus in the class of its size: a 40 s scene's as long work, in slices", async () => {
    const events: WorkEvent[] = [];
    const stop = onWork((event) => void (event.owner.startsWith('guild-vm') && events.push(event)));
    const asVoiceMessage = (seconds: number, guild: string) =>
      fileAsVoiceMessage(
        { data: Buffer.from(encodeWav(tone(220, seconds), RATE)), format: 'wav' },
        OPUS_ENCODER_SETTINGS,
        {
          guild,
          member: 'm',
        },
      );
    try {
      // 40 s of 24 kHz WAV is 1.9 MB, under short work's bytes: its seconds make it long.
      expect((await asVoiceMessage(40, 'guild-vm-long')).durationSecs).toBeCloseTo(40, 1);
      expect((await asVoiceMessage(3, 'guild-vm-short')).durationSecs).toBeCloseTo(3, 1);
    } finally {
      stop();
    }
    const steps = (guild: string) =>
      events.filter((e) => e.owner === guild).map((e) => `${e.pool}: ${e.event} (${e.workClass})`);
    // The Opus encoding, its measuring and the Ogg file's writing: one job, in the class of the file's cost.
    expect(steps('guild-vm-long')[0]).toBe('audio thread (long work): start (long)');
    expect(steps('guild-vm-long')).toContain('audio thread (long work): slice (long)');
    expect(steps('guild-vm-long').at(-1)).toBe('audio thread (long work): end (long)');
    expect(steps('guild-vm-long').filter((s) => !s.includes('(long work)'))).toEqual([]);
    expect(steps('guild-vm-short')).toEqual(['audio thread: start (short)', 'audio thread: end (short)']);
  });
});
