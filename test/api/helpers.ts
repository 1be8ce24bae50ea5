import { createServer } from 'node:net';
import type { Readable } from 'node:stream';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { VoiceApiClient, type VoiceApiClientOptions } from '../../src/api/index.ts';
import { startSandbox, type Endpoint, type RequestRecord, type Sandbox } from '../../src/sandbox/index.ts';

export { fixture } from '../audio/fixtures.ts';

/** A client for the sandbox with tiny retry delays; tests override what they exercise. */
export function clientFor(sandbox: Sandbox, overrides: Partial<VoiceApiClientOptions> = {}): VoiceApiClient {
  return new VoiceApiClient({
    baseUrl: sandbox.url,
    apiKey: sandbox.testKey,
    retryBaseDelayMs: 1,
    retryMaxDelayMs: 5,
    ...overrides,
  });
}

/**
 * One sandbox and one client for a test file, handed to `ready`; after each test the faults, pacing and
 * counters go back to how they started.
 */
export function useSandbox(ready: (sandbox: Sandbox, client: VoiceApiClient) => void, overrides: Partial<VoiceApiClientOptions> = {}): void {
  let sandbox: Sandbox | undefined;
  let client: VoiceApiClient | undefined;
  beforeAll(async () => {
    sandbox = await startSandbox();
    client = clientFor(sandbox, overrides);
    ready(sandbox, client);
  });
  afterEach(() => {
    if (sandbox === undefined) return;
    sandbox.clearFaults();
    sandbox.setPacing({ startDelayMs: 0, realtimeFactor: 0, chunkBytes: 4096, streamedWavHeader: false });
    sandbox.resetCounters();
  });
  afterAll(async () => {
    await client?.close();
    await sandbox?.close();
  });
}

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
