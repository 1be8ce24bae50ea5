// Figure 27 (issue 93): 8 seats in one server (the main bot and 7 helper bots, each in a voice channel of its own)
// against 8 servers with one seat each, on the same bot in the same run: late packets side by side. And what one more
// helper costs at rest: a bot's memory when ready with the helpers logged in against one without, each in a process of
// its own (bench/ready-rss.ts), per helper.
import { loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { startBot } from './bot.ts';
import { joinAll, LATE_GAP_MS, measureStep, type ConcurrencyStep } from './concurrency.ts';
import { SAY_FINISHED, textLasting } from './drive.ts';
import { benchGuilds, seatsGuild } from './guilds.ts';
import { readyRss } from './ready-rss.ts';
import { Servers } from './servers-client.ts';
import { behindSchedule, gaps, max, percentile } from './stats.ts';

const SEATS = 8;
const SECONDS_PER_CHARACTER = 0.06; // the sandbox's default
const mib = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MiB`;

interface Row {
  label: string;
  played: number;
  packets: number;
  late: number;
  gapP99Ms: number;
  gapMaxMs: number;
  behindMaxMs: number;
  faults: number;
}

const row = (r: Row) =>
  `| ${r.label} | ${r.played}/${SEATS} | ${r.packets} | ${r.late} (${((r.late / Math.max(1, r.packets)) * 100).toFixed(2)} %) | ` +
  `${r.gapP99Ms.toFixed(1)} ms | ${r.gapMaxMs.toFixed(1)} ms | ${r.behindMaxMs.toFixed(0)} ms | ${r.faults} |`;

const fromStep = (label: string, s: ConcurrencyStep): Row => ({
  label,
  played: s.played,
  packets: s.packets,
  late: s.late,
  gapP99Ms: s.gapP99Ms,
  gapMaxMs: s.gapMaxMs,
  behindMaxMs: s.behindMaxMs,
  faults: s.audioFaults,
});

/** The 8 seats of one server speaking at once: each member /say in its own voice channel, heard there alone. */
async function seatsStep(servers: Servers, text: (i: number) => string, clipSeconds: number): Promise<Row> {
  const g = seatsGuild(SEATS);
  const sent = await servers.call('commandMany', {
    commands: g.members.map((userId, i) => ({ guildId: g.guildId, userId, name: 'say', options: { text: text(i) } })),
  });
  const finals = await Promise.allSettled(
    sent.map((s) =>
      servers.call('waitResponse', {
        interactionId: s.interactionId,
        pattern: SAY_FINISHED,
        timeoutMs: 60_000 + clipSeconds * 1000,
      }),
    ),
  );
  const heard = await Promise.all(
    g.voiceChannelIds.map((channelId) =>
      servers.call('waitChannelAudio', { guildId: g.guildId, channelId, quietMs: 200, timeoutMs: 10_000 }),
    ),
  );
  const pooled = heard.flatMap((h) => gaps(h.arrivals));
  return {
    label: `${SEATS} seats in one server`,
    played: finals.filter((f) => f.status === 'fulfilled' && f.value.startsWith('Spoke')).length,
    packets: heard.reduce((sum, h) => sum + h.arrivals.length, 0),
    late: pooled.filter((gap) => gap > LATE_GAP_MS).length,
    gapP99Ms: percentile(pooled, 99),
    gapMaxMs: max(pooled),
    behindMaxMs: max(heard.flatMap((h) => behindSchedule(h.arrivals))),
    faults: heard.reduce(
      (sum, h) => sum + h.decryptFailures + h.decodeFailures + h.plaintextFrames + h.daveFailures,
      0,
    ),
  };
}

export async function measureSeats(mode: 'quick' | 'full', log: (line: string) => void): Promise<string> {
  const title = `## 27. ${SEATS} seats in one server against ${SEATS} servers, and a helper at rest (bench/seats.ts)`;
  const rounds = mode === 'quick' ? 1 : 3;
  const clipSeconds = 5;
  const loadAtStart = loadavg()[0] ?? 0;
  const servers = await Servers.start(SEATS, undefined, undefined, undefined, false, {
    channels: SEATS,
    helpers: SEATS - 1,
  });
  try {
    const helperTokens = servers.info.helperTokens ?? [];
    log(`seats: a bot at rest with ${helperTokens.length} helpers and without, each in a process of its own`);
    const without = await readyRss(servers);
    const withHelpers = await readyRss(servers, { HELPER_BOT_TOKENS: helperTokens.join(',') });
    const bot = await startBot(servers.info, { env: { HELPER_BOT_TOKENS: helperTokens.join(',') } });
    try {
      const servered = benchGuilds(SEATS);
      log(`seats: joining ${SEATS} servers, and ${SEATS} channels of one server`);
      await joinAll(servers, servered);
      const g = seatsGuild(SEATS);
      // One after another: each /join finds the seats before it listened to, so the next bot takes the next channel.
      for (const userId of g.members) {
        const sent = await servers.call('command', { guildId: g.guildId, userId, name: 'join' });
        await servers.call('waitResponse', { interactionId: sent.interactionId, pattern: 'oined', timeoutMs: 30_000 });
      }
      // Their DAVE groups settle (the fake's daveReady asks of the main bot only).
      await sleep(3_000);
      await servers.call('setPacing', { pacing: { startDelayMs: 300, realtimeFactor: 0.25 } });
      const rows: Row[] = [];
      for (let round = 0; round < rounds; round++) {
        const text = (tag: string) => (i: number) =>
          textLasting(clipSeconds, SECONDS_PER_CHARACTER, `${tag} ${round} voice ${i}`);
        log(`seats: round ${round + 1} of ${rounds}: ${SEATS} servers, then ${SEATS} seats of one server`);
        const step = await measureStep(
          servers,
          servered,
          { sender: bot.voicePlane.sender, text: (i) => text('Server')(i), clipSeconds },
          SEATS,
        );
        rows.push(fromStep(`${SEATS} servers, one seat each (baseline)`, step));
        await servers.call('clearAudio', { guildIds: [g.guildId] });
        rows.push(await seatsStep(servers, text('Seat'), clipSeconds));
      }
      const complaints = bot.complaints();
      const perHelper = (withHelpers.rssBytes - without.rssBytes) / Math.max(1, helperTokens.length);
      const heapPerHelper = (withHelpers.heapUsedBytes - without.heapUsedBytes) / Math.max(1, helperTokens.length);
      return [
        title,
        '',
        `The same bot, its sender thread, ${SEATS} helper-less servers with a listener each and one server of ${SEATS} voice channels with a listener each, where the main bot and ${SEATS - 1} helpers (HELPER_BOT_TOKENS, each invited to every server) took a channel each by the seat rule. Each round: the ${SEATS} servers' /say at once (figure 3's step at N = ${SEATS}), then the ${SEATS} seats' /say at once, 5 s clips, sandbox paced as figure 1. Late: gaps > ${LATE_GAP_MS} ms, pooled over the voices; heard per voice channel for the seats. Load average at the start: ${loadAtStart.toFixed(1)} (a shared machine: other jobs ran beside it).`,
        '',
        '| step | played | packets heard | late | gap p99 | gap max | behind schedule max | faults |',
        '|---|---|---|---|---|---|---|---|',
        ...rows.map(row),
        '',
        `At rest, a bot ready with ${helperTokens.length} helpers logged in against one without (${SEATS + 1} servers each, a process of its own, after GC): RSS ${mib(withHelpers.rssBytes)} against ${mib(without.rssBytes)}, heap used ${mib(withHelpers.heapUsedBytes)} against ${mib(without.heapUsedBytes)}: **${mib(perHelper)} RSS and ${mib(heapPerHelper)} heap per helper**.`,
        ...(complaints.length > 0 ? ['', `The bot complained: ${complaints.slice(0, 3).join('; ')}`] : []),
      ].join('\n');
    } finally {
      await bot.stop();
    }
  } finally {
    await servers.close();
  }
}
