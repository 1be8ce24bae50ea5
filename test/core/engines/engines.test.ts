// The Engines API end to end over real HTTP to stand-in engines: the catalogue and its refresh, the circuit, the queue's
// fairness and shares, aborts, the status, and the speech server's key kept out of every log line and error; the
// circuit alone on an injected clock. The exchange and the clients under it: engine-http.test.ts.
import { PassThrough } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import type { ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EngineCircuit, Engines, type EngineSpeech, type EnginesOptions } from '../../../src/core/engines/engines.ts';
import { EngineError } from '../../../src/core/engines/engine-http.ts';
import type { EnginesConfig } from '../../../src/core/engines/engine-settings.ts';
import { createLogger } from '../../../src/core/log.ts';
import { AudioFill } from '../../../src/core/cache/audio-fill.ts';
import { FakeEngine, sendWav, speechHandler, SPEAKERS, voicevoxHandler, wav, type Handler } from './fake-engine.ts';
import { mainThreadCopies } from '../../support/main-thread-copies.ts';
import { inPieces, PIECE } from '../../support/streamed-pieces.ts';

const A = { guildId: '100000000000000001', userId: '200000000000000001' };
const B = { guildId: '100000000000000002', userId: '200000000000000002' };
const KEY = ['sk', 'speech', 'key', 'never-shown-0123456789'].join('-');

let voicevox: FakeEngine;
let speech: FakeEngine;
let engines: Engines | undefined;

beforeEach(async () => {
  voicevox = await FakeEngine.start();
  speech = await FakeEngine.start();
  voicevox.handler = voicevoxHandler();
  speech.handler = speechHandler();
});
afterEach(async () => {
  await engines?.close();
  engines = undefined;
  await voicevox.close();
  await speech.close();
});

function config(key?: string): EnginesConfig {
  return {
    voicevoxUrl: voicevox.url,
    speechServer: { url: `${speech.url}/v1`, key, model: 'tts-1' },
    freeVoices: {},
  };
}

async function started(options: EnginesOptions = {}, key?: string): Promise<Engines> {
  engines = new Engines(config(key), { deadlines: { headersMs: 2_000, bodyMs: 2_000 }, ...options });
  await engines.start();
  return engines;
}

async function failure(promise: Promise<unknown>): Promise<EngineError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(EngineError);
    return error as EngineError;
  }
  return expect.fail('expected an EngineError');
}

/** A synthesis handler that holds each answer until the test lets it go, in the order they arrived. */
function held(): { handler: Handler; release: () => void; order: string[]; cut: string[] } {
  const waiting: Array<{ res: ServerResponse; input: string }> = [];
  const order: string[] = [];
  const cut: string[] = [];
  return {
    order,
    cut,
    handler: (req, res, seen) => {
      if (seen.url.pathname === '/v1/audio/speech') {
        const input = (JSON.parse(seen.body) as { input: string }).input;
        order.push(input);
        waiting.push({ res, input });
        res.on('close', () => {
          if (!res.writableFinished) cut.push(input);
        });
        return;
      }
      return speechHandler()(req, res, seen);
    },
    release: () => {
      let next = waiting.shift();
      while (next !== undefined && next.res.destroyed) next = waiting.shift();
      if (next !== undefined) sendWav(next.res);
    },
  };
}

/** A line spoken, its audio read to its end (its slot in the queue is held until then). */
async function spoken(line: Promise<EngineSpeech>): Promise<EngineSpeech & { wav: Buffer }> {
  const speech = await line;
  return { ...speech, wav: await buffer(speech.body) };
}

const synths = (engine: FakeEngine) => engine.seen.filter((s) => s.url.pathname === '/v1/audio/speech').length;

describe('Engines', () => {
  it("offers both engines' voices and speaks a line in each, saying which controls it applied", async () => {
    const e = await started();
    expect(e.configured).toEqual(['voicevox', 'speech']);
    expect(e.voices().map((v) => v.id)).toEqual([
      'voicevox:2',
      'voicevox:0',
      'voicevox:3',
      'speech:af_heart',
      'speech:jf_alpha',
      'speech:bm_george',
    ]);
    expect(e.voice('voicevox:3')).toMatchObject({
      name: 'ずんだもん (ノーマル)',
      credit: 'VOICEVOX:ずんだもん',
      language: 'ja',
    });
    expect(e.voice('voicevox:99')).toBeUndefined();
    expect(e.voice('free-en-f')).toBeUndefined();
    const ja = await spoken(e.synthesize('こんにちは', 'voicevox:3', { speed: 1.2 }, A));
    expect(ja.wav.subarray(0, 4).toString('latin1')).toBe('RIFF');
    expect(ja.applies).toEqual(['speed', 'pitch', 'volumeDb']);
    const en = await spoken(e.synthesize('Hello', 'speech:af_heart', { speed: 1.2, pitch: 2 }, A));
    expect(en.applies).toEqual(['speed']);
    expect(en.voice.id).toBe('speech:af_heart');
  });

  it('refuses an unknown voice, an unconfigured engine and a text out of bounds without sending anything', async () => {
    const e = await started();
    const sent = voicevox.seen.length + speech.seen.length;
    expect((await failure(spoken(e.synthesize('x', 'voicevox:99', {}, A)))).reason).toBe('unknown-voice');
    expect((await failure(spoken(e.synthesize('x', 'speech:nobody', {}, A)))).reason).toBe('unknown-voice');
    expect((await failure(spoken(e.synthesize('x', 'free-en-f', {}, A)))).reason).toBe('unknown-voice');
    expect((await failure(spoken(e.synthesize('', 'voicevox:3', {}, A)))).reason).toBe('refused');
    expect((await failure(spoken(e.synthesize('あ'.repeat(1001), 'voicevox:3', {}, A)))).reason).toBe('refused');
    expect(voicevox.seen.length + speech.seen.length).toBe(sent);
    const none = new Engines({ freeVoices: {} });
    expect(none.configured).toEqual([]);
    expect(none.voices()).toEqual([]);
    expect((await failure(none.synthesize('x', 'voicevox:3', {}, A))).reason).toBe('unknown-voice');
    expect(await none.status()).toEqual([]);
    await none.close();
  });

  it('refreshes its catalogue: a voice the engine no longer lists is then unknown, never sent', async () => {
    const e = await started({ catalogue: { refreshMs: 60_000 } });
    expect(e.voice('voicevox:0')).toBeDefined();
    voicevox.handler = voicevoxHandler([{ ...SPEAKERS[1] }]);
    await e.start();
    expect(e.voice('voicevox:0')).toBeUndefined();
    expect(e.voice('voicevox:3')).toBeDefined();
    const before = voicevox.seen.length;
    expect((await failure(spoken(e.synthesize('x', 'voicevox:0', {}, A)))).reason).toBe('unknown-voice');
    expect(voicevox.seen.length).toBe(before);
  });

  // bb12: a voice added, or one the engine refused, was known only at the ten-minute refresh.
  it('reads a list again for a voice it lacks or the engine refused: one read shared, at most once per short while', async () => {
    const e = await started({ catalogue: { refreshMs: 60_000 } });
    const lists = () => voicevox.seen.filter((s) => s.url.pathname === '/speakers').length;
    const read = lists();
    const added = { ...SPEAKERS[1], styles: [...SPEAKERS[1]!.styles, { name: 'new', id: 77, type: 'talk' }] };
    voicevox.handler = voicevoxHandler([SPEAKERS[0], added]);
    // A voice it lists asks nothing; three asks at once for voices it lacks share one read.
    await e.recheck('voicevox:2');
    expect(lists()).toBe(read);
    await Promise.all([e.recheck('voicevox:77'), e.recheck('voicevox:77'), e.recheck('voicevox:999')]);
    expect(lists()).toBe(read + 1);
    expect(e.lists('voicevox:77')).toBe(true);
    // Within its short while, no voice makes another read, however often asked.
    await e.recheck('voicevox:998');
    expect(lists()).toBe(read + 1);
    // The engine refusing a voice (its 422 for a style it no longer has) reads its list again, once that while is over.
    const e2 = await started({ catalogue: { refreshMs: 60_000 } });
    voicevox.handler = (req, res, seen) =>
      seen.url.pathname === '/audio_query'
        ? void res.writeHead(422, { 'content-type': 'application/json' }).end('{"detail":"no such style"}')
        : voicevoxHandler([SPEAKERS[1]])(req, res, seen);
    const before = lists();
    expect((await failure(spoken(e2.synthesize('x', 'voicevox:2', {}, A)))).reason).toBe('refused');
    expect(lists()).toBe(before + 1);
    expect(e2.lists('voicevox:2')).toBe(false);
    await e.close();
  });

  it("keeps the last voices when a fetch fails, and fetches again sooner (at its circuit's backoff)", async () => {
    const e = await started({ catalogue: { refreshMs: 60_000 }, circuit: { baseMs: 50, maxMs: 50 } });
    voicevox.handler = (_req, res) => res.writeHead(500).end();
    await e.start();
    expect(e.voice('voicevox:3')).toBeDefined();
    const [status] = await e.status();
    expect(status).toMatchObject({ engine: 'voicevox', answers: false, voices: 3 });
    expect(status!.lastFailure).toMatch(/HTTP 500/);
    voicevox.handler = voicevoxHandler([{ ...SPEAKERS[0] }]);
    // Retried on its own after the short backoff: the list shrinks without another call.
    await expect.poll(() => e.voice('voicevox:3'), { timeout: 10_000 }).toBeUndefined();
  });

  it('marks an engine down on a 5xx: later lines fail at once unsent, one probe after the backoff, up on success', async () => {
    let now = 1_000_000;
    const e = await started({ circuit: { baseMs: 5_000, maxMs: 60_000, now: () => now } });
    speech.handler = (req, res, seen) =>
      seen.url.pathname === '/v1/audio/speech' ? void res.writeHead(502).end() : speechHandler()(req, res, seen);
    expect((await failure(spoken(e.synthesize('one', 'speech:af_heart', {}, A)))).reason).toBe('failed');
    expect(synths(speech)).toBe(1);
    const down = await failure(spoken(e.synthesize('two', 'speech:af_heart', {}, B)));
    expect(down.reason).toBe('down');
    expect(down.message).toMatch(/tried again in 5 s/);
    expect(synths(speech)).toBe(1);
    // The other engine is not affected.
    await spoken(e.synthesize('別のエンジン', 'voicevox:3', {}, A));
    // After the backoff: one probe; it fails, and the next backoff is twice as long.
    now += 5_000;
    expect((await failure(spoken(e.synthesize('three', 'speech:af_heart', {}, A)))).reason).toBe('failed');
    expect(synths(speech)).toBe(2);
    now += 5_000;
    expect((await failure(spoken(e.synthesize('four', 'speech:af_heart', {}, A)))).reason).toBe('down');
    expect(synths(speech)).toBe(2);
    const [, statusDown] = await e.status();
    expect(statusDown).toMatchObject({ engine: 'speech', down: true, retryAt: 1_000_000 + 5_000 + 10_000 });
    // It answers again: the probe speaks, and the engine is up.
    speech.handler = speechHandler();
    now += 5_000;
    await spoken(e.synthesize('five', 'speech:af_heart', {}, A));
    await spoken(e.synthesize('six', 'speech:af_heart', {}, B));
    expect(synths(speech)).toBe(4);
    const [, statusUp] = await e.status();
    expect(statusUp).toMatchObject({ down: false, lastFailure: undefined });
  });

  it('does not mark an engine down for a refusal (4xx) or an answer that is not audio', async () => {
    const e = await started();
    speech.handler = (req, res, seen) =>
      seen.url.pathname === '/v1/audio/speech'
        ? void res.writeHead(200, { 'content-type': 'text/html' }).end('<html></html>')
        : speechHandler()(req, res, seen);
    expect((await failure(spoken(e.synthesize('a', 'speech:af_heart', {}, A)))).reason).toBe('bad-answer');
    expect((await failure(spoken(e.synthesize('b', 'speech:af_heart', {}, A)))).reason).toBe('bad-answer');
    expect(synths(speech)).toBe(2);
  });

  it("serves servers in turn: with one line in flight and server A flooding, server B's line is the next sent", async () => {
    const e = await started({ queue: { slots: 1, perOwner: 8 } });
    const hold = held();
    speech.handler = hold.handler;
    const flood = ['a1', 'a2', 'a3', 'a4', 'a5'].map((text) => spoken(e.synthesize(text, 'speech:af_heart', {}, A)));
    await expect.poll(() => hold.order.length).toBe(1);
    const b = spoken(e.synthesize('b1', 'speech:af_heart', {}, B));
    hold.release();
    await expect.poll(() => hold.order.length).toBe(2);
    expect(hold.order).toEqual(['a1', 'b1']);
    for (let i = 0; i < 5; i += 1) {
      hold.release();
      if (i < 4) await expect.poll(() => hold.order.length).toBe(3 + i);
    }
    await Promise.all([...flood, b]);
    expect(hold.order).toEqual(['a1', 'b1', 'a2', 'a3', 'a4', 'a5']);
  });

  it('holds a server to its share and the queue to its bound, refusing past them as busy', async () => {
    const e = await started({ queue: { slots: 1, perOwner: 2, maxWaiting: 2 } });
    const hold = held();
    speech.handler = hold.handler;
    const mine = [
      spoken(e.synthesize('a1', 'speech:af_heart', {}, A)),
      spoken(e.synthesize('a2', 'speech:af_heart', {}, A)),
    ];
    const third = await failure(spoken(e.synthesize('a3', 'speech:af_heart', {}, A)));
    expect(third.reason).toBe('busy');
    // Another server still has room, until the whole queue is full.
    const theirs = spoken(e.synthesize('b1', 'speech:af_heart', {}, B));
    const c = { guildId: '100000000000000003', userId: A.userId };
    expect((await failure(spoken(e.synthesize('c1', 'speech:af_heart', {}, c)))).reason).toBe('busy');
    for (let i = 0; i < 3; i += 1) {
      await expect.poll(() => hold.order.length).toBe(i + 1);
      hold.release();
    }
    await Promise.all([...mine, theirs]);
    expect(hold.order).toEqual(['a1', 'b1', 'a2']);
  });

  it('holds lines of no server (a tool, the dashboard) to one share of their own, as a server', async () => {
    const e = await started({ queue: { slots: 1, perOwner: 2, maxWaiting: 8 } });
    const hold = held();
    speech.handler = hold.handler;
    const none = { guildId: '', userId: '' };
    const lines = [
      spoken(e.synthesize('n1', 'speech:af_heart', {}, none)),
      spoken(e.synthesize('n2', 'speech:af_heart', {}, none)),
    ];
    expect((await failure(spoken(e.synthesize('n3', 'speech:af_heart', {}, none)))).reason).toBe('busy');
    for (let i = 0; i < 2; i += 1) {
      await expect.poll(() => hold.order.length).toBe(i + 1);
      hold.release();
    }
    await Promise.all(lines);
    expect(hold.order).toEqual(['n1', 'n2']);
  });

  it("holds a line against its server's share until its streamed audio ends, not only until its answer begins", async () => {
    const e = await started({ queue: { slots: 2, perOwner: 1 } });
    const whole = wav(1);
    let rest: (() => void) | undefined;
    speech.handler = (req, res, seen) => {
      if (seen.url.pathname !== '/v1/audio/speech') return speechHandler()(req, res, seen);
      if ((JSON.parse(seen.body) as { input: string }).input !== 'streaming') return sendWav(res);
      res.writeHead(200, { 'content-type': 'audio/wav', 'content-length': whole.length });
      res.write(whole.subarray(0, 1024));
      rest = () => res.end(whole.subarray(1024));
    };
    const streaming = await e.synthesize('streaming', 'speech:af_heart', {}, A);
    const closed = new Promise((resolve) => streaming.body.once('close', resolve));
    // Its answer began, its audio still streams: the server's one line is still under way.
    expect((await failure(spoken(e.synthesize('next', 'speech:af_heart', {}, A)))).reason).toBe('busy');
    // Another server's line goes beside it.
    await spoken(e.synthesize('theirs', 'speech:af_heart', {}, B));
    rest!();
    expect((await buffer(streaming.body)).length).toBe(whole.length);
    await closed;
    await spoken(e.synthesize('after', 'speech:af_heart', {}, A));
    expect(synths(speech)).toBe(3);
  });

  it('lets a line go by its signal: waiting, it leaves the queue unsent; under way, its request is cut', async () => {
    const e = await started({ queue: { slots: 1 } });
    const hold = held();
    speech.handler = hold.handler;
    const first = new AbortController();
    const second = new AbortController();
    const running = spoken(e.synthesize('first', 'speech:af_heart', {}, A, first.signal));
    await expect.poll(() => hold.order.length).toBe(1);
    const waiting = spoken(e.synthesize('second', 'speech:af_heart', {}, B, second.signal));
    const third = spoken(e.synthesize('third', 'speech:af_heart', {}, B));
    second.abort(new Error('skipped'));
    await expect(waiting).rejects.toThrow('skipped');
    first.abort(new Error('stopped'));
    await expect(running).rejects.toThrow('stopped');
    await expect.poll(() => hold.cut).toEqual(['first']);
    await expect.poll(() => hold.order.length).toBe(2);
    expect(hold.order).toEqual(['first', 'third']);
    hold.release();
    await third;
    // An aborted line says nothing about the engine.
    const [, status] = await e.status();
    expect(status!.down).toBe(false);
  });

  it("streams a line's audio as it arrives: the main thread copies no more of it at once than a network piece", async () => {
    const e = await started();
    const long = wav(30);
    speech.handler = (req, res, seen) => {
      if (seen.url.pathname !== '/v1/audio/speech') return speechHandler()(req, res, seen);
      res.writeHead(200, { 'content-type': 'audio/wav', 'content-length': long.length });
      for (const piece of inPieces(long)) res.write(piece);
      res.end();
    };
    const { result, copies } = await mainThreadCopies(async () => {
      const line = await e.synthesize('A long line, thirty seconds of it.', 'speech:af_heart', {}, A);
      return (await new AudioFill({ format: 'wav', body: line.body }).complete).audio;
    });
    expect(copies.filter((copy) => copy.how === 'Buffer.concat')).toEqual([]);
    expect(copies.filter((copy) => copy.bytes > PIECE)).toEqual([]);
    expect(result.reduce((sum, piece) => sum + piece.length, 0)).toBe(long.length);
  });

  it("short before long: a long line never takes the last slot, so another server's short line is sent next", async () => {
    const e = await started({ queue: { slots: 2, perOwner: 8 } });
    const hold = held();
    speech.handler = hold.handler;
    // Long work (src/core/audio/workers/job-thread.ts, as the engine port classes a line of some 40 s).
    const longText = (n: number) => `${n} ${'a long line that goes on and on, '.repeat(20)}`;
    const longs = [1, 2].map((n) => spoken(e.synthesize(longText(n), 'speech:af_heart', {}, A, undefined, true)));
    await expect.poll(() => hold.order.length).toBe(1);
    const short = spoken(e.synthesize('short', 'speech:af_heart', {}, B));
    await expect.poll(() => hold.order.length).toBe(2);
    expect(hold.order[1]).toBe('short');
    for (let i = 0; i < 3; i += 1) {
      hold.release();
      if (i < 2) await expect.poll(() => hold.order.length).toBe(3);
    }
    await Promise.all([...longs, short]);
    expect(hold.order).toEqual([longText(1), 'short', longText(2)]);
  });

  it('never puts the speech server key in a log line, an error or the status, whatever fails', async () => {
    const out = new PassThrough();
    const lines: string[] = [];
    out.on('data', (chunk: Buffer) => lines.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
    // No secrets given to the logger: the engines must not write the key in the first place.
    const logger = createLogger({ level: 'trace', destination: out, pretty: false });
    const e = await started({ logger, circuit: { baseMs: 1 } }, KEY);
    const errors: string[] = [];
    const answers: Handler[] = [
      (_q, res) => void res.writeHead(401, { 'content-type': 'application/json' }).end(`{"detail":"bad key ${KEY}"}`),
      (_q, res) => void res.writeHead(500, { 'content-type': 'text/plain' }).end(`key ${KEY}`),
      (_q, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end(`<p>${KEY}</p>`),
      (_q, res) => void res.writeHead(200, { 'content-type': 'audio/wav' }).end(Buffer.from(`RIFF${KEY}`)),
      (_q, res) => void res.destroy(),
    ];
    for (const answer of answers) {
      speech.handler = (req, res, seen) =>
        seen.url.pathname === '/v1/audio/speech' ? answer(req, res, seen) : speechHandler()(req, res, seen);
      await new Promise((resolve) => setTimeout(resolve, 5));
      try {
        await spoken(e.synthesize('Hello', 'speech:af_heart', {}, A));
      } catch (error) {
        errors.push(String(error), (error as Error).stack ?? '', JSON.stringify(error));
      }
    }
    speech.handler = (_q, res) => void res.writeHead(500).end(KEY);
    const status = JSON.stringify(await e.status());
    expect(errors.length).toBeGreaterThan(10);
    expect(lines.length).toBeGreaterThan(3);
    expect(speech.seen.some((seen) => seen.headers.authorization === `Bearer ${KEY}`)).toBe(true);
    for (const text of [...errors, ...lines, status, String(e)]) expect(text).not.toContain(KEY);
    // Nor the member's words.
    for (const line of lines) expect(line).not.toContain('Hello');
  });
});

describe("an engine's circuit", () => {
  it('goes down on a failure, lets one probe through after the backoff, doubles it on a failed probe, up on success', () => {
    let now = 1_000;
    const circuit = new EngineCircuit({ baseMs: 5_000, maxMs: 60_000, now: () => now });
    expect(circuit.pass()).toBe('go');
    circuit.failed();
    expect(circuit.down).toBe(true);
    expect(circuit.retryAt).toBe(6_000);
    expect(circuit.pass()).toBe('down');
    now = 6_000;
    expect(circuit.pass()).toBe('probe');
    // One probe at a time.
    expect(circuit.pass()).toBe('down');
    circuit.failed();
    expect(circuit.retryAt).toBe(16_000);
    now = 16_000;
    expect(circuit.pass()).toBe('probe');
    circuit.succeeded();
    expect(circuit.down).toBe(false);
    expect(circuit.pass()).toBe('go');
    circuit.failed();
    expect(circuit.retryAt).toBe(21_000);
  });

  it('caps the backoff, and does not lengthen it for lines that were already under way', () => {
    let now = 0;
    const circuit = new EngineCircuit({ baseMs: 5_000, maxMs: 60_000, now: () => now });
    circuit.failed();
    circuit.failed();
    expect(circuit.retryAt).toBe(5_000);
    for (let i = 0; i < 10; i += 1) {
      now = circuit.retryAt!;
      expect(circuit.pass()).toBe('probe');
      circuit.failed();
    }
    expect(circuit.retryAt! - now).toBe(60_000);
  });

  it('lets the next line probe when a probe was aborted by its caller', () => {
    let now = 0;
    const circuit = new EngineCircuit({ baseMs: 10, now: () => now });
    circuit.failed();
    now = 10;
    expect(circuit.pass()).toBe('probe');
    circuit.released();
    expect(circuit.pass()).toBe('probe');
  });
});
