// An engine's exchange over real HTTP to stand-in engines: every bad answer an engine can give is refused, told apart
// (refused, failed, timeout, bad-answer), with nothing past its bound held; both clients over it: what they send (the
// query, the body, the bearer token) and what they make of the voice lists; SayBot's effects on each engine's own
// controls.
import { createServer } from 'node:net';
import { MAX_FREE_LINE_SECONDS } from '../../../src/core/characters.ts';
import { buffer } from 'node:stream/consumers';
import type { ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_ENGINE_DEADLINES,
  EngineError,
  EngineExchange,
  JSON_CAP_BYTES,
  MAX_WAV_BYTES,
  type EngineDeadlines,
} from '../../../src/core/engines/engine-http.ts';
import {
  engineControlled,
  splitEffects,
  SpeechServerClient,
  speechServerSpeed,
  VoicevoxClient,
  voicevoxScales,
} from '../../../src/core/engines/engine-clients.ts';
import { AUDIO_QUERY, FakeEngine, sendWav, speechHandler, voicevoxHandler, wav, wavHeader } from './fake-engine.ts';

let voicevox: FakeEngine;
let speech: FakeEngine;

beforeEach(async () => {
  voicevox = await FakeEngine.start();
  speech = await FakeEngine.start();
  voicevox.handler = voicevoxHandler();
  speech.handler = speechHandler();
});
afterEach(async () => {
  await voicevox.close();
  await speech.close();
});

async function failure(promise: Promise<unknown>): Promise<EngineError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(EngineError);
    return error as EngineError;
  }
  return expect.fail('expected an EngineError');
}

const DEADLINES: EngineDeadlines = { connectMs: 2_000, headersMs: 400, bodyMs: 400, stallMs: 400 };
let exchange: EngineExchange;

/** A line's WAV read to its end: a failure at the door or in its body alike rejects. */
const wavAnswer = async (signal?: AbortSignal) => {
  const wav = await exchange.wav(
    { method: 'POST', url: `${speech.url}/v1/audio/speech`, body: '{}', signal },
    'its speech',
  );
  return { ...wav, bytes: await buffer(wav.body) };
};

/** Writes `chunk` forever, as fast as the connection takes it, until the client goes away. */
function endless(res: ServerResponse, chunk: Buffer): void {
  const more = (): void => {
    while (!res.destroyed && res.write(chunk));
    if (!res.destroyed) res.once('drain', more);
  };
  res.on('close', () => res.removeAllListeners('drain'));
  more();
}

describe("an engine line's cap", () => {
  it("is the free voice's cap on a line: the most WAV taken is that many seconds at the highest rate", () => {
    expect(MAX_WAV_BYTES).toBe(MAX_FREE_LINE_SECONDS * 48_000 * 2 * 2 + 64 * 1024);
  });
});

describe('an engine answer', () => {
  beforeEach(() => {
    exchange = new EngineExchange('speech', DEADLINES);
  });
  afterEach(async () => {
    await exchange.close();
  });

  it('is a checked WAV when it is one', async () => {
    speech.handler = (_req, res) => sendWav(res, wav(0.5, 22_050));
    const spoken = await wavAnswer();
    expect(spoken).toMatchObject({ sampleRate: 22_050, channels: 1 });
    expect(spoken.bytes.length).toBe(44 + 2 * Math.round(0.5 * 22_050));
  });

  it.each([
    [
      'an HTML error page with 200',
      'text/html; charset=utf-8',
      Buffer.from('<html><body>Bad Gateway</body></html>'),
      /text\/html, not WAV/,
    ],
    ['HTML labelled audio/wav', 'audio/wav', Buffer.from('<!doctype html><html>' + ' '.repeat(64)), /not WAV audio/],
    ['MP3', 'audio/mpeg', Buffer.from([0xff, 0xfb, 0x90, 0x00, ...Array(60).fill(0)]), /audio\/mpeg, not WAV/],
    [
      '32-bit float WAV',
      'audio/wav',
      Buffer.concat([wavHeader(400, 24_000, 1, 32, 3), Buffer.alloc(400)]),
      /32-bit float/,
    ],
    ['8-bit WAV', 'audio/wav', Buffer.concat([wavHeader(400, 24_000, 1, 8), Buffer.alloc(400)]), /8-bit int/],
    ['a 96 kHz WAV', 'audio/wav', Buffer.concat([wavHeader(400, 96_000), Buffer.alloc(400)]), /96000 Hz/],
    ['no body at all', 'audio/wav', Buffer.alloc(0), /no audio at all/],
    ['a WAV cut within its header', 'audio/wav', wavHeader(400).subarray(0, 30), /cut off within its header/],
    ['no Content-Type', undefined, wav(), /no Content-Type/],
  ])('is refused as a bad answer: %s', async (_what, type, body, words) => {
    speech.handler = (_req, res) => res.writeHead(200, type === undefined ? {} : { 'content-type': type }).end(body);
    const error = await failure(wavAnswer());
    expect(error.reason).toBe('bad-answer');
    expect(error.message).toMatch(words);
    // The body's words never reach the message.
    expect(error.message).not.toMatch(/Bad Gateway|doctype/);
  });

  it('tells 4xx (refused) from 5xx (failed), with the status, never the body', async () => {
    speech.handler = (_req, res) =>
      res.writeHead(422, { 'content-type': 'application/json' }).end('{"detail":"secret body words"}');
    const refused = await failure(wavAnswer());
    expect([refused.reason, refused.status, refused.marksDown]).toEqual(['refused', 422, false]);
    speech.handler = (_req, res) =>
      res.writeHead(503, { 'content-type': 'text/html' }).end('<h1>secret body words</h1>');
    const failed = await failure(wavAnswer());
    expect([failed.reason, failed.status, failed.marksDown]).toEqual(['failed', 503, true]);
    expect(`${refused.message} ${failed.message}`).not.toContain('secret body words');
  });

  it('follows no redirect', async () => {
    speech.handler = (_req, res, seen) =>
      seen.url.pathname === '/elsewhere'
        ? sendWav(res)
        : res.writeHead(307, { location: `${speech.url}/elsewhere` }).end();
    const error = await failure(wavAnswer());
    expect([error.reason, error.status]).toEqual(['refused', 307]);
    expect(speech.seen.map((seen) => seen.url.pathname)).toEqual(['/v1/audio/speech']);
  });

  it('refuses a declared size past the most a line can be at once, before reading any of it', async () => {
    speech.handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'audio/wav', 'content-length': String(MAX_WAV_BYTES + 1) });
      res.flushHeaders();
    };
    const error = await failure(wavAnswer());
    expect(error.reason).toBe('bad-answer');
    expect(error.message).toContain(`${MAX_FREE_LINE_SECONDS} s`);
    expect(speech.written).toBe(0);
  });

  it("refuses a declared size past the most at the WAV's own rate once its header is read", async () => {
    // 8 kHz mono: 120 s are under 2 MB, far below the 48 kHz stereo bound checked before the header.
    const header = wavHeader(0, 8_000);
    const declared = 121 * 8_000 * 2 + 44 + 64 * 1024;
    expect(declared).toBeLessThan(MAX_WAV_BYTES);
    speech.handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'audio/wav', 'content-length': String(declared) });
      res.write(header);
    };
    expect((await failure(wavAnswer())).reason).toBe('bad-answer');
    expect(speech.written).toBe(header.length);
  });

  it('cuts an endless body at its bound, holding no more than that', async () => {
    const cap = MAX_FREE_LINE_SECONDS * 8_000 * 2 + 44 + 64 * 1024;
    speech.handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'audio/wav' });
      res.write(wavHeader(0, 8_000));
      endless(res, Buffer.alloc(64 * 1024));
    };
    const before = process.memoryUsage().arrayBuffers;
    const error = await failure(wavAnswer());
    expect(error.reason).toBe('bad-answer');
    expect(error.message).toMatch(/more audio than a line may have/);
    // What the server got to write: the bound, and what the sockets' buffers took besides.
    expect(speech.written).toBeGreaterThan(cap);
    expect(speech.written).toBeLessThan(cap + 16 * 1024 * 1024);
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(cap + 16 * 1024 * 1024);
  });

  it('cuts a body that does not end within its deadline (a trickle), and one whose headers never come', async () => {
    speech.handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'audio/wav' });
      res.write(wavHeader(0));
      const timer = setInterval(() => res.write(Buffer.alloc(2)), 50);
      res.on('close', () => clearInterval(timer));
    };
    const trickle = await failure(wavAnswer());
    expect([trickle.reason, trickle.marksDown]).toEqual(['timeout', true]);
    expect(trickle.message).toMatch(/whole answer within 400 ms/);
    speech.handler = () => undefined;
    const silent = await failure(wavAnswer());
    expect(silent.reason).toBe('timeout');
    expect(silent.message).toMatch(/did not answer within 400 ms/);
  });

  it('gives a WAV that declares its samples as long as they play and a stall more: streamed as it plays, it is heard whole', async () => {
    // The deadline of a body of unknown length (400 ms) is shorter than the second of audio it sends; the stall's 5 s
    // leave a busy host's timers room.
    exchange = new EngineExchange('speech', { ...DEADLINES, stallMs: 5_000 });
    const second = wav(1);
    speech.handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'audio/wav' });
      res.write(second.subarray(0, 44));
      let at = 44;
      const piece = 24_000 * 2 * 0.1;
      const timer = setInterval(() => {
        res.write(second.subarray(at, (at += piece)));
        if (at >= second.length) res.end();
      }, 100);
      res.on('close', () => clearInterval(timer));
    };
    const answer = await wavAnswer();
    expect(answer.bytes.length).toBe(second.length);
  });

  it('cuts a WAV that declares its samples once they would have played and a stall more', async () => {
    speech.handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'audio/wav' });
      // 0.2 s of audio declared: 200 ms, and the stall's 400 ms.
      res.write(wavHeader(24_000 * 2 * 0.2));
      res.write(Buffer.alloc(2));
      const timer = setInterval(() => res.write(Buffer.alloc(2)), 50);
      res.on('close', () => clearInterval(timer));
    };
    const trickle = await failure(wavAnswer());
    expect(trickle.reason).toBe('timeout');
    expect(trickle.message).toMatch(/whole answer within 600 ms/);
  });

  it('says a connection refused is a failure', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const error = await failure(exchange.wav({ method: 'GET', url: `http://127.0.0.1:${port}/` }, 'its speech'));
    expect([error.reason, error.marksDown]).toEqual(['failed', true]);
    expect(error.message).toMatch(/connection refused/);
  });

  it('refuses JSON past its cap, malformed JSON and JSON that is not labelled so', async () => {
    speech.handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      endless(res, Buffer.alloc(64 * 1024, 0x20));
    };
    const big = await failure(exchange.json({ method: 'GET', url: `${speech.url}/speakers` }, 'its voice list'));
    expect(big.message).toContain(`more than ${JSON_CAP_BYTES} bytes`);
    speech.handler = (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('[{"name":');
    expect((await failure(exchange.json({ method: 'GET', url: speech.url }, 'its voice list'))).message).toMatch(
      /malformed/,
    );
    speech.handler = (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('[]');
    expect((await failure(exchange.json({ method: 'GET', url: speech.url }, 'its voice list'))).reason).toBe(
      'bad-answer',
    );
  });

  it("ends with the caller's own reason when the caller aborts, and closes the connection", async () => {
    let closed = false;
    speech.handler = (_req, res) => res.on('close', () => (closed = true));
    const controller = new AbortController();
    const pending = wavAnswer(controller.signal);
    await speech.requests(1);
    const reason = new Error('skipped');
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    await expect.poll(() => closed).toBe(true);
  });
});

describe('the VOICEVOX client', () => {
  it("lists the engine's styles and speaks a line as audio_query then synthesis, the controls set in the query", async () => {
    const client = new VoicevoxClient(voicevox.url, DEFAULT_ENGINE_DEADLINES);
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

      const [list, query, synthesis] = voicevox.seen;
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
    const key = 'sk-local-' + 'k'.repeat(20);
    const client = new SpeechServerClient({ url: `${speech.url}/v1`, key, model: 'kokoro' }, DEFAULT_ENGINE_DEADLINES);
    try {
      const voices = await client.fetchVoices();
      expect(voices.map((v) => [v.id, v.language])).toEqual([
        ['speech:af_heart', 'en'],
        ['speech:jf_alpha', 'ja'],
        ['speech:bm_george', 'en'],
      ]);
      const spoken = await client.synthesize('Hello there', voices[0]!, { speed: 0.75, pitch: 3, volumeDb: 2 });
      expect(spoken.applies).toEqual(['speed']);
      const [list, line] = speech.seen;
      expect(list!.url.pathname).toBe('/v1/audio/voices');
      expect(list!.headers.authorization).toBe(`Bearer ${key}`);
      expect(line!.method).toBe('POST');
      expect(line!.url.pathname).toBe('/v1/audio/speech');
      expect(line!.headers.authorization).toBe(`Bearer ${key}`);
      expect(line!.headers['content-type']).toBe('application/json');
      expect(JSON.parse(line!.body)).toEqual({
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
    speech.handler = speechHandler(null);
    const client = new SpeechServerClient(
      { url: `${speech.url}/v1`, model: 'tts-1', voices: [{ name: 'alloy', language: 'en' }, { name: 'nova' }] },
      DEFAULT_ENGINE_DEADLINES,
    );
    try {
      const voices = await client.fetchVoices();
      expect(voices.map((v) => [v.id, v.language])).toEqual([
        ['speech:alloy', 'en'],
        ['speech:nova', undefined],
      ]);
      await client.synthesize('Hi', voices[1]!, {});
      expect(speech.seen.every((seen) => seen.headers.authorization === undefined)).toBe(true);
      expect(JSON.parse(speech.seen[1]!.body)).toMatchObject({ model: 'tts-1', voice: 'nova', speed: 1 });
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

  it('gives each engine the effects it renders (VOICEVOX all three, a speech server the speed), SayBot the rest', () => {
    const effects = { speed: 1.5, volumeDb: -6, pitch: 3 };
    expect(splitEffects('voicevox', effects)).toEqual({ engine: effects });
    expect(splitEffects('speech', effects)).toEqual({
      engine: { speed: 1.5, volumeDb: 0 },
      effects: { speed: 1, volumeDb: -6, pitch: 3 },
    });
    expect(splitEffects('speech', { speed: 1, volumeDb: -6 })).toEqual({ effects: { speed: 1, volumeDb: -6 } });
    expect(splitEffects('voicevox', { speed: 1, volumeDb: 0, pitch: 0 })).toEqual({});
  });

  it("splits an engine voice's request by its engine; a paid voice's, one without effects or split already as it is", () => {
    const effects = { speed: 1.5, volumeDb: -6, pitch: 3 };
    expect(engineControlled({ voice: 'speech:af_heart', text: 'hi', effects })).toEqual({
      voice: 'speech:af_heart',
      text: 'hi',
      engine: { speed: 1.5, volumeDb: 0 },
      effects: { speed: 1, volumeDb: -6, pitch: 3 },
    });
    const asIs = [
      { voice: 'voice-b-en-f-01', effects },
      { voice: 'voicevox:3' },
      { voice: 'voicevox:3', effects, engine: effects },
    ];
    for (const request of asIs) expect(engineControlled(request)).toBe(request);
  });
});
