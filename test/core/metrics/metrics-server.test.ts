import { afterEach, describe, expect, it } from 'vitest';
import { Metrics } from '../../../src/core/metrics/metrics.ts';
import { startMetricsServer, type Health, type MetricsServer } from '../../../src/core/metrics/server.ts';
import { sample } from '../../support/prometheus.ts';

let server: MetricsServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('metrics server', () => {
  it('serves counters that move with the hooks, live gauges, and event-loop lag in Prometheus format', async () => {
    let connections = 2;
    const metrics = new Metrics({
      activeVoiceConnections: () => connections,
      queueLengths: () => 5,
      cacheSizeBytes: () => 1234,
    });
    server = await startMetricsServer({ metrics, health: async () => ({ gateway: 'ready', store: 'ok' }), port: 0 });
    const scrape = async () => {
      const res = await fetch(`${server?.url}/metrics`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
      return res.text();
    };

    const before = await scrape();
    expect(sample(before, 'saybot_commands_total', { command: 'say', result: 'ok' })).toBeUndefined();
    expect(sample(before, 'saybot_voice_connections')).toBe(2);
    expect(sample(before, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);

    metrics.command('say', 'ok');
    metrics.command('say', 'ok');
    metrics.command('clone', 'refused');
    metrics.voiceApiRequest('tts', 200, 0.3);
    metrics.voiceApiRequest('tts', 429, 0.01);
    metrics.characters('spent', 42);
    metrics.characters('saved', 7);
    metrics.timeToFirstAudio(0.8);
    metrics.cacheLookup('hit');
    connections = 3;

    const after = await scrape();
    expect(sample(after, 'saybot_commands_total', { command: 'say', result: 'ok' })).toBe(2);
    expect(sample(after, 'saybot_commands_total', { command: 'clone', result: 'refused' })).toBe(1);
    expect(sample(after, 'saybot_voice_api_requests_total', { endpoint: 'tts', status: '429' })).toBe(1);
    expect(sample(after, 'saybot_voice_api_request_seconds_count', { endpoint: 'tts' })).toBe(2);
    expect(sample(after, 'saybot_voice_api_request_seconds_bucket', { endpoint: 'tts', le: '0.05' })).toBe(1);
    expect(sample(after, 'saybot_characters_total', { kind: 'spent' })).toBe(42);
    expect(sample(after, 'saybot_characters_total', { kind: 'saved' })).toBe(7);
    expect(sample(after, 'saybot_time_to_first_audio_seconds_count')).toBe(1);
    expect(sample(after, 'saybot_cache_lookups_total', { result: 'hit' })).toBe(1);
    expect(sample(after, 'saybot_voice_connections')).toBe(3);
    expect(sample(after, 'saybot_queue_length')).toBe(5);
    expect(sample(after, 'saybot_cache_size_bytes')).toBe(1234);
  });

  it('answers /healthz 200 when the gateway is ready and the store works, 503 otherwise, and 404 elsewhere', async () => {
    let health: Health = { gateway: 'ready', store: 'ok' };
    server = await startMetricsServer({ metrics: new Metrics(), health: async () => health, port: 0 });
    const ok = await fetch(`${server.url}/healthz`);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ ok: true, gateway: 'ready', store: 'ok' });
    health = { gateway: 'ready', store: 'failing' };
    const bad = await fetch(`${server.url}/healthz`);
    expect(bad.status).toBe(503);
    expect(await bad.json()).toMatchObject({ ok: false, store: 'failing' });
    expect((await fetch(`${server.url}/nope`)).status).toBe(404);
  });

  it('keeps two Metrics objects apart (no global registry)', async () => {
    const a = new Metrics();
    const b = new Metrics();
    a.command('say', 'ok');
    expect(
      sample(await b.registry.metrics(), 'saybot_commands_total', { command: 'say', result: 'ok' }),
    ).toBeUndefined();
    expect(sample(await a.registry.metrics(), 'saybot_commands_total', { command: 'say', result: 'ok' })).toBe(1);
  });
});

describe('metrics by bot', () => {
  it("labels the voice figures with the seat's bot (its index, 0 the main bot), a value per bot now, none of a bot gone", async () => {
    let seats = [
      { connections: 1, queued: 2 },
      { connections: 1, queued: 0 },
      { connections: 0, queued: 0 },
    ];
    const metrics = new Metrics({ seats: () => seats });
    metrics.timeToFirstAudio(0.3, 2);
    metrics.timeToFirstAudio(0.4);
    const text = await metrics.registry.metrics();
    expect(sample(text, 'saybot_voice_connections_by_bot', { bot: '0' })).toBe(1);
    expect(sample(text, 'saybot_voice_connections_by_bot', { bot: '1' })).toBe(1);
    expect(sample(text, 'saybot_voice_connections_by_bot', { bot: '2' })).toBe(0);
    expect(sample(text, 'saybot_queue_length_by_bot', { bot: '0' })).toBe(2);
    expect(sample(text, 'saybot_time_to_first_audio_by_bot_seconds_count', { bot: '2' })).toBe(1);
    expect(sample(text, 'saybot_time_to_first_audio_by_bot_seconds_count', { bot: '0' })).toBeUndefined();
    // Every first audio still counts in the total.
    expect(sample(text, 'saybot_time_to_first_audio_seconds_count')).toBe(2);
    seats = [{ connections: 0, queued: 0 }];
    const later = await metrics.registry.metrics();
    expect(sample(later, 'saybot_voice_connections_by_bot', { bot: '1' })).toBeUndefined();
  });
});
