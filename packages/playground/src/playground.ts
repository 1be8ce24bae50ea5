// `npm run playground`: the local Discord and the Voice API sandbox in this process, SayBot as `npm start` runs it
// (`node src/bin/start.ts`, configured only by its environment, its dashboard on) in a child process, and a page
// (web.ts) that is a Discord client's window onto them. Everything listens on 127.0.0.1 but the page, which listens
// where it is told (127.0.0.1 by default). Every list it keeps is bounded (see BOUNDS).
import type { BotProcess, FakeDiscord } from '@saybot/local-discord';
import type { Sandbox } from '@saybot/voice-sandbox';
import { GUILD, HELPER_NAME, OWNER } from './world.ts';
import { BOUNDS } from './bounds.ts';
import { startLocalStack } from './local-stack.ts';
import { startPage, type Page } from './web.ts';
import { watchSaybot } from './saybot-status.ts';

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
    const { sandbox, discord, bot, dashboardUrl, helpers } = await startLocalStack({
      speech: options.speech ?? 'words',
      sandboxRecords: BOUNDS.sandboxRecords,
      // Discord's consent page, which any client may reach through the dashboard's login, signs a browser in only as
      // the person the page's "Open the dashboard" link handed it (nobody, in any other browser).
      consentAs: 'signed-in',
      discord: {
        applicationOwnerId: OWNER.id,
        guilds: [GUILD],
        // A person reads and clicks at their own pace: Discord's 3 s still holds for SayBot's answers.
        retain: { entries: BOUNDS.discordEntries, heardSeconds: BOUNDS.heardSeconds },
      },
      helpers: [HELPER_NAME],
      keep: { lines: BOUNDS.botLines, chars: BOUNDS.botChars },
      own: (stop) => void stops.push(stop),
      log,
    });

    // SayBot dying underneath (a crash, a kill) is told in the terminal and on the page; its stop by us is not.
    const saybot = watchSaybot(bot, log);
    stops.push(async () => saybot.quiet());
    const page: Page = await startPage({
      discord,
      saybot,
      dashboardUrl,
      helpers,
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
