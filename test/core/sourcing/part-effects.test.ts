// Speed and volume in PartSource, against the sandbox over HTTP with a real audio cache on disk and real
// accounting: the paid request never carries them, the original is cached once, and every other speed or volume
// of the same text is made from it without a second call or a second charge.
import { describe, expect, it } from 'vitest';
import { dominantPitchHz } from '../../../src/core/audio/analysis/analysis.ts';
import { analyseClip } from '../../../src/core/audio/analysis/clip.ts';
import { LIMIT } from '../../../src/core/audio/effects/gain.ts';
import type { SpeechRequest } from '../../../src/core/order/pipeline.ts';
import { useSpeechRig } from '../../support/speech-rig.ts';
import { orderedPart } from '../../../src/core/sourcing/part-source.ts';

const VOICE = 'voice-b-en-m-01';
const who = { guildId: 'G', userId: 'U', command: 'say' };
const month = () => new Date().toISOString().slice(0, 7);
const request = (text: string, format: 'wav' | 'mp3', speed = 1, volumeDb = 0): SpeechRequest => ({
  kind: 'tts',
  text,
  voice: VOICE,
  format,
  ...(speed === 1 && volumeDb === 0 ? {} : { effects: { speed, volumeDb } }),
});

const rig = useSpeechRig({ cacheDirPrefix: 'saybot-effects-' });

/** One part fetched as a request would: needs, authorize, fetch, read whole; the charge closed. */
async function speak(req: SpeechRequest, text: string): Promise<{ bytes: Buffer; free: boolean }> {
  const needs = await rig.source.needs(req, [text]);
  const charge = await rig.accounting.authorize(who, needs);
  try {
    const part = await orderedPart(rig.source, req, text, new AbortController().signal, { charge });
    return { bytes: Buffer.concat(await part.body.toArray()), free: needs[0]?.free ?? false };
  } finally {
    charge.close();
  }
}

const ttsCalls = () => rig.sandbox.requests.filter((r) => r.endpoint === 'tts');

describe('PartSource with speed and volume', () => {
  for (const format of ['wav', 'mp3'] as const) {
    it(`${format}: one paid call for the text at 1x, 1.5x, 0.75x and -6 dB; each as long as its speed says, at the voice's pitch`, async () => {
      const text = `Speed changes cost nothing more, ${format}.`;
      const expected = rig.sandbox.expectedDurationSeconds(text);
      const pitch = rig.sandbox.voicePitchHz(VOICE) ?? 0;
      const first = await speak(request(text, format, 1.5), text);
      expect(first.free).toBe(false);
      for (const [speed, volumeDb] of [
        [1, 0],
        [0.75, 0],
        [1.5, 0],
        [1, -6],
      ] as const) {
        const { bytes, free } = await speak(request(text, format, speed, volumeDb), text);
        expect(free).toBe(true);
        const info = await analyseClip(bytes);
        expect(info.format).toBe(format);
        expect(Math.abs(info.durationSeconds / (expected / speed) - 1)).toBeLessThan(0.03);
        expect(
          Math.abs((dominantPitchHz(info.samples ?? new Float32Array(0), info.sampleRate) ?? 0) - pitch),
        ).toBeLessThan(pitch * 0.02);
      }
      const calls = ttsCalls();
      expect(calls).toHaveLength(1);
      // The paid request is the plain one: the sandbox billed its characters once.
      expect(rig.sandbox.charactersBilled()).toBe(text.length);
      await rig.source.close();
      expect(await rig.store.spends.monthTotals(month(), 'G')).toEqual({ spent: text.length, saved: 4 * text.length });
    });
  }

  it('identical changed parts asked at once share one call and one change', async () => {
    rig.sandbox.setPacing({ startDelayMs: 150 });
    try {
      const text = 'Three of us at twice the speed.';
      const results = await Promise.all([1, 2, 3].map(() => speak(request(text, 'wav', 2), text)));
      for (const { bytes } of results)
        expect((await analyseClip(bytes)).durationSeconds).toBeCloseTo(
          rig.sandbox.expectedDurationSeconds(text) / 2,
          1,
        );
      expect(ttsCalls()).toHaveLength(1);
    } finally {
      rig.sandbox.setPacing({ startDelayMs: 0 });
    }
  });

  it('a louder part never clips: /emote at 0.75 (peaks at 0.7 of full scale) at +6 dB stays under -1 dBFS', async () => {
    const text = 'As loud as it may go.';
    const emotion: SpeechRequest = {
      kind: 'emotion',
      text,
      voice: VOICE,
      exaggeration: 0.75,
      effects: { speed: 1, volumeDb: 6 },
    };
    const { bytes } = await speak(emotion, text);
    const samples = (await analyseClip(bytes)).samples ?? new Float32Array(0);
    const peak = samples.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
    expect(peak).toBeLessThanOrEqual(LIMIT + 1 / 32768);
    expect(peak).toBeGreaterThan(0.85);
  });
});
