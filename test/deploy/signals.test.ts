// SayBot started the way its Docker image starts it (`npm start`), signalled the way Docker signals a container:
// only the top process (PID 1 in the container) gets SIGTERM (`docker stop`, `docker compose down`) or SIGINT
// (Ctrl-C on a foreground `docker run`). Whatever stands between that process and the bot must not swallow the
// signal or kill the bot without its shutdown.
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { t } from '../../src/core/i18n/catalogue.ts';
import { startBotProcess, type BotProcess, type LogLine } from '@saybot/local-discord';
import { APP_ID, defaultGuilds, startLocalServices, type LocalServices } from '../support/harness.ts';
import { imageCommand } from './image-files.ts';
import { ALICE } from '../support/world.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const london = defaultGuilds()[1]!;
/** Long enough that the clip is still playing when the signal comes (the sandbox speaks ~0.06 s a character). */
const LONG_TEXT = 'This sentence keeps the voice channel busy while the container is being stopped. '.repeat(3);
/** How long a bot that ignores the signal is given before the test says so (a failure bound, not a speed goal). */
const NO_EXIT_BOUND_MS = 20_000;

describe('SayBot as the Docker image starts it, signalled only at the top process', () => {
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

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`on ${signal} to the image's command alone: shuts down (voice left, the member told, store closed) with no warning and exits 0`, async () => {
      const { discord, sandbox, token } = services;
      dataDir = mkdtempSync(path.join(tmpdir(), 'saybot-signals-'));
      const database = path.join(dataDir, 'saybot.sqlite');
      bot = startBotProcess({
        entry: path.join(ROOT, 'src/bin/start.ts'),
        command: { argv: imageCommand(), cwd: ROOT },
        caCertificatePem: discord.caCertificatePem,
        env: {
          HOME: dataDir,
          npm_config_cache: path.join(dataDir, 'npm'),
          npm_config_update_notifier: 'false',
          DOTENV_CONFIG_PATH: path.join(dataDir, 'no.env'),
          DATABASE_URL: `sqlite:${database}`,
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
      const say = await discord.command({
        guildId: london.id,
        userId: ALICE,
        name: 'say',
        options: [{ name: 'text', value: LONG_TEXT }],
      });
      await say.waitFor((r) => (r.content ?? '').startsWith('Speaking in'), 15_000);

      const exited = once(bot.child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
      const closed = once(bot.child, 'close');
      bot.child.kill(signal);
      const ignored = new Promise<never>((_, reject) => {
        setTimeout(
          () =>
            reject(new Error(`still running ${NO_EXIT_BOUND_MS} ms after ${signal}:\n${bot?.output().slice(-2000)}`)),
          NO_EXIT_BOUND_MS,
        ).unref();
      });
      const [code, bySignal] = await Promise.race([exited, ignored]);

      expect({ code, bySignal }, bot.output().slice(-2000)).toEqual({ code: 0, bySignal: null });
      // Every line read: a bot left running behind an exited npm would hold the pipe open, so this is after the code.
      await closed;
      const messages = bot.lines.map((l: LogLine) => l['msg']);
      expect(bot.lines).toContainEqual(expect.objectContaining({ msg: 'signal received', signal }));
      expect(messages).toEqual(expect.arrayContaining(['shutting down', 'left voice channel', 'stopped']));
      // A stop asked for is no incident: monitoring that alerts on warnings must stay quiet (pino: warn is 40).
      const fromSignal = bot.lines.findIndex((l: LogLine) => l['msg'] === 'signal received');
      const warnings = bot.lines.slice(fromSignal).filter((l: LogLine) => Number(l['level']) >= 40);
      expect(warnings.map((l: LogLine) => l['msg'])).toEqual([]);
      const told = await say.waitFor(
        (r) => r.content !== undefined && !(r.content ?? '').startsWith('Speaking in'),
        5_000,
      );
      const [before, after] = t('en-US', 'say.stopped', { voice: '\u0000' }).split('\u0000') as [string, string];
      // Its first line (a note of what it spent may follow).
      const first = told.content?.split('\n')[0] ?? '';
      expect(first.startsWith(before) && first.endsWith(after), told.content).toBe(true);
      expect(discord.botVoiceChannel(london.id)).toBeNull();
      // Closed cleanly: SQLite checkpoints the WAL into the file and removes it when the last connection closes.
      const wal = `${database}-wal`;
      expect(existsSync(wal) ? statSync(wal).size : 0).toBe(0);
    }, 60_000);
  }
});
