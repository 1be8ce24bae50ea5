// Figure 1: time to first audio. From INTERACTION_CREATE leaving the fake Discord to the first audio packet
// reaching its voice server, both stamped in the servers process. The bot's own overhead is that time minus
// the sandbox's start delay (the time a real service would spend synthesising before its first byte).
import { SAY_FINISHED, join, leave, say } from './drive.ts';
import type { BenchGuild } from './guilds.ts';
import type { Servers } from './servers-client.ts';

export interface TtfaOptions {
  runs: number;
  /** Runs made first and not counted: JIT, connection pools and caches warm up. */
  warmup: number;
  /** Leave the channel before each run, so that each /say also joins. */
  firstJoin: boolean;
  /** The text of run `i` (warm-up runs included): distinct texts reach the Voice API, a repeated one the cache. */
  text: (run: number) => string;
  /** Subtracted from each time: the sandbox's start delay, or 0 where no request is made (cache hits). */
  startDelayMs: number;
  /** Stop the clock at the first audio a listener can play (with DAVE: the first frame it decrypted), not the first packet. */
  heard?: boolean;
  /** On first joins, also time the join itself as the fake sees it (watchJoin). */
  joinTimes?: boolean;
}

export interface TtfaResult {
  /** Time to first audio minus startDelayMs, per counted run. */
  overheadMs: number[];
  /** Per counted first-join run (with joinTimes): op 4 arriving -> DAVE group ready, at the fake. */
  joinMs: number[];
}

export async function measureTtfa(servers: Servers, guild: BenchGuild, options: TtfaOptions): Promise<TtfaResult> {
  const overheadMs: number[] = [];
  const joinMs: number[] = [];
  for (let i = 0; i < options.warmup + options.runs; i++) {
    if (options.firstJoin) await leave(servers, guild);
    else await join(servers, guild);
    await servers.call('clearAudio', { guildIds: [guild.guildId] });
    const watch =
      options.firstJoin && options.joinTimes
        ? servers.call('watchJoin', { guildId: guild.guildId, timeoutMs: 20_000 })
        : undefined;
    const sent = await say(servers, guild, options.text(i));
    const joined = await watch;
    if (joined && i >= options.warmup) joinMs.push(joined.readyAtMs - joined.voiceStateAtMs);
    const firstAt = await servers.call(options.heard ? 'firstHeard' : 'firstPacket', {
      guildId: guild.guildId,
      sinceMs: sent.dispatchedAtMs,
      timeoutMs: 20_000,
    });
    if (i >= options.warmup) overheadMs.push(firstAt - sent.dispatchedAtMs - options.startDelayMs);
    // Only the start matters: stop the 10 s clip and wait for its /say to end before the next run.
    await servers.call('command', { guildId: guild.guildId, userId: guild.userId, name: 'stop' });
    const final = await servers.call('waitResponse', {
      interactionId: sent.interactionId,
      pattern: SAY_FINISHED,
      timeoutMs: 20_000,
    });
    if (!final.startsWith('Stopped')) throw new Error(`/say ended with "${final}" instead of being stopped`);
    // The player's closing silence frames, so that they cannot count as the next run's audio.
    await servers.call('waitAudio', { guildIds: [guild.guildId], minSeconds: 0, quietMs: 100, timeoutMs: 5_000 });
  }
  return { overheadMs, joinMs };
}
