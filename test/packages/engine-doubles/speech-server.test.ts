// The OpenAI-compatible speech server double over real HTTP: /v1/models, Kokoro's /v1/audio/voices (and its 404 where
// turned off), /v1/audio/speech in wav, mp3 and pcm with each voice at its own pitch and `speed` honoured, OpenAI's
// errors, the bearer key, and a request log that keeps no key.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { speechVoicePitchHz, startSpeechServerDouble, type SpeechServerDouble } from '@saybot/engine-doubles';
import { hear, postJson, wavFacts } from './helpers.ts';

const KEY = 'sk-double-test-key';
let double: SpeechServerDouble;
beforeAll(async () => {
  double = await startSpeechServerDouble({ apiKey: KEY });
});
beforeEach(() => double.clearRequests());
afterAll(() => double.close());

const AUTH = { Authorization: `Bearer ${KEY}` };
const INPUT = 'A line long enough to measure its pitch.';
const speak = (body: unknown, headers: Record<string, string> = AUTH) =>
  postJson(`${double.url}/audio/speech`, body, headers);

async function openAiError(
  response: Response,
): Promise<{ message: string; type: string; param: unknown; code: unknown }> {
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const body = (await response.json()) as { error: { message: string; type: string; param: unknown; code: unknown } };
  expect(Object.keys(body.error).sort()).toEqual(['code', 'message', 'param', 'type']);
  return body.error;
}

describe('the speech server double', () => {
  it('lists its models and, as Kokoro-FastAPI, its voices', async () => {
    expect(double.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const models = await fetch(`${double.url}/models`, { headers: AUTH });
    expect(await models.json()).toEqual({
      object: 'list',
      data: ['kokoro', 'tts-1', 'tts-1-hd'].map((id) => ({
        id,
        object: 'model',
        created: expect.any(Number),
        owned_by: expect.any(String),
      })),
    });
    const voices = (await (await fetch(`${double.url}/audio/voices`, { headers: AUTH })).json()) as {
      voices: string[];
    };
    expect(voices.voices).toEqual(
      expect.arrayContaining(['af_heart', 'af_bella', 'am_adam', 'bf_emma', 'jf_alpha', 'zf_xiaobei']),
    );
  });

  it('answers /v1/audio/voices 404 where turned off, as openedai-speech does', async () => {
    const plain = await startSpeechServerDouble({
      voicesEndpoint: false,
      voices: ['alloy', { id: 'echo', pitchHz: 1500 }],
    });
    try {
      const response = await fetch(`${plain.url}/audio/voices`);
      expect(response.status).toBe(404);
      expect((await openAiError(response)).message).toContain('/v1/audio/voices');
      expect(plain.pitchHz('echo')).toBe(1500);
      expect(plain.pitchHz('alloy')).toBe(speechVoicePitchHz('alloy', ['alloy']));
    } finally {
      await plain.close();
    }
  });

  it('speaks WAV, MP3 (the default) and PCM with their Content-Types, each voice at its own pitch', async () => {
    const wav = await speak({ model: 'kokoro', input: INPUT, voice: 'af_bella', response_format: 'wav' });
    expect(wav.headers.get('content-type')).toBe('audio/wav');
    const bella = await hear(wav);
    expect(wavFacts(bella.bytes)).toMatchObject({ riff: 'RIFF', rate: 24000, channels: 1 });
    expect(bella.info.durationSeconds).toBeCloseTo(double.expectedSeconds(INPUT), 2);
    const mp3 = await speak({ model: 'tts-1', input: INPUT, voice: 'am_adam' });
    expect(mp3.headers.get('content-type')).toBe('audio/mpeg');
    const adam = await hear(mp3);
    expect(adam.info.format).toBe('mp3');
    expect(Math.abs((bella.pitchHz ?? 0) - (double.pitchHz('af_bella') ?? -1))).toBeLessThan(4);
    expect(Math.abs((adam.pitchHz ?? 0) - (double.pitchHz('am_adam') ?? -1))).toBeLessThan(4);
    expect(Math.abs((double.pitchHz('af_bella') ?? 0) - (double.pitchHz('am_adam') ?? 0))).toBeGreaterThan(20);
    const pcm = await speak({ model: 'kokoro', input: INPUT, voice: 'af_bella', response_format: 'pcm' });
    expect(pcm.headers.get('content-type')).toBe('audio/pcm');
    expect((await pcm.arrayBuffer()).byteLength).toBe(bella.bytes.length - 44);
    expect(double.requests).toMatchObject([
      {
        path: '/v1/audio/speech',
        voice: 'af_bella',
        model: 'kokoro',
        format: 'wav',
        inputLength: INPUT.length,
        status: 200,
      },
      { voice: 'am_adam', model: 'tts-1', status: 200 },
      { format: 'pcm', status: 200 },
    ]);
    expect(double.requests[0]!.format).toBe('wav');
    expect(double.requests[1]!.format).toBeUndefined();
  });

  it('honours speed: twice as fast is half as long', async () => {
    const slow = await hear(await speak({ model: 'kokoro', input: INPUT, voice: 'bf_emma', response_format: 'wav' }));
    const fast = await hear(
      await speak({ model: 'kokoro', input: INPUT, voice: 'bf_emma', response_format: 'wav', speed: 2 }),
    );
    expect(fast.info.durationSeconds).toBeCloseTo(slow.info.durationSeconds / 2, 2);
    expect(fast.info.durationSeconds).toBeCloseTo(double.expectedSeconds(INPUT, 2), 2);
  });

  it("answers a bad request 400 (404 for an unknown model) in OpenAI's error shape", async () => {
    const cases: Array<[unknown, number, string | null]> = [
      [{ model: 'kokoro', input: INPUT, voice: 'nobody' }, 400, 'voice'],
      [{ input: INPUT, voice: 'af_heart' }, 400, 'model'],
      [{ model: 'kokoro', voice: 'af_heart' }, 400, 'input'],
      [{ model: 'kokoro', input: '', voice: 'af_heart' }, 400, 'input'],
      [{ model: 'kokoro', input: 'x'.repeat(4097), voice: 'af_heart' }, 400, 'input'],
      [{ model: 'kokoro', input: INPUT, voice: 'af_heart', response_format: 'opus' }, 400, 'response_format'],
      [{ model: 'kokoro', input: INPUT, voice: 'af_heart', response_format: 'ogg' }, 400, 'response_format'],
      [{ model: 'kokoro', input: INPUT, voice: 'af_heart', speed: 5 }, 400, 'speed'],
      [{ model: 'kokoro', input: INPUT, voice: 'af_heart', speed: 0.1 }, 400, 'speed'],
      [{ model: 'gpt-nothing', input: INPUT, voice: 'af_heart' }, 404, null],
      ['{"model":', 400, null],
    ];
    for (const [body, status, param] of cases) {
      const response = await speak(body);
      expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(status);
      expect(await openAiError(response)).toMatchObject({ type: 'invalid_request_error', param });
    }
    const nowhere = await fetch(`${double.url}/audio/transcriptions`, { method: 'POST', headers: AUTH });
    expect(nowhere.status).toBe(404);
    await openAiError(nowhere);
  });

  it('asks for the bearer key it was given: none or a wrong one is 401, and the log keeps no Authorization', async () => {
    const none = await speak({ model: 'kokoro', input: INPUT, voice: 'af_heart' }, {});
    expect(none.status).toBe(401);
    expect(await openAiError(none)).toMatchObject({ code: null });
    const wrong = await fetch(`${double.url}/models`, { headers: { Authorization: 'Bearer sk-wrong' } });
    expect(wrong.status).toBe(401);
    const error = await openAiError(wrong);
    expect(error.code).toBe('invalid_api_key');
    expect(error.message).not.toContain('sk-wrong');
    expect((await speak({ model: 'kokoro', input: INPUT, voice: 'af_heart' })).status).toBe(200);
    expect(double.requests.map((r) => [r.hadAuthorization, r.status])).toEqual([
      [false, 401],
      [true, 401],
      [true, 200],
    ]);
    expect(JSON.stringify(double.requests)).not.toContain(KEY);
    expect(JSON.stringify(double.requests)).not.toContain('sk-wrong');
  });
});
