// Fault injection: each kind, the endpoint filter and count, and that a faulted request bills nothing.
import { beforeEach, describe, expect, it } from 'vitest';
import { startSandbox } from '@saybot/voice-sandbox';
import {
  cloneVoice,
  errorOf,
  fixture,
  hear,
  readPieces,
  totalLength,
  tts,
  until,
  useStartedSandbox,
} from './helpers.ts';

const rig = useStartedSandbox();
beforeEach(() => {
  rig.sandbox.clearFaults();
});

const TEXT = { text: 'A sentence long enough for a few chunks of audio.', voice_id: 'voice-b-en-f-01' };

describe('injected responses', () => {
  it.each([
    [500, 'text/html', '<html><body><h1>500 Internal Server Error</h1></body></html>', {}],
    [503, 'application/json', '{"message":"overloaded"}', { 'Retry-After': '2' }],
    [403, 'application/json', '{"detail":"forbidden"}', {}],
    [408, 'text/plain', 'Request Timeout', {}],
    [502, undefined, '', {}],
  ])(
    'answers %i (%s) with the given body and headers alone, as a gateway, billing nothing',
    async (status, contentType, body, headers) => {
      rig.sandbox.injectFault({ kind: 'response', status, contentType, body, headers });
      const response = await tts(rig.sandbox, TEXT);
      expect(response.status).toBe(status);
      expect(response.headers.get('content-type')).toBe(contentType ?? null);
      expect(await response.text()).toBe(body);
      for (const [name, value] of Object.entries(headers)) expect(response.headers.get(name)).toBe(value);
      // None of the service's own headers: a gateway answering in its place has neither its request ID nor its figures.
      expect(response.headers.get('x-request-id')).toBeNull();
      expect(response.headers.get('x-ratelimit-limit')).toBeNull();
      expect(rig.sandbox.requests[0]).toMatchObject({ status, fault: 'response', charactersBilled: 0 });
      expect(rig.sandbox.charactersBilled()).toBe(0);
    },
  );

  // A 2xx comes only once the service accepted the request, which it bills (as SayBot books every 2xx): in place of
  // the service's answer, but not of its charge.
  it('answers a 200 (application/json) with the given body and headers alone, as a gateway, the request billed', async () => {
    const body = '{"status":"queued"}';
    rig.sandbox.injectFault({ kind: 'response', status: 200, contentType: 'application/json', body });
    const response = await tts(rig.sandbox, TEXT);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(body);
    expect(response.headers.get('x-request-id')).toBeNull();
    expect(response.headers.get('x-ratelimit-limit')).toBeNull();
    expect(rig.sandbox.requests[0]).toMatchObject({
      status: 200,
      fault: 'response',
      charactersBilled: TEXT.text.length,
    });
    expect(rig.sandbox.charactersBilled()).toBe(TEXT.text.length);
  });

  it('meets only its endpoint, as many times as asked, then the service answers normally', async () => {
    rig.sandbox.injectFault({ kind: 'response', status: 502, endpoint: 'voice-clone' });
    rig.sandbox.injectFault({ kind: 'response', status: 503, endpoint: 'tts', times: 2 });
    expect((await tts(rig.sandbox, TEXT)).status).toBe(503);
    expect((await tts(rig.sandbox, TEXT)).status).toBe(503);
    await hear(await tts(rig.sandbox, TEXT));
    expect((await cloneVoice(rig.sandbox, { text: 'hi', refAudio: fixture('tone-220hz-5s-48k.wav') })).status).toBe(
      502,
    );
    expect(rig.sandbox.requests.map((r) => r.fault ?? null)).toEqual(['response', 'response', null, 'response']);
    expect(rig.sandbox.charactersBilled()).toBe(TEXT.text.length);
  });

  it('drops queued faults on clearFaults', async () => {
    rig.sandbox.injectFault({ kind: 'response', status: 500, times: Infinity });
    expect((await tts(rig.sandbox, TEXT)).status).toBe(500);
    rig.sandbox.clearFaults();
    await hear(await tts(rig.sandbox, TEXT));
  });

  it('rejects a malformed fault', () => {
    expect(() => rig.sandbox.injectFault({ kind: 'response', status: 99 })).toThrow(RangeError);
    expect(() => rig.sandbox.injectFault({ kind: 'reset-after', bytes: -1 })).toThrow(RangeError);
    expect(() => rig.sandbox.injectFault({ kind: 'close-before-response', times: 0 })).toThrow(RangeError);
  });
});

describe("the service's own error and a gateway's after a charge", () => {
  it("service-error: the service's JSON error with its usage headers, billing nothing", async () => {
    rig.sandbox.injectFault({ kind: 'service-error', status: 503, message: 'overloaded', endpoint: 'tts' });
    const response = await tts(rig.sandbox, TEXT);
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ error: { code: 'service_unavailable', message: 'overloaded' } });
    expect(response.headers.get('x-ratelimit-limit')).not.toBeNull();
    expect(rig.sandbox.requests[0]).toMatchObject({ fault: 'service-error', charactersBilled: 0 });
    expect(rig.sandbox.charactersBilled()).toBe(0);
  });

  it("service-error with a body: the service's own answer in that shape, with its request ID and usage headers", async () => {
    const body = '<html><body>Invalid key</body></html>';
    rig.sandbox.injectFault({ kind: 'service-error', status: 401, body, contentType: 'text/html', endpoint: 'tts' });
    const response = await tts(rig.sandbox, TEXT);
    expect(response.status).toBe(401);
    expect(response.headers.get('content-type')).toBe('text/html');
    expect(await response.text()).toBe(body);
    expect(response.headers.get('x-request-id')).toBe(rig.sandbox.requests[0]?.id);
    expect(response.headers.get('x-ratelimit-used')).not.toBeNull();
    expect(rig.sandbox.charactersBilled()).toBe(0);
  });

  it("gateway-after-charge: billed (a clone's voice made), then a 504 HTML page and none of the service's headers", async () => {
    rig.sandbox.injectFault({ kind: 'gateway-after-charge', endpoint: 'voice-clone' });
    const response = await cloneVoice(rig.sandbox, { text: 'hi', refAudio: fixture('tone-220hz-5s-48k.wav') });
    expect(response.status).toBe(504);
    expect(response.headers.get('content-type')).toBe('text/html');
    expect(await response.text()).toContain('504 Gateway Time-out');
    expect(response.headers.get('x-voice-id')).toBeNull();
    expect(response.headers.get('x-ratelimit-used')).toBeNull();
    expect(rig.sandbox.requests[0]).toMatchObject({
      status: 504,
      fault: 'gateway-after-charge',
      outcome: 'gateway-after-charge',
      charactersBilled: 2,
    });
    expect(rig.sandbox.requests[0]?.clonedVoiceId).toBeDefined();
    expect(rig.sandbox.charactersBilled()).toBe(2);
  });

  it("gateway-after-charge with the service's headers forwarded: its request ID and figures after the charge, and its own", async () => {
    rig.sandbox.injectFault({
      kind: 'gateway-after-charge',
      status: 429,
      body: '{"error":"Too Many Requests"}',
      contentType: 'application/json',
      serviceHeaders: true,
      headers: { 'Retry-After': '1' },
      endpoint: 'tts',
    });
    const response = await tts(rig.sandbox, TEXT);
    expect(response.status).toBe(429);
    expect(await response.text()).toBe('{"error":"Too Many Requests"}');
    expect(response.headers.get('x-request-id')).toBe(rig.sandbox.requests[0]?.id);
    expect(response.headers.get('x-ratelimit-used')).toBe(String(rig.sandbox.charactersBilled()));
    expect(response.headers.get('retry-after')).toBe('1');
    expect(rig.sandbox.charactersBilled()).toBe(TEXT.text.length);
  });
});

describe('faults on the normal response', () => {
  it('clone-without-voice-id: a 2xx clone without X-Voice-Id, no voice kept, billed at acceptance', async () => {
    rig.sandbox.injectFault({ kind: 'clone-without-voice-id' });
    const response = await cloneVoice(rig.sandbox, { text: 'hi', refAudio: fixture('tone-220hz-5s-48k.wav') });
    expect(response.headers.get('x-voice-id')).toBeNull();
    await hear(response);
    expect(rig.sandbox.requests[0]).toMatchObject({
      status: 200,
      fault: 'clone-without-voice-id',
      charactersBilled: 2,
    });
    expect(rig.sandbox.requests[0]?.clonedVoiceId).toBeUndefined();
  });

  it('slow-headers: nothing arrives before the delay (a client timeout fires first)', async () => {
    rig.sandbox.injectFault({ kind: 'slow-headers', headersDelayMs: 60_000 });
    const error = await tts(rig.sandbox, TEXT, { signal: AbortSignal.timeout(100) }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'TimeoutError' });
    await until(() => rig.sandbox.requests[0]?.outcome === 'client-aborted');
    expect(rig.sandbox.requests[0]?.status).toBeUndefined();
    expect(rig.sandbox.charactersBilled()).toBe(0);
  });

  it('slow-headers: a patient client still gets the whole audio', async () => {
    rig.sandbox.injectFault({ kind: 'slow-headers', headersDelayMs: 20 });
    await hear(await tts(rig.sandbox, TEXT));
    expect(rig.sandbox.requests[0]).toMatchObject({
      fault: 'slow-headers',
      outcome: 'complete',
      charactersBilled: TEXT.text.length,
    });
  });

  it.each([5000, 0])(
    'reset-after %i: the connection breaks after exactly that many body bytes; billed at the 2xx',
    async (bytes) => {
      rig.sandbox.injectFault({ kind: 'reset-after', bytes });
      const response = await tts(rig.sandbox, TEXT);
      expect(response.status).toBe(200);
      const { pieces, error } = await readPieces(response);
      expect(error).toBeDefined();
      expect(totalLength(pieces)).toBe(bytes);
      expect(rig.sandbox.requests[0]).toMatchObject({
        fault: 'reset-after',
        outcome: 'reset',
        bodyBytes: bytes,
        charactersBilled: TEXT.text.length,
      });
      expect(rig.sandbox.charactersBilled()).toBe(TEXT.text.length);
    },
  );

  it('stall-after: that many bytes, then silence with the socket open, until close() ends it', async () => {
    const own = await startSandbox();
    own.injectFault({ kind: 'stall-after', bytes: 3000 });
    const response = await tts(own, TEXT);
    const reader = (response.body ?? expect.fail('no body')).getReader();
    let received = 0;
    while (received < 3000) received += (await reader.read()).value?.length ?? expect.fail('body ended');
    expect(received).toBe(3000);
    await until(() => own.requests[0]?.outcome === 'stalled');
    const next = reader.read();
    await own.close(); // must not wait for the stalled response
    await expect(next).rejects.toThrow();
    expect(own.requests[0]).toMatchObject({ bodyBytes: 3000, charactersBilled: TEXT.text.length });
  });

  it('pause-after: that many bytes, billed, then nothing until resumePaused(), then the rest of the body', async () => {
    const whole = await (await tts(rig.sandbox, TEXT)).arrayBuffer();
    rig.sandbox.resetCounters();
    rig.sandbox.injectFault({ kind: 'pause-after', bytes: 3000 });
    const response = await tts(rig.sandbox, TEXT);
    const reader = (response.body ?? expect.fail('no body')).getReader();
    let received = 0;
    while (received < 3000) received += (await reader.read()).value?.length ?? expect.fail('body ended');
    expect(received).toBe(3000);
    await until(() => rig.sandbox.requests[0]?.outcome === 'paused');
    expect(rig.sandbox.requests[0]).toMatchObject({ bodyBytes: 3000, charactersBilled: TEXT.text.length });
    rig.sandbox.resumePaused();
    for (let piece = await reader.read(); !piece.done; piece = await reader.read()) received += piece.value.length;
    expect(received).toBe(whole.byteLength);
    expect(rig.sandbox.requests[0]).toMatchObject({ outcome: 'complete', bodyBytes: whole.byteLength });
    expect(rig.sandbox.charactersBilled()).toBe(TEXT.text.length);
  });

  it('hold-after-charge: billed, no status sent until resumePaused(), then the whole answer', async () => {
    const whole = await (await tts(rig.sandbox, TEXT)).arrayBuffer();
    rig.sandbox.resetCounters();
    rig.sandbox.injectFault({ kind: 'hold-after-charge' });
    let answered = false;
    const response = tts(rig.sandbox, TEXT).then((r) => {
      answered = true;
      return r;
    });
    await until(() => rig.sandbox.requests[0]?.outcome === 'held');
    expect(rig.sandbox.requests[0]).toMatchObject({ charactersBilled: TEXT.text.length, bodyBytes: 0 });
    expect(rig.sandbox.requests[0]?.status).toBeUndefined();
    expect(answered).toBe(false);
    rig.sandbox.resumePaused();
    expect((await (await response).arrayBuffer()).byteLength).toBe(whole.byteLength);
    expect(rig.sandbox.requests[0]).toMatchObject({ status: 200, outcome: 'complete' });
    expect(rig.sandbox.charactersBilled()).toBe(TEXT.text.length);
  });

  it("hold-after-charge then 'reset': billed, held until resumePaused(), then the socket closes with no response", async () => {
    rig.sandbox.injectFault({ kind: 'hold-after-charge', then: 'reset' });
    const response = tts(rig.sandbox, TEXT).then(
      () => undefined,
      (error: unknown) => error,
    );
    await until(() => rig.sandbox.requests[0]?.outcome === 'held');
    expect(rig.sandbox.requests[0]).toMatchObject({ charactersBilled: TEXT.text.length, bodyBytes: 0 });
    rig.sandbox.resumePaused();
    expect(await response).toBeInstanceOf(TypeError);
    expect(rig.sandbox.requests[0]).toMatchObject({ outcome: 'reset-after-charge', bodyBytes: 0 });
    expect(rig.sandbox.requests[0]?.status).toBeUndefined();
    expect(rig.sandbox.charactersBilled()).toBe(TEXT.text.length);
  });

  it('hold-before-charge: nothing billed and no status sent until resumePaused(), then billed and answered whole', async () => {
    const whole = await (await tts(rig.sandbox, TEXT)).arrayBuffer();
    rig.sandbox.resetCounters();
    rig.sandbox.injectFault({ kind: 'hold-before-charge' });
    let answered = false;
    const response = tts(rig.sandbox, TEXT).then((r) => {
      answered = true;
      return r;
    });
    await until(() => rig.sandbox.requests[0]?.outcome === 'waiting');
    expect(rig.sandbox.requests[0]).toMatchObject({ charactersBilled: 0, bodyBytes: 0 });
    expect(rig.sandbox.requests[0]?.status).toBeUndefined();
    expect(rig.sandbox.charactersBilled()).toBe(0);
    expect(answered).toBe(false);
    rig.sandbox.resumePaused();
    expect((await (await response).arrayBuffer()).byteLength).toBe(whole.byteLength);
    expect(rig.sandbox.requests[0]).toMatchObject({ status: 200, outcome: 'complete' });
    expect(rig.sandbox.charactersBilled()).toBe(TEXT.text.length);
  });

  it('reset-after-charge: billed, then the socket closes with no response at all', async () => {
    rig.sandbox.injectFault({ kind: 'reset-after-charge' });
    await expect(tts(rig.sandbox, TEXT)).rejects.toThrow(TypeError);
    expect(rig.sandbox.requests[0]).toMatchObject({
      fault: 'reset-after-charge',
      outcome: 'reset-after-charge',
      charactersBilled: TEXT.text.length,
      bodyBytes: 0,
    });
    expect(rig.sandbox.requests[0]?.status).toBeUndefined();
    expect(rig.sandbox.charactersBilled()).toBe(TEXT.text.length);
    await hear(await tts(rig.sandbox, TEXT)); // the next request is served again
  });

  it('close-before-response: the socket closes with no response at all', async () => {
    rig.sandbox.injectFault({ kind: 'close-before-response' });
    await expect(tts(rig.sandbox, TEXT)).rejects.toThrow(TypeError);
    expect(rig.sandbox.requests[0]).toMatchObject({
      fault: 'close-before-response',
      outcome: 'closed-before-response',
      charactersBilled: 0,
    });
    expect(rig.sandbox.requests[0]?.status).toBeUndefined();
    await hear(await tts(rig.sandbox, TEXT)); // the next request is served again
  });

  it('applies to an error response too: a 400 whose headers come late', async () => {
    rig.sandbox.injectFault({ kind: 'slow-headers', headersDelayMs: 10 });
    expect(await errorOf(await tts(rig.sandbox, { text: 'hi' }))).toMatchObject({ status: 400, code: 'invalid_voice' });
    expect(rig.sandbox.requests[0]?.fault).toBe('slow-headers');
  });
});
