// The VOICEVOX double over real HTTP: each endpoint's shape as VOICEVOX ENGINE publishes it, the voices told apart by
// pitch, speedScale, pitchScale, volumeScale, the output rate and stereo honoured, FastAPI's errors, the request log.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_VOICEVOX_SPEAKERS,
  startVoicevoxDouble,
  voicevoxStylePitchHz,
  type VoicevoxDouble,
} from '@saybot/engine-doubles';
import { hear, postJson, wavFacts } from './helpers.ts';

let double: VoicevoxDouble;
beforeAll(async () => {
  double = await startVoicevoxDouble();
});
beforeEach(() => double.clearRequests());
afterAll(() => double.close());

const TEXT = 'ダブルのテストです、聞こえますか？';

async function audioQuery(text: string, speaker: number | string): Promise<Record<string, unknown>> {
  const response = await fetch(
    `${double.url}/audio_query?text=${encodeURIComponent(text)}&speaker=${encodeURIComponent(speaker)}`,
    { method: 'POST' },
  );
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

const synthesis = (speaker: number | string, query: unknown) =>
  postJson(`${double.url}/synthesis?speaker=${encodeURIComponent(speaker)}`, query);

describe('the VOICEVOX double', () => {
  it('answers /version with a JSON string and /speakers with its speakers and style IDs', async () => {
    expect(double.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await (await fetch(`${double.url}/version`)).json()).toBe('0.25.0');
    const speakers = (await (await fetch(`${double.url}/speakers`)).json()) as unknown[];
    expect(speakers).toHaveLength(3);
    expect(speakers[0]).toEqual({
      name: 'ダブル葵',
      speaker_uuid: DEFAULT_VOICEVOX_SPEAKERS[0]!.speaker_uuid,
      styles: [
        { name: 'ノーマル', id: 0, type: 'talk' },
        { name: 'あまあま', id: 1, type: 'talk' },
        { name: 'ツンツン', id: 2, type: 'talk' },
        { name: 'ささやき', id: 3, type: 'talk' },
      ],
      version: '0.25.0',
      supported_features: { permitted_synthesis_morphing: 'SELF_ONLY' },
    });
  });

  it('answers /speaker_info with terms, a tiny portrait and each style, 404 for an unknown speaker, 422 without one', async () => {
    const uuid = DEFAULT_VOICEVOX_SPEAKERS[1]!.speaker_uuid;
    const info = (await (await fetch(`${double.url}/speaker_info?speaker_uuid=${uuid}`)).json()) as {
      policy: string;
      portrait: string;
      style_infos: Array<{ id: number; icon: string; voice_samples: unknown[] }>;
    };
    expect(info.policy).toContain('ダブル蓮');
    expect(Buffer.from(info.portrait, 'base64').subarray(1, 4).toString()).toBe('PNG');
    expect(info.portrait.length).toBeLessThan(200);
    expect(info.style_infos.map((s) => s.id)).toEqual([10, 11]);
    const unknown = await fetch(`${double.url}/speaker_info?speaker_uuid=nobody`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ detail: expect.any(String) });
    const without = await fetch(`${double.url}/speaker_info`);
    expect(without.status).toBe(422);
    expect(await without.json()).toEqual({
      detail: [{ type: 'missing', loc: ['query', 'speaker_uuid'], msg: 'Field required', input: null }],
    });
  });

  it('makes an AudioQuery of the text with every field VOICEVOX 0.19+ sends', async () => {
    const query = await audioQuery(TEXT, 1);
    expect(query).toMatchObject({
      speedScale: 1,
      pitchScale: 0,
      intonationScale: 1,
      volumeScale: 1,
      prePhonemeLength: 0.1,
      postPhonemeLength: 0.1,
      pauseLength: null,
      pauseLengthScale: 1,
      outputSamplingRate: 24000,
      outputStereo: false,
      kana: expect.any(String),
    });
    const phrases = query['accent_phrases'] as Array<{
      moras: unknown[];
      pause_mora: unknown;
      is_interrogative: boolean;
    }>;
    expect(phrases).toHaveLength(2);
    expect(phrases[0]).toMatchObject({ accent: 1, is_interrogative: false, pause_mora: { vowel: 'pau' } });
    expect(phrases[1]).toMatchObject({ is_interrogative: true });
    expect(phrases[0]!.moras[0]).toEqual({
      text: 'ダ',
      consonant: null,
      consonant_length: null,
      vowel: 'a',
      vowel_length: 0.06,
      pitch: expect.any(Number),
    });
    expect(double.requests).toMatchObject([{ method: 'POST', path: '/audio_query', speaker: 1, inputLength: 17 }]);
  });

  it('leaves pauseLength out where asked, as engines before 0.19 do', async () => {
    const older = await startVoicevoxDouble({ pauseLength: false });
    try {
      const response = await fetch(`${older.url}/audio_query?text=a&speaker=0`, { method: 'POST' });
      expect(Object.keys((await response.json()) as object)).not.toContain('pauseLength');
    } finally {
      await older.close();
    }
  });

  it('synthesises 16-bit mono WAV at the query rate, each style at its own pitch', async () => {
    const query = await audioQuery(TEXT, 0);
    const first = await synthesis(0, query);
    expect(first.headers.get('content-type')).toBe('audio/wav');
    const heardFirst = await hear(first);
    const heardOther = await hear(await synthesis(21, query));
    expect(wavFacts(heardFirst.bytes)).toMatchObject({ riff: 'RIFF', rate: 24000, channels: 1 });
    expect(heardFirst.info.durationSeconds).toBeCloseTo(double.expectedSeconds(TEXT), 2);
    expect(double.pitchHz(0)).toBe(voicevoxStylePitchHz(0));
    expect(Math.abs((heardFirst.pitchHz ?? 0) - (double.pitchHz(0) ?? -1))).toBeLessThan(4);
    expect(Math.abs((heardOther.pitchHz ?? 0) - (double.pitchHz(21) ?? -1))).toBeLessThan(4);
    expect(Math.abs((double.pitchHz(21) ?? 0) - (double.pitchHz(0) ?? 0))).toBeGreaterThan(20);
    expect(double.requests.filter((r) => r.path === '/synthesis')).toMatchObject([
      { speaker: 0, status: 200 },
      { speaker: 21, status: 200 },
    ]);
  });

  it('honours speedScale (duration), pitchScale (on log F0), volumeScale, outputSamplingRate and outputStereo', async () => {
    const query = await audioQuery(TEXT, 10);
    const plain = await hear(await synthesis(10, query));
    const fast = await hear(await synthesis(10, { ...query, speedScale: 2 }));
    expect(fast.info.durationSeconds).toBeCloseTo(plain.info.durationSeconds / 2, 2);
    const higher = await hear(await synthesis(10, { ...query, pitchScale: 0.15 }));
    expect(Math.abs((higher.pitchHz ?? 0) - (double.pitchHz(10, 0.15) ?? -1))).toBeLessThan(4);
    expect(higher.pitchHz! - plain.pitchHz!).toBeGreaterThan(50);
    // VOICEVOX multiplies the log of F0 by 2^pitchScale: this scale makes the style's log F0 one ln 2 more, an octave.
    const octave = Math.log2(1 + Math.LN2 / Math.log(double.pitchHz(10)!));
    const up = await hear(await synthesis(10, { ...query, pitchScale: octave }));
    expect(Math.abs(12 * Math.log2(up.pitchHz! / (2 * double.pitchHz(10)!)))).toBeLessThan(1);
    const quiet = await hear(await synthesis(10, { ...query, volumeScale: 0.5 }));
    expect(plain.levelDbfs - quiet.levelDbfs).toBeCloseTo(6.02, 1);
    const other = await hear(await synthesis(10, { ...query, outputSamplingRate: 16000, outputStereo: true }));
    expect(wavFacts(other.bytes)).toMatchObject({ rate: 16000, channels: 2 });
    expect(other.info.durationSeconds).toBeCloseTo(plain.info.durationSeconds, 2);
  });

  it("answers a bad parameter or body 422 in FastAPI's shape, an unknown style 422, a wrong path 404 or method 405", async () => {
    const query = await audioQuery('テスト', 0);
    const badSpeaker = await synthesis('abc', query);
    expect(badSpeaker.status).toBe(422);
    expect(await badSpeaker.json()).toMatchObject({ detail: [{ type: 'int_parsing', loc: ['query', 'speaker'] }] });
    const unknown = await synthesis(99, query);
    expect(unknown.status).toBe(422);
    expect(await unknown.json()).toEqual({ detail: expect.stringContaining('99') });
    const noText = await fetch(`${double.url}/audio_query?speaker=0`, { method: 'POST' });
    expect(await noText.json()).toEqual({
      detail: [{ type: 'missing', loc: ['query', 'text'], msg: 'Field required', input: null }],
    });
    const { speedScale: _, ...withoutSpeed } = query;
    const missing = await synthesis(0, withoutSpeed);
    expect(missing.status).toBe(422);
    expect(await missing.json()).toMatchObject({ detail: [{ type: 'missing', loc: ['body', 'speedScale'] }] });
    const notJson = await synthesis(0, '{"accent_phrases":');
    expect(notJson.status).toBe(422);
    expect(await notJson.json()).toMatchObject({ detail: [{ type: 'json_invalid' }] });
    const tooLong = await synthesis(0, { ...query, prePhonemeLength: 9, postPhonemeLength: 9, speedScale: 0.05 });
    expect(tooLong.status).toBe(422);
    const nowhere = await fetch(`${double.url}/accent_phrases`);
    expect([nowhere.status, await nowhere.json()]).toEqual([404, { detail: 'Not Found' }]);
    const wrongMethod = await fetch(`${double.url}/synthesis?speaker=0`);
    expect([wrongMethod.status, wrongMethod.headers.get('allow')]).toEqual([405, 'POST']);
  });

  it('refuses a body over its bound with 413', async () => {
    const response = await synthesis(0, { padding: 'x'.repeat(1024 * 1024 + 10) });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ detail: expect.stringContaining('bytes') });
  });
});
