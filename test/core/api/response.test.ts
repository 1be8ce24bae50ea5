// The key's state the owner console shows: the last answer of each kind the client saw, in three fixed slots and
// the last accepted one, each with its time, endpoint and request ID; what says nothing of the key is not kept.
import { describe, expect, it } from 'vitest';
import { KeyState } from '../../../src/core/api/response.ts';
import { rejectionOf, useSandbox } from './helpers.ts';

describe('KeyState', () => {
  it('keeps the last 401, 429, 5xx and 2xx, each with when and where; nothing else', () => {
    let now = 1_000;
    const state = new KeyState(() => now);
    expect(state.snapshot).toEqual({});
    state.record(200, 'tts', 'req-a', true);
    now = 2_000;
    state.record(401, 'tts', 'req-b', true);
    now = 3_000;
    state.record(429, 'voices/clone', undefined, true);
    now = 4_000;
    state.record(503, 'tts/emotion', 'req-c', true);
    now = 5_000;
    state.record(502, 'tts', 'req-d', false);
    // A request refused as invalid, or no answer at all (0): the key's state is not changed.
    state.record(400, 'tts', 'req-e', true);
    state.record(0, 'tts', undefined, false);
    expect(state.snapshot).toEqual({
      lastOk: { status: 200, at: new Date(1_000), operation: 'tts', requestId: 'req-a' },
      lastRefused: { status: 401, at: new Date(2_000), operation: 'tts', requestId: 'req-b' },
      lastLimited: { status: 429, at: new Date(3_000), operation: 'voices/clone', requestId: undefined },
      lastFailed: { status: 502, at: new Date(5_000), operation: 'tts', requestId: 'req-d' },
    });
  });
});

describe("KeyState, when a gateway answers in the service's place", () => {
  it("never calls the key refused or the month used up: a gateway's 401, 403 or 429 is a failure on the way", () => {
    let now = 1_000;
    const state = new KeyState(() => now);
    state.record(401, 'tts', undefined, false);
    now = 2_000;
    state.record(429, 'tts/emotion', undefined, false);
    now = 3_000;
    state.record(403, 'voices/clone', undefined, false);
    expect(state.snapshot).toEqual({
      lastFailed: { status: 403, at: new Date(3_000), operation: 'voices/clone', requestId: undefined },
    });
  });
});

describe("the client's key state, by the retry rule's proof of whose an answer is", () => {
  const api = useSandbox();
  it("a proxy's HTML 429 (the service's request ID passed through, no JSON error body) is a failure on the way", async () => {
    api.sandbox.clearFaults();
    api.sandbox.injectFault({
      kind: 'response',
      status: 429,
      body: '<html><body>Too Many Requests</body></html>',
      contentType: 'text/html',
    });
    // The client is the file's: another case may have seen the service's own 429 before this one (shuffled).
    const limitedBefore = api.client.keyState.lastLimited;
    const sent = new Date();
    await rejectionOf(api.client.tts({ text: 'Limited by a proxy.', voice_id: 'voice-b-en-f-01' }));
    expect(api.client.keyState.lastLimited).toEqual(limitedBefore);
    expect(api.client.keyState.lastFailed).toMatchObject({ status: 429 });
    expect(api.client.keyState.lastFailed?.at.getTime()).toBeGreaterThanOrEqual(sent.getTime());
  });

  it("a gateway's rate limit (its wait, its own X-RateLimit-* figures, no request ID of the service's) is a failure on the way", async () => {
    api.sandbox.clearFaults();
    api.sandbox.injectFault({
      kind: 'response',
      status: 429,
      body: '{"message":"Too Many Requests"}',
      contentType: 'application/json',
      headers: { 'Retry-After': '0', 'X-RateLimit-Used': '5', 'X-RateLimit-Remaining': '299995' },
      times: Infinity,
    });
    const limitedBefore = api.client.keyState.lastLimited;
    await rejectionOf(api.client.tts({ text: 'Limited by a gateway.', voice_id: 'voice-b-en-f-01' }));
    api.sandbox.clearFaults();
    expect(api.client.keyState.lastLimited).toEqual(limitedBefore);
    expect(api.client.keyState.lastFailed).toMatchObject({ status: 429 });
  });

  it("the service's own 429 (its headers and its JSON error body) is the key limited", async () => {
    api.sandbox.clearFaults();
    api.sandbox.injectFault({
      kind: 'service-error',
      status: 429,
      body: '{"error":{"message":"monthly usage limit exceeded"}}',
      contentType: 'application/json',
    });
    await rejectionOf(api.client.tts({ text: 'Limited by the service.', voice_id: 'voice-b-en-f-01' }));
    expect(api.client.keyState.lastLimited).toMatchObject({ status: 429 });
  });
});
