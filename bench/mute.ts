// Figure 15 of npm run bench: how soon a right taken away silences what plays (issue 48). One bot against the fake
// Discord and the sandbox (its own servers process, 127.0.0.1 only), already in the member's voice channel. The member
// has a one-part /say of about 15 s spoken; 300 ms after its first audio packet a moderator server-mutes them, and the
// figure is the time from the fake Discord's VOICE_STATE_UPDATE to the last audio packet it heard, and the packets
// heard after it. The baseline in the same run: the member's own /stop at the same point, from its INTERACTION_CREATE
// (the player's stop machinery, through the same gateway). Before issue 48 the muted part played to its end.
import { startBot, type BenchBot } from './bot.ts';
import { SAY_FINISHED, gatewayBudget, join, say } from './drive.ts';
import { benchGuild, type BenchGuild } from './guilds.ts';
import type { NetworkDelays } from './protocol.ts';
import { Servers } from './servers-client.ts';
import { percentile } from './stats.ts';

/** The moment into the part at which the right is taken away (the 0.3 s). */
const INTO_PART_MS = 300;
const STEP_TIMEOUT_MS = 30_000;

type Way = 'mute' | 'stop';

interface Take {
  /** From the mute's VOICE_STATE_UPDATE or the /stop's INTERACTION_CREATE to the last audio packet heard. */
  lastPacketMs: number;
  /** Audio packets heard after that moment. */
  packetsAfter: number;
}

/** A one-part text of about 15 s of the sandbox's audio, its own per take (nothing from the cache). */
const partText = (tag: string) =>
  `Take ${tag}. This sentence is long enough to be a part of its own, and it goes on and on for quite a while, ` +
  'with clause after clause added to it so that its audio lasts many seconds, far longer than the moment it takes ' +
  'a moderator to act.';

async function take(servers: Servers, guild: BenchGuild, way: Way, tag: string): Promise<Take> {
  await servers.call('clearAudio', { guildIds: [guild.guildId] });
  const sent = await say(servers, guild, partText(tag));
  // Its time is the servers' clock, not this process's: the part is INTO_PART_MS in from when it is known here.
  await servers.call('firstPacket', {
    guildId: guild.guildId,
    sinceMs: sent.dispatchedAtMs,
    timeoutMs: STEP_TIMEOUT_MS,
  });
  await new Promise((resolve) => setTimeout(resolve, INTO_PART_MS));
  let atMs: number;
  if (way === 'mute') {
    atMs = await servers.call('moderate', { guildId: guild.guildId, userId: guild.userId, mute: true });
  } else {
    const stop = await servers.call('command', { guildId: guild.guildId, userId: guild.userId, name: 'stop' });
    atMs = stop.dispatchedAtMs;
  }
  const final = await servers.call('waitReply', {
    interactionId: sent.interactionId,
    pattern: SAY_FINISHED,
    timeoutMs: STEP_TIMEOUT_MS,
  });
  if (final.content.startsWith('Spoke')) throw new Error(`${way}: the /say was heard to its end: ${final.content}`);
  const [audio] = await servers.call('waitAudio', {
    guildIds: [guild.guildId],
    minSeconds: 0,
    quietMs: 1_000,
    timeoutMs: STEP_TIMEOUT_MS,
  });
  const arrivals = audio?.arrivals ?? [];
  const last = arrivals.at(-1) ?? atMs;
  if (way === 'mute') await servers.call('moderate', { guildId: guild.guildId, userId: guild.userId, mute: false });
  return { lastPacketMs: last - atMs, packetsAfter: arrivals.filter((t) => t > atMs).length };
}

const median = (values: readonly number[]) => percentile(values, 50);
/** Median (min–max) of the takes. */
const spread = (values: readonly number[], show: (x: number) => string) =>
  `${show(median(values))} (${show(Math.min(...values))}–${show(Math.max(...values))})`;
const ms = (x: number) => `${x.toFixed(0)} ms`;

/** Both ways on one bot and servers process, with these network delays (none: loopback). */
async function measureOn(
  delays: NetworkDelays | undefined,
  takes: number,
  log: (line: string) => void,
): Promise<{ results: Record<Way, Take[]>; partSeconds: number }> {
  const guild = benchGuild(0);
  const servers = await Servers.start(1, undefined, delays);
  let bot: BenchBot | undefined;
  const results: Record<Way, Take[]> = { mute: [], stop: [] };
  try {
    bot = await startBot(servers.info);
    gatewayBudget.reset();
    await join(servers, guild);
    const partSeconds = await servers.call('expectedSeconds', { text: partText('M1') });
    log(`mute: a ${partSeconds.toFixed(1)} s part, ${takes} take(s) each way after one untimed`);
    await take(servers, guild, 'mute', 'W1');
    await take(servers, guild, 'stop', 'W2');
    for (let t = 1; t <= takes; t++) {
      // Alternated, so that neither way always follows the same one.
      for (const way of (t % 2 === 0 ? ['stop', 'mute'] : ['mute', 'stop']) as Way[]) {
        results[way].push(await take(servers, guild, way, `${way}${t}`));
      }
    }
    return { results, partSeconds };
  } finally {
    await bot?.stop();
    await servers.close();
  }
}

/** Figure 5's network delays: what a real Discord adds between the event and the last packet. */
const DISCORD_LIKE: NetworkDelays = { restRoundTripMs: 80, gatewayLatencyMs: 40, voiceUdpLatencyMs: 30 };

export async function measureMute(mode: 'quick' | 'full', log: (line: string) => void): Promise<string> {
  const takes = mode === 'quick' ? 3 : 10;
  const loopback = await measureOn(undefined, takes, log);
  const delayed = await measureOn(DISCORD_LIKE, takes, log);
  const row = (name: string, r: readonly Take[]) =>
    `| ${name} | ${spread(
      r.map((x) => x.lastPacketMs),
      ms,
    )} | ${spread(
      r.map((x) => x.packetsAfter),
      (n) => n.toFixed(0),
    )} |`;
  const { partSeconds } = loopback;
  return [
    '### Figure 15: a member server-muted mid-part, against their own /stop (bench/mute.ts)',
    '',
    `A one-part /say of ${partSeconds.toFixed(1)} s in a voice channel the bot is already in; ${INTO_PART_MS} ms ` +
      'after its first audio packet, a moderator server-mutes the member (VOICE_STATE_UPDATE), or, the baseline, the ' +
      `member sends /stop (INTERACTION_CREATE). ${takes} takes each way, alternated, after one untimed each; median ` +
      '(min–max). Last packet: from the event leaving the fake Discord to the last audio packet it heard (negative: ' +
      "the last packet had left the bot before the event did). On loopback, and with figure 5's delays (gateway " +
      `${DISCORD_LIKE.gatewayLatencyMs} ms, voice UDP ${DISCORD_LIKE.voiceUdpLatencyMs} ms, one way). Before issue 48 ` +
      `the muted part played to its end (about ${(partSeconds - INTO_PART_MS / 1000).toFixed(1)} s more).`,
    '',
    '| Way | Last packet after the event | Audio packets heard after it |',
    '|---|---:|---:|',
    row('Server-muted mid-part, loopback', loopback.results.mute),
    row('/stop by the member (baseline), loopback', loopback.results.stop),
    row("Server-muted mid-part, figure 5's delays", delayed.results.mute),
    row("/stop by the member (baseline), figure 5's delays", delayed.results.stop),
  ].join('\n');
}
