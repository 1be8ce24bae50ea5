// `format:mp3` as a file, end to end, for the voices that make WAV: the free voice (eSpeak NG), an owner's engine (the
// VOICEVOX double over real HTTP) and the free voice standing in for a paid one. The member asked for MP3: the one file
// posted is MPEG audio named .mp3, as long as the same line as WAV, and the reply says mp3. Each format stays its own:
// a line asked for as WAV after (and before) its MP3 is still posted as WAV.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startVoicevoxDouble, type VoicevoxDouble } from '@saybot/engine-doubles';
import { PLAN_LIMITS } from '@saybot/voice-sandbox';
import { analyseClip } from '../../src/core/audio/analysis/clip.ts';
import { parseMpegFrameHeader, skipId3v2 } from '../../src/core/audio/codecs/mpeg.ts';
import { useHarnessPerTest } from '../support/file-harness.ts';
import { runCommand, type Harness } from '../support/harness.ts';
import { ALICE, LONDON } from '../support/world.ts';

const startHarness = useHarnessPerTest();

let voicevox: VoicevoxDouble;
beforeAll(async () => {
  voicevox = await startVoicevoxDouble();
});
afterAll(async () => {
  await voicevox.close();
});

/** /say `text` as a file by Alice in London: the answer with its files (or the first words that are no file). */
async function sayFile(h: Harness, text: string, voice: string, format: 'wav' | 'mp3') {
  const { handle } = await runCommand(h, {
    guildId: LONDON,
    userId: ALICE,
    name: 'say',
    options: { text, voice, format, output: 'file' },
  });
  // A bound: a thread's first line on a busy host takes a while.
  const answer = await handle.waitFor(
    (r) => r.files.length > 0 || /^(The|This|Something)/.test(r.content ?? ''),
    90_000,
  );
  expect(answer.files, answer.content).toHaveLength(1);
  return { content: answer.content ?? '', file: answer.files[0]! };
}

/** What a posted file is: its bytes' leading frame, its format and length as decoded. */
async function posted(file: { data: Buffer }) {
  const info = await analyseClip(file.data);
  const frame = parseMpegFrameHeader(file.data, skipId3v2(file.data));
  return { riff: file.data.subarray(0, 4).toString('latin1') === 'RIFF', frame, info };
}

/** `file` is the MP3 of `voice`'s line, as long as its WAV (`wavSeconds`), and the reply `content` says so. */
async function expectMp3(content: string, file: { name: string; data: Buffer }, voice: string, wavSeconds: number) {
  expect(file.name).toBe(`saybot-${voice.replace(/[^A-Za-z0-9_-]/g, '-')}.mp3`);
  const { riff, frame, info } = await posted(file);
  expect(riff).toBe(false);
  expect(frame?.layer).toBe(3);
  expect(info.format).toBe('mp3');
  // Encoded whole from the WAV's samples, gapless (the LAME Info frame): within a frame or two of it.
  expect(Math.abs(info.durationSeconds - wavSeconds)).toBeLessThan(0.06);
  expect(content).toMatch(/\(mp3\)/);
  expect(content).not.toMatch(/\(wav\)/);
}

async function wavSecondsOf(file: { data: Buffer }): Promise<number> {
  const { riff, info } = await posted(file);
  expect(riff).toBe(true);
  return info.durationSeconds;
}

describe('format:mp3 as a file, in a voice that makes WAV', () => {
  it('the free voice and a VOICEVOX voice post one MP3 as long as their WAV, each format cached as its own', async () => {
    const h = await startHarness({ env: { VOICEVOX_URL: voicevox.url } });
    const requests = h.sandbox.requests.length;
    for (const [voice, text] of [
      ['free-en-f', 'A free line, asked for as an MP3 file.'],
      ['voicevox:0', 'An engine line, asked for as an MP3 file.'],
    ] as const) {
      const wav = await sayFile(h, text, voice, 'wav');
      expect(wav.content).toMatch(/\(wav\)/);
      const seconds = await wavSecondsOf(wav.file);
      const mp3 = await sayFile(h, text, voice, 'mp3');
      await expectMp3(mp3.content, mp3.file, voice, seconds);
      // Both again, the line cached now: each still its own format.
      const again = await sayFile(h, text, voice, 'mp3');
      await expectMp3(again.content, again.file, voice, seconds);
      expect(await wavSecondsOf((await sayFile(h, text, voice, 'wav')).file)).toBeCloseTo(seconds, 3);
    }
    expect(h.sandbox.requests.length - requests).toBe(0);
  }, 240_000);

  it('the free voice standing in for a paid one (the month used up) posts the MP3 asked for', async () => {
    const h = await startHarness({ env: { FREE_VOICE: 'fallback' } });
    h.sandbox.setKeyPlan(h.apiKey, 'creator');
    h.sandbox.setKeyUsed(h.apiKey, PLAN_LIMITS.creator);
    const text = 'The month is over, and this file is still an MP3.';
    const mp3 = await sayFile(h, text, 'voice-b-en-m-01', 'mp3');
    expect(mp3.content).toContain("`free-en-m`, the free voice: this month's characters are used up");
    // The same line as WAV: the free voice stands in again (FREE_VOICE=fallback speaks for no member who chose it).
    const wav = await sayFile(h, text, 'voice-b-en-m-01', 'wav');
    expect(wav.file.name).toBe('saybot-free-en-m.wav');
    await expectMp3(mp3.content, mp3.file, 'free-en-m', await wavSecondsOf(wav.file));
  }, 180_000);

  it('a paid MP3 part then a part the free voice stood in for (the month used up between): one MP3 of both', async () => {
    const h = await startHarness({ env: { FREE_VOICE: 'fallback' }, config: { maxCharsPerRequest: 40 } });
    const first = 'The first part is paid and heard.';
    const second = 'The second part finds the month used up.';
    h.sandbox.setKeyPlan(h.apiKey, 'creator');
    h.sandbox.setKeyUsed(h.apiKey, PLAN_LIMITS.creator - first.length);
    const before = h.sandbox.requests.length;
    const mp3 = await sayFile(h, `${first} ${second}`, 'voice-b-en-m-01', 'mp3');
    expect(h.sandbox.requests.slice(before).map((r) => r.status)).toEqual([200, 429]);
    expect(mp3.content).toContain(`\`free-en-m\`, the free voice, after ${first.length} characters in the paid voice`);
    // The second part alone as WAV: the month is used up now, so the free voice stands in for all of it.
    const freeSeconds = await wavSecondsOf((await sayFile(h, second, 'voice-b-en-m-01', 'wav')).file);
    const paidSeconds = h.sandbox.expectedDurationSeconds(first);
    // Named after the voice that spoke last, as any file a stand-in finished.
    expect(mp3.file.name.endsWith('.mp3')).toBe(true);
    const { riff, frame, info } = await posted(mp3.file);
    expect(riff).toBe(false);
    expect(frame?.layer).toBe(3);
    // The paid part's MP3 priming and the free part's resampling: within a tenth of a second of both parts.
    expect(Math.abs(info.durationSeconds - (paidSeconds + freeSeconds))).toBeLessThan(0.1);
    expect(mp3.content).toMatch(/\(mp3\)/);
  }, 180_000);
});
