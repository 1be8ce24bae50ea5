// Both clients over real HTTP to a stand-in engine: what they send (the query, the body, the bearer token) and what
// they make of the voice lists; SayBot's effects on each engine's own controls.
import { buffer } from 'node:stream/consumers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  SpeechServerClient,
  speechServerSpeed,
  VoicevoxClient,
  voicevoxScales,
} from '../../../src/core/engines/engine-clients.ts';
import { DEFAULT_ENGINE_DEADLINES } from '../../../src/core/engines/engine-http.ts';
import { AUDIO_QUERY, FakeEngine, speechHandler, voicevoxHandler } from './fake-engine.ts';

let engine: FakeEngine;
beforeEach(async () => {
  engine = await FakeEngine.start();
});
afterEach(async () => {
  await engine.close();
});

describe('the VOICEVOX client', () => {
  it("lists the engine's styles and speaks a line as audio_query then synthesis, the controls set in the query", async () => {
    engine.handler = voicevoxHandler();
    const client = new VoicevoxClient(engine.url, DEFAULT_ENGINE_DEADLINES);
    try {
      const voices = await client.fetchVoices();
      expect(voices.map((v) => v.id)).toEqual(['voicevox:2', 'voicevox:0', 'voicevox:3']);
      const zundamon = voices.find((v) => v.id === 'voicevox:3')!;
      const spoken = await client.synthesize('こんにちは、世界 & co', zundamon, {
        speed: 1.25,
        pitch: 2,
        volumeDb: -6,
      });
      expect((await buffer(spoken.body)).subarray(0, 4).toString('latin1')).toBe('RIFF');
      expect(spoken).toMatchObject({
        sampleRate: 24_000,
        channels: 1,
        applies: ['speed', 'pitch', 'volumeDb'],
      });

      const [list, query, synthesis] = engine.seen;
      expect(list).toMatchObject({ method: 'GET' });
      expect(list!.url.pathname).toBe('/speakers');
      expect(query!.method).toBe('POST');
      expect(query!.url.pathname).toBe('/audio_query');
      expect(Object.fromEntries(query!.url.searchParams)).toEqual({ text: 'こんにちは、世界 & co', speaker: '3' });
      expect(synthesis!.method).toBe('POST');
      expect(synthesis!.url.pathname).toBe('/synthesis');
      expect(Object.fromEntries(synthesis!.url.searchParams)).toEqual({ speaker: '3' });
      expect(synthesis!.headers['content-type']).toBe('application/json');
      const sent = JSON.parse(synthesis!.body) as Record<string, unknown>;
      expect(sent).toMatchObject({
        ...AUDIO_QUERY,
        speedScale: 1.25,
        pitchScale: expect.closeTo(0.03, 2) as number,
        volumeScale: expect.closeTo(0.501, 3) as number,
      });
    } finally {
      await client.close();
    }
  });
});

describe('the speech server client', () => {
  it('sends model, input, voice, response_format wav and speed, with the bearer token', async () => {
    engine.handler = speechHandler();
    const key = 'sk-local-' + 'k'.repeat(20);
    const client = new SpeechServerClient({ url: `${engine.url}/v1`, key, model: 'kokoro' }, DEFAULT_ENGINE_DEADLINES);
    try {
      const voices = await client.fetchVoices();
      expect(voices.map((v) => [v.id, v.language])).toEqual([
        ['speech:af_heart', 'en'],
        ['speech:jf_alpha', 'ja'],
        ['speech:bm_george', 'en'],
      ]);
      const spoken = await client.synthesize('Hello there', voices[0]!, { speed: 0.75, pitch: 3, volumeDb: 2 });
      expect(spoken.applies).toEqual(['speed']);
      const [list, speech] = engine.seen;
      expect(list!.url.pathname).toBe('/v1/audio/voices');
      expect(list!.headers.authorization).toBe(`Bearer ${key}`);
      expect(speech!.method).toBe('POST');
      expect(speech!.url.pathname).toBe('/v1/audio/speech');
      expect(speech!.headers.authorization).toBe(`Bearer ${key}`);
      expect(speech!.headers['content-type']).toBe('application/json');
      expect(JSON.parse(speech!.body)).toEqual({
        model: 'kokoro',
        input: 'Hello there',
        voice: 'af_heart',
        response_format: 'wav',
        speed: 0.75,
      });
      expect(JSON.stringify(client)).not.toContain(key);
    } finally {
      await client.close();
    }
  });

  it("sends no Authorization header without a key, and takes the owner's list when the server has none (404)", async () => {
    engine.handler = speechHandler(null);
    const client = new SpeechServerClient(
      { url: `${engine.url}/v1`, model: 'tts-1', voices: [{ name: 'alloy', language: 'en' }, { name: 'nova' }] },
      DEFAULT_ENGINE_DEADLINES,
    );
    try {
      const voices = await client.fetchVoices();
      expect(voices.map((v) => [v.id, v.language])).toEqual([
        ['speech:alloy', 'en'],
        ['speech:nova', undefined],
      ]);
      await client.synthesize('Hi', voices[1]!, {});
      expect(engine.seen.every((seen) => seen.headers.authorization === undefined)).toBe(true);
      expect(JSON.parse(engine.seen[1]!.body)).toMatchObject({ model: 'tts-1', voice: 'nova', speed: 1 });
    } finally {
      await client.close();
    }
  });
});

describe("SayBot's controls on the engines' own", () => {
  it("sets VOICEVOX's speedScale, volumeScale (dB as a factor) and pitchScale (semitones on a log-F0)", () => {
    expect(voicevoxScales({ speed: 1.5, volumeDb: -20, pitch: 12 })).toEqual({
      speedScale: 1.5,
      volumeScale: 0.1,
      pitchScale: expect.closeTo(0.171, 3) as number,
    });
    expect(voicevoxScales({ volumeDb: 6 }).volumeScale).toBeCloseTo(1.9953, 3);
    expect(voicevoxScales({ pitch: -12 }).pitchScale).toBeCloseTo(-0.194, 3);
    // A shift of n semitones at a 245 Hz voice (log 5.5): 2^pitchScale times its log-F0 is log(245·2^(n/12)).
    const scale = voicevoxScales({ pitch: 5 }).pitchScale!;
    expect(Math.exp(5.5 * 2 ** scale) / Math.exp(5.5)).toBeCloseTo(2 ** (5 / 12), 2);
  });

  it("leaves a setting at its neutral value out (the query's own stays)", () => {
    expect(voicevoxScales({})).toEqual({});
    expect(voicevoxScales({ speed: 1, pitch: 0, volumeDb: 0 })).toEqual({});
  });

  it("sends the speech server SayBot's speed as it is, 1 when unset", () => {
    expect(speechServerSpeed({ speed: 0.5 })).toBe(0.5);
    expect(speechServerSpeed({})).toBe(1);
  });
});
