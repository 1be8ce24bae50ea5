// Log lines hold no interaction tokens, request bodies or file bytes, keep Error.cause, and have a bounded size.
// The REST errors are discord.js's own classes, built as @discordjs/rest builds them for a refused reply.
import { PassThrough } from 'node:stream';
import { DiscordAPIError, HTTPError, RateLimitError } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { createLogger, MAX_LOG_LINE_BYTES } from '../../src/core/log.ts';

function capture() {
  const stream = new PassThrough();
  const chunks: string[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c.toString()));
  return { stream, lines: () => chunks.join('').split('\n').filter(Boolean) };
}

const interactionToken = `aW50ZXJhY3Rpb24.${'Tk'.repeat(40)}`;
const privateText = 'Only you can see this: your private reply text, word for word';
const webhookUrl = `https://discord.com/api/v10/webhooks/100000000000000001/${interactionToken}/messages/@original?wait=true`;
const callbackUrl = `https://discord.com/api/v10/interactions/123456789012345678/${interactionToken}/callback`;
const fileBytes = Buffer.alloc(64 * 1024, 7);

const requestBody = {
  files: [{ name: 'voice-message.ogg', data: fileBytes, contentType: 'audio/ogg' }],
  json: { content: privateText, flags: 64 },
};

function discordApiError(): DiscordAPIError {
  return new DiscordAPIError(
    { code: 50035, message: 'Invalid Form Body' },
    50035,
    400,
    'PATCH',
    webhookUrl,
    requestBody,
  );
}

describe('REST errors in logs', () => {
  it.each([
    ['DiscordAPIError', discordApiError],
    ['HTTPError', () => new HTTPError(502, 'Bad Gateway', 'POST', callbackUrl, requestBody)],
  ])('a %s keeps name, code, status, method and the route with the token masked, never the body', (_name, make) => {
    const out = capture();
    const log = createLogger({ destination: out.stream });
    const error = make();
    log.error({ err: error, other: error }, 'reply failed');
    const [line = ''] = out.lines();
    expect(line).not.toContain(interactionToken);
    expect(line).not.toContain(privateText);
    expect(line).not.toContain('requestBody');
    expect(line).not.toMatch(/"0":7,"1":7/);
    expect(line.length).toBeLessThan(4_000);
    const parsed = JSON.parse(line) as { err: Record<string, unknown>; other: Record<string, unknown> };
    for (const logged of [parsed.err, parsed.other]) {
      expect(logged).toMatchObject({ status: error.status, method: error.method });
      expect(String(logged['type'])).toBe(error.name);
      expect(String(logged['route'])).toMatch(/\/(webhooks|interactions)\/\d+\/:token\//);
      expect(logged['route']).not.toContain('?');
    }
    if (error instanceof DiscordAPIError) expect(parsed.err['code']).toBe(50035);
  });

  it('a RateLimitError keeps its route and retry figures, the token masked', () => {
    const out = capture();
    const log = createLogger({ destination: out.stream });
    const error = new RateLimitError({
      timeToReset: 1000,
      limit: 5,
      method: 'POST',
      hash: 'h',
      url: callbackUrl,
      route: '/interactions/:id/:token/callback',
      majorParameter: 'global',
      global: false,
      retryAfter: 1000,
      sublimitTimeout: 0,
      scope: 'user',
    });
    log.warn({ err: error }, 'rate limited');
    const [line = ''] = out.lines();
    expect(line).not.toContain(interactionToken);
    const parsed = JSON.parse(line) as { err: Record<string, unknown> };
    expect(parsed.err).toMatchObject({ method: 'POST', retryAfter: 1000, limit: 5 });
    expect(String(parsed.err['route'])).toContain(':token');
  });
});

describe('bytes and bounds', () => {
  it('logs Buffers, typed arrays and ArrayBuffers as their length', () => {
    const out = capture();
    const log = createLogger({ destination: out.stream });
    const big = Buffer.alloc(1024 * 1024, 1);
    log.info(
      {
        audio: big,
        samples: new Float32Array(1000),
        raw: new ArrayBuffer(12),
        spread: { ...new Uint8Array(500) },
        json: big.subarray(0, 300).toJSON(),
      },
      'bytes',
    );
    const [line = ''] = out.lines();
    expect(line.length).toBeLessThan(2_000);
    const parsed = JSON.parse(line) as Record<string, unknown>;
    expect(parsed['audio']).toBe('[Buffer: 1048576 bytes]');
    expect(parsed['samples']).toBe('[Float32Array: 4000 bytes]');
    expect(parsed['raw']).toBe('[ArrayBuffer: 12 bytes]');
    expect(parsed['spread']).toBe('[500 indexed values]');
    expect(parsed['json']).toBe('[Buffer: 300 bytes]');
  });

  it('keeps Error.cause, several levels down, with a bound', () => {
    const out = capture();
    const log = createLogger({ destination: out.stream });
    const root = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const middle = new Error('store unavailable', { cause: root });
    let top = new Error('spend not recorded', { cause: middle });
    log.error({ err: top }, 'failed');
    const parsed = JSON.parse(out.lines()[0] ?? '') as {
      err: { message: string; cause: { message: string; cause: { code: string } } };
    };
    expect(parsed.err.message).toBe('spend not recorded');
    expect(parsed.err.cause.message).toBe('store unavailable');
    expect(parsed.err.cause.cause.code).toBe('ECONNREFUSED');
    // A cause chain that never ends (or loops) is cut, not followed forever.
    const loop = new Error('a');
    (loop as { cause?: unknown }).cause = loop;
    for (let i = 0; i < 50; i++) top = new Error(`level ${i}`, { cause: top });
    log.error({ err: top, loop }, 'deep');
    const deep = out.lines()[1] ?? '';
    expect(deep.length).toBeLessThan(MAX_LOG_LINE_BYTES);
    expect(deep).toContain('level 49');
    expect(deep).not.toContain('level 30');
  });

  it('bounds every line: huge strings, arrays, objects and messages', () => {
    const out = capture();
    const log = createLogger({ destination: out.stream });
    const wide = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`k${i}`, 'v'.repeat(100)]));
    log.info(
      { text: 'x'.repeat(1_000_000), list: Array.from({ length: 100_000 }, (_, i) => i), wide },
      'y'.repeat(200_000),
    );
    const [line = ''] = out.lines();
    expect(Buffer.byteLength(line)).toBeLessThanOrEqual(MAX_LOG_LINE_BYTES);
    expect(() => JSON.parse(line)).not.toThrow();
  });

  it('masks interaction tokens in any string, secrets by value as before', () => {
    const out = capture();
    const log = createLogger({ destination: out.stream, secrets: ['sk_live_' + 'Q'.repeat(30)] });
    log.warn({ url: webhookUrl, note: `key sk_live_${'Q'.repeat(30)}` }, `PATCH ${callbackUrl} failed`);
    const line = out.lines()[0] ?? '';
    expect(line).not.toContain(interactionToken);
    expect(line).not.toContain('Q'.repeat(30));
    expect(line).toContain('/webhooks/100000000000000001/:token/messages/@original');
  });
});
