// Figure 20 of npm run bench: a free flood through the whole bot. SayBot, with its own queue bounds, free-request
// ration and log level, against the local Discord and the sandbox (the servers process, bench/servers.ts), run two
// ways: in the bench's process as every figure runs it (bench/bot.ts), and as its own process started as `npm start`
// starts it (its JSON log on a pipe to the bench, its event loop read from its own /metrics). Server B's member has a
// long /say spoken in the voice channel (the sandbox's paid voice); in the flood phases server A's members use four
// front-ends in turn, 36 a second: /say, the Speak message menu, a message in the channel auto-read reads, and "Play
// in my voice channel" under a file reply, all in the free voice (eSpeak NG, costs nothing), sent from the servers
// process (bench/flood-drive.ts). Each flood beside a baseline of the same bot with B alone: SayBot's event-loop
// delay over the phase, its main thread's CPU time (per flood item, over the baseline's), and B's largest gap between
// two audio packets as the local Discord heard them (20 ms when all is well; over B's whole clip, which spans the
// phase). BENCH_FLOOD_PROFILE=<file.cpuprofile> profiles the in-process bot's main thread over the first flood
// (the inspector's CPU profiler); BENCH_FLOOD_ONLY=say,speak floods through those front-ends only;
// BENCH_FLOOD_WAY=in or own runs the bot one way only.
import { readFileSync } from 'node:fs';
import { Client, Events, MessageFlags } from 'discord.js';
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { freePort, startBotProcess, type BotProcess } from '@saybot/local-discord';
import { heapFlags } from '../src/app/shard/heap-flags.ts';
import { boundedClientOptions } from '../src/app/saybot.ts';
import { BASE_INTENTS } from '../src/app/intents.ts';
import { AUTOREAD_INTENTS } from '../src/features/autoread/index.ts';
import { freeVoiceInstalled } from '../src/core/free-voice/free-voice-engine.ts';
import { MAX_ENTRIES } from '../src/features/autoread/dictionary/dictionary-limits.ts';
import { startBot, type BenchBot } from './bot.ts';
import { SAY_FINISHED, gatewayBudget, join, say, textLasting } from './drive.ts';
import { FLOOD_GUILD, benchGuild, floodMember } from './guilds.ts';
import type { CommandSpec, FloodCounts, FloodFrontEnd, FloodPlan } from './protocol.ts';
import { Servers } from './servers-client.ts';
import { gaps, percentile } from './stats.ts';

const SECONDS_PER_CHARACTER = 0.06; // the sandbox's default
export const FLOODERS = 32;
/** The outside check's 30-40 interactions a second, all four front-ends together. */
export const PER_SECOND = 36;
/** File replies whose "Play in my voice channel" the flood presses (one per member who made one). */
const BUTTONS = 8;
const STEP_TIMEOUT_MS = 60_000;
/**
 * A's pronunciation dictionary: its most entries (MAX_ENTRIES), words, a few of which the flood's lines say. What a
 * server keeps is read with every message the Speak menu reads (auto-read keeps its own): BENCH_FLOOD_DICTIONARY=0
 * floods a server without one.
 */
const DICTIONARY_WORDS = Number(process.env['BENCH_FLOOD_DICTIONARY'] ?? MAX_ENTRIES);

/** The dictionary's file, as /dictionary export writes one: `words` entries, the first few words the flood says. */
function dictionaryJson(words: number): string {
  const said = ['flood', 'line', 'member'];
  const entries = Array.from({ length: words }, (_, i) =>
    i < said.length ? { word: said[i], reading: `${said[i]}-reading` } : { word: `term${i}`, reading: `reading ${i}` },
  );
  return JSON.stringify({ version: 1, entries });
}
const A = benchGuild(FLOOD_GUILD);
const B = benchGuild(1);

/** SayBot's own bounds on what a flood may queue and its free-request ration, and its log level, as `npm start` has them. */
export const SAYBOT_DEFAULTS = [
  'LOG_LEVEL',
  'BUDGET_MEMBER_FREE_PER_MINUTE',
  'QUEUE_MAX_SECONDS',
  'QUEUE_MAX_CLIPS',
  'QUEUE_MAX_PER_MEMBER',
] as const;

type Way = 'in the bench process' | 'its own process (npm start)';

/** What a bot under test reports of one phase. */
interface BotFigures {
  loopP50Ms: number;
  loopP99Ms: number;
  loopMaxMs: number;
  /** The main thread's CPU time over the phase, ms. */
  mainCpuMs: number;
  /** The whole process's CPU time (all threads: the free voice's and audio workers' included), ms. */
  processCpuMs: number;
  /** What it logged over the phase, bytes. */
  loggedBytes: number;
  /**
   * Requests discord.js held back for its global limit (50 a second, interaction callbacks and edits counted too),
   * and how long it said they would wait, summed; known in the bench's process only.
   */
  restGlobalWaits?: { count: number; ms: number };
}

interface BotUnderTest {
  way: Way;
  /** Starts a phase's measures; the returned function ends them. */
  measure(): Promise<() => Promise<BotFigures>>;
  /** Warnings and errors it logged. */
  complaints(): string[];
  stop(): Promise<void>;
}

/** The bot in this process (bench/bot.ts): its event loop and main thread read here. */
async function inProcess(servers: Servers): Promise<BotUnderTest> {
  const env = {
    ...Object.fromEntries(SAYBOT_DEFAULTS.map((name) => [name, undefined])),
    // The dictionary's file comes from the local Discord's CDN, as Discord's own from its.
    ATTACHMENT_HOSTS: new URL(servers.info.restUrl).host,
  };
  const bot: BenchBot = await startBot(servers.info, { env });
  const waits = { count: 0, ms: 0 };
  bot.bot.client.rest.on('rateLimited', (info) => {
    if (!info.global) return;
    waits.count += 1;
    waits.ms += info.timeToReset;
  });
  return {
    way: 'in the bench process',
    async measure() {
      const loop = monitorEventLoopDelay({ resolution: 1 });
      loop.enable();
      const logged = bot.loggedBytes();
      const main = process.threadCpuUsage();
      const whole = process.cpuUsage();
      const held = { ...waits };
      return async () => {
        loop.disable();
        const mainUsed = process.threadCpuUsage(main);
        const wholeUsed = process.cpuUsage(whole);
        return {
          loopP50Ms: loop.percentile(50) / 1e6,
          loopP99Ms: loop.percentile(99) / 1e6,
          loopMaxMs: loop.max / 1e6,
          mainCpuMs: (mainUsed.user + mainUsed.system) / 1000,
          processCpuMs: (wholeUsed.user + wholeUsed.system) / 1000,
          loggedBytes: bot.loggedBytes() - logged,
          restGlobalWaits: { count: waits.count - held.count, ms: waits.ms - held.ms },
        };
      };
    },
    complaints: () => bot.complaints().filter((line) => /"level":[456]\d/.test(line)),
    stop: () => bot.stop(),
  };
}

/** CPU time (user + system) of a process, or of one of its threads, in ms, from /proc (clock ticks of 10 ms). */
function procCpuMs(path: string): number {
  // The fields after the command's closing parenthesis: utime and stime are the 12th and 13th of them.
  const fields = readFileSync(path, 'utf8').split(') ').at(-1)?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** A prom-client gauge's value in a /metrics page. */
function gauge(page: string, name: string): number {
  const line = page.split('\n').find((l) => l.startsWith(`${name} `) || l.startsWith(`${name}{`));
  return Number(line?.split(' ').at(-1));
}

/**
 * SayBot as its own process, as `npm start` runs it (src/bin/start.ts, the heap flags this bench was given), its
 * JSON log on a pipe to this process. Its event loop is read from its /metrics (prom-client's
 * nodejs_eventloop_lag_*: monitorEventLoopDelay at 10 ms resolution, reset at each scrape); its CPU from /proc.
 */
async function ownProcess(servers: Servers): Promise<BotUnderTest> {
  const { info } = servers;
  const metricsPort = await freePort();
  const bot: BotProcess = startBotProcess({
    entry: fileURLToPath(new URL('../src/bin/start.ts', import.meta.url)),
    nodeArgs: heapFlags(process.execArgv),
    caCertificatePem: info.caCertificatePem,
    env: {
      DISCORD_TOKEN: info.token,
      DISCORD_CLIENT_ID: info.applicationId,
      DISCORD_API_BASE_URL: info.restUrl,
      VOICE_API_BASE_URL: info.sandboxUrl,
      VOICE_API_KEY: info.apiKey,
      DATABASE_URL: 'sqlite:./data/saybot.sqlite',
      CACHE_DIR: './data/cache',
      METRICS_PORT: String(metricsPort),
      ATTACHMENT_HOSTS: new URL(info.restUrl).host,
      // B's paid clip is what is heard, not what it costs: the character budgets lifted, as bench/bot.ts lifts them.
      BUDGET_GUILD_MONTHLY_CHARS: '0',
      BUDGET_MEMBER_DAILY_CHARS: '0',
      BUDGET_MEMBER_COOLDOWN_SECONDS: '0',
      VOICE_IDLE_TIMEOUT_SECONDS: '3600',
    },
    keep: { lines: 2_000, chars: 2_000_000 },
  });
  try {
    await bot.waitForLine((line) => line['msg'] === 'SayBot is ready', 60_000);
  } catch (error) {
    await bot.stop();
    throw error;
  }
  const pid = bot.child.pid ?? 0;
  const scrape = async () => (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  let written = 0;
  bot.child.stdout?.on('data', (chunk: Buffer) => (written += chunk.length));
  return {
    way: 'its own process (npm start)',
    async measure() {
      await scrape(); // resets the event-loop histogram
      const main = procCpuMs(`/proc/${pid}/task/${pid}/stat`);
      const whole = procCpuMs(`/proc/${pid}/stat`);
      const logged = written;
      return async () => {
        const page = await scrape();
        return {
          loopP50Ms: gauge(page, 'nodejs_eventloop_lag_p50_seconds') * 1000,
          loopP99Ms: gauge(page, 'nodejs_eventloop_lag_p99_seconds') * 1000,
          loopMaxMs: gauge(page, 'nodejs_eventloop_lag_max_seconds') * 1000,
          mainCpuMs: procCpuMs(`/proc/${pid}/task/${pid}/stat`) - main,
          processCpuMs: procCpuMs(`/proc/${pid}/stat`) - whole,
          loggedBytes: written - logged,
        };
      };
    },
    complaints: () => bot.lines.filter((line) => Number(line['level']) >= 40).map((line) => JSON.stringify(line)),
    stop: () => bot.stop(),
  };
}

interface Phase extends BotFigures {
  way: Way;
  name: string;
  seconds: number;
  /** B's largest gap between two audio packets, as a listener hears it. */
  bGapMaxMs: number;
  bGapP99Ms: number;
  bLate: number;
  bPackets: number;
  /** B's largest gap between two datagrams of any kind within the clip: late datagrams (sent or received late). */
  bWireGapMaxMs: number;
  /** Silence frames within B's clip: a packet not ready in its slot (the supply late), held by silence. */
  bStandIns: number;
  /** The servers process's event-loop delay over the phase (its clock stamps what B is heard at). */
  serversLoopMaxMs: number;
  load: number;
  /** The flood's own counts (none in a baseline). */
  counts?: FloodCounts;
  /** B's probe (a /myvoice show every 500 ms): each first response's time, and those Discord gave up on. */
  probeMs: number[];
  probeDidNotRespond: number;
}

const ms = (value: number) => `${value.toFixed(0)} ms`;

async function ask(servers: Servers, spec: CommandSpec) {
  const sent = await servers.call('command', spec);
  return servers.call('waitReply', { interactionId: sent.interactionId, pattern: '.+', timeoutMs: STEP_TIMEOUT_MS });
}

/** The members' voices made the free one, auto-read started, B in its channel, the file replies made. */
export async function setUp(servers: Servers, log: (line: string) => void): Promise<FloodPlan['buttons']> {
  const members = Array.from({ length: FLOODERS }, (_, k) => floodMember(k));
  log(`flood: ${FLOODERS} members of A take the free voice as theirs; auto-read starts in A; B's member joins`);
  for (const userId of members)
    await ask(servers, {
      guildId: A.guildId,
      userId,
      name: 'myvoice',
      subcommand: 'set',
      options: { voice: 'free-en-m' },
    });
  if (DICTIONARY_WORDS > 0) {
    const sent = await servers.call('importDictionary', {
      guildId: A.guildId,
      userId: A.userId,
      json: dictionaryJson(DICTIONARY_WORDS),
    });
    const imported = await servers.call('waitReply', {
      interactionId: sent.interactionId,
      pattern: '.+',
      timeoutMs: STEP_TIMEOUT_MS,
    });
    if (!imported.content.includes(String(DICTIONARY_WORDS)))
      throw new Error(`/dictionary import: ${imported.content}`);
  }
  const reading = await ask(servers, { guildId: A.guildId, userId: A.userId, name: 'autoread', subcommand: 'start' });
  if (!reading.content.includes('Reading')) throw new Error(`/autoread start: ${reading.content}`);
  await join(servers, B);
  const buttons: FloodPlan['buttons'] = [];
  for (const userId of members.slice(0, BUTTONS)) {
    const text = `A file reply of member ${userId.slice(-2)}, to be played again and again.`;
    const reply = await ask(servers, { guildId: A.guildId, userId, name: 'say', options: { text, output: 'file' } });
    const play = reply.customIds.find((id) => id.startsWith('sb1:play:'));
    if (play === undefined) throw new Error(`/say output:file: no play button under "${reply.content}"`);
    buttons.push({ userId, messageId: reply.messageId, customId: play });
  }
  return buttons;
}

async function phase(
  servers: Servers,
  bot: BotUnderTest,
  name: string,
  plan: Omit<FloodPlan, 'tag'>,
  flooding: boolean,
  seconds: number,
  tag: string,
  profile?: string,
): Promise<Phase> {
  await servers.call('clearAudio', { guildIds: [B.guildId] });
  // B's clip outlasts the phase: two seconds before it, the phase, and four after.
  const text = textLasting(seconds + 6, SECONDS_PER_CHARACTER, `B ${tag}`);
  const sent = await say(servers, B, text);
  await servers.call('firstPacket', { guildId: B.guildId, sinceMs: sent.dispatchedAtMs, timeoutMs: STEP_TIMEOUT_MS });
  await sleep(2000);
  const session = profile ? new Session() : undefined;
  if (session) {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 500 });
    await session.post('Profiler.start');
  }
  await servers.call('usage', { reset: true });
  const measured = await bot.measure();
  // The baseline sends nothing but B's probe; the call returns once every interaction was answered (or given up on).
  const counts = await servers.call('flood', { ...plan, ...(flooding ? {} : { perSecond: 0 }), tag, seconds });
  const wallMs = counts.elapsedMs;
  const figures = await measured();

  const serversUsage = await servers.call('usage', { reset: false });
  if (session && profile) {
    const { profile: taken } = await session.post('Profiler.stop');
    await writeFile(profile, JSON.stringify(taken));
    session.disconnect();
  }
  await servers.call('waitReply', { interactionId: sent.interactionId, pattern: SAY_FINISHED, timeoutMs: 120_000 });
  const [audio] = await servers.call('waitAudio', {
    guildIds: [B.guildId],
    minSeconds: 0,
    quietMs: 500,
    timeoutMs: STEP_TIMEOUT_MS,
  });
  const arrivals = audio?.arrivals ?? [];
  const between = gaps(arrivals);
  const first = arrivals[0] ?? 0;
  const last = arrivals.at(-1) ?? 0;
  const standIns = (audio?.silences ?? []).filter((t) => t > first && t < last);
  const wire = gaps([...arrivals, ...standIns].sort((x, y) => x - y));
  return {
    ...figures,
    way: bot.way,
    name,
    seconds: wallMs / 1000,
    bGapMaxMs: Math.max(...between),
    bGapP99Ms: percentile(between, 99),
    bLate: between.filter((g) => g > 40).length,
    bPackets: arrivals.length,
    bWireGapMaxMs: Math.max(...wire),
    bStandIns: standIns.length,
    serversLoopMaxMs: serversUsage.eventLoopMaxMs,
    load: loadavg()[0] ?? 0,
    ...(flooding ? { counts } : {}),
    probeMs: counts.probeMs,
    probeDidNotRespond: counts.probeDidNotRespond,
  };
}

const sentOf = (counts: FloodCounts) => Object.values(counts.sent).reduce((s, n) => s + n, 0);

function answered(counts: FloodCounts): string {
  const sent = sentOf(counts);
  const first = counts.firstResponseMs;
  return (
    `${sent} sent in ${(counts.elapsedMs / 1000).toFixed(1)} s (${sent - counts.sent.autoread} interactions, ${counts.sent.autoread} messages); ` +
    `first response p50 ${ms(percentile(first, 50))}, p99 ${ms(percentile(first, 99))}, max ${ms(Math.max(...first))}; ` +
    `${counts.didNotRespond} did not respond within 3 s; ${counts.failedToSend} not sent; ${counts.responses} responses to the interactions`
  );
}

/** One bot: set up, warmed up, then `rounds` of B alone and B beside A's flood. */
async function measureWay(
  start: (servers: Servers) => Promise<BotUnderTest>,
  mode: 'quick' | 'full',
  log: (line: string) => void,
  profile: string | undefined,
): Promise<Phase[]> {
  const seconds = mode === 'quick' ? 8 : 20;
  const rounds = mode === 'quick' ? 1 : 2;
  const servers = await Servers.start(FLOOD_GUILD + 1, undefined, undefined, FLOODERS);
  let bot: BotUnderTest | undefined;
  const phases: Phase[] = [];
  try {
    bot = await start(servers);
    gatewayBudget.reset();
    // B's clip streams from the sandbox at four times real time after a short first byte, as figure 1's does.
    await servers.call('setPacing', { pacing: { startDelayMs: 300, realtimeFactor: 0.25 } });
    const buttons = await setUp(servers, log);
    const only = process.env['BENCH_FLOOD_ONLY'];
    const plan = {
      guildId: A.guildId,
      channelId: A.textChannelId,
      members: Array.from({ length: FLOODERS }, (_, k) => floodMember(k)),
      perSecond: PER_SECOND,
      seconds,
      buttons,
      settleMs: 10_000,
      probe: { guildId: B.guildId, userId: B.userId, everyMs: 500 },
      ...(only ? { frontEnds: only.split(',') as FloodFrontEnd[] } : {}),
    };
    log(`flood, ${bot.way}: warm-up (a short flood at a third of the rate, untimed)`);
    const { probe: _probe, ...warmUp } = plan;
    await servers.call('flood', { ...warmUp, perSecond: PER_SECOND / 3, seconds: 3, tag: 'warm-up' });
    await sleep(5000);
    for (let round = 1; round <= rounds; round++) {
      log(`flood, ${bot.way}: round ${round}: B alone in voice, ${seconds} s (baseline)`);
      phases.push(
        await phase(servers, bot, `B alone (baseline), round ${round}`, plan, false, seconds, `base ${round}`),
      );
      log(`flood, ${bot.way}: round ${round}: A floods (${PER_SECOND}/s for ${seconds} s) while B speaks`);
      const name = `A floods, round ${round}`;
      const flooded = await phase(
        servers,
        bot,
        name,
        plan,
        true,
        seconds,
        `flood ${round}`,
        round === 1 ? profile : undefined,
      );
      phases.push(flooded);
      if (flooded.counts) log(`flood: ${answered(flooded.counts)}`);
      // A's voice queue drains before the next baseline.
      await sleep(15_000);
    }
    const complaints = bot.complaints();
    if (complaints.length > 0)
      log(`flood: the bot logged ${complaints.length} warnings or errors, first: ${complaints[0]}`);
  } finally {
    await bot?.stop();
    await servers.close();
  }
  for (const p of phases)
    log(
      `flood, ${p.way}: ${p.name}: loop p50/p99/max ${p.loopP50Ms.toFixed(1)}/${p.loopP99Ms.toFixed(1)}/${p.loopMaxMs.toFixed(0)} ms, main CPU ${ms(p.mainCpuMs)}, global REST waits ${p.restGlobalWaits?.count ?? 'n/a'}, B's answers p50/max ${ms(percentile(p.probeMs, 50))}/${ms(Math.max(...p.probeMs))}, B gap max ${ms(p.bGapMaxMs)} (datagrams ${ms(p.bWireGapMaxMs)}, ${p.bStandIns} stand-ins), servers loop max ${ms(p.serversLoopMaxMs)}, logged ${(p.loggedBytes / 1024).toFixed(0)} KiB, load ${p.load.toFixed(1)}`,
    );
  return phases;
}

/**
 * The floor under the bot's own work: a bare discord.js client (the bot's cache bounds and intents for these events),
 * which answers each /say and Speak with one private reply and reads each message without doing anything, meets the
 * same flood (buttons left out: there are no replies to press). Its main thread's CPU per item sent is discord.js's
 * share of the bot's per item (the gateway's events and one REST request each).
 */
async function bareClientPerItem(seconds: number): Promise<number> {
  const servers = await Servers.start(FLOOD_GUILD + 1, undefined, undefined, FLOODERS);
  const { info } = servers;
  const client = new Client({
    intents: [...BASE_INTENTS, ...AUTOREAD_INTENTS],
    ...boundedClientOptions(info.restUrl),
  });
  const content = "This server's voice queue is full (20 clips waiting, at most 20).";
  client.on(Events.InteractionCreate, (interaction) => {
    if (interaction.isRepliable())
      void interaction.reply({ content, flags: MessageFlags.Ephemeral }).catch(() => undefined);
  });
  client.on(Events.MessageCreate, () => undefined);
  try {
    const ready = new Promise((resolve) => client.once(Events.ClientReady, resolve));
    await client.login(info.token);
    await ready;
    const plan = {
      guildId: A.guildId,
      channelId: A.textChannelId,
      members: Array.from({ length: FLOODERS }, (_, k) => floodMember(k)),
      perSecond: PER_SECOND,
      buttons: [],
      settleMs: 10_000,
      frontEnds: ['say', 'speak', 'autoread'] as FloodFrontEnd[],
    };
    await servers.call('flood', { ...plan, seconds: 3, tag: 'warm-up' });
    const before = process.threadCpuUsage();
    const counts = await servers.call('flood', { ...plan, seconds, tag: 'bare' });
    const used = process.threadCpuUsage(before);
    return (used.user + used.system) / 1000 / sentOf(counts);
  } finally {
    await client.destroy();
    await servers.close();
  }
}

export async function measureFlood(mode: 'quick' | 'full', log: (line: string) => void): Promise<string> {
  const title = '## 20. A free flood through the whole bot, against another server in voice (bench/flood.ts)';
  if (!freeVoiceInstalled()) {
    log('flood: eSpeak NG is not installed: figure 20 skipped');
    return `${title}\n\nSkipped: eSpeak NG (the optional \`espeak-ng\`) is not installed.`;
  }
  const loadAtStart = loadavg()[0] ?? 0;
  // BENCH_FLOOD_WAY=in or own: only the bot in the bench's process, or only the bot in its own.
  const way = process.env['BENCH_FLOOD_WAY'];
  const phases = [
    ...(way === 'own' ? [] : await measureWay(inProcess, mode, log, process.env['BENCH_FLOOD_PROFILE'])),
    ...(way === 'in' ? [] : await measureWay(ownProcess, mode, log, undefined)),
  ];
  log('flood: the floor, a bare discord.js client answering the same flood');
  const floorMs = await bareClientPerItem(mode === 'quick' ? 8 : 20);
  const baselineOf = (p: Phase) =>
    phases.find((q) => q.way === p.way && q.counts === undefined && q.name.endsWith(p.name.split(', ').at(-1) ?? ''));
  const perItem = (p: Phase) => {
    const base = baselineOf(p);
    if (!p.counts || !base) return '';
    const extra = p.mainCpuMs - (base.mainCpuMs * p.seconds) / base.seconds;
    return `${(extra / sentOf(p.counts)).toFixed(2)} ms`;
  };
  const waits = (p: Phase) =>
    p.restGlobalWaits === undefined ? 'n/a' : `${p.restGlobalWaits.count} (${ms(p.restGlobalWaits.ms)})`;
  const botRows = phases.map(
    (p) =>
      `| ${p.way} | ${p.name} | ${p.seconds.toFixed(1)} s | ${p.loopP50Ms.toFixed(1)} ms | ${p.loopP99Ms.toFixed(1)} ms | ${ms(p.loopMaxMs)} | ${ms(p.mainCpuMs)} | ${perItem(p)} | ${ms(p.processCpuMs)} | ${waits(p)} | ${(p.loggedBytes / 1024).toFixed(0)} KiB | ${p.load.toFixed(1)} |`,
  );
  const bRows = phases.map(
    (p) =>
      `| ${p.way} | ${p.name} | ${ms(p.bGapMaxMs)} | ${p.bGapP99Ms.toFixed(1)} ms | ${p.bLate} of ${p.bPackets} | ${ms(p.bWireGapMaxMs)} | ${p.bStandIns} | ${ms(p.serversLoopMaxMs)} | ${ms(percentile(p.probeMs, 50))} | ${ms(Math.max(...p.probeMs))} | ${p.probeDidNotRespond} of ${p.probeMs.length} |`,
  );
  const floods = phases.flatMap((p) => (p.counts ? [`- ${p.way}, ${p.name}: ${answered(p.counts)}.`] : []));
  const kinds = phases.flatMap((p) =>
    p.counts
      ? [
          `- ${p.way}, ${p.name}, answers by kind: ${Object.entries(p.counts.answers)
            .sort((x, y) => y[1] - x[1])
            .map(([kind, n]) => `${n} × "${kind}"`)
            .join('; ')}.`,
        ]
      : [],
  );
  return [
    title,
    '',
    `SayBot with its own queue bounds, free-request ration and log level (info; the character budgets lifted), the local Discord and the sandbox in the servers process; the bot in the bench's process, then as its own process started as \`npm start\` starts it (its log on a pipe to the bench). Server B's member has a long /say spoken in voice (the sandbox's paid voice, streamed at 4x real time); in the flood phases ${FLOODERS} members of server A use four front-ends in turn, ${PER_SECOND} a second: /say, the Speak menu, a message auto-read reads, and "Play in my voice channel" under one of ${BUTTONS} file replies, all in the free voice. Event-loop delay: in the bench's process, monitorEventLoopDelay (1 ms resolution) over the phase; in its own, its /metrics (the same at 10 ms, prom-client's). Main thread: its CPU time over the phase; per item: what the flood added to it (over the baseline's rate) per interaction or message sent; process: all its threads. B's gaps: between consecutive audio packets of B's whole clip as the local Discord heard them (20 ms is none; late: over 40 ms); datagram gap: between two datagrams of any kind within the clip (a datagram sent or stamped late); stand-ins: silence frames within the clip (a packet not ready in its slot, the supply late); servers loop: the event-loop delay of the process that stamps B's packets; logged: the bytes of log lines the bot wrote over the phase; global REST waits: the requests discord.js held back for its global limit of 50 a second (which counts interaction callbacks and edits, which Discord exempts), and the waits it announced, summed (known in the bench's process only). B's answers: B's member asks for /myvoice show every 500 ms through the phase; from INTERACTION_CREATE leaving the local Discord to the bot's first response. Load: the 1-minute load average at the phase's end (${loadAtStart.toFixed(1)} at the start; the host is shared).`,
    '',
    '| Bot | Phase | took | loop delay p50 | p99 | max | main thread CPU | per item | process CPU | global REST waits | logged | load |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...botRows,
    '',
    "| Bot | Phase | B gap max | B gap p99 | B late | B datagram gap max | B stand-ins | servers loop max | B's answers p50 | B's answers max | B's not answered in 3 s |",
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...bRows,
    '',
    ...floods,
    ...kinds,
    `- The floor, a bare discord.js client answering each /say and Speak of the same flood with one private reply and reading each message (no buttons: no replies to press): ${floorMs.toFixed(2)} ms of its main thread per item.`,
  ].join('\n');
}
