// Keys, plans, the monthly character count and the usage headers.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PLAN_LIMITS, startSandbox, type Sandbox } from '@saybot/voice-sandbox';
import { emotionTts, errorOf, hear, tts } from './helpers.ts';

let sandbox: Sandbox;
let clock = new Date('2026-11-21T12:00:00Z');

beforeAll(async () => {
  sandbox = await startSandbox({ now: () => clock });
});
beforeEach(() => {
  clock = new Date('2026-11-21T12:00:00Z');
  sandbox.resetCounters();
});
afterAll(() => sandbox.close());

const speak = (text: string, key?: string | null) => tts(sandbox, { text, voice_id: 'voice-b-en-m-01' }, { key });

describe('authentication and plans', () => {
  it.each([
    ['no Authorization header', null, 'missing_api_key'],
    ['an unknown key', 'sandbox_not_a_key_at_all_0000', 'invalid_api_key'],
  ])('answers 401 for %s, without echoing the key', async (_, key, code) => {
    const error = await errorOf(await speak('hi', key));
    expect(error).toMatchObject({ status: 401, code });
    if (key !== null) expect(error.text).not.toContain(key);
    expect(sandbox.requests[0]?.keyHint).not.toBe(key);
  });

  it('answers 401 for a deactivated key, and serves it again once reactivated', async () => {
    const key = sandbox.addKey({ plan: 'pro' });
    sandbox.setKeyActive(key, false);
    const error = await errorOf(await speak('hi', key));
    expect(error).toMatchObject({ status: 401, code: 'deactivated_api_key' });
    expect(error.text).not.toContain(key);
    sandbox.setKeyActive(key, true);
    expect((await speak('hi', key)).status).toBe(200);
    expect(sandbox.charactersBilled(key)).toBe(2);
  });

  it.each(['free', 'starter'] as const)('answers 403 for the %s plan: a plan without API access', async (plan) => {
    const key = sandbox.addKey({ plan });
    const error = await errorOf(await speak('hi', key));
    expect(error).toMatchObject({ status: 403, code: 'plan_without_api_access' });
    expect(error.message).toContain('plan without API access');
    expect(sandbox.charactersBilled(key)).toBe(0);
  });

  it('records a short hint of the key, never the key', async () => {
    await (await speak('hi')).arrayBuffer();
    const hint = sandbox.requests[0]?.keyHint ?? '';
    expect(hint).toBe(`…${sandbox.testKey.slice(-4)}`);
    expect(JSON.stringify(sandbox.requests)).not.toContain(sandbox.testKey);
  });
});

describe('monthly characters', () => {
  it('counts code points after NFC, billed per key', async () => {
    const key = sandbox.addKey({ plan: 'business' });
    const texts: [string, number][] = [
      ['e\u0301', 1], // e + combining acute composes to é
      ['안녕하세요', 5],
      ['👋🏽 hi', 5], // waving hand, skin tone modifier, space, h, i
      ['Ａ', 1],
    ];
    for (const [text, characters] of texts) {
      const response = await speak(text, key);
      await response.arrayBuffer();
      expect(sandbox.requests.at(-1)?.charactersBilled, text).toBe(characters);
    }
    expect(sandbox.charactersBilled(key)).toBe(12);
    expect(sandbox.charactersBilled()).toBe(12);
    expect(sandbox.charactersBilled(sandbox.testKey)).toBe(0);
  });

  it('sends usage headers on success and failure; Reset is the first day of next month (UTC)', async () => {
    const key = sandbox.addKey({ plan: 'pro', used: 100 });
    const ok = await speak('12345', key);
    await ok.arrayBuffer();
    expect(Object.fromEntries([...ok.headers].filter(([name]) => name.startsWith('x-ratelimit-')))).toEqual({
      'x-ratelimit-limit': '700000',
      'x-ratelimit-used': '105',
      'x-ratelimit-remaining': '699895',
      'x-ratelimit-reset': '2026-12-01',
    });
    const bad = await tts(sandbox, { voice_id: 'voice-b-en-m-01' }, { key });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('x-ratelimit-used')).toBe('105');
    clock = new Date('2026-12-31T23:59:59Z');
    const later = await emotionTts(sandbox, { text: 'x' }, { key });
    await later.arrayBuffer();
    expect(later.headers.get('x-ratelimit-reset')).toBe('2027-01-01');
  });

  it('answers 429 when a request would pass the limit, billing nothing', async () => {
    const limit = PLAN_LIMITS.creator;
    const key = sandbox.addKey({ plan: 'creator', used: limit - 5 });
    const over = await speak('123456', key);
    expect(await errorOf(over)).toMatchObject({ status: 429, code: 'quota_exceeded' });
    expect(over.headers.get('x-ratelimit-remaining')).toBe('5');
    await hear(await speak('12345', key)); // exactly at the limit is fine
    const after = await speak('1', key);
    expect(after.status).toBe(429);
    expect(after.headers.get('x-ratelimit-used')).toBe(String(limit));
    expect(after.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(sandbox.charactersBilled(key)).toBe(5);
  });

  it('starts counting again in a new month', async () => {
    const key = sandbox.addKey({ plan: 'creator', used: PLAN_LIMITS.creator });
    expect((await speak('hi', key)).status).toBe(429);
    clock = new Date('2026-12-01T00:00:00Z');
    const response = await speak('hi', key);
    await hear(response);
    expect(response.headers.get('x-ratelimit-used')).toBe('2');
  });

  it('resetCounters forgets requests and billing and restores each key to its starting usage', async () => {
    const key = sandbox.addKey({ plan: 'creator', used: 10 });
    await hear(await speak('abc', key));
    expect(sandbox.requests).toHaveLength(1);
    sandbox.resetCounters();
    expect(sandbox.requests).toHaveLength(0);
    expect(sandbox.charactersBilled(key)).toBe(0);
    const response = await speak('abc', key);
    await response.arrayBuffer();
    expect(response.headers.get('x-ratelimit-used')).toBe('13');
  });

  it('leaves the usage headers out when switched off', async () => {
    const quiet = await startSandbox({ usageHeaders: false });
    try {
      const response = await tts(quiet, { text: 'hi', voice_id: 'voice-b-en-m-01' });
      await hear(response);
      expect([...response.headers.keys()].filter((name) => name.startsWith('x-ratelimit-'))).toEqual([]);
      expect(quiet.charactersBilled(quiet.testKey)).toBe(2);
    } finally {
      await quiet.close();
    }
  });

  it('rejects bad keys and plans given to addKey', () => {
    expect(() => sandbox.addKey({ key: 'has space' })).toThrow(RangeError);
    expect(() => sandbox.addKey({ key: sandbox.testKey })).toThrow(/already exists/);
    expect(() => sandbox.addKey({ used: -1 })).toThrow(RangeError);
    expect(() => sandbox.setKeyActive('nope', false)).toThrow(RangeError);
  });
});
