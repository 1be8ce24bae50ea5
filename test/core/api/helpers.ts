import { connect, createServer, type Socket } from 'node:net';
import type { Readable } from 'node:stream';
import { expect, vi } from 'vitest';
import type { Endpoint, RequestRecord, Sandbox } from '@saybot/voice-sandbox';
import type { ChargeAnswer, VoiceApiError } from '../../../src/core/api/errors.ts';
import {
  VoiceApiClient,
  type CallOptions,
  type PaidAnswer,
  type PaidRequest,
  type Sent,
} from '../../../src/core/api/client.ts';
import { answered, type ResponseHeaders } from '../../../src/core/api/response.ts';
import { chargeOf, paidCall } from '../../../src/core/quota/paid-call.ts';
import { openSqliteStore } from '../../../src/app/store.ts';
import { booksOn, waiting } from '../quota/helpers.ts';

export { fixture } from '../audio/fixtures.ts';

export { clientFor, useSandbox } from '../../support/speech-rig.ts';

export async function readAll(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** A call's answer read, or its error thrown marked with what it cost, as the paid call marks it (chargeOf). */
export async function judged<T>(call: Promise<Sent<T>>): Promise<T> {
  const sent = await call;
  const charge = chargeOf(sent);
  if (sent.kind === 'ok') return sent.read((error) => error.chargedAs(charge));
  throw sent.error;
}

/**
 * A paid request through the paid call (src/core/quota/paid-call.ts `paidCall`: sent, sent again only by its resend
 * rule, what it cost), for no order, on books over an in-memory store: its answer, or its error marked with what it
 * cost. Into `told`, what each send came to as its books hear it: `ok` at the 2xx, and the last one's `not ok: <charge>`;
 * into `seen`, what each send returned.
 */
export async function paying<R extends PaidRequest>(
  client: VoiceApiClient,
  request: R,
  options: CallOptions & { told?: string[]; seen?: Array<Sent<unknown>> } = {},
): Promise<PaidAnswer<R>> {
  const store = openSqliteStore(':memory:');
  const books = booksOn(store, { budgets: { guildMonthlyChars: 0, memberDailyChars: 0, memberCooldownSeconds: 0 } });
  let last: Sent<unknown> | undefined;
  const send = async <Q extends PaidRequest>(request: Q, callOptions?: CallOptions) => {
    const sent = await client.send(request, callOptions);
    options.seen?.push(sent);
    if ((last = sent).kind === 'ok') options.told?.push('ok');
    return sent;
  };
  const { text } = request.body;
  const waits = options.letGo === undefined ? waiting : { ...waiting, letGo: options.letGo };
  try {
    const paid = await paidCall(
      { books, client: { send, retry: client.retry }, signal: options.signal },
      request,
      { key: text, text },
      undefined,
      waits,
    );
    return paid.answer;
  } catch (error) {
    if (last?.kind === 'not-ok') options.told?.push(`not ok: ${(error as VoiceApiError).charge}`);
    throw error;
  } finally {
    await store.close();
  }
}

/** What an answer with `status` cost by the paid call's rule (chargeOf), from the facts the client sees of it. */
export function answerCharge(
  status: number,
  headers: ResponseHeaders,
  body?: Uint8Array,
  since?: { used: number | undefined; characters: number },
): ChargeAnswer {
  const accepted = status >= 200 && status < 300;
  return chargeOf(
    accepted
      ? { kind: 'ok', answer: { status }, read: async () => undefined }
      : { kind: 'not-ok', error: undefined, reached: true, answer: answered(status, headers, body, since) },
  );
}

/** The rejection of `promise`; fails the test if it resolves. */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  expect.fail('expected the call to fail');
}

/** The error a stream ends with; fails the test if it ends cleanly. */
export async function streamError(body: Readable): Promise<unknown> {
  return rejectionOf(readAll(body));
}

export function requestsTo(sandbox: Sandbox, endpoint?: Endpoint): RequestRecord[] {
  return sandbox.requests.filter((r) => endpoint === undefined || r.endpoint === endpoint);
}

/** Polls until `condition` holds (the sandbox records asynchronously); throws after `ms`. */
export async function until(condition: () => boolean, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** A 127.0.0.1 port nobody listens on: bound, then released. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

export const WAV_MAGIC = 'RIFF';

/**
 * An address that refuses connections (a request that never left) until a first send has come to that, then
 * passes every connection on to `sandbox`: a call whose first attempt never opened a connection and whose next does.
 * `close` stops it and gives the client's sends back.
 */
export async function refusedUntilRetry(sandbox: Sandbox): Promise<{ url: string; close(): Promise<void> }> {
  const port = await closedPort();
  const target = new URL(sandbox.url);
  const sockets = new Set<Socket>();
  const relay = createServer((inbound) => {
    const outbound = connect(Number(target.port), target.hostname);
    for (const socket of [inbound, outbound]) {
      sockets.add(socket);
      socket.on('error', () => {
        inbound.destroy();
        outbound.destroy();
      });
    }
    inbound.pipe(outbound).pipe(inbound);
  });
  const realSend = VoiceApiClient.prototype.send;
  const sent = vi.spyOn(VoiceApiClient.prototype, 'send').mockImplementation(async function (
    this: VoiceApiClient,
    ...args
  ) {
    const first = await realSend.apply(this, args);
    if (!relay.listening) await new Promise<void>((resolve) => relay.listen(port, '127.0.0.1', resolve));
    return first;
  });
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      sent.mockRestore();
      for (const socket of sockets) socket.destroy();
      if (relay.listening) await new Promise<void>((resolve) => relay.close(() => resolve()));
    },
  };
}
