// One typed error per failure class, each carrying the status, the service's message, the request id and the
// rate-limit headers; the sandbox produces every status for real, over HTTP.
import { describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  BadRequestError,
  ConnectionError,
  PermissionDeniedError,
  QuotaExceededError,
  RateLimitedError,
  ServerError,
  UndeliveredError,
  UnexpectedResponseError,
  VoiceApiError,
} from '../../../src/core/api/errors.ts';
import { VoiceApiClient } from '../../../src/core/api/client.ts';
import { classify429, parseResetAt, parseRetryAfter, parseServiceMessage } from '../../../src/core/api/response.ts';
import { clientFor, closedPort, judged, rejectionOf, requestsTo, useSandbox } from './helpers.ts';

const speak = (c: VoiceApiClient = api.client) =>
  judged(c.send({ endpoint: 'tts', body: { text: 'Hello.', voice_id: 'voice-b-en-f-01' } }));

const api = useSandbox({ maxRetries: 0 });

describe('statuses from the sandbox', () => {
  it('400: BadRequestError with the service message and request id', async () => {
    const error = await rejectionOf(api.client.tts({ text: 'Hi', voice_id: 'voice-b-xx-f-99' }));
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error).toBeInstanceOf(VoiceApiError);
    const [record] = requestsTo(api.sandbox);
    expect(error).toMatchObject({
      status: 400,
      requestId: record?.id,
      serviceMessage: 'unknown voice: voice-b-xx-f-99',
    });
    expect((error as Error).message).toContain('400');
    expect((error as Error).message).toContain('unknown voice');
  });

  it('401: AuthenticationError for an unknown key and for a deactivated one', async () => {
    const stranger = clientFor(api.sandbox, { apiKey: 'sk-nobody-knows-this-key' });
    const unknown = await rejectionOf(speak(stranger));
    await stranger.close();
    expect(unknown).toBeInstanceOf(AuthenticationError);
    expect(unknown).toMatchObject({ status: 401, serviceMessage: 'the API key is not valid' });

    const key = api.sandbox.addKey({ plan: 'pro' });
    api.sandbox.setKeyActive(key, false);
    const retired = clientFor(api.sandbox, { apiKey: key });
    const deactivated = await rejectionOf(speak(retired));
    await retired.close();
    expect(deactivated).toBeInstanceOf(AuthenticationError);
    expect((deactivated as VoiceApiError).serviceMessage).toContain('deactivated');
  });

  it('403: PermissionDeniedError for a plan without API access', async () => {
    const starter = clientFor(api.sandbox, { apiKey: api.sandbox.addKey({ plan: 'starter' }) });
    const error = await rejectionOf(speak(starter));
    await starter.close();
    expect(error).toBeInstanceOf(PermissionDeniedError);
    expect(error).toMatchObject({ status: 403 });
    expect((error as VoiceApiError).serviceMessage).toContain('without API access');
  });

  it('429 with the monthly quota spent: QuotaExceededError with the usage headers', async () => {
    const spent = clientFor(api.sandbox, { apiKey: api.sandbox.addKey({ plan: 'creator', used: 300_000 }) });
    const error = await rejectionOf(speak(spent));
    await spent.close();
    expect(error).toBeInstanceOf(QuotaExceededError);
    expect(error).toMatchObject({ status: 429, rateLimit: { limit: 300_000, used: 300_000, remaining: 0 } });
    expect((error as VoiceApiError).rateLimit?.resetAt).toBeInstanceOf(Date);
  });

  it('404: UnexpectedResponseError (a base URL with a wrong path)', async () => {
    const lost = clientFor(api.sandbox, { baseUrl: `${api.sandbox.url}/api` });
    const error = await rejectionOf(speak(lost));
    await lost.close();
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect(error).toMatchObject({ status: 404 });
    expect((error as VoiceApiError).serviceMessage).toContain('no such endpoint');
    expect(requestsTo(api.sandbox)[0]?.path).toBe('/api/v1/tts');
  });
});

describe('injected statuses and bodies', () => {
  it.each([
    { status: 413, type: BadRequestError },
    { status: 422, type: BadRequestError },
    { status: 408, type: ServerError },
    { status: 500, type: ServerError },
    { status: 502, type: ServerError },
    { status: 503, type: ServerError },
    { status: 504, type: ServerError },
    { status: 409, type: UnexpectedResponseError },
    { status: 302, type: UnexpectedResponseError },
  ])('$status: $type.name', async ({ status, type }) => {
    api.sandbox.injectFault({ kind: 'response', status, body: '' });
    const error = await rejectionOf(speak());
    expect(error).toBeInstanceOf(type);
    expect(error).toMatchObject({ status, serviceMessage: undefined });
    expect((error as Error).message).toContain(String(status));
  });

  it('429 with a short Retry-After: RateLimitedError', async () => {
    api.sandbox.injectFault({ kind: 'response', status: 429, body: 'slow down', headers: { 'Retry-After': '2' } });
    const error = await rejectionOf(speak());
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error).toMatchObject({ status: 429, serviceMessage: 'slow down', rateLimit: { retryAfterSeconds: 2 } });
  });

  it.each([
    { what: 'no Retry-After', headers: {}, body: '' },
    { what: 'a Retry-After over 60 s', headers: { 'Retry-After': '3600' }, body: '' },
    {
      what: 'quota wording',
      headers: { 'Retry-After': '5', 'X-Request-Id': 'req_1' },
      body: '{"error":{"message":"Monthly quota exceeded"}}',
    },
    {
      what: 'Remaining 0 until next month',
      headers: {
        'Retry-After': '5',
        'X-Request-Id': 'req_1',
        'X-RateLimit-Remaining': '0',
        'X-RateLimit-Reset': new Date(Date.now() + 9e8).toUTCString(),
      },
      body: '',
    },
  ])('429 with $what: QuotaExceededError', async ({ headers, body }) => {
    api.sandbox.injectFault({ kind: 'response', status: 429, body, headers: headers as Record<string, string> });
    expect(await rejectionOf(speak())).toBeInstanceOf(QuotaExceededError);
  });

  it("a gateway's 429 (no request ID of the service's) with its wait: RateLimitedError, its figures and words not the month's", async () => {
    api.sandbox.injectFault({
      kind: 'response',
      status: 429,
      body: '{"error":{"message":"Monthly quota exceeded"}}',
      headers: {
        'Retry-After': '5',
        'X-RateLimit-Used': '5',
        'X-RateLimit-Remaining': '0',
        'X-RateLimit-Reset': new Date(Date.now() + 9e8).toUTCString(),
      },
    });
    const error = (await rejectionOf(speak())) as VoiceApiError;
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error).toMatchObject({ fromService: false, charge: 'maybe-charged', rateLimit: { retryAfterSeconds: 5 } });
    expect(error.rateLimit).not.toHaveProperty('remaining');
  });

  it.each([
    {
      what: '{"error": {"message"}}',
      body: '{"error":{"code":"x","message":"text is required"}}',
      said: 'text is required',
    },
    { what: '{"error": "..."}', body: '{"error":"voice not found"}', said: 'voice not found' },
    { what: '{"message"}', body: '{"message":"bad exaggeration"}', said: 'bad exaggeration' },
    { what: '{"detail"}', body: '{"detail":"Not enough credits"}', said: 'Not enough credits' },
    {
      what: 'FastAPI detail list',
      body: '{"detail":[{"loc":["body","text"],"msg":"field required","type":"missing"}]}',
      said: 'body.text: field required',
    },
    { what: 'JSON without a message', body: '{"code":17}', said: '{"code":17}' },
    { what: 'plain text', body: '  Upstream   connect error\n', said: 'Upstream connect error' },
    {
      what: 'HTML',
      body: '<!DOCTYPE html><html><head><title>502 Bad Gateway</title><style>h1{color:red}</style></head><body><h1>502 Bad Gateway</h1><script>x()</script><p>nginx &amp; friends</p></body></html>',
      said: '502 Bad Gateway nginx & friends',
    },
    { what: 'an empty body', body: '', said: undefined },
  ])('the service message from $what', async ({ body, said }) => {
    api.sandbox.injectFault({ kind: 'response', status: 400, body });
    expect(await rejectionOf(speak())).toMatchObject({ serviceMessage: said });
  });

  it('caps a long message', async () => {
    api.sandbox.injectFault({ kind: 'response', status: 400, body: 'x'.repeat(100_000) });
    const error = (await rejectionOf(speak())) as VoiceApiError;
    expect(error.serviceMessage?.length).toBeLessThanOrEqual(500);
    expect(error.message.length).toBeLessThan(700);
  });

  it('carries the X-RateLimit-* and Retry-After (HTTP date) values of an error response', async () => {
    const retryAt = new Date(Date.now() + 30_000);
    api.sandbox.injectFault({
      kind: 'response',
      status: 503,
      body: '{"message":"maintenance"}',
      headers: {
        'Retry-After': retryAt.toUTCString(),
        'X-RateLimit-Limit': '700000',
        'X-RateLimit-Used': '12',
        'X-RateLimit-Remaining': '699988',
        'X-RateLimit-Reset': '2030-01-01',
        'X-Request-Id': 'req_gateway_1',
      },
    });
    const error = (await rejectionOf(speak())) as VoiceApiError;
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({
      status: 503,
      requestId: 'req_gateway_1',
      serviceMessage: 'maintenance',
      rateLimit: { limit: 700_000, used: 12, remaining: 699_988, resetAt: new Date('2030-01-01T00:00:00Z') },
    });
    expect(error.rateLimit?.retryAfterSeconds).toBeGreaterThan(20);
    expect(error.rateLimit?.retryAfterSeconds).toBeLessThanOrEqual(30);
  });
});

describe('connection failures', () => {
  it('connection refused: ConnectionError with the system code', async () => {
    const nowhere = new VoiceApiClient({
      baseUrl: `http://127.0.0.1:${await closedPort()}`,
      apiKey: 'sk-test-key',
      maxRetries: 0,
    });
    const error = await rejectionOf(speak(nowhere));
    await nowhere.close();
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ code: 'ECONNREFUSED', status: undefined });
    expect((error as Error).message).toContain('connection refused');
  });

  it('a connection closed before any response: ConnectionError', async () => {
    api.sandbox.injectFault({ kind: 'close-before-response' });
    const error = await rejectionOf(speak());
    expect(error).toBeInstanceOf(ConnectionError);
    expect(requestsTo(api.sandbox)[0]?.outcome).toBe('closed-before-response');
  });

  it('a closed client refuses new calls', async () => {
    const closing = clientFor(api.sandbox);
    await closing.close();
    expect(await rejectionOf(speak(closing))).toBeInstanceOf(ConnectionError);
    expect(requestsTo(api.sandbox)).toHaveLength(0);
  });
});

describe('header and body parsing', () => {
  const now = Date.parse('2026-05-01T12:00:00Z');

  it('Retry-After as seconds or an HTTP date, and garbage ignored', () => {
    expect(parseRetryAfter('7', now)).toBe(7);
    expect(parseRetryAfter('1.5', now)).toBe(1.5);
    expect(parseRetryAfter('Fri, 01 May 2026 12:00:42 GMT', now)).toBe(42);
    expect(parseRetryAfter('Fri, 01 May 2026 11:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('-3', now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
  });

  it('X-RateLimit-Reset as a date, epoch seconds, epoch ms or seconds from now', () => {
    expect(parseResetAt('2026-06-01', now)?.toISOString()).toBe('2026-06-01T00:00:00.000Z');
    expect(parseResetAt('1780000000', now)?.getTime()).toBe(1_780_000_000_000);
    expect(parseResetAt('1780000000123', now)?.getTime()).toBe(1_780_000_000_123);
    expect(parseResetAt('60', now)?.getTime()).toBe(now + 60_000);
    expect(parseResetAt('never', now)).toBeUndefined();
  });

  it('the 429 rule', () => {
    expect(classify429(undefined, undefined, now)).toBe('quota');
    expect(classify429({ retryAfterSeconds: 60 }, undefined, now)).toBe('rate-limit');
    expect(classify429({ retryAfterSeconds: 61 }, undefined, now)).toBe('quota');
    expect(classify429({ retryAfterSeconds: 1 }, 'usage limit exceeded', now)).toBe('quota');
    // A per-minute window says Remaining 0 too, but resets within the minute.
    expect(classify429({ retryAfterSeconds: 1, remaining: 0, resetAt: new Date(now + 30_000) }, undefined, now)).toBe(
      'rate-limit',
    );
    expect(
      classify429({ retryAfterSeconds: 1, used: 10, limit: 10, resetAt: new Date(now + 86_400_000) }, undefined, now),
    ).toBe('quota');
  });

  it('service messages from bytes that are not UTF-8 text do not throw', () => {
    expect(parseServiceMessage(new Uint8Array([0xff, 0xfe, 0x00, 0x41]))).toBeTypeOf('string');
    expect(parseServiceMessage(new Uint8Array())).toBeUndefined();
    expect(parseServiceMessage(Buffer.from('{not json'))).toBe('{not json');
  });
});

describe("an error's log line", () => {
  it('shows the fields chosen for logs and nothing else set on the error (no body, no header)', () => {
    const error = new UndeliveredError('cut', { status: 200, requestId: 'req-1', missing: 'audio' });
    Object.assign(error, { body: Buffer.from('audio bytes'), headers: { authorization: 'Bearer secret' } });
    const logged = JSON.stringify(error);
    expect(JSON.parse(logged)).toMatchObject({
      name: 'UndeliveredError',
      status: 200,
      requestId: 'req-1',
      missing: 'audio',
    });
    expect(logged).not.toContain('audio bytes');
    expect(logged).not.toContain('secret');
  });
});
