// SayBot's environment against the local doubles: what an operator's .env holds, pointed at the local Discord and the
// sandbox, its dashboard on (the playground's and the demo's one description of it). The store and the audio cache
// go in the bot process's own folder (startBotProcess runs it in a fresh one).
import { APP_ID, type FakeDiscord } from '@saybot/local-discord';
import type { Sandbox } from '@saybot/voice-sandbox';

/**
 * The dashboard's login requests a minute from one address, here: every person tried with "Open the dashboard"
 * signs in from 127.0.0.1, two requests each (/login and /callback), so SayBot's bound for a public dashboard (10)
 * would stop the sixth within a minute. A thousand is no bound anyone trying people by hand meets.
 */
export const PLAYGROUND_LOGINS_PER_MINUTE = 1000;

export function saybotEnvironment(input: {
  token: string;
  discord: FakeDiscord;
  sandbox: Sandbox;
  dashboardPort: number;
  clientSecret: string;
  /** The engine doubles' base URLs (VOICEVOX_URL, SPEECH_SERVER_URL); absent: none, as an owner without engines. */
  engines?: { voicevox: string; speechServer: string };
  /** Helper bots' tokens (HELPER_BOT_TOKENS): a seat each in every server it is in. */
  helperTokens?: readonly string[];
}): Record<string, string> {
  const { discord, sandbox } = input;
  return {
    DISCORD_TOKEN: input.token,
    DISCORD_CLIENT_ID: APP_ID,
    DISCORD_API_BASE_URL: discord.restUrl,
    DISCORD_CDN_BASE_URL: discord.cdnUrl,
    VOICE_API_BASE_URL: sandbox.url,
    VOICE_API_KEY: sandbox.testKey,
    ATTACHMENT_HOSTS: new URL(discord.restUrl).host,
    LOG_LEVEL: 'info',
    DASHBOARD_URL: `http://127.0.0.1:${input.dashboardPort}`,
    DASHBOARD_PORT: String(input.dashboardPort),
    DISCORD_CLIENT_SECRET: input.clientSecret,
    DASHBOARD_LOGINS_PER_MINUTE: String(PLAYGROUND_LOGINS_PER_MINUTE),
    ...(input.helperTokens === undefined || input.helperTokens.length === 0
      ? {}
      : { HELPER_BOT_TOKENS: input.helperTokens.join(',') }),
    ...(input.engines === undefined
      ? {}
      : {
          VOICEVOX_URL: input.engines.voicevox,
          SPEECH_SERVER_URL: input.engines.speechServer,
          // When the paid voice may not speak: Japanese in a VOICEVOX style, English in a speech server's voice (set,
          // FREE_VOICES speaks then by itself: no FREE_VOICE needed).
          FREE_VOICES: 'ja=voicevox:0,en=speech:af_heart,*=espeak',
        }),
  };
}

/** A port free on 127.0.0.1 now, for the dashboard (its URL must be known before SayBot starts). */
export { freePort } from '@saybot/local-discord';
