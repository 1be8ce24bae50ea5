import { freePort } from '@saybot/local-discord';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { defaultGuilds, runCommand, startHarness, type Harness } from '../support/harness.ts';
import { sample } from '../support/prometheus.ts';
import { ALICE } from '../support/world.ts';

const london = defaultGuilds()[1] as ReturnType<typeof defaultGuilds>[0];

let h: Harness;
let metricsUrl: string;

beforeAll(async () => {
  const port = await freePort();
  metricsUrl = `http://127.0.0.1:${port}/metrics`;
  h = await startHarness({ config: { metricsPort: port, voiceIdleTimeoutMs: 60_000 } });
});
afterAll(async () => {
  await h?.close();
});

async function scrape(): Promise<string> {
  const response = await fetch(metricsUrl);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
  return response.text();
}

/** Reads the samples a test follows, each 0 when not yet exported. */
async function figures() {
  const text = await scrape();
  const value = (name: string, labels: Record<string, string> = {}) => sample(text, name, labels) ?? 0;
  return {
    sayOk: value('saybot_commands_total', { command: 'say', result: 'ok' }),
    sayRefused: value('saybot_commands_total', { command: 'say', result: 'refused' }),
    sayFailed: value('saybot_commands_total', { command: 'say', result: 'failed' }),
    tts200: value('saybot_voice_api_requests_total', { endpoint: 'tts', status: '200' }),
    tts503: value('saybot_voice_api_requests_total', { endpoint: 'tts', status: '503' }),
    ttsTimed: value('saybot_voice_api_request_seconds_count', { endpoint: 'tts' }),
    spent: value('saybot_characters_total', { kind: 'spent' }),
    saved: value('saybot_characters_total', { kind: 'saved' }),
    hits: value('saybot_cache_lookups_total', { result: 'hit' }),
    misses: value('saybot_cache_lookups_total', { result: 'miss' }),
    connections: value('saybot_voice_connections'),
    cacheBytes: value('saybot_cache_size_bytes'),
    firstAudios: value('saybot_time_to_first_audio_seconds_count'),
  };
}

/** Runs /say and waits until its outcome is counted (the count follows the last reply). */
async function say(
  text: string,
  options: Record<string, string> = {},
  reply: RegExp,
  counted: (f: Awaited<ReturnType<typeof figures>>) => boolean,
) {
  const { handle } = await runCommand(h, {
    guildId: london.id,
    userId: ALICE,
    name: 'say',
    options: { text, ...options },
  });
  await handle.waitFor((r) => reply.test(r.content ?? ''), 15_000);
  await vi.waitFor(async () => expect(counted(await figures())).toBe(true), { timeout: 30_000, interval: 20 });
  return figures();
}

describe('/metrics of a running bot', () => {
  it('counts a spoken /say: command ok, one Voice API 200 with its latency, characters spent, a cache miss, the voice connection', async () => {
    const text = 'Metrics count this sentence.';
    const before = await figures();
    const after = await say(text, {}, /^Spoke/, (f) => f.sayOk === before.sayOk + 1);
    expect(after.tts200 - before.tts200).toBe(1);
    expect(after.ttsTimed - before.ttsTimed).toBe(1);
    expect(after.spent - before.spent).toBe(text.length);
    expect(after.saved - before.saved).toBe(0);
    expect(after.misses - before.misses).toBe(1);
    expect(after.firstAudios - before.firstAudios).toBe(1);
    expect(after.connections).toBe(1);
    expect(after.cacheBytes).toBeGreaterThan(0);
  });

  it('counts the same /say again as a cache hit: characters saved, no Voice API request', async () => {
    const text = 'Said twice, paid once.';
    const empty = await figures();
    await say(text, {}, /^Spoke/, () => true);
    // The first one's cache file is written once its audio is whole: the cache's bytes show it is there.
    await vi.waitFor(async () => expect((await figures()).cacheBytes).toBeGreaterThan(empty.cacheBytes), {
      timeout: 5_000,
      interval: 20,
    });
    const before = await figures();
    const after = await say(text, {}, /^Spoke/, (f) => f.sayOk === before.sayOk + 1);
    expect(after.hits - before.hits).toBe(1);
    expect(after.saved - before.saved).toBe(text.length);
    expect(after.spent - before.spent).toBe(0);
    expect(after.tts200 - before.tts200).toBe(0);
  });

  it('counts a refusal (unknown voice) without a Voice API request, and a service failure with every attempt', async () => {
    const before = await figures();
    const refused = await say(
      'Nobody speaks this.',
      { voice: 'voice-nobody' },
      /There is no voice/,
      (f) => f.sayRefused === before.sayRefused + 1,
    );
    expect(refused.tts200 + refused.tts503).toBe(before.tts200 + before.tts503);

    h.sandbox.injectFault({ kind: 'service-error', status: 503, endpoint: 'tts' });
    try {
      const failed = await say('The service is down now.', {}, /\S/, (f) => f.sayFailed === before.sayFailed + 1);
      expect(failed.tts503 - before.tts503).toBe(1);
      expect(failed.spent - before.spent).toBe(0);
      expect(failed.sayOk).toBe(before.sayOk);
      expect(failed.firstAudios - refused.firstAudios).toBe(0);
    } finally {
      h.sandbox.clearFaults();
    }
  });
});
