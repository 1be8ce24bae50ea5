// What the paid call sends again (paid-call.ts `resend`: a connection that never opened: nothing left, nothing can have
// been charged) and what never (any answer, the service's own 408 and 5xx included, as nothing on an answer proves whose
// it is; anything that may have reached the service unanswered or after a 2xx: test/core/api/paid-once.test.ts), and
// how long it waits: counted at the sandbox, through paidCall and the real client over HTTP.
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
import { VoiceApiClient, type Sent } from '../../../src/core/api/client.ts';
import { retryDelayMs, type NotOk } from '../../../src/core/api/response.ts';
import { resend } from '../../../src/core/quota/paid-call.ts';
import { createLogger } from '../../../src/core/log.ts';
import {
  answerCharge,
  clientFor,
  closedPort,
  fixture,
  paying,
  readAll,
  refusedUntilRetry,
  rejectionOf,
  requestsTo,
  streamError,
  useSandbox,
} from './helpers.ts';

const speak = (c: VoiceApiClient = api.client, seen?: Array<Sent<unknown>>) =>
  paying(c, { endpoint: 'tts', body: { text: 'Try, try again.', voice_id: 'voice-b-en-f-01' } }, { seen });

const api = useSandbox();

/** Lines logged at debug and up, parsed, and a client that logs them. */
function logged(options: Parameters<typeof clientFor>[1] = {}) {
  const lines: Array<Record<string, unknown>> = [];
  const raw: string[] = [];
  const destination = new PassThrough();
  destination.on('data', (line: Buffer) => {
    raw.push(line.toString());
    lines.push(JSON.parse(line.toString()) as Record<string, unknown>);
  });
  const client = clientFor(api.sandbox, { ...options, logger: createLogger({ level: 'debug', destination }) });
  const failed = () => lines.filter((l) => l['msg'] === 'Voice API call failed');
  return { client, lines, raw, failed, retries: () => lines.filter((l) => l['msg'] === 'Voice API call retrying') };
}

describe('retried: a request that never left', () => {
  it('a connection refused, then one opened: one retry, one request at the sandbox, logged without headers', async () => {
    const address = await refusedUntilRetry(api.sandbox);
    const { client, raw, failed, retries } = logged({ baseUrl: address.url });
    try {
      const response = await speak(client);
      const bytes = await readAll(response.body);
      const records = requestsTo(api.sandbox);
      expect(records.map((r) => r.status)).toEqual([200]);
      expect(bytes.length).toBe(records[0]?.bodyBytes);
      expect(response.requestId).toBe(records[0]?.id);
      expect(retries()).toHaveLength(1);
      expect(retries()[0]).toMatchObject({ level: 40, operation: 'tts', attempt: 1 });
      expect(failed()).toMatchObject([{ operation: 'tts', error: 'ConnectionError' }]);
      expect(retries()[0]?.['delayMs']).toBeTypeOf('number');
      expect(raw.join('\n').toLowerCase()).not.toContain('authorization');
    } finally {
      await client.close();
      await address.close();
    }
  });

  it('maxRetries bounds the attempts: 0 makes one, 4 makes five', async () => {
    const baseUrl = `http://127.0.0.1:${await closedPort()}`;
    const once = logged({ baseUrl, maxRetries: 0 });
    const five = logged({ baseUrl, maxRetries: 4 });
    expect(await rejectionOf(speak(once.client))).toMatchObject({ code: 'ECONNREFUSED', charge: 'not-charged' });
    expect(once.retries()).toHaveLength(0);
    expect(await rejectionOf(speak(five.client))).toMatchObject({ code: 'ECONNREFUSED', charge: 'not-charged' });
    expect(five.retries().map((l) => l['attempt'])).toEqual([1, 2, 3, 4]);
    expect(five.failed().map((l) => l['error'])).toEqual(Array(5).fill('ConnectionError'));
    await once.client.close();
    await five.client.close();
  });

  it('a voice clone is re-sent whole after a connection refused (the multipart body is rebuilt)', async () => {
    const address = await refusedUntilRetry(api.sandbox);
    const client = clientFor(api.sandbox, { baseUrl: address.url });
    try {
      const clone = await paying(client, {
        endpoint: 'voice-clone',
        body: {
          text: 'Second time lucky.',
          ref_audio: { data: fixture('tone-220hz-5s-48k.wav'), filename: 'ref.wav' },
        },
      });
      if (clone.audio) await readAll(clone.audio.body);
      expect(requestsTo(api.sandbox, 'voice-clone').map((r) => r.status)).toEqual([200]);
      expect(api.sandbox.voicePitchHz(clone.voiceId)).toBeCloseTo(220, 0);
    } finally {
      await client.close();
      await address.close();
    }
  });
});

describe('the resend rule (paid-call.ts `resend`): never left, attempts left, within the first send’s deadline', () => {
  const policy = { maxRetries: 2, baseDelayMs: 100, maxDelayMs: 100 };
  const refused = (fields: Partial<NotOk> = {}): NotOk => ({
    kind: 'not-ok',
    error: new ConnectionError('refused', 'ECONNREFUSED'),
    reached: false,
    answer: undefined,
    deadline: Date.now() + 60_000,
    ...fields,
  });

  it('sends again only a connection error that never reached the service, the client open, up to maxRetries', () => {
    const random = vi.spyOn(Math, 'random').mockReturnValue(1);
    try {
      expect(resend(refused(), 1, policy)).toMatchObject({ retry: 1, delayMs: 100 });
      expect(resend(refused(), 2, policy)).toMatchObject({ retry: 2, delayMs: 100 });
      expect(resend(refused(), 3, policy)).toBeUndefined();
      expect(resend(refused({ reached: true }), 1, policy)).toBeUndefined();
      expect(resend(refused({ error: new ConnectionError('closed', 'CLIENT_CLOSED') }), 1, policy)).toBeUndefined();
      expect(resend(refused({ error: new ServerError('busy', { status: 503 }) }), 1, policy)).toBeUndefined();
      expect(resend(refused({ deadline: undefined }), 1, policy)).toBeUndefined();
      // A wait that would outlast the first send's total timeout only delays the same outcome; the deadline is kept.
      expect(resend(refused({ deadline: Date.now() + 50 }), 1, policy)).toBeUndefined();
      const deadline = Date.now() + 60_000;
      expect(resend(refused({ deadline }), 1, policy)?.deadline).toBe(deadline);
      expect(resend(undefined, 1, policy)).toBeUndefined();
    } finally {
      random.mockRestore();
    }
  });

  it('over HTTP, every resend within the first send’s total timeout: it stops there, not at maxRetries', async () => {
    const baseUrl = `http://127.0.0.1:${await closedPort()}`;
    const options = {
      baseUrl,
      maxRetries: 100,
      retryBaseDelayMs: 200,
      retryMaxDelayMs: 200,
      timeouts: { totalMs: 1_000 },
    };
    const { client, failed } = logged(options);
    const random = vi.spyOn(Math, 'random').mockReturnValue(1);
    try {
      expect(await rejectionOf(speak(client))).toMatchObject({ code: 'ECONNREFUSED', charge: 'not-charged' });
    } finally {
      random.mockRestore();
      await client.close();
    }
    // Waits of 200 ms each, all within 1 s of the first send: four resends at most, never a hundred.
    expect(failed().length).toBeGreaterThanOrEqual(2);
    expect(failed().length).toBeLessThanOrEqual(5);
  });
});

describe("a resend past its first send's deadline", () => {
  // edges1: its words named the client's total timeout as if the resend had had one of its own.
  it('is told by that deadline, the one that fired, not by a total timeout of its own', async () => {
    const address = await refusedUntilRetry(api.sandbox);
    const client = clientFor(api.sandbox, { baseUrl: address.url, timeouts: { totalMs: 1_500 } });
    api.sandbox.injectFault({ kind: 'slow-headers', headersDelayMs: 60_000 });
    const seen: Array<Sent<unknown>> = [];
    try {
      const error = await rejectionOf(speak(client, seen));
      expect(seen.map((s) => s.kind)).toEqual(['not-ok', 'not-ok']);
      const deadline = new Date((seen[0] as NotOk).deadline ?? Number.NaN).toISOString();
      expect(error).toMatchObject({ phase: 'total', charge: 'maybe-charged' });
      expect((error as Error).message).toContain(
        `sent again, did not finish by its first send's deadline (${deadline}`,
      );
    } finally {
      await client.close();
      await address.close();
    }
  });
});

describe("never retried: an answer of any status, the service's own 5xx and 408 too", () => {
  // Nothing on an answer proves whose it is (a proxy may let the request through, billed, then answer in the service's
  // place with its headers forwarded): sent again, it would be paid twice.
  it("the service's own 503: one request, logged as failed, never as retrying", async () => {
    const { client, lines, raw, retries } = logged();
    api.sandbox.injectFault({
      kind: 'service-error',
      status: 503,
      message: 'busy',
      headers: { 'X-Request-Id': 'req_busy' },
    });
    expect(await rejectionOf(speak(client))).toMatchObject({ status: 503, charge: 'not-charged' });
    await client.close();
    expect(requestsTo(api.sandbox).map((r) => r.status)).toEqual([503]);
    expect(retries()).toEqual([]);
    expect(lines.filter((l) => l['msg'] === 'Voice API call failed')).toMatchObject([
      { operation: 'tts', status: 503, requestId: 'req_busy', error: 'ServerError' },
    ]);
    expect(raw.join('\n').toLowerCase()).not.toContain('authorization');
  });

  it('a 500 three times: ServerError after one request', async () => {
    api.sandbox.injectFault({ kind: 'service-error', status: 500, body: '{"error":{"message":"boom"}}', times: 3 });
    const error = await rejectionOf(speak());
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ status: 500, serviceMessage: 'boom' });
    expect(requestsTo(api.sandbox).map((r) => r.status)).toEqual([500]);
  });

  it("the service's own 408: ServerError after one request", async () => {
    api.sandbox.injectFault({ kind: 'service-error', status: 408, times: 3 });
    expect(await rejectionOf(speak())).toBeInstanceOf(ServerError);
    expect(requestsTo(api.sandbox).map((r) => r.status)).toEqual([408]);
  });

  it("the service's own 503 for a voice clone: one request, one voice at most", async () => {
    api.sandbox.injectFault({ kind: 'service-error', status: 503, endpoint: 'voice-clone', times: 3 });
    const error = await rejectionOf(
      paying(api.client, {
        endpoint: 'voice-clone',
        body: {
          text: 'Second time lucky.',
          ref_audio: { data: fixture('tone-220hz-5s-48k.wav'), filename: 'ref.wav' },
        },
      }),
    );
    expect(error).toBeInstanceOf(ServerError);
    expect(requestsTo(api.sandbox, 'voice-clone').map((r) => r.status)).toEqual([503]);
  });
});

describe('Retry-After', () => {
  it('is heard (the error carries it) and never waited for: one request, no wait', async () => {
    api.sandbox.injectFault({ kind: 'service-error', status: 503, headers: { 'Retry-After': '1' }, times: 3 });
    // A wait comes only before a send again (paidCall): one send, no wait.
    const sends = vi.spyOn(VoiceApiClient.prototype, 'send');
    let error: unknown;
    let sent = 0;
    try {
      error = await rejectionOf(speak());
    } finally {
      sent = sends.mock.calls.length;
      sends.mockRestore();
    }
    expect((error as VoiceApiError).rateLimit?.retryAfterSeconds).toBe(1);
    expect(sent).toBe(1);
    expect(requestsTo(api.sandbox).map((r) => r.status)).toEqual([503]);
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

  it('the wait before sending again what never left: capped exponential backoff with full jitter', () => {
    const policy = { maxRetries: 5, baseDelayMs: 100, maxDelayMs: 350 };
    expect([1, 2, 3, 4].map((n) => retryDelayMs(n, policy, () => 1))).toEqual([100, 200, 350, 350]);
    expect(retryDelayMs(3, policy, () => 0)).toBe(0);
    expect(retryDelayMs(2, policy, () => 0.5)).toBe(100);
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
    // A 429 charged nothing only as the service's own (its request ID and its JSON error): one in front of it may have
    // passed the request on first (bb11), as a gateway's 5xx may.
    [429, usage, json({ error: { code: 'rate_limited', message: 'slow down' } }), 'maybe-charged'],
    [429, { 'retry-after': '1' }, page, 'maybe-charged'],
    [429, { ...usage, 'retry-after': '30' }, json({ message: 'Too Many Requests' }), 'maybe-charged'],
    [429, { 'retry-after': '3600' }, page, 'maybe-charged'],
    [429, none, undefined, 'maybe-charged'],
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
    [429, service, page, 'maybe-charged'],
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

  // The service's own error answer, its month's use (X-RateLimit-Used) against the figure heard before a request of 30
  // characters left: a proxy that forwards its headers after the charge forwards a figure risen by them (bb12).
  const error = json({ error: { code: 'rate_limited', message: 'slow down' } });
  const figures = (used: number, remaining = 5000) => ({
    ...service,
    'x-ratelimit-used': String(used),
    'x-ratelimit-remaining': String(remaining),
  });
  it.each([
    ['unmoved', figures(100), 100, 'not-charged'],
    ['risen by less than the request (another request meanwhile)', figures(129), 100, 'not-charged'],
    ['risen by the request', figures(130), 100, 'maybe-charged'],
    ['risen by more (others meanwhile: over the bill, the safe side)', figures(900), 100, 'maybe-charged'],
    [
      'fallen below what was heard (characters given back, a new month): cannot be told',
      figures(30),
      5000,
      'not-charged',
    ],
    ['nothing heard since start: cannot be told', figures(130), undefined, 'not-charged'],
    ['no figure in the answer: cannot be told', service, 100, 'not-charged'],
  ] as const)('with its figure %s: %s', (_what, headers, heard, charge) => {
    for (const status of [429, 503, 408, 400, 401])
      expect(answerCharge(status, headers, error, { used: heard, characters: 30 })).toBe(charge);
  });
  // The month's own refusal is a 429 only: its figures leaving the request no room are that refusal's own, however they
  // rose (the owner's use elsewhere); any other status risen by the request is a proxy's after the charge that took
  // the month's last characters (bb14), maybe charged whatever is left.
  it.each([
    [429, 'not-charged'],
    [503, 'maybe-charged'],
    [408, 'maybe-charged'],
    [400, 'maybe-charged'],
    [401, 'maybe-charged'],
  ] as const)('with its figure risen by the request, leaving fewer than it, a %i: %s', (status, charge) => {
    for (const left of [10, 0])
      expect(answerCharge(status, figures(299_990, left), error, { used: 100, characters: 30 })).toBe(charge);
  });
});

describe('never retried', () => {
  it.each([
    {
      what: '400',
      type: BadRequestError,
      make: (c: VoiceApiClient) => paying(c, { endpoint: 'tts', body: { text: 'x', voice_id: 'voice-b-zz-m-42' } }),
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

  // Nothing on a 429 proves it the service's own (bb11: a proxy may forward its headers onto its own 429 after the
  // charge), so not even the service's own rate limit with a wait is sent again.
  it("the service's own rate limit (429, Retry-After: 0): RateLimitedError, exactly one request", async () => {
    api.sandbox.injectFault({
      kind: 'service-error',
      status: 429,
      message: 'slow down',
      headers: { 'Retry-After': '0' },
      times: 3,
    });
    expect(await rejectionOf(speak())).toBeInstanceOf(RateLimitedError);
    expect(requestsTo(api.sandbox).map((r) => r.status)).toEqual([429]);
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
