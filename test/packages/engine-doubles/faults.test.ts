// The doubles' faults over real HTTP, set in process and at /__double/fault: each fault's answer, `times` and `path`,
// audio faults meeting audio requests only, `endless` never ending and `huge` declaring 200 MB, and the request log's
// bound.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  HUGE_BYTES,
  startSpeechServerDouble,
  startVoicevoxDouble,
  type SpeechServerDouble,
  type VoicevoxDouble,
} from '@saybot/engine-doubles';
import { hear, postJson, readSome, wavFacts } from './helpers.ts';

let voicevox: VoicevoxDouble;
let server: SpeechServerDouble;
let query: unknown;
beforeAll(async () => {
  [voicevox, server] = await Promise.all([startVoicevoxDouble(), startSpeechServerDouble()]);
  // Made before any fault is set: a fault such as html-error meets /audio_query too.
  query = await (await fetch(`${voicevox.url}/audio_query?speaker=0&text=ダブル`, { method: 'POST' })).json();
});
beforeEach(() => {
  for (const double of [voicevox, server]) {
    double.faults.clear();
    double.clearRequests();
  }
});
afterAll(() => Promise.all([voicevox.close(), server.close()]));

const LINE = { model: 'kokoro', input: 'A line for the faults.', voice: 'af_heart', response_format: 'wav' };
const speak = (body: object = {}) => postJson(`${server.url}/audio/speech`, { ...LINE, ...body });
const synthesis = () => postJson(`${voicevox.url}/synthesis?speaker=0`, query);
const origin = (double: { url: string }) => new URL(double.url).origin;
const setOverHttp = (double: { url: string }, setting: unknown) =>
  postJson(`${origin(double)}/__double/fault`, setting);

describe('faults', () => {
  it('down: the connection closes with no answer, for `times` requests, then the engine answers again', async () => {
    voicevox.faults.set({ fault: 'down', times: 2 });
    await expect(fetch(`${voicevox.url}/speakers`)).rejects.toThrow();
    await expect(synthesis()).rejects.toThrow();
    expect((await fetch(`${voicevox.url}/speakers`)).status).toBe(200);
    expect(voicevox.requests.map((r) => [r.path, r.fault ?? null, r.status ?? null])).toEqual([
      ['/speakers', 'down', null],
      ['/synthesis', 'down', null],
      ['/speakers', null, 200],
    ]);
  });

  it('slow:<ms>: the usual answer, later', async () => {
    server.faults.set('slow:200');
    await hear(await speak());
    expect(server.requests[0]).toMatchObject({ fault: 'slow:200', status: 200 });
  });

  it('slow:<ms> hurried: the usual answer as soon as the double is told, not after the delay', async () => {
    server.faults.set('slow:600000');
    const asked = speak();
    await expect.poll(() => server.requests.length).toBe(1);
    expect(server.requests[0]!.status).toBeUndefined();
    server.hurry();
    await hear(await asked);
    expect(server.requests[0]).toMatchObject({ fault: 'slow:600000', status: 200 });
  });

  it("html-error: 502 with a proxy's page; status:<code>: that status in each API's own error shape", async () => {
    voicevox.faults.set('html-error');
    const page = await synthesis();
    expect([page.status, page.headers.get('content-type')]).toEqual([502, 'text/html']);
    expect(await page.text()).toContain('<html>');
    voicevox.faults.set('status:503');
    const vv = await synthesis();
    expect([vv.status, await vv.json()]).toEqual([503, { detail: expect.any(String) }]);
    server.faults.set('status:429');
    const oa = await speak();
    expect(oa.status).toBe(429);
    expect(await oa.json()).toEqual({
      error: { message: expect.any(String), type: 'invalid_request_error', param: null, code: null },
    });
  });

  it('not-audio, wrong-format and wrong-rate: a 200 that is not the audio asked for', async () => {
    server.faults.set('not-audio');
    const json = await speak();
    expect([json.status, json.headers.get('content-type')]).toEqual([200, 'application/json']);
    await json.json();

    voicevox.faults.set('wrong-format');
    const mp3AsWav = await synthesis();
    expect([mp3AsWav.status, mp3AsWav.headers.get('content-type')]).toEqual([200, 'audio/wav']);
    const bytes = new Uint8Array(await mp3AsWav.arrayBuffer());
    expect(bytes[0]).toBe(0xff); // an MPEG frame, not RIFF
    server.faults.set('wrong-format');
    const wavAsMp3 = await speak({ response_format: 'mp3' });
    expect(wavAsMp3.headers.get('content-type')).toBe('audio/mpeg');
    expect(wavFacts(new Uint8Array(await wavAsMp3.arrayBuffer())).riff).toBe('RIFF');

    server.faults.set('wrong-rate');
    const other = await speak();
    expect(other.headers.get('content-type')).toBe('audio/wav');
    expect(wavFacts(new Uint8Array(await other.arrayBuffer())).rate).toBe(16000);
  });

  it('endless: a 200 audio body that never ends (read a bounded amount, then let go)', async () => {
    server.faults.set('endless');
    const response = await speak();
    expect([response.status, response.headers.get('content-type'), response.headers.get('content-length')]).toEqual([
      200,
      'audio/wav',
      null,
    ]);
    const { bytes, ended } = await readSome(response, 16 * 1024);
    expect(ended).toBe(false);
    expect(wavFacts(bytes)).toMatchObject({ riff: 'RIFF', rate: 24000, dataBytes: 0xffffffff });
  });

  it('huge: a valid WAV declaring 200 MB, streamed (read a bounded amount, then let go)', async () => {
    voicevox.faults.set('huge');
    const response = await synthesis();
    expect(Number(response.headers.get('content-length'))).toBe(44 + HUGE_BYTES);
    const { bytes, ended } = await readSome(response, 1024 * 1024);
    expect(ended).toBe(false);
    expect(wavFacts(bytes)).toMatchObject({ riff: 'RIFF', rate: 24000, channels: 1, dataBytes: HUGE_BYTES });
  });

  it('empty: a 200 WAV of its 44-byte header alone, declaring no samples', async () => {
    voicevox.faults.set('empty');
    const response = await synthesis();
    expect(response.status).toBe(200);
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(bytes.length).toBe(44);
    expect(wavFacts(bytes)).toMatchObject({ riff: 'RIFF', rate: 24000, channels: 1, dataBytes: 0 });
  });

  it('slow:<ms> let go of by its client: the record says the connection closed before the answer', async () => {
    server.faults.set('slow:600000');
    const client = new AbortController();
    const asked = fetch(`${server.url}/audio/speech`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(LINE),
      signal: client.signal,
    }).catch(() => undefined);
    await expect.poll(() => server.requests.length).toBe(1);
    client.abort();
    await asked;
    await expect.poll(() => server.requests[0]?.closed).toBe(true);
    expect(server.requests[0]!.status).toBeUndefined();
  });

  it('a double started with a fault meets its first request with it: `down` from the start', async () => {
    const dead = await startVoicevoxDouble({ fault: 'down' });
    try {
      await expect(fetch(`${dead.url}/speakers`)).rejects.toThrow();
      dead.faults.clear();
      expect((await fetch(`${dead.url}/speakers`)).status).toBe(200);
      expect(dead.requests.map((r) => r.fault ?? null)).toEqual(['down', null]);
      expect(dead.requests[0]!.closed).toBeUndefined();
    } finally {
      await dead.close();
    }
  });

  it('audio faults meet audio requests only; `path` limits any fault to one path', async () => {
    voicevox.faults.set('not-audio');
    expect((await fetch(`${voicevox.url}/speakers`)).headers.get('content-type')).toMatch(/json/);
    expect(voicevox.faults.current).toEqual({ fault: 'not-audio', left: null, path: null });
    voicevox.faults.set({ fault: 'status:500', path: '/synthesis', times: 1 });
    expect((await fetch(`${voicevox.url}/speakers`)).status).toBe(200);
    expect((await synthesis()).status).toBe(500);
    expect(voicevox.faults.current.fault).toBe('none');
    await hear(await synthesis());
  });

  it('is set, read and cleared over HTTP at /__double/fault, which no fault meets and the log leaves out', async () => {
    const set = await setOverHttp(server, { fault: 'down', times: 3 });
    expect(await set.json()).toEqual({ fault: 'down', left: 3, path: null });
    expect(await (await fetch(`${origin(server)}/__double/fault`)).json()).toEqual({
      fault: 'down',
      left: 3,
      path: null,
    });
    await expect(speak()).rejects.toThrow();
    expect(await (await setOverHttp(server, { fault: 'none' })).json()).toMatchObject({ fault: 'none' });
    expect((await speak()).status).toBe(200);
    for (const bad of [
      { fault: 'sideways' },
      { fault: 'status:200' },
      { fault: 'slow:x' },
      { fault: 'down', times: 0 },
    ]) {
      const refused = await setOverHttp(server, bad);
      expect(refused.status).toBe(400);
      expect(await refused.json()).toEqual({ error: expect.any(String) });
    }
    const log = (await (await fetch(`${origin(server)}/__double/requests`)).json()) as {
      total: number;
      requests: unknown[];
    };
    expect(log.total).toBe(2);
    expect(log.requests).toMatchObject([{ fault: 'down' }, { status: 200 }]);
    expect((await fetch(`${origin(server)}/__double/requests`, { method: 'DELETE' })).status).toBe(204);
    expect(server.requests).toEqual([]);
  });

  it('keeps the newest `maxRequests` records and counts every request', async () => {
    const small = await startVoicevoxDouble({ maxRequests: 3 });
    try {
      for (const path of ['/version', '/speakers', '/version', '/speakers', '/nowhere'])
        await fetch(`${small.url}${path}`);
      expect(small.requests.map((r) => r.path)).toEqual(['/version', '/speakers', '/nowhere']);
      expect(small.requestsReceived).toBe(5);
    } finally {
      await small.close();
    }
  });
});
