// Slash commands as a user would send them, through the servers process, with waits on what comes back.
import { setTimeout as sleep } from 'node:timers/promises';
import type { BenchGuild } from './guilds.ts';
import type { Dispatched } from './protocol.ts';
import type { Servers } from './servers-client.ts';

/** The final reply of /say: anything but the progress messages (played, skipped, stopped, or an error). */
export const SAY_FINISHED = '^(?!Speaking in|Queued).+';

export function say(servers: Servers, guild: BenchGuild, text: string): Promise<Dispatched> {
  return servers.call('command', { guildId: guild.guildId, userId: guild.userId, name: 'say', options: { text } });
}

export async function run(
  servers: Servers,
  guild: BenchGuild,
  name: string,
  pattern: string,
  timeoutMs = 15_000,
): Promise<string> {
  const sent = await servers.call('command', { guildId: guild.guildId, userId: guild.userId, name });
  return servers.call('waitResponse', { interactionId: sent.interactionId, pattern, timeoutMs });
}

/** Until the fake sees the bot in the guild's voice channel (or, with `null`, in none). */
export async function untilBotIn(
  servers: Servers,
  guild: BenchGuild,
  channelId: string | null,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while ((await servers.call('botVoiceChannel', { guildId: guild.guildId })) !== channelId) {
    if (performance.now() > deadline)
      throw new Error(`bot did not get to ${channelId ?? 'no channel'} in guild ${guild.guildId}`);
    await sleep(10);
  }
}

/**
 * Discord lets a gateway session send 120 commands a minute (discord.js keeps to 115 in fixed one-minute windows
 * and queues the rest), and every join or leave is one (op 4). Past that a join waits in discord.js's queue longer
 * than the player's 15 s join timeout and fails, as it would against Discord. The benchmark measures speaking, not
 * that limit, so it spaces its own joins and leaves to stay under it, counting what the bot really sent in the last
 * minute as the fake received it (heartbeats, and the joins and leaves the bot made of itself in earlier figures),
 * plus its own requests of the last few seconds, which may not have reached the gateway yet.
 */
class GatewayBudget {
  static readonly PER_MINUTE = 100;
  /** How long a join or leave the benchmark asked for may take to reach the gateway (counted twice until then). */
  static readonly IN_FLIGHT_MS = 5_000;
  readonly #sent: number[] = [];
  /** The current bot's session began here: what the fake received before is another session's. */
  #since = performance.now();

  /** Takes one after another: joins run ten at a time, and each must see the ones taken before it. */
  #queue: Promise<void> = Promise.resolve();

  take(servers: Servers): Promise<void> {
    const turn = this.#queue.then(() => this.#take(servers));
    this.#queue = turn.catch(() => undefined);
    return turn;
  }

  async #take(servers: Servers): Promise<void> {
    for (;;) {
      const now = performance.now();
      while ((this.#sent[0] ?? now) <= now - 60_000) this.#sent.shift();
      const withinMs = Math.min(60_000, now - this.#since);
      const received = await servers.call('gatewayMessages', { withinMs });
      const inFlight = this.#sent.filter((t) => t > now - GatewayBudget.IN_FLIGHT_MS).length;
      if (Math.max(this.#sent.length, received + inFlight) < GatewayBudget.PER_MINUTE) break;
      // The oldest message counted leaves the window within a minute; a second's wait rechecks without spinning.
      await sleep(1_000);
    }
    this.#sent.push(performance.now());
  }

  /** A new bot has a new gateway session with a full budget. */
  reset(): void {
    this.#sent.length = 0;
    this.#since = performance.now();
  }
}

export const gatewayBudget = new GatewayBudget();

export async function join(servers: Servers, guild: BenchGuild): Promise<void> {
  if ((await servers.call('botVoiceChannel', { guildId: guild.guildId })) === guild.voiceChannelId) return;
  await gatewayBudget.take(servers);
  await run(servers, guild, 'join', '^(Joined|I am already)');
  await untilBotIn(servers, guild, guild.voiceChannelId);
}

export async function leave(servers: Servers, guild: BenchGuild): Promise<void> {
  if ((await servers.call('botVoiceChannel', { guildId: guild.guildId })) === null) return;
  await gatewayBudget.take(servers);
  await run(servers, guild, 'leave', '^Left');
  await untilBotIn(servers, guild, null);
}

/**
 * Text whose audio lasts `seconds` in the sandbox (secondsPerCharacter), in plain sentences. `tag` starts it:
 * the bot caches audio by text (and shares identical requests in flight), so a request meant to reach the Voice
 * API needs a text of its own.
 */
export function textLasting(seconds: number, secondsPerCharacter: number, tag: string): string {
  const length = Math.round(seconds / secondsPerCharacter);
  const sentence = 'The quick brown fox jumps over the lazy dog. ';
  const text = `${tag}. ${sentence.repeat(Math.ceil(length / sentence.length))}`;
  return `${text.slice(0, length - 1)}.`;
}
