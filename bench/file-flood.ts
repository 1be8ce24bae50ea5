// Figure 21 of npm run bench: a free-voice file flood in one server against another server's files (issue 56).
// SayBot in the bench's process (bench/bot.ts) with its own queue bounds, the free-request ration off
// (BUDGET_MEMBER_FREE_PER_MINUTE=0, as the outside check's owner set it) and the free voice chosen; the local Discord
// and the sandbox in the servers process (bench/servers.ts), which also sends the flood (bench/flood-drive.ts): 8
// members of server A send /say voice:free-en-f output:file, each every 150 ms. Server B's member asks, one after the
// other, for a file in the free voice (new words each time) and a file of a paid line already cached, before the
// flood (the baseline), during it, and after it, in the same run: from INTERACTION_CREATE leaving the local Discord to
// the reply that carries the file. Meanwhile: the bot process's RSS, the files under way (src/features/speaking/
// file-shares.ts), and the requests discord.js held back for the bot's global limit. After the flood: how each of A's
// interactions was last answered, and how many were left deferred with no words.
import { setTimeout as sleep } from 'node:timers/promises';
import { loadavg } from 'node:os';
import { freeVoiceInstalled } from '../src/core/free-voice/free-voice-engine.ts';
import { onWork } from '../src/core/audio/workers/work-trace.ts';
import { MAX_FILES, MAX_FILES_PER_GUILD } from '../src/features/speaking/file-shares.ts';
import { startBot } from './bot.ts';
import { FLOOD_GUILD, benchGuild, floodMember } from './guilds.ts';
import type { FloodCounts } from './protocol.ts';
import { Servers } from './servers-client.ts';
import { percentile } from './stats.ts';

const FLOODERS = 8;
/** Each flooder every 150 ms, as the outside check sent them. */
const PER_SECOND = FLOODERS / 0.15;
const A = benchGuild(FLOOD_GUILD);
const B = benchGuild(1);
const CACHED_LINE = 'A cached paid line for server B, asked for as a file.';
const ANSWER_TIMEOUT_MS = 40_000;

interface Asked {
  ms: number;
  /** The reply carried the file (else it refused, in words). */
  file: boolean;
}

interface PhaseFigures {
  name: string;
  free: Asked[];
  cached: Asked[];
  rssMaxMb: number;
  filesMax: number;
  globalWaits: number;
}

/**
 * BENCH_FILE_FLOOD_TRACE=1: for each of B's files, when (after the command reached the servers process's answer here)
 * its jobs started and ended on each worker pool, in the bench's clock: where its time went.
 */
const TRACE = process.env['BENCH_FILE_FLOOD_TRACE'] === '1';
let traceLog: (line: string) => void = () => {};

/** B's member asks for a file and waits for its reply: how long it took, and whether it carried the file. */
async function askFile(servers: Servers, options: Record<string, string>): Promise<Asked> {
  const steps: string[] = [];
  const asked = performance.now();
  const stop = TRACE
    ? onWork((event) => {
        if (event.owner === B.guildId && (event.event === 'start' || event.event === 'end'))
          steps.push(`${event.pool} ${event.event} ${(performance.now() - asked).toFixed(0)}`);
      })
    : () => {};
  try {
    return await askFileOnce(servers, options);
  } finally {
    stop();
    if (TRACE) traceLog(`file-flood trace: ${options['voice'] ?? 'paid'}: ${steps.join(', ')} (ms after asking)`);
  }
}

async function askFileOnce(servers: Servers, options: Record<string, string>): Promise<Asked> {
  const sent = await servers.call('command', {
    guildId: B.guildId,
    userId: B.userId,
    name: 'say',
    options: { ...options, output: 'file' },
  });
  try {
    const reply = await servers.call('waitReply', {
      interactionId: sent.interactionId,
      pattern: '.+',
      timeoutMs: ANSWER_TIMEOUT_MS,
    });
    return { ms: reply.atMs - sent.dispatchedAtMs, file: reply.content.startsWith('Here is') };
  } catch {
    return { ms: Number.POSITIVE_INFINITY, file: false };
  }
}

/** `rounds` of B's free file then B's cached paid file, one after the other, with the bot's figures meanwhile. */
async function bRounds(
  servers: Servers,
  name: string,
  rounds: number,
  tag: string,
  globalWaits: () => number,
  /** The bot's files and voice messages under way (its FileShares). */
  filesHeld: () => number,
): Promise<PhaseFigures> {
  let rssMax = process.memoryUsage.rss();
  let filesMax = filesHeld();
  const sampler = setInterval(() => {
    rssMax = Math.max(rssMax, process.memoryUsage.rss());
    filesMax = Math.max(filesMax, filesHeld());
  }, 100);
  const waitsBefore = globalWaits();
  const free: Asked[] = [];
  const cached: Asked[] = [];
  try {
    for (let round = 0; round < rounds; round++) {
      free.push(await askFile(servers, { text: `B's own free line ${tag} ${round}, new words.`, voice: 'free-en-m' }));
      cached.push(await askFile(servers, { text: CACHED_LINE }));
    }
  } finally {
    clearInterval(sampler);
  }
  return { name, free, cached, rssMaxMb: rssMax / 1048576, filesMax, globalWaits: globalWaits() - waitsBefore };
}

const fmt = (asked: Asked[]): string => {
  const ms = asked.map((a) => a.ms);
  const refused = asked.filter((a) => !a.file).length;
  const show = (v: number) => (Number.isFinite(v) ? `${v.toFixed(0)}` : `>${ANSWER_TIMEOUT_MS}`);
  return `${show(percentile(ms, 50))} / ${show(Math.max(...ms))} ms${refused > 0 ? ` (${refused} without the file)` : ''}`;
};

const ratio = (phase: Asked[], base: Asked[]): string => {
  const r =
    percentile(
      phase.map((a) => a.ms),
      50,
    ) /
    percentile(
      base.map((a) => a.ms),
      50,
    );
  return Number.isFinite(r) ? `${r.toFixed(2)}x` : 'no answer';
};

export async function measureFileFlood(
  mode: 'quick' | 'full',
  log: (line: string) => void,
  busy = false,
): Promise<string> {
  const title = "## 21. A free-voice file flood in one server, against another server's files (bench/file-flood.ts)";
  if (!freeVoiceInstalled()) {
    log('file-flood: eSpeak NG is not installed: figure 21 skipped');
    return `${title}\n\nSkipped: eSpeak NG (the optional \`espeak-ng\`) is not installed.`;
  }
  traceLog = log;
  const seconds = mode === 'quick' ? 12 : 30;
  const rounds = mode === 'quick' ? 3 : 5;
  const servers = await Servers.start(FLOOD_GUILD + 1, undefined, undefined, FLOODERS);
  const bot = await startBot(servers.info, {
    env: {
      // The outside check's owner: no per-minute ration of the free voice, no cooldown nor day's budget; SayBot's
      // own queue bounds (QUEUE_MAX_*) as `npm start` has them.
      BUDGET_MEMBER_FREE_PER_MINUTE: '0',
      FREE_VOICE: 'chosen',
      QUEUE_MAX_SECONDS: undefined,
      QUEUE_MAX_CLIPS: undefined,
      QUEUE_MAX_PER_MEMBER: undefined,
    },
  });
  let waits = 0;
  bot.bot.client.rest.on('rateLimited', (info) => {
    if (info.global) waits += 1;
  });
  const globalWaits = () => waits;
  const filesHeld = () => bot.bot.fileShares.held();
  try {
    log('file-flood: B caches its paid line; baseline (B alone)');
    await askFile(servers, { text: CACHED_LINE });
    await askFile(servers, { text: "B's warm-up free line.", voice: 'free-en-m' });
    const base = await bRounds(servers, 'B alone (baseline)', rounds, 'base', globalWaits, filesHeld);
    const rssBefore = process.memoryUsage.rss() / 1048576;
    log(
      `file-flood: ${FLOODERS} members of A send /say output:file in the free voice, ${PER_SECOND.toFixed(0)}/s for ${seconds} s`,
    );
    const flooding = servers.call('flood', {
      guildId: A.guildId,
      channelId: A.textChannelId,
      members: Array.from({ length: FLOODERS }, (_, k) => floodMember(k)),
      perSecond: PER_SECOND,
      seconds,
      buttons: [],
      frontEnds: ['say-file'],
      voice: 'free-en-f',
      tag: 'file flood',
      settleMs: 10_000,
      wordsWithinMs: 20_000,
    });
    await sleep(3000);
    const during = await bRounds(servers, 'A floods', rounds, 'flood', globalWaits, filesHeld);
    const counts: FloodCounts = await flooding;
    const rssAtEnd = process.memoryUsage.rss() / 1048576;
    const after = await bRounds(servers, 'after the flood', rounds, 'after', globalWaits, filesHeld);
    const phases = [base, during, after];
    const rows = phases.map(
      (p) =>
        `| ${p.name} | ${fmt(p.free)} | ${p === base ? '1x' : ratio(p.free, base.free)} | ${fmt(p.cached)} | ${p === base ? '1x' : ratio(p.cached, base.cached)} | ${p.rssMaxMb.toFixed(0)} MB | ${p.filesMax} | ${p.globalWaits} |`,
    );
    const sent = Object.values(counts.sent).reduce((sum, n) => sum + n, 0);
    const kinds = Object.entries(counts.answers)
      .sort((x, y) => y[1] - x[1])
      .map(([kind, n]) => `${n} × "${kind}"`)
      .join('; ');
    return [
      title,
      '',
      `SayBot in the bench's process with its own queue bounds, the free-request ration off (BUDGET_MEMBER_FREE_PER_MINUTE=0), the free voice chosen, the character budgets lifted; the local Discord and the sandbox in the servers process, which sends the flood: ${FLOODERS} members of server A send /say voice:free-en-f output:file, ${PER_SECOND.toFixed(0)} a second together, for ${seconds} s. Server B's member asks ${rounds} times, one after the other, for a file in the free voice (new words each time) and a file of a paid line already cached: alone first (the baseline), from 3 s into the flood, and after it, in the same run. Each: from INTERACTION_CREATE leaving the local Discord to the reply that carries the file (p50 / max), and its p50 against the baseline's. RSS: the bot's process (the bench's; the servers are another), the most seen over the phase. Files under way: the most files and voice messages held at once (src/features/speaking/file-shares.ts: ${MAX_FILES_PER_GUILD} a server, ${MAX_FILES} over the bot). Global REST waits: requests discord.js held back for the bot's global limit. ${busy ? 'A busy host: two processes the bench spawns, each burning a core (bench/burners.ts), throughout. ' : ''}Load: ${(loadavg()[0] ?? 0).toFixed(1)} at the end (the host is shared).`,
      '',
      "| Phase | B's free file p50 / max | against baseline | B's cached paid file p50 / max | against baseline | bot RSS max | files under way max | global REST waits |",
      '|---|---|---|---|---|---|---|---|',
      ...rows,
      '',
      `- The flood: ${sent} /say output:file sent in ${(counts.elapsedMs / 1000).toFixed(1)} s (${counts.failedToSend} not sent); ${counts.didNotRespond} with no response within Discord's 3 s; ${counts.responses} responses to them; first response p50 ${percentile(counts.firstResponseMs, 50).toFixed(0)} ms, max ${Math.max(...counts.firstResponseMs).toFixed(0)} ms.`,
      `- Each one's last answer, by kind ("(no words)": left deferred, nothing said within 20 s of its first response): ${kinds}.`,
      `- Bot RSS: ${rssBefore.toFixed(0)} MB before the flood, ${rssAtEnd.toFixed(0)} MB once its interactions were answered.`,
    ].join('\n');
  } finally {
    await bot.stop();
    await servers.close();
  }
}
