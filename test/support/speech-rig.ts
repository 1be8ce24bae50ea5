// The speech rig: the sandbox Voice API over real HTTP, the real client, and PartSource with real accounting on
// an in-memory SQLite store (and, when asked, a real audio cache on disk), as the speech and API tests use them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { VoiceApiClient, type VoiceApiClientOptions } from '../../src/core/api/client.ts';
import { AudioCache } from '../../src/core/cache/audio-cache.ts';
import { silentLogger } from '../../src/core/log.ts';
import { Accounting } from '../../src/core/quota/accounting.ts';
import { MONEY_RULES } from '../../src/core/quota/money.ts';
import { startSandbox, type Pacing, type Sandbox } from '@saybot/voice-sandbox';
import { PartSource } from '../../src/core/sourcing/part-source.ts';
import type { Store } from '../../src/core/store/types.ts';
import { made } from './made.ts';
import { openSqliteStore } from '../../src/app/store.ts';

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

export interface SandboxRig {
  readonly sandbox: Sandbox;
  readonly client: VoiceApiClient;
}

/** The pacing a sandbox starts with (its WAV header form aside). */
export const START_PACING: Partial<Pacing> = { startDelayMs: 0, realtimeFactor: 0, chunkBytes: 4096 };
/** The Voice API client's tests run on the exact WAV header after their first test; their streamed-header test sets its own. */
const CLIENT_TESTS_PACING: Partial<Pacing> = { ...START_PACING, streamedWavHeader: false };

/**
 * One sandbox and one client for a test file; after each test the faults and counters go back to how they
 * started and the pacing to `pacingAfterEach`.
 */
export function useSandbox(
  overrides: Partial<VoiceApiClientOptions> = {},
  pacingAfterEach: Partial<Pacing> = CLIENT_TESTS_PACING,
): SandboxRig {
  let sandbox: Sandbox | undefined;
  let client: VoiceApiClient | undefined;
  beforeAll(async () => {
    sandbox = await startSandbox();
    client = clientFor(sandbox, overrides);
  });
  afterEach(() => {
    if (sandbox === undefined) return;
    sandbox.clearFaults();
    sandbox.setPacing(pacingAfterEach);
    sandbox.resetCounters();
  });
  afterAll(async () => {
    await client?.close();
    await sandbox?.close();
  });
  return made<SandboxRig>({ sandbox: () => sandbox, client: () => client });
}

export interface SpeechRig extends SandboxRig {
  readonly store: Store;
  readonly accounting: Accounting;
  readonly source: PartSource;
}

export interface SpeechRigOptions {
  /** Give PartSource a real audio cache in a temporary directory with this prefix (removed after each test). */
  cacheDirPrefix?: string;
}

/**
 * useSandbox (pacing back to the start after each test), and for each test a fresh in-memory store, accounting with no
 * budgets on the 300,000-character
 * plan, and a PartSource over them; the key's usage is set back to 0 after each test.
 */
export function useSpeechRig(options: SpeechRigOptions = {}): SpeechRig {
  const api = useSandbox({}, START_PACING);
  let store: Store | undefined;
  let accounting: Accounting | undefined;
  let source: PartSource | undefined;
  let cacheDir: string | undefined;
  beforeEach(async () => {
    store = openSqliteStore(':memory:');
    accounting = new Accounting({
      store,
      rules: MONEY_RULES,
      budgets: { guildMonthlyChars: 0, memberDailyChars: 0, memberCooldownSeconds: 0 },
      planCharacterLimit: 300_000,
      logger: silentLogger,
    });
    if (options.cacheDirPrefix === undefined) {
      source = new PartSource({ client: api.client, logger: silentLogger, accounting });
    } else {
      cacheDir = mkdtempSync(path.join(tmpdir(), options.cacheDirPrefix));
      const cache = await AudioCache.open({ dir: cacheDir, maxBytes: 64 * 1024 * 1024, logger: silentLogger });
      source = new PartSource({ client: api.client, logger: silentLogger, accounting, cache });
    }
  });
  afterEach(async () => {
    await source?.close();
    await store?.close();
    if (cacheDir !== undefined) rmSync(cacheDir, { recursive: true, force: true });
    api.sandbox.setKeyUsed(api.sandbox.testKey, 0);
  });
  return made<SpeechRig>({
    sandbox: () => api.sandbox,
    client: () => api.client,
    store: () => store,
    accounting: () => accounting,
    source: () => source,
  });
}
