// `npm run playground`: the local Discord and the Voice API sandbox in this process, SayBot as `npm start` runs it
// (`node src/bin/start.ts`, configured only by its environment, its dashboard on) in a child process, and a page
// (web.ts) that is a Discord client's window onto them. Everything listens on 127.0.0.1 but the page, which listens
// where it is told (127.0.0.1 by default). Every list it keeps is bounded (see BOUNDS).
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { APP_ID, FakeDiscord, fakeToken, GatewayIntent, startBotProcess, type BotProcess } from '@saybot/local-discord';
import { startSandbox, type Sandbox } from '@saybot/voice-sandbox';
import { GUILD, OWNER } from './world.ts';
import { BOUNDS } from './bounds.ts';
import { freePort, saybotEnvironment } from './saybot-env.ts';
import { startPage, type Page } from './web.ts';

/** SayBot's entry point, run as a program (never imported): the repository's src/bin/start.ts. */
const SAYBOT_ENTRY = fileURLToPath(new URL('../../../src/bin/start.ts', import.meta.url));

export interface PlaygroundOptions {
  /** Where the page listens: 127.0.0.1 by default. */
  host?: string;
  /** The page's port: 0 (any free one) by default. */
  port?: number;
  /** Words (eSpeak NG, when installed) or tones; default words, which fall back to tones without eSpeak NG. */
  speech?: 'words' | 'tones';
  /** Progress lines for the person watching. */
  log?: (line: string) => void;
}

export interface Playground {
  /** The page's address. */
  url: string;
  /** SayBot's dashboard. */
  dashboardUrl: string;
  /** What the sandbox speaks: words, or tones where eSpeak NG is not installed. */
  speech: 'words' | 'tones';
  discord: FakeDiscord;
  sandbox: Sandbox;
  bot: BotProcess;
  /** Stops the page, SayBot (it leaves voice and closes its store), then the local servers. */
  stop(): Promise<void>;
}

export async function startPlayground(options: PlaygroundOptions = {}): Promise<Playground> {
  const log = options.log ?? (() => undefined);
  const stops: Array<() => Promise<void>> = [];
  const stopAll = async () => {
    for (const stop of stops.splice(0).reverse()) await stop().catch(() => undefined);
  };
  try {
    const sandbox = await startSandbox({ speech: options.speech ?? 'words', maxRecords: BOUNDS.sandboxRecords });
    stops.push(() => sandbox.close());
    const token = fakeToken();
    const dashboardPort = await freePort();
    const dashboardUrl = `http://127.0.0.1:${dashboardPort}`;
    const clientSecret = randomBytes(24).toString('base64url');
    const discord = await FakeDiscord.start({
      token,
      applicationId: APP_ID,
      applicationOwnerId: OWNER.id,
      guilds: [GUILD],
      allowedPrivilegedIntents: GatewayIntent.MessageContent,
      oauth2: { clientSecret, redirectUris: [`${dashboardUrl}/callback`] },
      // A person reads and clicks at their own pace: Discord's 3 s still holds for SayBot's answers.
      retain: { entries: BOUNDS.discordEntries, heardSeconds: BOUNDS.heardSeconds },
      log: () => undefined,
    });
    stops.push(() => discord.close());
    log(`local Discord on ${discord.restUrl}; Voice API sandbox on ${sandbox.url} (${sandbox.speech})`);

    const bot = startBotProcess({
      entry: SAYBOT_ENTRY,
      caCertificatePem: discord.caCertificatePem,
      keep: { lines: BOUNDS.botLines, chars: BOUNDS.botChars },
      env: saybotEnvironment({ token, discord, sandbox, dashboardPort, clientSecret }),
    });
    stops.push(() => bot.stop());
    log('starting SayBot (node src/bin/start.ts)…');
    await bot.waitForLine((l) => l['msg'] === 'SayBot is ready', 60_000);
    await bot.waitForLine((l) => l['msg'] === 'dashboard served', 15_000);

    const page: Page = await startPage({
      discord,
      dashboardUrl,
      speech: sandbox.speech,
      host: options.host ?? '127.0.0.1',
      port: options.port ?? 0,
    });
    stops.push(() => page.close());
    return {
      url: page.url,
      dashboardUrl,
      speech: sandbox.speech,
      discord,
      sandbox,
      bot,
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
