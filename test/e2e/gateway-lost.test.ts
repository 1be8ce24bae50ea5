// A gateway close that discord.js does not come back from (4013 here: what Discord answers a request for every member
// without the Server Members intent) never leaves SayBot up and deaf: one error line says what happened and the
// process exits non-zero, so that its supervisor (Docker's `restart: unless-stopped`, systemd, the shard manager)
// starts it again. SayBot runs as its own process (`npm start`'s entry), as its supervisor runs it.
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startBotProcess, type BotProcess } from '@saybot/local-discord';
import { APP_ID, defaultGuilds, startLocalServices, type LocalServices } from '../support/harness.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const london = defaultGuilds()[1]!;
/** How long a process that stays up after the close is given before the test says so (a failure bound only). */
const NO_EXIT_BOUND_MS = 30_000;

describe('a gateway close discord.js does not come back from', () => {
  let services: LocalServices;
  let bot: BotProcess | undefined;
  let dataDir: string | undefined;
  beforeAll(async () => {
    services = await startLocalServices({ guilds: [london] });
  });
  afterEach(async () => {
    await bot?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });
  afterAll(async () => {
    await services?.close();
  });

  it('4013 ends the process with one clear error line and a non-zero status', async () => {
    const { discord, sandbox, token } = services;
    dataDir = mkdtempSync(path.join(tmpdir(), 'saybot-gateway-lost-'));
    bot = startBotProcess({
      entry: path.join(ROOT, 'src/bin/start.ts'),
      caCertificatePem: discord.caCertificatePem,
      env: {
        HOME: dataDir,
        DOTENV_CONFIG_PATH: path.join(dataDir, 'no.env'),
        DATABASE_URL: `sqlite:${path.join(dataDir, 'saybot.sqlite')}`,
        CACHE_DIR: path.join(dataDir, 'cache'),
        DISCORD_TOKEN: token,
        DISCORD_CLIENT_ID: APP_ID,
        DISCORD_API_BASE_URL: discord.restUrl,
        VOICE_API_BASE_URL: sandbox.url,
        VOICE_API_KEY: sandbox.testKey,
        LOG_LEVEL: 'info',
      },
    });
    await bot.waitForLine((l) => l['msg'] === 'SayBot is ready');
    const exited = once(bot.child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
    discord.dropGateway(london.id, 4013);
    const stayed = new Promise<never>((_, reject) => {
      setTimeout(
        () => reject(new Error(`still running ${NO_EXIT_BOUND_MS} ms after 4013:\n${bot?.output().slice(-2000)}`)),
        NO_EXIT_BOUND_MS,
      ).unref();
    });
    const [status, signal] = await Promise.race([exited, stayed]);
    expect(signal).toBeNull();
    expect(status).toBe(1);
    const lost = bot.lines.filter((l) => l['code'] === 'gateway-lost');
    expect(lost).toHaveLength(1);
    expect(lost[0]).toMatchObject({ level: 50, closeCode: 4013 });
    expect(String(lost[0]?.['msg'])).toMatch(/closed the gateway with 4013 .*exiting so that the supervisor starts/);
    // Compose brings it back.
    expect(readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8')).toMatch(
      /saybot:[\s\S]*restart: (unless-stopped|always|on-failure)/,
    );
  });
});
