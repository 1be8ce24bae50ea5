// What is retried (a connection that never opened, 408, the service's own 5xx, short rate limits), what never is
// (400/401/403, the quota 429, a gateway's 5xx or any 5xx not in the service's own shape, anything that may have
// reached the service unanswered or after a 2xx: test/core/api/paid-once.test.ts),
// and how long the client waits: counted at the sandbox.
import { PassThrough } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import {
  AuthenticationError,
  BadRequestError,
  ConnectionError,
  PermissionDeniedError,
  QuotaExceededError,
  RateLimitedError,
  ServerError,
  type VoiceApiError,
} from '../../../src/core/api/errors.ts';
import type { VoiceApiClient } from '../../../src/core/api/client.ts';
import { answerCharge, Call, retryDelayMs } from '../../../src/core/api/response.ts';
import { createLogger } from '../../../src/core/log.ts';
import { clientFor, fixture, readAll, rejectionOf, requestsTo, streamError, useSandbox } from './helpers.ts';

const speak = (c: VoiceApiClient = api.client) => c.tts({ text: 'Try, try again.', voice_id: 'voice-b-en-f-01' });

const api = useSandbox();

describe('retried', () => {
  it('a 503 then success: one retry, two requests at the sandbox, logged without headers', async () => {
    const lines: string[] = [];
    const destination = new PassThrough();
    destination.on('data', (line: Buffer) => lines.push(line.toString()));
    const logged = clientFor(api.sandbox, { logger: createLogger({ level: 'debug', destination }) });
    api.sandbox.injectFault({
      kind: 'service-error',
      status: 503,
      message: 'busy',
      headers: { 'X-Request-Id': 'req_busy' },
    });

    const response = await speak(logged);
    const bytes = await readAll(response.body);
    await logged.close();

    const records = requestsTo(api.sandbox);
    expect(records.map((r) => r.status)).toEqual([503, 200]);
    expect(bytes.length).toBe(records[1]?.bodyBytes);
    expect(response.requestId).toBe(records[1]?.id);
    const retries = lines
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l['msg'] === 'Voice API call failed; retrying');
    expect(retries).toHaveLength(1);
    expect(retries[0]).toMatchObject({
      level: 40,
      operation: 'tts',
      attempt: 1,
      status: 503,
      requestId: 'req_busy',
      error: 'ServerError',
    });
    expect(retries[0]?.['delayMs']).toBeTypeOf('number');
    expect(lines.join('\n').toLowerCase()).not.toContain('authorization');
  });

  it('a 500 three times: ServerError after three attempts', async () => {
    api.sandbox.injectFault({ kind: 'service-error', status: 500, body: '{"error":{"message":"boom"}}', times: 3 });
    const error = await rejectionOf(speak());
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ status: 500, serviceMessage: 'boom' });
    expect(requestsTo(api.sandbox).map((r) => r.status)).toEqual([500, 500, 500]);
  });

  it('maxRetries bounds the attempts: 0 makes one, 4 makes five', async () => {
    api.sandbox.injectFault({ kind: 'service-error', status: 500, times: Infinity });
    const once = clientFor(api.sandbox, { maxRetries: 0 });
    const five = clientFor(api.sandbox, { maxRetries: 4 });
    expect(await rejectionOf(speak(once))).toBeInstanceOf(ServerError);
    expect(requestsTo(api.sandbox)).toHaveLength(1);
    expect(await rejectionOf(speak(five))).toBeInstanceOf(ServerError);
    expect(requestsTo(api.sandbox)).toHaveLength(6);
    await once.close();
    await five.close();
  });

  it.each([
    // The service's own answers (its JSON error and its headers): only those say nothing was charged.
    { what: 'a 408', fault: { kind: 'service-error', status: 408 } as const },
    {
      what: 'a 429 with Retry-After: 0',
      fault: { kind: 'service-error', status: 429, message: 'slow down', headers: { 'Retry-After': '0' } } as const,
    },
  ])('$what, then success: two requests', async ({ fault }) => {
    api.sandbox.injectFault(fault);
    const response = await speak();
    const bytes = await readAll(response.body);
    const records = requestsTo(api.sandbox);
    expect(records).toHaveLength(2);
    expect(bytes.length).toBe(records[1]?.bodyBytes);
  });

  it('a voice clone is re-sent whole after a 503 (the multipart body is rebuilt)', async () => {
    api.sandbox.injectFault({ kind: 'service-error', status: 503, endpoint: 'voice-clone' });
    const clone = await api.client.cloneVoice({
      text: 'Second time lucky.',
      ref_audio: { data: fixture('tone-220hz-5s-48k.wav'), filename: 'ref.wav' },
    });
    if (clone.audio) await readAll(clone.audio.body);
    expect(requestsTo(api.sandbox, 'voice-clone').map((r) => r.status)).toEqual([503, 200]);
    expect(api.sandbox.voicePitchHz(clone.voiceId)).toBeCloseTo(220, 0);
  });

  it('a rate limit that does not lift: RateLimitedError after one retry, whatever maxRetries allows', async () => {
    api.sandbox.injectFault({
      kind: 'service-error',
      status: 429,
      message: 'slow down',
      headers: { 'Retry-After': '0' },
      times: 3,
    });
    expect(await rejectionOf(speak())).toBeInstanceOf(RateLimitedError);
    expect(requestsTo(api.sandbox).map((r) => r.status)).toEqual([429, 429]);
  });
});

describe('Retry-After', () => {
  it('is waited for before the retry', async () => {
    api.sandbox.injectFault({ kind: 'service-error', status: 503, headers: { 'Retry-After': '1' } });
    // Which waits the client made, and how many requests the sandbox had seen when each began: the order of
    // events proves the wait sits between the two requests, without measuring a clock.
    const waits: Array<{ ms: number; requestsSoFar: number }> = [];
    const realSleep = Call.prototype.sleep;
    const sleep = vi.spyOn(Call.prototype, 'sleep');
    sleep.mockImplementation(function (this: Call, ms: number) {
      waits.push({ ms, requestsSoFar: requestsTo(api.sandbox).length });
      return realSleep.call(this, ms);
    });
    try {
      await readAll((await speak()).body);
    } finally {
      sleep.mockRestore();
    }
    // Backoff alone would wait at most 5 ms (retryMaxDelayMs of the test client).
    expect(waits).toEqual([{ ms: 1_000, requestsSoFar: 1 }]);
    expect(requestsTo(api.sandbox).map((r) => r.status)).toEqual([503, 200]);
  });

  it('over 60 s is not waited for: the error surfaces after one request', async () => {
    api.sandbox.injectFault({ kind: 'service-error', status: 503, headers: { 'Retry-After': '120' }, times: 3 });
    const error = await rejectionOf(speak());
    expect(error).toBeInstanceOf(ServerError);
    expect((error as VoiceApiError).rateLimit?.retryAfterSeconds).toBe(120);
    expect(requestsTo(api.sandbox)).toHaveLength(1);
  });

  it('past the total timeout is not waited for either', async () => {
    const hurried = clientFor(api.sandbox, { timeouts: { totalMs: 3_000 } });
    api.sandbox.injectFault({ kind: 'service-error', status: 503, headers: { 'Retry-After': '10' }, times: 3 });
    expect(await rejectionOf(speak(hurried))).toBeInstanceOf(ServerError);
    expect(requestsTo(api.sandbox)).toHaveLength(1);
    await hurried.close();
  });

  it('backoff without it: capped exponential with full jitter', () => {
    const policy = { maxRetries: 5, baseDelayMs: 100, maxDelayMs: 350 };
    const server = new ServerError('x', { status: 500 });
    expect([1, 2, 3, 4].map((n) => retryDelayMs(server, n, policy, () => 1))).toEqual([100, 200, 350, 350]);
    expect(retryDelayMs(server, 3, policy, () => 0)).toBe(0);
    expect(retryDelayMs(server, 2, policy, () => 0.5)).toBe(100);
    const told = new ServerError('x', { status: 503, rateLimit: { retryAfterSeconds: 2.5 } });
    expect(retryDelayMs(told, 1, policy, () => 0)).toBe(2_500);
  });
});

describe('the one rule: who answered says whether it may have been charged', () => {
  const json = (value: unknown) => Buffer.from(JSON.stringify(value));
  const page = Buffer.from('<html><head><title>504 Gateway Time-out</title></head><body>nginx</body></html>');
  const service = { 'x-request-id': 'req_1' };
  const usage = { 'x-ratelimit-used': '10', 'x-ratelimit-remaining': '90' };
  const none = {};
  it.each([
    [200, none, undefined, 'charged'],
    [400, service, json({ error: { message: 'bad' } }), 'not-charged'],
    [429, service, json({ error: { code: 'rate_limited', message: 'slow down' } }), 'not-charged'],
    // A 429 is a refusal, whoever sent it (issue 94): the service's is over the month's limit, which it does not bill,
    // and one in front of it refused before the service saw it. Only the service's own speaks of the month.
    [429, usage, json({ error: { code: 'rate_limited', message: 'slow down' } }), 'not-charged'],
    [429, { 'retry-after': '1' }, page, 'not-charged'],
    [429, { ...usage, 'retry-after': '30' }, json({ message: 'Too Many Requests' }), 'not-charged'],
    [429, { 'retry-after': '3600' }, page, 'not-charged'],
    [429, none, undefined, 'not-charged'],
    [500, service, json({ error: { code: 'internal_error', message: 'boom' } }), 'not-charged'],
    [503, service, json({ detail: 'overloaded' }), 'not-charged'],
    [400, service, page, 'not-charged'],
    [401, service, json({ error: { code: 'invalid_api_key', message: 'the API key is not valid' } }), 'not-charged'],
    [403, service, json({ error: { code: 'plan_without_api_access', message: 'no API access' } }), 'not-charged'],
    // The service's own 401 and 403 come with any body (the API notes): its headers prove them. An auth proxy's or a
    // firewall's, which never reached the service, has none of its headers.
    [401, service, Buffer.from('Unauthorized'), 'not-charged'],
    [403, service, page, 'not-charged'],
    [401, none, Buffer.from('Unauthorized'), 'maybe-charged'],
    [403, none, Buffer.from('Forbidden by WAF'), 'maybe-charged'],
    [404, service, Buffer.alloc(0), 'not-charged'],
    [408, service, undefined, 'maybe-charged'],
    [429, service, page, 'not-charged'],
    [404, none, page, 'maybe-charged'],
    [400, none, json({ error: { message: 'bad' } }), 'maybe-charged'],
    [503, none, json({ message: 'Service Unavailable' }), 'maybe-charged'],
    [503, none, json({ error: { code: 'internal_error', message: 'Upstream unavailable' } }), 'maybe-charged'],
    [503, { 'x-ratelimit-used': '10' }, json({ detail: 'overloaded' }), 'maybe-charged'],
    [500, service, Buffer.alloc(0), 'maybe-charged'],
    [500, service, undefined, 'maybe-charged'],
    [503, service, page, 'maybe-charged'],
    [503, service, Buffer.from('upstream connect error or disconnect/reset before headers'), 'maybe-charged'],
    [503, service, json(['not', 'an', 'error']), 'maybe-charged'],
    [502, service, json({ message: 'Internal server error' }), 'maybe-charged'],
    [504, service, json({ message: 'Endpoint request timed out' }), 'maybe-charged'],
    [504, none, page, 'maybe-charged'],
  ] as const)('%i with headers %j and %s: %s', (status, headers, body, charge) => {
    expect(answerCharge(status, headers, body)).toBe(charge);
  });
});

describe('never retried', () => {
  it.each([
    {
      what: '400',
      type: BadRequestError,
      make: (c: VoiceApiClient) => c.tts({ text: 'x', voice_id: 'voice-b-zz-m-42' }),
    },
    { what: '401', type: AuthenticationError, key: () => 'sk-unknown-to-the-sandbox' },
    { what: '403', type: PermissionDeniedError, key: () => api.sandbox.addKey({ plan: 'free' }) },
    { what: 'quota 429', type: QuotaExceededError, key: () => api.sandbox.addKey({ plan: 'pro', used: 700_000 }) },
  ])('$what: exactly one request', async ({ type, key, make }) => {
    const c = key === undefined ? api.client : clientFor(api.sandbox, { apiKey: key() });
    expect(await rejectionOf((make ?? speak)(c))).toBeInstanceOf(type);
    expect(requestsTo(api.sandbox)).toHaveLength(1);
    if (c !== api.client) await c.close();
  });

  it('an injected 400, 401, 403 and quota 429 are each sent once', async () => {
    for (const status of [400, 401, 403, 429]) {
      api.sandbox.resetCounters();
      api.sandbox.injectFault({ kind: 'response', status, times: 3 });
      await rejectionOf(speak());
      expect(requestsTo(api.sandbox)).toHaveLength(1);
      api.sandbox.clearFaults();
    }
  });

  it('a reset in mid-body surfaces on the stream as ConnectionError, without a retry', async () => {
    const lines: string[] = [];
    const destination = new PassThrough();
    destination.on('data', (line: Buffer) => lines.push(line.toString()));
    const logged = clientFor(api.sandbox, { logger: createLogger({ level: 'debug', destination }) });
    api.sandbox.injectFault({ kind: 'reset-after', bytes: 12_000 });
    const response = await speak(logged);
    expect(response.format).toBe('wav');
    const error = await streamError(response.body);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toContain('while the audio was arriving');
    // Closing the client ends every call it still holds: nothing can be sent after this point, so the count
    // below is final (no sleep standing in for "long enough"), and a retry would have been logged before it.
    await logged.close();
    expect(lines.filter((l) => l.includes('retrying'))).toEqual([]);
    expect(requestsTo(api.sandbox)).toHaveLength(1);
    expect(requestsTo(api.sandbox)[0]?.outcome).toBe('reset');
  });
});
