// Timeouts (headers, idle body, total) and the caller's AbortSignal, before the headers and in mid-body; a call let go
// of (CallOptions `letGo`) before and after its answer began, through the paid call (paidCall, which sends again); and
// that a finished call leaves no listener on the caller's signal and no timer behind.
import { getEventListeners } from 'node:events';
import { describe, expect, it, onTestFinished } from 'vitest';
import { AbortedError, TimeoutError } from '../../../src/core/api/errors.ts';
import type { VoiceApiClient } from '../../../src/core/api/client.ts';
import { pino } from 'pino';
import {
  clientFor,
  closedPort,
  paying,
  readAll,
  rejectionOf,
  requestsTo,
  streamError,
  until,
  useSandbox,
} from './helpers.ts';

const LONG_TEXT = 'A sentence long enough to last a few seconds when it is spoken.';
const speak = (c: VoiceApiClient, signal?: AbortSignal, text = 'Tick tock.') =>
  paying(c, { endpoint: 'tts', body: { text, voice_id: 'voice-b-en-f-01' } }, { signal });

const api = useSandbox({ timeouts: { headersMs: 300, bodyIdleMs: 300, totalMs: 10_000 } });

const abortListeners = (signal: AbortSignal): number => getEventListeners(signal, 'abort').length;
const timers = (): number => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

describe('timeouts', () => {
  it('slow headers: TimeoutError (headers), not retried', async () => {
    api.sandbox.injectFault({ kind: 'slow-headers', headersDelayMs: 5_000, times: 3 });
    const error = await rejectionOf(speak(api.client));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ phase: 'headers', timeoutMs: 300, status: undefined });
    expect((error as Error).message).toContain('300 ms');
    expect(requestsTo(api.sandbox)).toHaveLength(1);
  });

  it('a body that stalls after the first bytes: TimeoutError (body-idle) on the stream', async () => {
    api.sandbox.injectFault({ kind: 'stall-after', bytes: 10_000 });
    const response = await speak(api.client, undefined, LONG_TEXT);
    const error = await streamError(response.body);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ phase: 'body-idle', timeoutMs: 300, charge: 'charged' });
    expect(requestsTo(api.sandbox)).toHaveLength(1);
  });

  it('a body that stalls before its format is known: UndeliveredError (charged at the 2xx) caused by TimeoutError (body-idle)', async () => {
    api.sandbox.injectFault({ kind: 'stall-after', bytes: 10 });
    const error = await rejectionOf(speak(api.client));
    expect(error).toMatchObject({ name: 'UndeliveredError', charged: true, status: 200 });
    expect((error as Error).cause).toMatchObject({ name: 'TimeoutError', phase: 'body-idle' });
    expect(requestsTo(api.sandbox)).toHaveLength(1);
  });

  it('the total timeout covers the wait for headers', async () => {
    const hurried = clientFor(api.sandbox, { timeouts: { totalMs: 250, headersMs: 10_000 } });
    api.sandbox.setPacing({ startDelayMs: 3_000 });
    const error = await rejectionOf(speak(hurried));
    await hurried.close();
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ phase: 'total', timeoutMs: 250 });
  });

  it('a resend ends by its first send’s total timeout (CallOptions `resend`, paid-call.ts), never a new one', async () => {
    const patient = clientFor(api.sandbox, { timeouts: { headersMs: 10_000, totalMs: 60_000 } });
    api.sandbox.injectFault({ kind: 'slow-headers', headersDelayMs: 5_000 });
    const resend = { retry: 1, delayMs: 0, deadline: Date.now() + 300 };
    const body = { text: 'Tick tock.', voice_id: 'voice-b-en-f-01' };
    const sent = await patient.send({ endpoint: 'tts', body }, { resend });
    await patient.close();
    expect(sent).toMatchObject({ kind: 'not-ok', deadline: resend.deadline });
    expect(sent.kind === 'not-ok' && sent.error).toMatchObject({ name: 'TimeoutError', phase: 'total' });
  });

  it('the total timeout covers the body too', async () => {
    // A total long enough for the call's answer to come on a busy host (at 400 ms it came too late beside a whole
    // suite at a load of 17), and well within the body.
    const hurried = clientFor(api.sandbox, { timeouts: { totalMs: 1_500, bodyIdleMs: 10_000 } });
    // About 4 s of audio sent in real time: the body keeps arriving, but not within 1.5 s.
    api.sandbox.setPacing({ realtimeFactor: 1, chunkBytes: 1024 });
    const response = await speak(hurried, undefined, LONG_TEXT);
    const error = await streamError(response.body);
    await hurried.close();
    // After the service's 200: charged, whichever timer cut it (response.ts, the retry rule), as the idle timer's error says too.
    expect(error).toMatchObject({ name: 'TimeoutError', phase: 'total', charge: 'charged' });
    await until(() => requestsTo(api.sandbox)[0]?.outcome === 'client-aborted');
  });

  it('time the caller spends not reading does not count against the total timeout', async () => {
    // A total long enough for the call itself on a busy host (two cores shared by the whole suite), and a pause past it.
    const hurried = clientFor(api.sandbox, { timeouts: { totalMs: 1_500 } });
    // ~180 kB: more than the stream buffers hold, so the socket is paused while nobody reads.
    const response = await speak(hurried, undefined, LONG_TEXT);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const bytes = await readAll(response.body);
    await hurried.close();
    expect(bytes.length).toBe(requestsTo(api.sandbox)[0]?.bodyBytes);
    expect(bytes.length).toBeGreaterThan(150_000);
  });
});

describe('abort', () => {
  it('an already aborted signal: AbortedError without a request', async () => {
    const error = await rejectionOf(speak(api.client, AbortSignal.abort('not needed')));
    expect(error).toBeInstanceOf(AbortedError);
    expect((error as Error).cause).toBe('not needed');
    expect(requestsTo(api.sandbox)).toHaveLength(0);
  });

  it('before the headers: AbortedError, and the sandbox sees the client go', async () => {
    const patient = clientFor(api.sandbox, { timeouts: { headersMs: 10_000 } });
    api.sandbox.injectFault({ kind: 'slow-headers', headersDelayMs: 5_000 });
    const controller = new AbortController();
    const outcome = rejectionOf(speak(patient, controller.signal));
    await until(() => requestsTo(api.sandbox).length === 1);
    controller.abort();
    const error = await outcome;
    expect(error).toBeInstanceOf(AbortedError);
    expect(abortListeners(controller.signal)).toBe(0);
    await until(() => requestsTo(api.sandbox)[0]?.outcome === 'client-aborted');
    expect(requestsTo(api.sandbox)).toHaveLength(1);
    await patient.close();
  });

  it('in mid-body: the stream ends with AbortedError', async () => {
    api.sandbox.setPacing({ realtimeFactor: 0.5, chunkBytes: 1024 });
    const controller = new AbortController();
    const response = await speak(api.client, controller.signal, LONG_TEXT);
    const chunks: Buffer[] = [];
    const error = await rejectionOf(
      (async () => {
        for await (const chunk of response.body as AsyncIterable<Buffer>) {
          chunks.push(chunk);
          if (chunks.length === 1) controller.abort();
        }
      })(),
    );
    expect(error).toBeInstanceOf(AbortedError);
    expect(chunks.length).toBeGreaterThanOrEqual(1);
    await until(() => requestsTo(api.sandbox)[0]?.outcome === 'client-aborted');
    expect(abortListeners(controller.signal)).toBe(0);
  });

  it('while waiting to retry a connection refused: AbortedError without waiting out the backoff', async () => {
    // The default total timeout (120 s) leaves room for a 30 s wait.
    const { client: patient, waiting } = await refusedWithLongWait();
    const controller = new AbortController();
    const outcome = rejectionOf(speak(patient, controller.signal));
    await until(waiting);
    controller.abort();
    expect(await outcome).toBeInstanceOf(AbortedError);
    expect(requestsTo(api.sandbox)).toHaveLength(0);
    await patient.close();
  });

  it('after the body was read: nothing happens', async () => {
    const controller = new AbortController();
    const response = await speak(api.client, controller.signal);
    const bytes = await readAll(response.body);
    controller.abort();
    expect(bytes.length).toBe(requestsTo(api.sandbox)[0]?.bodyBytes);
    expect(response.body.errored).toBeNull();
  });
});

describe('let go of (CallOptions `letGo`): nobody waits for the answer any more', () => {
  /**
   * A call whose let-go and what it came to (`told`: `ok` at its 2xx, or `not ok: <charge>`) the test reads; `letGo()`
   * says, as it lets go, whether the call will end without its 2xx (it had none by then).
   */
  function controlled(c: VoiceApiClient, text = 'Tick tock.') {
    const letting = new AbortController();
    const told: string[] = [];
    const body = { text, voice_id: 'voice-b-en-f-01' };
    const call = paying(c, { endpoint: 'tts', body }, { letGo: letting.signal, told });
    const isOk = () => told.includes('ok');
    const letGo = () => {
      letting.abort();
      return !isOk();
    };
    return { call, letGo, told, isOk };
  }

  // The two cases below hold the answer at the service until the test lets go: a client whose deadlines outlast any
  // gap a busy host leaves before the test acts (with the file's 300 ms, which undici checks coarsely, a test 2.5 s
  // late found the held body cut idle, a TimeoutError, where the let-go was the point).
  const unhurried = () => clientFor(api.sandbox, { timeouts: { headersMs: 60_000, bodyIdleMs: 60_000 } });

  it('while the request waits at the service uncharged: closed, billed nothing, and it may have been charged', async () => {
    api.sandbox.injectFault({ kind: 'hold-before-charge' });
    const client = unhurried();
    onTestFinished(() => client.close());
    const { call, letGo, told } = controlled(client);
    const outcome = rejectionOf(call);
    await until(() => requestsTo(api.sandbox)[0]?.outcome === 'waiting');
    expect(letGo()).toBe(true);
    const error = await outcome;
    expect(error).toBeInstanceOf(AbortedError);
    // The service bills at its answer; whether it charged an instant before the close cannot be known.
    expect(error).toMatchObject({ charge: 'maybe-charged' });
    expect(told).toEqual(['not ok: maybe-charged']);
    await until(() => requestsTo(api.sandbox)[0]?.outcome === 'client-aborted');
    api.sandbox.resumePaused();
    expect(requestsTo(api.sandbox)).toHaveLength(1);
    expect(api.sandbox.charactersBilled()).toBe(0);
  });

  it('once its 2xx has arrived: not cut, read to its end and billed', async () => {
    api.sandbox.injectFault({ kind: 'pause-after', bytes: 0 });
    const client = unhurried();
    onTestFinished(() => client.close());
    const { call, letGo, told, isOk } = controlled(client);
    const answered = call.then((response) => response);
    // The client has returned the 2xx as charged: not the key state, recorded a step before.
    await until(isOk);
    expect(letGo()).toBe(false);
    api.sandbox.resumePaused();
    const bytes = await readAll((await answered).body);
    expect(bytes.length).toBe(requestsTo(api.sandbox)[0]?.bodyBytes);
    expect(requestsTo(api.sandbox)[0]?.outcome).toBe('complete');
    expect(api.sandbox.charactersBilled()).toBe('Tick tock.'.length);
    expect(told).toEqual(['ok']);
  });

  it('while waiting to retry a connection refused: no further attempt, and not charged', async () => {
    const { client: patient, waiting } = await refusedWithLongWait();
    const { call, letGo, told } = controlled(patient);
    const outcome = rejectionOf(call);
    await until(waiting);
    expect(letGo()).toBe(true);
    const error = await outcome;
    expect(error).toBeInstanceOf(AbortedError);
    expect(error).toMatchObject({ charge: 'not-charged' });
    expect(told).toEqual(['not ok: not-charged']);
    expect(requestsTo(api.sandbox)).toHaveLength(0);
    await patient.close();
  });
});

describe('clean-up', () => {
  it('leaves no abort listener and no timer after success, failure, early destroy and abort', async () => {
    await readAll((await speak(api.client)).body); // warm the pool
    const before = timers();
    const signals: AbortSignal[] = [];
    const signal = (): AbortSignal => {
      const s = new AbortController().signal;
      signals.push(s);
      return s;
    };

    await readAll((await speak(api.client, signal())).body);
    await rejectionOf(api.client.tts({ text: 'x', voice_id: 'voice-b-nope-f-01' }, { signal: signal() }));
    api.sandbox.injectFault({ kind: 'service-error', status: 500 });
    await rejectionOf(speak(api.client, signal()));
    const unread = await speak(api.client, signal(), LONG_TEXT);
    unread.body.destroy();
    await new Promise((resolve) => unread.body.once('close', resolve));
    api.sandbox.injectFault({ kind: 'stall-after', bytes: 5_000 });
    await streamError((await speak(api.client, signal(), LONG_TEXT)).body);

    expect(signals.map(abortListeners)).toEqual([0, 0, 0, 0, 0]);
    expect(timers()).toBeLessThanOrEqual(before);
  });
});

/** A client whose connections are refused, the paid call waiting 30 s before each resend; `waiting`: its first attempt
 * failed (logged), so the paid call's first wait has begun. */
async function refusedWithLongWait() {
  const logged: string[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => void logged.push(line) });
  const baseUrl = `http://127.0.0.1:${await closedPort()}`;
  // Enough retries that the call is still waiting or trying when the test lets go, however short a jittered wait.
  const client = clientFor(api.sandbox, {
    baseUrl,
    logger,
    maxRetries: 100,
    retryBaseDelayMs: 30_000,
    retryMaxDelayMs: 30_000,
  });
  return { client, waiting: () => logged.some((l) => l.includes('Voice API call failed')) };
}
