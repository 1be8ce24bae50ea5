// The real bot, in this (the driver's) process, pointed at the servers process's fake Discord and sandbox.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import tls from 'node:tls';
import type { SayBot } from '../src/app/saybot.ts';
import { loadConfig } from '../src/core/config.ts';
import { startSayBot, VOICE_PLANE, type RunningSayBot } from '../src/app/start-saybot.ts';
import { senderFor, type BenchVoicePlane } from './senders/senders.ts';
import type { ServersInfo } from './protocol.ts';
import { bufferingClient } from '../fixtures/buffering-client.ts';

export interface BenchBot {
  bot: SayBot;
  /** The encoder and sender it was started with. */
  voicePlane: BenchVoicePlane;
  /** Warnings and errors the bot logged (a benchmark whose bot complained is suspect). */
  complaints(): string[];
  /** What the bot has logged so far, in bytes (the JSON lines as written). */
  loggedBytes(): number;
  stop(): Promise<void>;
}

let trusted = false;

export interface BenchBotOptions {
  /** Each Voice API response read whole before decoding (the streaming figure's baseline). */
  bufferResponses?: boolean;
  /** Default production's (VOICE_PLANE); the baselines' bots are started with the ones from before issue 25. */
  voicePlane?: BenchVoicePlane;
  /**
   * Settings over the bench's own (its limits lifted); `undefined` takes SayBot's default, as `npm start` would with
   * the variable unset (figure 20 keeps the queue bounds and the free-request ration a flood meets).
   */
  env?: Record<string, string | undefined>;
}

export async function startBot(info: ServersInfo, options: BenchBotOptions = {}): Promise<BenchBot> {
  if (!trusted) {
    // @discordjs/voice always uses wss://: trust the fake voice gateway's fixture certificate, as the tests do.
    tls.setDefaultCACertificates([...tls.getCACertificates('default'), info.caCertificatePem]);
    trusted = true;
  }
  // A database and cache of its own, thrown away at stop: each bot starts with no presets, defaults or cached audio.
  const dataDir = mkdtempSync(path.join(tmpdir(), 'saybot-bench-'));
  const env: Record<string, string | undefined> = {
    DATABASE_URL: `sqlite:${path.join(dataDir, 'saybot.sqlite')}`,
    // The audio cache on (its default size), in the same throwaway directory.
    CACHE_DIR: path.join(dataDir, 'cache'),
    DISCORD_TOKEN: info.token,
    DISCORD_CLIENT_ID: info.applicationId,
    DISCORD_API_BASE_URL: info.restUrl,
    VOICE_API_BASE_URL: info.sandboxUrl,
    VOICE_API_KEY: info.apiKey,
    // Warnings only: debug logging of every clip would be part of what we measure, and it is not what runs.
    LOG_LEVEL: 'warn',
    // What is measured is the speech path, not the limits: no budgets, no queue bounds (SayBot's defaults have both).
    BUDGET_GUILD_MONTHLY_CHARS: '0',
    BUDGET_MEMBER_DAILY_CHARS: '0',
    BUDGET_MEMBER_COOLDOWN_SECONDS: '0',
    // Nor the free-request ration: one member a guild asks for cache hits far faster than ten a minute.
    BUDGET_MEMBER_FREE_PER_MINUTE: '0',
    QUEUE_MAX_SECONDS: '0',
    QUEUE_MAX_CLIPS: '0',
    QUEUE_MAX_PER_MEMBER: '0',
    ...options.env,
  };
  const config = {
    ...loadConfig(env),
    // Stay in the channels between runs; the idle leave is not what is measured.
    voiceIdleTimeoutMs: 3_600_000,
  };
  const lines: string[] = [];
  let loggedBytes = 0;
  const destination = new PassThrough();
  destination.on('data', (chunk: Buffer) => {
    loggedBytes += chunk.length;
    lines.push(chunk.toString());
  });
  // The same start-up as `npm start` (src/app/start-saybot.ts): what is measured is what runs.
  const voicePlane: BenchVoicePlane = options.voicePlane ?? { ...VOICE_PLANE, sender: 'worker' };
  let running: RunningSayBot;
  try {
    running = await startSayBot(config, {
      logDestination: destination,
      readyTimeoutMs: 60_000,
      voicePlane: { ...voicePlane, sender: senderFor(voicePlane.sender) },
      ...(options.bufferResponses === true ? { wrapVoiceApiClient: bufferingClient } : {}),
    });
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  const bot = running.bot;
  return {
    bot,
    voicePlane,
    complaints: () => lines.flatMap((l) => l.split('\n')).filter((l) => l.trim() !== ''),
    loggedBytes: () => loggedBytes,
    async stop() {
      // Stops the bot (which closes the store) and the Voice API client.
      await running.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
