// Never paid twice: a 2xx has been charged by the service, so a body that breaks afterwards is
// not retried blindly; a call returns to its caller's books what it came to: its 2xx, or whether one without
// was charged.
// Over real HTTP against the sandbox, which bills at its 2xx, faulted or not.
import { createServer, type AddressInfo } from 'node:net';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import {
  ConnectionError,
  OversizedResponseError,
  ServerError,
  UndeliveredError,
} from '../../../src/core/api/errors.ts';
import {
  clientFor,
  closedPort,
  fixture,
  paying,
  readAll,
  refusedUntilRetry,
  rejectionOf,
  requestsTo,
  streamError,
  until,
  useSandbox,
} from './helpers.ts';

const api = useSandbox();

const TEXT = 'Paid for once, and only once.';

/** The client has heard the month's figures (a free answer: a tts without text, refused as invalid, with them), and
 * the sandbox forgets that request: a bot that has heard the service since it started. */
async function figuresHeard(): Promise<void> {
  await api.client.checkAccess();
  api.sandbox.resetCounters();
}
const clip = () => ({ data: fixture('tone-220hz-5s-48k.wav'), filename: 'ref.wav' });

describe('a 2xx whose body breaks before the audio could be used', () => {
  it.each([100, 0, 1023])(
    'tts, reset after %i body bytes: UndeliveredError (charged), one request, billed once',
    async (bytes) => {
      api.sandbox.injectFault({ kind: 'reset-after', bytes, endpoint: 'tts' });
      const error = await rejectionOf(
        paying(api.client, { endpoint: 'tts', body: { text: TEXT, voice_id: 'voice-b-en-f-01' } }),
      );
      expect(error).toBeInstanceOf(UndeliveredError);
      const records = requestsTo(api.sandbox, 'tts');
      expect(records).toHaveLength(1);
      expect(error).toMatchObject({ charged: true, status: 200, requestId: records[0]?.id });
      expect((error as UndeliveredError).usage?.used).toBe(api.sandbox.charactersBilled());
      expect(api.sandbox.charactersBilled()).toBe(records[0]?.charactersBilled);
      expect(api.sandbox.charactersBilled()).toBeGreaterThan(0);
    },
  );

  it('emotion-tts, the same', async () => {
    api.sandbox.injectFault({ kind: 'reset-after', bytes: 10, endpoint: 'emotion-tts' });
    expect(await rejectionOf(paying(api.client, { endpoint: 'emotion-tts', body: { text: TEXT } }))).toBeInstanceOf(
      UndeliveredError,
    );
    expect(requestsTo(api.sandbox, 'emotion-tts')).toHaveLength(1);
  });

  it('a clone whose audio breaks keeps the voice the service made (X-Voice-Id): no second clone, no second payment', async () => {
    api.sandbox.injectFault({ kind: 'reset-after', bytes: 200, endpoint: 'voice-clone' });
    const clone = await paying(api.client, { endpoint: 'voice-clone', body: { text: TEXT, ref_audio: clip() } });
    const records = requestsTo(api.sandbox, 'voice-clone');
    expect(records).toHaveLength(1);
    expect(clone.voiceId).toBe(records[0]?.clonedVoiceId);
    expect(clone.audio).toBeUndefined();
    expect(clone.audioLost).toBe(true);
    expect(api.sandbox.charactersBilled()).toBe(records[0]?.charactersBilled);
    // The voice is usable.
    expect(
      (
        await readAll(
          (await paying(api.client, { endpoint: 'tts', body: { text: 'hello', voice_id: clone.voiceId } })).body,
        )
      ).length,
    ).toBeGreaterThan(0);
  });

  it('a clone answered in JSON only, cut after its voice_id: the ID from the part received', async () => {
    api.sandbox.setVariants({ cloneBody: 'json-only' });
    try {
      // {"voice_id":"clone_<24 hex>"} is 45 bytes: cut before its closing brace.
      api.sandbox.injectFault({ kind: 'reset-after', bytes: 44, endpoint: 'voice-clone' });
      const clone = await paying(api.client, { endpoint: 'voice-clone', body: { text: TEXT, ref_audio: clip() } });
      const records = requestsTo(api.sandbox, 'voice-clone');
      expect(records).toHaveLength(1);
      expect(records[0]?.clonedVoiceId).toBeDefined();
      expect(clone.voiceId).toBe(records[0]?.clonedVoiceId);
    } finally {
      api.sandbox.setVariants({ cloneBody: 'audio' });
    }
  });

  it('a clone answered in JSON only, cut before its voice_id: UndeliveredError (charged), not cloned again', async () => {
    api.sandbox.setVariants({ cloneBody: 'json-only' });
    try {
      api.sandbox.injectFault({ kind: 'reset-after', bytes: 5, endpoint: 'voice-clone' });
      const error = await rejectionOf(
        paying(api.client, { endpoint: 'voice-clone', body: { text: TEXT, ref_audio: clip() } }),
      );
      expect(error).toBeInstanceOf(UndeliveredError);
      expect(error).toMatchObject({ charged: true, status: 200 });
      expect(requestsTo(api.sandbox, 'voice-clone')).toHaveLength(1);
      expect(api.sandbox.charactersBilled()).toBe(requestsTo(api.sandbox, 'voice-clone')[0]?.charactersBilled);
    } finally {
      api.sandbox.setVariants({ cloneBody: 'audio' });
    }
  });

  it('a 2xx clone without any voice ID was charged too: UndeliveredError, one request', async () => {
    api.sandbox.injectFault({ kind: 'clone-without-voice-id' });
    const error = await rejectionOf(
      paying(api.client, { endpoint: 'voice-clone', body: { text: TEXT, ref_audio: clip() } }),
    );
    expect(error).toBeInstanceOf(UndeliveredError);
    expect(requestsTo(api.sandbox, 'voice-clone')).toHaveLength(1);
    expect(api.sandbox.charactersBilled()).toBeGreaterThan(0);
  });
});

describe('a 2xx whose body is far larger than its request can take', () => {
  it('tts audio that never ends: cut past what its characters can take, OversizedResponseError (charged), one request', async () => {
    api.sandbox.injectFault({ kind: 'endless-body', endpoint: 'tts' });
    const response = await paying(api.client, { endpoint: 'tts', body: { text: TEXT, voice_id: 'voice-b-en-f-01' } });
    let received = 0;
    response.body.on('data', (chunk: Buffer) => (received += chunk.length));
    const error = await streamError(response.body);
    expect(error).toBeInstanceOf(OversizedResponseError);
    expect(error).toMatchObject({ charged: true, status: 200, requestId: requestsTo(api.sandbox, 'tts')[0]?.id });
    // 30 s of 24 kHz mono PCM16 (the floor for a short text) and the header allowance: far below the 64 MB cap.
    expect(received).toBeLessThan(30 * 48_000 + 256 * 1024);
    expect(requestsTo(api.sandbox, 'tts')).toHaveLength(1);
    expect(api.sandbox.charactersBilled()).toBe(requestsTo(api.sandbox, 'tts')[0]?.charactersBilled);
  });

  it('a clone answered in JSON only, over 64 KiB: refused as OversizedResponseError (charged), not cloned again', async () => {
    // The ID comes first, then padding no voice's answer has: a body cut at the cap cannot be trusted to name it.
    const body = JSON.stringify({ voice_id: 'clone_000000000000000000000000', padding: 'x'.repeat(200_000) });
    api.sandbox.injectFault({
      kind: 'response',
      status: 200,
      body,
      contentType: 'application/json',
      endpoint: 'voice-clone',
    });
    const error = await rejectionOf(
      paying(api.client, { endpoint: 'voice-clone', body: { text: TEXT, ref_audio: clip() } }),
    );
    expect(error).toBeInstanceOf(OversizedResponseError);
    expect(error).toMatchObject({ charged: true, status: 200 });
    expect(requestsTo(api.sandbox, 'voice-clone')).toHaveLength(1);
  });
});

describe('a request that may have reached the service is never sent again', () => {
  it.each(['tts', 'emotion-tts', 'voice-clone'] as const)(
    '%s charged, then the connection reset before its answer: ConnectionError after one request, billed once',
    async (endpoint) => {
      api.sandbox.injectFault({ kind: 'reset-after-charge', endpoint });
      const calls = {
        tts: () => paying(api.client, { endpoint: 'tts', body: { text: TEXT, voice_id: 'voice-b-en-f-01' } }),
        'emotion-tts': () => paying(api.client, { endpoint: 'emotion-tts', body: { text: TEXT } }),
        'voice-clone': () => paying(api.client, { endpoint: 'voice-clone', body: { text: TEXT, ref_audio: clip() } }),
      };
      expect(await rejectionOf(calls[endpoint]())).toBeInstanceOf(ConnectionError);
      expect(requestsTo(api.sandbox, endpoint)).toHaveLength(1);
      expect(api.sandbox.charactersBilled()).toBe(TEXT.length);
    },
  );

  it.each(['tts', 'emotion-tts', 'voice-clone'] as const)(
    '%s charged, then a gateway answers 504 with its HTML page: not sent again, billed once, not ok as unknown',
    async (endpoint) => {
      api.sandbox.injectFault({ kind: 'gateway-after-charge', endpoint });
      const told: string[] = [];
      const calls = {
        tts: () => paying(api.client, { endpoint: 'tts', body: { text: TEXT, voice_id: 'voice-b-en-f-01' } }, { told }),
        'emotion-tts': () => paying(api.client, { endpoint: 'emotion-tts', body: { text: TEXT } }, { told }),
        'voice-clone': () =>
          paying(api.client, { endpoint: 'voice-clone', body: { text: TEXT, ref_audio: clip() } }, { told }),
      };
      const error = await rejectionOf(calls[endpoint]());
      expect(error).toBeInstanceOf(ServerError);
      expect(error).toMatchObject({ status: 504, charge: 'maybe-charged' });
      const records = requestsTo(api.sandbox, endpoint);
      expect(records).toHaveLength(1);
      // For a clone, one voice made at the service: sent again, a second (never usable) one would be made and paid.
      expect(records.filter((r) => r.clonedVoiceId !== undefined)).toHaveLength(endpoint === 'voice-clone' ? 1 : 0);
      expect(api.sandbox.charactersBilled()).toBe(TEXT.length);
      expect(told).toEqual(['not ok: maybe-charged']);
    },
  );

  // A 429 in front of the service may have passed the request on first (bb11): maybe charged, as a gateway's 5xx.
  it.each(['tts', 'voice-clone'] as const)(
    '%s refused by a 429 in front of the service (none of its headers, an HTML page): maybe charged, sent once, not ok as maybe charged',
    async (endpoint) => {
      api.sandbox.injectFault({
        kind: 'response',
        endpoint,
        status: 429,
        body: '<html><body>429 Too Many Requests</body></html>',
        contentType: 'text/html',
      });
      const told: string[] = [];
      const call =
        endpoint === 'tts'
          ? paying(api.client, { endpoint, body: { text: TEXT, voice_id: 'voice-b-en-f-01' } }, { told })
          : paying(api.client, { endpoint, body: { text: TEXT, ref_audio: clip() } }, { told });
      expect(await rejectionOf(call)).toMatchObject({ status: 429, charge: 'maybe-charged' });
      expect(requestsTo(api.sandbox, endpoint)).toHaveLength(1);
      expect(api.sandbox.charactersBilled()).toBe(0);
      expect(told).toEqual(['not ok: maybe-charged']);
    },
  );

  // bb10: a limiter in front that answers 429 after passing the request on (the service billed it) would have it paid
  // twice if its wait were kept: only the service's own 429 is proof enough to send the request again.
  it.each(['tts', 'voice-clone'] as const)(
    '%s refused by a 429 in front of the service that names a wait (Retry-After, none of its headers): sent once, never again',
    async (endpoint) => {
      api.sandbox.injectFault({
        kind: 'response',
        endpoint,
        status: 429,
        body: '{"error":"Too Many Requests"}',
        contentType: 'application/json',
        headers: { 'Retry-After': '0' },
      });
      const told: string[] = [];
      const call =
        endpoint === 'tts'
          ? paying(api.client, { endpoint, body: { text: TEXT, voice_id: 'voice-b-en-f-01' } }, { told })
          : paying(api.client, { endpoint, body: { text: TEXT, ref_audio: clip() } }, { told });
      expect(await rejectionOf(call)).toMatchObject({ status: 429, fromService: false });
      expect(requestsTo(api.sandbox, endpoint)).toHaveLength(1);
      expect(api.sandbox.charactersBilled()).toBe(0);
    },
  );

  // bb11: nothing on a 429 proves it the service's own: a proxy that lets the request through (billed), then answers
  // 429 with the service's headers forwarded and a JSON error, looks exactly like it. Never sent again, whoever sent it.
  // bb12: its forwarded figures went up by the line since the client last heard them: maybe charged, never "not charged".
  it.each(['tts', 'voice-clone'] as const)(
    "%s charged, then a proxy's JSON 429 with the service's headers forwarded and a wait (Retry-After 1): sent once, billed once, maybe charged by its figures",
    async (endpoint) => {
      await figuresHeard();
      api.sandbox.injectFault({
        kind: 'gateway-after-charge',
        endpoint,
        status: 429,
        body: '{"error":"Too Many Requests"}',
        contentType: 'application/json',
        serviceHeaders: true,
        headers: { 'Retry-After': '1' },
      });
      const told: string[] = [];
      const call =
        endpoint === 'tts'
          ? paying(api.client, { endpoint, body: { text: TEXT, voice_id: 'voice-b-en-f-01' } }, { told })
          : paying(api.client, { endpoint, body: { text: TEXT, ref_audio: clip() } }, { told });
      expect(await rejectionOf(call)).toMatchObject({ status: 429 });
      expect(requestsTo(api.sandbox, endpoint)).toHaveLength(1);
      expect(api.sandbox.charactersBilled()).toBe(TEXT.length);
      expect(told).toEqual(['not ok: maybe-charged']);
    },
  );

  // The same proxy on a 5xx or a 408 with a JSON error passes for the service as its 429 does: nothing on the answer
  // proves whose it is, so a paid request is sent again only when it never left; its figures show the charge.
  it.each([
    ['tts', 503],
    ['tts', 408],
    ['voice-clone', 503],
    ['voice-clone', 408],
  ] as const)(
    "%s charged, then a proxy's JSON %i with the service's headers forwarded: sent once, billed once, maybe charged by its figures",
    async (endpoint, status) => {
      await figuresHeard();
      api.sandbox.injectFault({
        kind: 'gateway-after-charge',
        endpoint,
        status,
        body: '{"error":{"code":"internal_error","message":"Upstream unavailable"}}',
        contentType: 'application/json',
        serviceHeaders: true,
      });
      const told: string[] = [];
      const call =
        endpoint === 'tts'
          ? paying(api.client, { endpoint, body: { text: TEXT, voice_id: 'voice-b-en-f-01' } }, { told })
          : paying(api.client, { endpoint, body: { text: TEXT, ref_audio: clip() } }, { told });
      expect(await rejectionOf(call)).toMatchObject({ status, charge: 'maybe-charged' });
      const records = requestsTo(api.sandbox, endpoint);
      expect(records.map((r) => r.status)).toEqual([status]);
      expect(records.filter((r) => r.clonedVoiceId !== undefined)).toHaveLength(endpoint === 'voice-clone' ? 1 : 0);
      expect(api.sandbox.charactersBilled()).toBe(TEXT.length);
      expect(told).toEqual(['not ok: maybe-charged']);
    },
  );

  // The service's own error after the client heard its figures: they did not move, so it charged nothing. Had the
  // month's use moved by the line's characters meanwhile (the owner's use on the site, another process), it would be
  // booked maybe charged: over the bill, the safe side.
  it.each([429, 503])(
    "the service's own %i, its figures as the client last heard them: not charged; moved by the line meanwhile: maybe charged",
    async (status) => {
      await figuresHeard();
      const told: string[] = [];
      const send = () =>
        paying(api.client, { endpoint: 'tts', body: { text: TEXT, voice_id: 'voice-b-en-f-01' } }, { told });
      api.sandbox.injectFault({ kind: 'service-error', status, endpoint: 'tts', times: 2 });
      expect(await rejectionOf(send())).toMatchObject({ status, charge: 'not-charged' });
      api.sandbox.setKeyUsed(api.sandbox.testKey, TEXT.length);
      expect(await rejectionOf(send())).toMatchObject({ status, charge: 'maybe-charged' });
      expect(requestsTo(api.sandbox, 'tts')).toHaveLength(2);
      expect(api.sandbox.charactersBilled()).toBe(0);
      expect(told).toEqual(['not ok: not-charged', 'not ok: maybe-charged']);
    },
  );

  it.each([
    ['tts', 408, undefined, undefined],
    ['tts', 404, undefined, undefined],
    ['tts', 503, '{"message":"Service Unavailable"}', 'application/json'],
    ['tts', 503, '{"error":{"code":"internal_error","message":"Upstream unavailable"}}', 'application/json'],
    ['voice-clone', 503, '{"message":"Service Unavailable"}', 'application/json'],
  ] as const)(
    '%s charged, then a gateway answers %i (%s) without the service headers: maybe charged, sent once',
    async (endpoint, status, body, contentType) => {
      api.sandbox.injectFault({ kind: 'gateway-after-charge', endpoint, status, body, contentType });
      const told: string[] = [];
      const call =
        endpoint === 'tts'
          ? paying(api.client, { endpoint, body: { text: TEXT, voice_id: 'voice-b-en-f-01' } }, { told })
          : paying(api.client, { endpoint, body: { text: TEXT, ref_audio: clip() } }, { told });
      const error = await rejectionOf(call);
      expect(error).toMatchObject({ status, charge: 'maybe-charged' });
      const records = requestsTo(api.sandbox, endpoint);
      expect(records).toHaveLength(1);
      expect(records.filter((r) => r.clonedVoiceId !== undefined)).toHaveLength(endpoint === 'voice-clone' ? 1 : 0);
      expect(api.sandbox.charactersBilled()).toBe(TEXT.length);
      expect(told).toEqual(['not ok: maybe-charged']);
    },
  );

  it.each([
    ['a 502 with an HTML page', { kind: 'response', status: 502, contentType: 'text/html', body: '<html>502</html>' }],
    [
      'a 503 with a plain-text body',
      { kind: 'response', status: 503, contentType: 'text/plain', body: 'no healthy upstream' },
    ],
    ['an empty 500', { kind: 'response', status: 500 }],
    [
      "a 504 in JSON (a cloud gateway's)",
      { kind: 'response', status: 504, body: '{"message":"Endpoint request timed out"}' },
    ],
    [
      "a 500 in the service's JSON shape, from a gateway (none of the service's headers)",
      { kind: 'response', status: 500, body: '{"error":{"code":"internal_error"}}', contentType: 'application/json' },
    ],
  ] as const)('%s is not the service saying nothing was charged: sent once, unknown', async (_what, fault) => {
    api.sandbox.injectFault({ ...fault, endpoint: 'tts', times: 3 });
    const told: string[] = [];
    const error = await rejectionOf(
      paying(api.client, { endpoint: 'tts', body: { text: TEXT, voice_id: 'voice-b-en-f-01' } }, { told }),
    );
    expect(error).toMatchObject({ status: fault.status, charge: 'maybe-charged' });
    expect(requestsTo(api.sandbox, 'tts')).toHaveLength(1);
    expect(told).toEqual(['not ok: maybe-charged']);
  });

  it.each([500, 503])(
    "a %i in the service's own error shape says nothing was charged: sent once, not charged",
    async (status) => {
      api.sandbox.injectFault({ kind: 'service-error', status, endpoint: 'tts', times: 3 });
      const told: string[] = [];
      const error = await rejectionOf(
        paying(api.client, { endpoint: 'tts', body: { text: TEXT, voice_id: 'voice-b-en-f-01' } }, { told }),
      );
      expect(error).toMatchObject({ status, charge: 'not-charged' });
      expect(requestsTo(api.sandbox, 'tts')).toHaveLength(1);
      expect(told).toEqual(['not ok: not-charged']);
    },
  );

  it('a connection closed before any response: one request too (the client cannot tell it from a charge then a reset)', async () => {
    api.sandbox.injectFault({ kind: 'close-before-response', endpoint: 'tts' });
    expect(
      await rejectionOf(paying(api.client, { endpoint: 'tts', body: { text: TEXT, voice_id: 'voice-b-en-f-01' } })),
    ).toBeInstanceOf(ConnectionError);
    expect(requestsTo(api.sandbox, 'tts')).toHaveLength(1);
  });
});

describe('still retried: nothing can have been charged', () => {
  it('a connection refused (nothing was sent): every attempt made', async () => {
    const retrying: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => void retrying.push(line) });
    const nowhere = clientFor(api.sandbox, {
      baseUrl: `http://127.0.0.1:${await closedPort()}`,
      logger,
      maxRetries: 2,
      retryBaseDelayMs: 1,
    });
    try {
      expect(
        await rejectionOf(paying(nowhere, { endpoint: 'tts', body: { text: TEXT, voice_id: 'voice-b-en-f-01' } })),
      ).toMatchObject({
        code: 'ECONNREFUSED',
      });
      expect(retrying.filter((l) => l.includes('Voice API call retrying'))).toHaveLength(2);
    } finally {
      await nowhere.close();
    }
  });
});

describe('the acceptance returned: a charge written down before the body is read', () => {
  it('is returned once, at the 2xx only, with its request ID and usage, before the body is read', async () => {
    api.sandbox.injectFault({ kind: 'pause-after', bytes: 0, endpoint: 'tts' });
    const seen: Array<{ status: number; requestId?: string | undefined; used?: number | undefined }> = [];
    const sent = await api.client.send({ endpoint: 'tts', body: { text: TEXT, voice_id: 'voice-b-en-f-01' } });
    if (sent.kind !== 'ok') throw sent.error;
    const { answer } = sent;
    seen.push({ status: answer.status, requestId: answer.requestId, used: answer.usage?.used });
    // The service has sent its 2xx and nothing of the body; the call waits for its caller to read it.
    await until(() => seen.length === 1 && requestsTo(api.sandbox, 'tts')[0]?.outcome === 'paused');
    const records = requestsTo(api.sandbox, 'tts');
    expect(seen).toEqual([{ status: 200, requestId: records[0]?.id, used: api.sandbox.charactersBilled() }]);
    api.sandbox.resumePaused();
    const audio = await sent.read();
    expect((await readAll(audio.body)).length).toBeGreaterThan(0);
    expect(seen).toHaveLength(1);
    expect(requestsTo(api.sandbox, 'tts')).toHaveLength(1);
  });

  it('a caller whose books fail once its 2xx came ends it with its own error, never sent again (charged once)', async () => {
    const failure = new Error('the books could not be written');
    const error = await rejectionOf(
      (async () => {
        const sent = await api.client.send({ endpoint: 'tts', body: { text: TEXT, voice_id: 'voice-b-en-f-01' } });
        if (sent.kind !== 'ok') throw sent.error;
        (await sent.read()).body.destroy();
        throw failure;
      })(),
    );
    expect(error).toBe(failure);
    expect(requestsTo(api.sandbox, 'tts')).toHaveLength(1);
    expect(api.sandbox.charactersBilled()).toBe(TEXT.length);
  });
});

describe('what one call came to, for its books: written ahead by its caller, then ok or not ok', () => {
  /** What the call came to, in order, after the caller's own write-ahead with the sandbox's count of requests then. */
  function recorder() {
    const events: string[] = [];
    return { events };
  }
  const say = (
    { events }: ReturnType<typeof recorder>,
    client = api.client,
    options: { signal?: AbortSignal } = {},
  ) => {
    events.push(`sending (requests: ${requestsTo(api.sandbox, 'tts').length})`);
    return paying(
      client,
      { endpoint: 'tts', body: { text: TEXT, voice_id: 'voice-b-en-f-01' } },
      { ...options, told: events },
    );
  };

  it('sending runs before the first byte leaves, once for every attempt; a 2xx after a connection refused is ok once', async () => {
    const address = await refusedUntilRetry(api.sandbox);
    const client = clientFor(api.sandbox, { baseUrl: address.url });
    try {
      const rec = recorder();
      const { events } = rec;
      await readAll((await say(rec, client)).body);
      expect(requestsTo(api.sandbox, 'tts')).toHaveLength(1);
      expect(events).toEqual(['sending (requests: 0)', 'ok']);
    } finally {
      await client.close();
      await address.close();
    }
  });

  it('a client closed before the call: nothing sent, not charged (its write-ahead is taken back)', async () => {
    const closed = clientFor(api.sandbox);
    await closed.close();
    const rec = recorder();
    expect(await rejectionOf(say(rec, closed))).toBeInstanceOf(ConnectionError);
    expect(requestsTo(api.sandbox, 'tts')).toEqual([]);
    expect(rec.events).toEqual(['sending (requests: 0)', 'not ok: not-charged']);
  });

  it.each([
    // The service's own refusals (its JSON error and its headers): a gateway's would be maybe-charged.
    ['a 400', { kind: 'service-error', status: 400, endpoint: 'tts' }],
    [
      'a 429 (the month used up)',
      { kind: 'service-error', status: 429, message: 'monthly quota exceeded', endpoint: 'tts' },
    ],
    ['503 on every attempt', { kind: 'service-error', status: 503, endpoint: 'tts', times: Infinity }],
  ] as const)('%s: not charged', async (_what, fault) => {
    api.sandbox.injectFault(fault);
    const rec = recorder();
    const { events } = rec;
    await rejectionOf(say(rec));
    expect(api.sandbox.charactersBilled()).toBe(0);
    expect(events).toEqual(['sending (requests: 0)', 'not ok: not-charged']);
  });

  it('a connection that never opened: not charged', async () => {
    const nowhere = clientFor(api.sandbox, { baseUrl: `http://127.0.0.1:${await closedPort()}` });
    try {
      const rec = recorder();
      const { events } = rec;
      await rejectionOf(say(rec, nowhere));
      expect(events).toEqual(['sending (requests: 0)', 'not ok: not-charged']);
    } finally {
      await nowhere.close();
    }
  });

  it('sent and no answer (closed before any response, charged then reset, or timed out waiting): unknown, it may have been charged', async () => {
    api.sandbox.injectFault({ kind: 'close-before-response', endpoint: 'tts' });
    const closed = recorder();
    await rejectionOf(say(closed));
    expect(closed.events).toEqual(['sending (requests: 0)', 'not ok: maybe-charged']);

    api.sandbox.injectFault({ kind: 'reset-after-charge', endpoint: 'tts' });
    const reset = recorder();
    await rejectionOf(say(reset));
    expect(reset.events).toEqual(['sending (requests: 1)', 'not ok: maybe-charged']);

    api.sandbox.clearFaults();
    api.sandbox.injectFault({ kind: 'slow-headers', headersDelayMs: 5_000, endpoint: 'tts' });
    const impatient = clientFor(api.sandbox, { timeouts: { headersMs: 200 } });
    try {
      const timedOut = recorder();
      await rejectionOf(say(timedOut, impatient));
      expect(timedOut.events.at(-1)).toBe('not ok: maybe-charged');
    } finally {
      await impatient.close();
    }
  });

  it('a connection refused, then cut by the caller before the retry: not charged (nothing was sent)', async () => {
    const rec = recorder();
    const { events } = rec;
    // Cut once the first attempt failed (logged): the paid call then waits to send again, and the cut falls in that wait.
    const retrying: unknown[] = [];
    const logger = pino({ level: 'debug' }, { write: (line: string) => void retrying.push(line) });
    const baseUrl = `http://127.0.0.1:${await closedPort()}`;
    // Enough retries that the call is still waiting or trying when it is cut, however short a jittered wait.
    const client = clientFor(api.sandbox, {
      baseUrl,
      logger,
      maxRetries: 100,
      retryBaseDelayMs: 60_000,
      retryMaxDelayMs: 60_000,
    });
    const cut = new AbortController();
    const call = say(rec, client, { signal: cut.signal });
    await until(() => retrying.length > 0);
    cut.abort();
    await rejectionOf(call);
    expect(requestsTo(api.sandbox, 'tts')).toHaveLength(0);
    expect(events).toEqual(['sending (requests: 0)', 'not ok: not-charged']);
    await client.close();
  });

  it('an answer whose status came but whose error body broke off (a gateway may have let it through): maybe charged, sent once', async () => {
    // A 502's head, then the connection reset before its body: nothing proves the answer the service's.
    const requests: string[] = [];
    const gateway = createServer((socket) => {
      socket.once('data', (chunk: Buffer) => {
        requests.push(chunk.toString('latin1').split(' ')[1] ?? '');
        socket.write('HTTP/1.1 502 Bad Gateway\r\ncontent-type: application/json\r\ncontent-length: 200\r\n\r\n{"err');
        socket.resetAndDestroy();
      });
    });
    await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
    const { port } = gateway.address() as AddressInfo;
    const client = clientFor(api.sandbox, { baseUrl: `http://127.0.0.1:${port}` });
    try {
      const rec = recorder();
      const error = await rejectionOf(say(rec, client));
      expect(error).toMatchObject({ charge: 'maybe-charged' });
      expect(rec.events).toEqual(['sending (requests: 0)', 'not ok: maybe-charged']);
      expect(requests).toEqual(['/v1/tts']);
    } finally {
      await client.close();
      await new Promise<void>((resolve) => gateway.close(() => resolve()));
    }
  });

  it('after the 2xx nothing more is told: a body that breaks is the caller’s undelivered spend, not not ok', async () => {
    api.sandbox.injectFault({ kind: 'reset-after', bytes: 100, endpoint: 'tts' });
    const rec = recorder();
    const { events } = rec;
    expect(await rejectionOf(say(rec))).toBeInstanceOf(UndeliveredError);
    expect(events).toEqual(['sending (requests: 0)', 'ok']);
  });
});
