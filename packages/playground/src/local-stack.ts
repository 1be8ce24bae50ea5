// SayBot against the local doubles, started as the playground and the demo both start it: the sandbox Voice API and
// the local Discord in this process (its OAuth2 login with the dashboard's callback registered, as an owner does in
// the portal), then SayBot as `npm start` runs it (`node src/bin/start.ts`, configured only by its environment, its
// dashboard on) in a child process, ready and serving its dashboard. Each part's stop is handed to the caller as soon
// as the part runs, so whatever fails later, what was started is stopped.
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import {
  APP_ID,
  FakeDiscord,
  fakeToken,
  GatewayIntent,
  startBotProcess,
  type BotProcess,
  type FakeBotApplication,
  type FakeDiscordOptions,
} from '@saybot/local-discord';
import { startSandbox, type Sandbox } from '@saybot/voice-sandbox';
import { startSpeechServerDouble, startVoicevoxDouble } from '@saybot/engine-doubles';
import { freePort, saybotEnvironment } from './saybot-env.ts';

/** SayBot's entry point, run as a program (never imported): the repository's src/bin/start.ts. */
const SAYBOT_ENTRY = fileURLToPath(new URL('../../../src/bin/start.ts', import.meta.url));

export interface LocalStackOptions {
  /** What the sandbox speaks: words (eSpeak NG, when installed; tones otherwise) or tones. */
  speech: 'words' | 'tones';
  /** The sandbox's request records kept (default: all). */
  sandboxRecords?: number;
  /** The local Discord's world and what it keeps (its token, application, login and intents are set here). */
  discord: Omit<FakeDiscordOptions, 'token' | 'applicationId' | 'oauth2' | 'allowedPrivilegedIntents'>;
  /** Whom the local Discord's consent page lets a browser authorize as (FakeOAuth2Options.consentAs; default anyone). */
  consentAs?: 'anyone' | 'signed-in';
  /** Helper bots by name: each an application of its own, invited to every server, its token in HELPER_BOT_TOKENS. */
  helpers?: readonly string[];
  /** SayBot's output kept (default: all). */
  keep?: { lines: number; chars: number };
  /** Takes each started part's stop, in the order started (the caller stops them in reverse). */
  own: (stop: () => Promise<void>) => Promise<void> | void;
  /** Runs once the local Discord is up, before SayBot starts (a browser's session there, say). */
  beforeBot?: (discord: FakeDiscord) => void;
  /** SayBot's process, as soon as it is started (its output, should it not become ready). */
  botStarted?: (bot: BotProcess) => void;
  log: (line: string) => void;
}

export interface LocalStack {
  sandbox: Sandbox;
  discord: FakeDiscord;
  bot: BotProcess;
  dashboardUrl: string;
  /** The helper bots, in HELPER_BOT_TOKENS' order. */
  helpers: FakeBotApplication[];
}

export async function startLocalStack(options: LocalStackOptions): Promise<LocalStack> {
  const sandbox = await startSandbox({
    speech: options.speech,
    ...(options.sandboxRecords !== undefined ? { maxRecords: options.sandboxRecords } : {}),
  });
  await options.own(() => sandbox.close());
  // The owner's own engines, as doubles: a VOICEVOX engine and an OpenAI-compatible speech server, their voices told
  // apart by pitch, so a newcomer hears `voicevox:` and `speech:` voices with no engine installed.
  const voicevox = await startVoicevoxDouble({ speech: options.speech });
  await options.own(() => voicevox.close());
  const speechServer = await startSpeechServerDouble({ speech: options.speech });
  await options.own(() => speechServer.close());
  const token = fakeToken();
  // The dashboard's address is known before SayBot starts: its callback is registered with the local Discord.
  const dashboardPort = await freePort();
  const dashboardUrl = `http://127.0.0.1:${dashboardPort}`;
  const clientSecret = randomBytes(24).toString('base64url');
  const discord = await FakeDiscord.start({
    log: () => undefined,
    ...options.discord,
    token,
    applicationId: APP_ID,
    allowedPrivilegedIntents: GatewayIntent.MessageContent,
    oauth2: {
      clientSecret,
      redirectUris: [`${dashboardUrl}/callback`],
      ...(options.consentAs === undefined ? {} : { consentAs: options.consentAs }),
    },
  });
  await options.own(() => discord.close());
  options.log(`local Discord on ${discord.restUrl}; Voice API sandbox on ${sandbox.url} (${sandbox.speech})`);
  options.log(`VOICEVOX engine double on ${voicevox.url}; speech server double on ${speechServer.url}`);
  const helpers = (options.helpers ?? []).map((username) => {
    const helper = discord.addBotApplication({ username });
    for (const guild of options.discord.guilds ?? []) discord.inviteBot(guild.id, helper.userId);
    return helper;
  });
  options.beforeBot?.(discord);

  const bot = startBotProcess({
    entry: SAYBOT_ENTRY,
    caCertificatePem: discord.caCertificatePem,
    ...(options.keep !== undefined ? { keep: options.keep } : {}),
    // What an operator's .env holds, pointed at the local servers; the store and cache in the process's own folder.
    env: saybotEnvironment({
      token,
      discord,
      sandbox,
      dashboardPort,
      clientSecret,
      engines: { voicevox: voicevox.url, speechServer: speechServer.url },
      helperTokens: helpers.map((helper) => helper.token),
    }),
  });
  options.botStarted?.(bot);
  await options.own(() => bot.stop());
  options.log('starting SayBot (node src/bin/start.ts)…');
  await bot
    .waitForLine((l) => l['msg'] === 'SayBot is ready', 60_000)
    .catch((error: unknown) => {
      throw new Error(`SayBot did not start: ${whyStopped(bot.output()) ?? String(error).split('\n')[0]}`);
    });
  await bot.waitForLine((l) => l['msg'] === 'dashboard served', 15_000);
  return { sandbox, discord, bot, dashboardUrl, helpers };
}

/** The line of a bot's output that says why it stopped: its last error log line, or what Node threw. */
export function whyStopped(output: string): string | undefined {
  const lines = output.split('\n').filter((line) => line.trim() !== '');
  for (const line of lines.toReversed()) {
    try {
      const entry = JSON.parse(line) as { level?: number; msg?: string; err?: { message?: string } };
      if ((entry.level ?? 0) >= 50) return [entry.msg, entry.err?.message].filter(Boolean).join(': ');
    } catch {
      // not a log line
    }
  }
  return lines.find((line) => /^\w*Error\b/.test(line));
}
