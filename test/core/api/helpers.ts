import { createServer } from 'node:net';
import type { Readable } from 'node:stream';
import { expect } from 'vitest';
import type { Endpoint, RequestRecord, Sandbox } from '@saybot/voice-sandbox';

export { fixture } from '../audio/fixtures.ts';

export { clientFor, useSandbox } from '../../support/speech-rig.ts';

export async function readAll(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
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
