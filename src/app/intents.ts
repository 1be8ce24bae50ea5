// Which gateway intents SayBot asks for. Without Message Content (privileged) Discord closes with 4014; SayBot then
// starts without auto-read rather than not at all, and says once where to switch it on.
import { Events, GatewayCloseCodes, GatewayIntentBits, type Client } from 'discord.js';
import type { Logger } from '../core/log.ts';
import { AUTOREAD_INTENTS, MESSAGE_CONTENT_WHERE } from '../features/autoread/index.ts';

/** Commands and channels; who sits in which voice channel. */
export const BASE_INTENTS: readonly GatewayIntentBits[] = [
  GatewayIntentBits.Guilds,
  GatewayIntentBits.GuildVoiceStates,
];

export interface GatewayLogin {
  client: Client;
  autoreadAvailable: boolean;
}

export interface GatewayLoginOptions {
  /** Makes a client with these intents, its listeners attached: called again, fresh, for the fallback. */
  makeClient: (intents: readonly GatewayIntentBits[]) => Client;
  token: string;
  logger: Logger;
  /** How long to wait for READY (each attempt). */
  readyTimeoutMs: number;
  /** Ask for auto-read's intents at all; default true. */
  autoread?: boolean;
}

/** Thrown by loginUntilReady when Discord closed the gateway for an intent the application may not use. */
class DisallowedIntentsError extends Error {}

/** Logs in with auto-read's intents; on 4014 one line, then a fresh client without them; else throws, client gone. */
export async function loginWithIntentFallback(options: GatewayLoginOptions): Promise<GatewayLogin> {
  if (options.autoread === false) {
    return { client: await loginUntilReady(options.makeClient(BASE_INTENTS), options), autoreadAvailable: false };
  }
  try {
    return {
      client: await loginUntilReady(options.makeClient([...BASE_INTENTS, ...AUTOREAD_INTENTS]), options),
      autoreadAvailable: true,
    };
  } catch (error) {
    if (!(error instanceof DisallowedIntentsError)) throw error;
  }
  options.logger.warn(
    { code: 'autoread-intent-missing', where: MESSAGE_CONTENT_WHERE },
    `Discord refused the Message Content intent (4014): SayBot runs without auto-read. Enable it in the ${MESSAGE_CONTENT_WHERE}, then restart SayBot`,
  );
  return { client: await loginUntilReady(options.makeClient(BASE_INTENTS), options), autoreadAvailable: false };
}

async function loginUntilReady(client: Client, options: GatewayLoginOptions): Promise<Client> {
  let disallowed = false;
  const onDisconnect = (event: { code: number }) => {
    if (event.code === GatewayCloseCodes.DisallowedIntents) disallowed = true;
  };
  client.on(Events.ShardDisconnect, onDisconnect);
  let timer: NodeJS.Timeout | undefined;
  const ready = new Promise<void>((resolve, reject) => {
    timer = setTimeout(() => reject(new Error('Discord did not report ready in time')), options.readyTimeoutMs);
    client.once(Events.ClientReady, () => resolve());
  });
  try {
    await Promise.all([client.login(options.token), ready]);
    return client;
  } catch (error) {
    await client.destroy();
    // discord.js rejects the login with "Used disallowed intents"; the shard's 4014 close says the same.
    if (disallowed || (error instanceof Error && /disallowed intents/i.test(error.message))) {
      throw new DisallowedIntentsError('disallowed intents', { cause: error });
    }
    throw error;
  } finally {
    clearTimeout(timer);
    client.off(Events.ShardDisconnect, onDisconnect);
  }
}
