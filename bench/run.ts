// npm run bench [-- --quick] [--only=ttfa,cache,concurrency,cached-voices,memory,latency,shared-cache,budget-hold,text,free-voice,free-voice-reading,scene-mix,scene,mute,long-jobs,holds,pages,path-files,flood,file-flood,pauses,start-lead,pace,engines,scene-voice,seats,voice-move] [--counts=10,50] [--encoder=legacy|speech|speech-main] [--busy] [--ordinary-sender] [--write]
// Runs the real bot against the fake Discord and the sandbox on 127.0.0.1 and prints each figure beside its
// baseline measured in the same run; --write also puts the report in docs/benchmarks.md.
import { loadavg } from 'node:os';
import { readFile, writeFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { senderThread } from '../src/core/voice/sender/sender-thread.ts';
import { startBot, type BenchBot } from './bot.ts';
import { joinAll, measureStep, probedStep, type ConcurrencyStep } from './concurrency.ts';
import { SAY_FINISHED, gatewayBudget, say, textLasting } from './drive.ts';
import { benchGuild, benchGuilds } from './guilds.ts';
import { machine } from './machine.ts';
import { measureMemory, snapshot } from './memory.ts';
import { FIGURES, STANDALONE, plan, type Figure, type Plan } from './plan.ts';
import { render, type LatencySamples, type Results, type TtfaSamples } from './report.ts';
import { Servers } from './servers-client.ts';
import { measureSharedCache } from './shared-cache.ts';
import { cacheLookupReport } from './cache-lookup.ts';
import { measureBudgetHold } from './budget-hold.ts';
import { measureText } from './text.ts';
import { measureFreeVoice } from './free-voice.ts';
import { measureFreeVoiceReading } from './free-voice-reading.ts';
import { measureSceneMix } from './scene-mix.ts';
import { measureScene } from './scene.ts';
import { measureMute } from './mute.ts';
import { measureLongJobs } from './long-jobs.ts';
import { measureHolds } from './holds.ts';
import { measurePages } from './pages.ts';
import { measurePathFiles } from './path-files.ts';
import { measureFlood } from './flood.ts';
import { measureFileFlood } from './file-flood.ts';
import { measurePauses } from './pauses.ts';
import { measureStartLead } from './start-lead.ts';
import { measurePace } from './pace.ts';
import { measureSeats } from './seats.ts';
import { measureEngines } from './engines.ts';
import { measureSceneVoice } from './scene-voice.ts';
import { measureVoiceMove } from './voice-move.ts';
import { burners } from './burners.ts';
import type { OpusSettings } from '../src/core/audio/codecs/opus-settings.ts';
import { OPUS_ENCODER_SETTINGS } from '../src/core/cache/audio-fill.ts';
import { LEGACY_SETTINGS } from '../fixtures/legacy-encoding.ts';
import type { BenchVoicePlane } from './senders/senders.ts';
import { measureEncoderFloor } from './opus-floor.ts';
import { readyRss } from './ready-rss.ts';
import { costProbe } from './send-cost.ts';
import { measureTtfa } from './ttfa.ts';

/** --encoder: the player's Opus encoder for the whole run (experiments; the figures use their own baselines). */
const ENCODERS: Record<string, Readonly<OpusSettings>> = {
  legacy: LEGACY_SETTINGS,
  speech: OPUS_ENCODER_SETTINGS,
  'speech-main': { ...OPUS_ENCODER_SETTINGS, thread: 'main' },
};

const SECONDS_PER_CHARACTER = 0.06; // the sandbox's default

/**
 * The bots' voice planes: SayBot's (the run's encoder, the clock), and the baseline's: the path before issue 25 as a
 * whole, @discordjs/voice's cycle and WAV/MP3 decoded and resampled on the main thread (the same encoder).
 */
interface Planes {
  saybot: BenchVoicePlane;
  baseline: BenchVoicePlane;
}

function parse(): { plan: Plan; write: boolean; command: string; planes: Planes; busy: boolean } {
  const { values } = parseArgs({
    options: {
      quick: { type: 'boolean', default: false },
      only: { type: 'string' },
      counts: { type: 'string' },
      write: { type: 'boolean', default: false },
      encoder: { type: 'string' },
      busy: { type: 'boolean', default: false },
      'ordinary-sender': { type: 'boolean', default: false },
    },
  });
  // The sender thread at ordinary scheduling, to compare with the real-time priority SayBot asks for where allowed.
  if (values['ordinary-sender']) senderThread.realtime = false;
  const figures = values.only === undefined ? [...FIGURES] : values.only.split(',').map((f) => f.trim());
  for (const f of figures)
    if (!FIGURES.includes(f as Figure)) throw new Error(`--only: unknown figure "${f}" (${FIGURES.join(', ')})`);
  const counts = values.counts?.split(',').map(Number);
  if (counts?.some((n) => !Number.isInteger(n) || n < 1))
    throw new Error('--counts: whole numbers >= 1, e.g. --counts=10,50');
  const encoding = ENCODERS[values.encoder ?? 'speech'];
  if (!encoding) throw new Error(`--encoder: one of ${Object.keys(ENCODERS).join(', ')}`);
  const args = process.argv.slice(2);
  return {
    planes: {
      saybot: { encoding, sender: 'worker' },
      baseline: { encoding: { ...encoding, decode: 'main' }, sender: 'library' },
    },
    plan: plan(values.quick ? 'quick' : 'full', figures as Figure[], counts),
    write: values.write,
    busy: values.busy,
    command: `npm run bench${args.length > 0 ? ` -- ${args.join(' ')}` : ''}`,
  };
}

const BEGIN = '<!-- bench:begin (written by npm run bench -- --write; edit outside these markers) -->';
const END = '<!-- bench:end -->';

/** Replaces the measured part of docs/benchmarks.md, keeping what people wrote around it (the analysis). */
async function writeReport(report: string): Promise<void> {
  const file = new URL('../docs/benchmarks.md', import.meta.url);
  const current = await readFile(file, 'utf8').catch(() => '');
  const start = current.indexOf(BEGIN);
  const end = current.indexOf(END);
  const block = `${BEGIN}\n${report}\n${END}`;
  const next =
    start >= 0 && end > start ? current.slice(0, start) + block + current.slice(end + END.length) : `${block}\n`;
  await writeFile(file, next);
}

function log(line: string): void {
  console.error(`[bench ${new Date().toISOString().slice(11, 19)}] ${line}`);
}

async function ttfaWith(servers: Servers, p: Plan, label: string): Promise<TtfaSamples> {
  const text = (phase: string) => (run: number) =>
    textLasting(p.ttfa.clipSeconds, SECONDS_PER_CHARACTER, `${label} ${phase} ${run}`);
  await servers.call('setPacing', {
    pacing: { startDelayMs: p.ttfa.startDelayMs, realtimeFactor: p.ttfa.realtimeFactor },
  });
  const inChannel = await measureTtfa(servers, benchGuild(0), {
    text: text('in channel'),
    startDelayMs: p.ttfa.startDelayMs,
    runs: p.ttfa.runs,
    warmup: p.ttfa.warmup,
    firstJoin: false,
  });
  const firstJoin = await measureTtfa(servers, benchGuild(1), {
    text: text('first join'),
    startDelayMs: p.ttfa.startDelayMs,
    runs: p.ttfa.firstJoinRuns,
    warmup: p.ttfa.firstJoinWarmup,
    firstJoin: true,
  });
  return { inChannel: inChannel.overheadMs, firstJoin: firstJoin.overheadMs };
}

/**
 * Figure 5: time to first heard audio with network delays, on a fake Discord per DAVE mode, same bot code; first
 * joins also time the join itself.
 */
async function latencyFigure(p: Plan, planes: Planes, complaints: string[]): Promise<NonNullable<Results['latency']>> {
  const l = p.latency;
  const measure = async (mode: 'off' | 'required', voicePlane = planes.saybot): Promise<LatencySamples> => {
    // The gateway latency applies to DAVE messages too (every voice gateway message): no extra handshake delay.
    const servers = await Servers.start(10, { mode, handshakeDelayMs: 0 }, l.delays);
    let bot: BenchBot | undefined;
    try {
      bot = await startBot(servers.info, { voicePlane });
      gatewayBudget.reset();
      await servers.call('setPacing', { pacing: { startDelayMs: l.ttfbMs, realtimeFactor: p.ttfa.realtimeFactor } });
      const text = (phase: string) => (run: number) =>
        textLasting(p.ttfa.clipSeconds, SECONDS_PER_CHARACTER, `Network ${mode} ${phase} ${run}`);
      // Nothing subtracted here: the report takes the fixed network legs off.
      const common = { startDelayMs: 0, warmup: l.warmup, heard: true };
      const inChannel = await measureTtfa(servers, benchGuild(0), {
        ...common,
        text: text('in channel'),
        runs: l.runs,
        firstJoin: false,
      });
      const firstJoin = await measureTtfa(servers, benchGuild(1), {
        ...common,
        text: text('first join'),
        runs: l.firstJoinRuns,
        firstJoin: true,
        joinTimes: true,
      });
      complaints.push(
        ...bot.complaints(),
        ...(await servers.call('problems', {})).map((line) => `fake Discord (DAVE ${mode}, delays): ${line}`),
      );
      return { inChannel: inChannel.overheadMs, firstJoin: firstJoin.overheadMs, joinMs: firstJoin.joinMs };
    } finally {
      await bot?.stop();
      await servers.close();
    }
  };
  return {
    off: await measure('off'),
    required: await measure('required'),
    libraryRequired: await measure('required', planes.baseline),
  };
}

/**
 * Figure 9: cached replies in N guilds at once. Each of `phrases` texts is said once first (a request, decoded and
 * encoded, its packets stored), then every step says them again: the players get the stored packets, nothing is
 * decoded or encoded, no request reaches the sandbox. `bot` speaks at `counts` (its own cache: each bot fills it).
 */
async function cachedVoices(
  servers: Servers,
  p: Plan,
  bot: BenchBot,
  counts: readonly number[],
): Promise<NonNullable<Results['cachedVoices']>> {
  const c = p.cachedVoices;
  const sender = bot.voicePlane.sender;
  const baseline = sender === 'library' ? ', library cycle (baseline)' : '';
  const guilds = benchGuilds(Math.max(...counts));
  log(`cached voices: joining ${guilds.length} guilds${baseline}`);
  await joinAll(servers, guilds);
  const phrase = (k: number) =>
    textLasting(c.clipSeconds, SECONDS_PER_CHARACTER, `A phrase said often ${k % c.phrases}`);
  await servers.call('setPacing', { pacing: { startDelayMs: 0, realtimeFactor: 0 } });
  await Promise.all(
    guilds.slice(0, c.phrases).map(async (g, k) => {
      const sent = await say(servers, g, phrase(k));
      await servers.call('waitResponse', {
        interactionId: sent.interactionId,
        pattern: SAY_FINISHED,
        timeoutMs: 60_000,
      });
    }),
  );
  // The cache entry is written when the body ends, which the played clip already waited for; a moment for the rename.
  await sleep(500);
  const before = await servers.call('requestCount', {});
  const clipSeconds = await servers.call('expectedSeconds', { text: phrase(0) });
  const steps: ConcurrencyStep[] = [];
  const text = (i: number) => phrase(i);
  for (const n of counts) {
    log(`cached voices: N = ${n}${baseline}`);
    steps.push(await measureStep(servers, guilds, { sender, text, clipSeconds }, n));
  }
  return { steps, apiRequests: (await servers.call('requestCount', {})) - before };
}

/** Figure 2: the same text again, once a first /say put it in the cache; no request should reach the sandbox. */
async function cacheHits(servers: Servers, p: Plan): Promise<NonNullable<Results['cacheHit']>> {
  const text = textLasting(p.ttfa.clipSeconds, SECONDS_PER_CHARACTER, 'A reply from the cache');
  const guild = benchGuild(0);
  await servers.call('setPacing', {
    pacing: { startDelayMs: p.ttfa.startDelayMs, realtimeFactor: p.ttfa.realtimeFactor },
  });
  await measureTtfa(servers, guild, { text: () => text, startDelayMs: 0, runs: 1, warmup: 0, firstJoin: false });
  // The stopped run's part is still read to its end and cached: give it the body's time (10 s at 4x) and more.
  await sleep(p.ttfa.clipSeconds * p.ttfa.realtimeFactor * 1000 + 1000);
  const before = await servers.call('requestCount', {});
  const hits = await measureTtfa(servers, guild, {
    text: () => text,
    startDelayMs: 0,
    runs: p.ttfa.runs,
    warmup: p.ttfa.warmup,
    firstJoin: false,
  });
  return { totalMs: hits.overheadMs, apiRequests: (await servers.call('requestCount', {})) - before };
}

async function main(): Promise<void> {
  const { plan: p, write, command, planes, busy } = parse();
  const started = performance.now();
  const results: Results = {
    plan: p,
    machine: machine(),
    command,
    date: new Date().toISOString(),
    problems: [],
    seconds: 0,
  };
  const has = (f: Figure): boolean => p.figures.includes(f);
  if (globalThis.gc === undefined)
    log('node runs without --expose-gc: memory snapshots will include garbage (npm run bench sets it)');

  log(`${p.mode} run: ${p.figures.join(', ')}`);
  // First, while nothing else runs: it needs neither the bot nor the servers.
  if (has('shared-cache')) {
    log('shared cache and /usage chart');
    results.sharedCache = await measureSharedCache(p.sharedCache);
  }
  // Cache lookups at 3,000 voice folders, before and after issue 23 (bench/cache-lookup.ts renders its own section).
  const lookups = has('shared-cache') ? await cacheLookupReport(p.mode) : undefined;
  // Figure 7 (bench/budget-hold.ts), its own section appended to the report.
  const budgetHold = has('budget-hold') ? await measureBudgetHold(p.mode, log) : undefined;
  // Figure 10 (bench/text.ts): clean-up and the dictionary, per message, its own section appended too.
  const text = has('text') ? await measureText(p.mode, log) : undefined;
  // Figure 11 (bench/free-voice.ts): the free voice beside the sandbox's paid path, its own section too.
  const freeVoice = has('free-voice') ? await measureFreeVoice(p.mode, log) : undefined;
  // Figure 14 (bench/free-voice-reading.ts): the free voice reading Japanese, its own section too.
  const freeReading = has('free-voice-reading') ? await measureFreeVoiceReading(p.mode, log) : undefined;
  // Figure 12 (bench/scene-mix.ts): a /scene's lines mixed as one file, its own section too.
  const sceneMix = has('scene-mix') ? await measureSceneMix(p.mode, log) : undefined;
  // Figure 13 (bench/scene.ts): a /scene in voice against the same lines as /say, on a bot and servers of its own.
  const scene = has('scene') ? await measureScene(p.mode, log) : undefined;
  // Figure 15 (bench/mute.ts): a member muted mid-part against their own /stop, on a bot and servers of its own.
  const mute = has('mute') ? await measureMute(p.mode, log) : undefined;
  // Figure 16 (bench/long-jobs.ts): one server's long job against another server's short work, beside idle.
  const longJobs = has('long-jobs') ? await measureLongJobs(p.mode, log) : undefined;
  // Figure 17 (bench/holds.ts): server B's short work while A runs its biggest free jobs, on a quiet and a busy host.
  const holds = has('holds') ? await measureHolds(p.mode, log) : undefined;
  // Figure 18 (bench/pages.ts): each dashboard page's bytes and requests in the real browser, and without script.
  const pages = has('pages') ? await measurePages(log) : undefined;
  // Figure 19 (bench/path-files.ts): the source files a /say crosses to its first request and packet, counted.
  const pathFiles = has('path-files') ? await measurePathFiles(log) : undefined;
  // Figure 20 (bench/flood.ts): a free flood through the whole bot against another server in voice.
  const flood = has('flood') ? await measureFlood(p.mode, log) : undefined;
  // Figure 21 (bench/file-flood.ts): one server's free-voice file flood against another server's files; with --busy
  // on a host kept busy by two burners (as the shared host it was first measured on was).
  let fileFlood: string | undefined;
  if (has('file-flood')) {
    const stopBurning = busy ? burners(10 * 60_000) : () => {};
    try {
      fileFlood = await measureFileFlood(p.mode, log, busy);
    } finally {
      stopBurning();
    }
  }
  // Figure 22 (bench/pauses.ts): voices on time while the main thread pauses, per sender, on a bot of its own each.
  const pauses = has('pauses') ? await measurePauses(p.mode, log) : undefined;
  // Figure 23 (bench/start-lead.ts): a clip's start while the main thread pauses, with the start lead and without.
  const startLead = has('start-lead') ? await measureStartLead(p.mode, log) : undefined;
  // Figure 24 (bench/pace.ts): another server's voice beside the largest free scene mixed as MP3, idle and busy.
  const pace = has('pace') ? await measurePace(p.mode, log) : undefined;
  // Figure 25 (bench/engines.ts): time to first audio through the owner's engines, and a flood's effect on another
  // server's engine line, against the engines' doubles.
  const engines = has('engines') ? await measureEngines(p.mode, log) : undefined;
  // Figure 26 (bench/scene-voice.ts): another server's voice while a 300 s scene is mixed as a file, three burners.
  const sceneVoice = has('scene-voice') ? await measureSceneVoice(p.mode, log) : undefined;
  // Figure 27 (bench/seats.ts): 8 seats in one server against 8 servers, and a helper bot's memory at rest.
  const seats = has('seats') ? await measureSeats(p.mode, log) : undefined;
  // Figure 28 (bench/voice-move.ts): a voice server move mid-line, quiet and with the main thread held up at it.
  const voiceMove = has('voice-move') ? await measureVoiceMove(p.mode, log) : undefined;
  if (p.figures.some((f) => !STANDALONE.includes(f))) {
    // --busy: the bot's figures (capacity, beside the library cycle) on a host kept busy by two burners.
    const stopBurning = busy ? burners(60 * 60_000) : () => {};
    try {
      log(`bot figures on a ${busy ? 'busy' : 'quiet'} host: load average ${loadavg()[0]?.toFixed(1)} at the start`);
      await botFigures(p, planes, results);
      log(`bot figures: load average ${loadavg()[0]?.toFixed(1)} at the end`);
    } finally {
      stopBurning();
    }
  }
  results.seconds = (performance.now() - started) / 1000;
  // A full run (no --only) adds shards: SHARDS=1 against 2, each in its own processes (bench/shards.ts).
  const shards =
    p.figures.length === FIGURES.length ? await (await import('./shards.ts')).shardsReport(p.mode) : undefined;
  const report = [
    render(results),
    lookups,
    budgetHold,
    text,
    freeVoice,
    freeReading,
    sceneMix,
    scene,
    mute,
    longJobs,
    holds,
    pages,
    pathFiles,
    flood,
    fileFlood,
    pauses,
    startLead,
    pace,
    engines,
    sceneVoice,
    seats,
    voiceMove,
    shards,
  ]
    .filter((part) => part !== undefined)
    .join('\n\n');
  console.log(report);
  if (write) {
    await writeReport(report);
    log('wrote docs/benchmarks.md');
  }
}

/**
 * Figures 3 and 8 on one bot: its sender at `counts` (SayBot's clock; the baseline bot's library cycle), then the
 * main thread's cost per packet at costN. Appended to what an earlier bot measured.
 */
async function concurrencyFigures(
  servers: Servers,
  p: Plan,
  bot: BenchBot,
  counts: readonly number[],
  results: Results,
): Promise<void> {
  const sender = bot.voicePlane.sender;
  const baseline = sender === 'library' ? ', library cycle (baseline)' : '';
  const guilds = benchGuilds(Math.max(...p.concurrency.counts));
  log(`concurrency: joining ${guilds.length} guilds${baseline}`);
  await joinAll(servers, guilds);
  await servers.call('setPacing', {
    pacing: { startDelayMs: p.ttfa.startDelayMs, realtimeFactor: p.ttfa.realtimeFactor },
  });
  // A text per guild and step: identical ones would share one request and one decoder, or hit the cache.
  const textTagged = (tag: string) => (guild: number, n: number) =>
    textLasting(p.concurrency.clipSeconds, SECONDS_PER_CHARACTER, `${tag} ${guild} of ${n}`);
  const text = textTagged(sender === 'library' ? 'Baseline' : 'Guild');
  const clipSeconds = await servers.call('expectedSeconds', { text: text(0, 1) });
  const steps: ConcurrencyStep[] = [];
  for (const n of counts) {
    log(`concurrency: N = ${n}${baseline}`);
    steps.push(await measureStep(servers, guilds, { sender, text, clipSeconds }, n));
  }
  results.concurrency = [...(results.concurrency ?? []), ...steps];
  log(`main thread per packet: profiles at N = ${p.concurrency.costN}, ${sender}`);
  const { probed } = await probedStep(
    servers,
    guilds,
    { sender, text: textTagged(`Cost ${sender}`), clipSeconds },
    p.concurrency.costN,
    costProbe(sender, p.concurrency.costN),
  );
  results.sendCost = [...(results.sendCost ?? []), ...(probed ? [probed] : [])];
}

/** The figures measured on the real bot against the fake Discord and the sandbox (1 to 5). */
async function botFigures(p: Plan, planes: Planes, results: Results): Promise<void> {
  const has = (f: Figure): boolean => p.figures.includes(f);
  {
    log(`RSS when ready: a bot in a fresh process, ${p.readyGuilds} guilds`);
    const small = await Servers.start(p.readyGuilds);
    try {
      results.readyRss = await readyRss(small);
    } finally {
      await small.close();
    }
  }
  log(`fake Discord with ${p.guilds} guilds`);
  if (has('concurrency')) {
    // Before the bot runs in this process: the encoder alone, at the player's settings and the old ones.
    results.encoderFloor = {
      speech: await measureEncoderFloor(planes.saybot.encoding),
      legacy: await measureEncoderFloor(LEGACY_SETTINGS),
    };
  }
  const servers = await Servers.start(p.guilds);
  let bot: BenchBot | undefined;
  const complaints: string[] = [];
  try {
    bot = await startBot(servers.info, { voicePlane: planes.saybot });
    gatewayBudget.reset();
    // In this process, as figure 4 measured it before issue 25: the process has also run the figures before it.
    results.readyRssInBench = await snapshot();
    let streaming: TtfaSamples | undefined;
    if (has('ttfa')) {
      log('time to first audio: streaming');
      streaming = await ttfaWith(servers, p, 'Streaming');
    }
    if (has('cache')) {
      log('time to first audio: cache hits');
      results.cacheHit = await cacheHits(servers, p);
    }
    if (has('memory')) {
      log(`memory: ${p.memory.warmupSays} + ${p.memory.says} /say`);
      await servers.call('setPacing', { pacing: { startDelayMs: 0, realtimeFactor: 0 } });
      results.memory = await measureMemory(servers, benchGuilds(p.memory.guilds), p.memory);
    }
    if (has('concurrency')) await concurrencyFigures(servers, p, bot, p.concurrency.counts, results);
    if (has('cached-voices')) results.cachedVoices = await cachedVoices(servers, p, bot, p.cachedVoices.counts);
    complaints.push(...bot.complaints());
    await bot.stop();
    bot = undefined;

    if (has('concurrency') || has('cached-voices')) {
      // The same steps on a bot started with the baseline's voice plane, which joins the guilds again.
      log('the baseline bot: the library cycle, WAV/MP3 decoded on the main thread');
      // Another session of the same application: without this its joins would find the first bot's voice states and
      // do nothing, and its first /say in each guild would join then, in the middle of a step.
      await servers.call('botOutOfVoice', { guildIds: benchGuilds(p.guilds).map((g) => g.guildId) });
      bot = await startBot(servers.info, { voicePlane: planes.baseline });
      gatewayBudget.reset();
      if (has('concurrency')) await concurrencyFigures(servers, p, bot, p.concurrency.baselineCounts, results);
      if (has('cached-voices') && p.cachedVoices.baselineCounts.length > 0) {
        const base = await cachedVoices(servers, p, bot, p.cachedVoices.baselineCounts);
        const own = results.cachedVoices;
        results.cachedVoices = own
          ? { steps: [...own.steps, ...base.steps], apiRequests: own.apiRequests + base.apiRequests }
          : base;
      }
      complaints.push(...bot.complaints());
      await bot.stop();
      bot = undefined;
    }

    if (streaming) {
      // The baseline: the same bot path, each response downloaded in full before decoding.
      log('time to first audio: baseline (buffered responses)');
      await servers.call('botOutOfVoice', { guildIds: benchGuilds(p.guilds).map((g) => g.guildId) });
      bot = await startBot(servers.info, { bufferResponses: true, voicePlane: planes.saybot });
      gatewayBudget.reset();
      const buffered = await ttfaWith(servers, p, 'Buffered');
      results.ttfa = { streaming, buffered };
      complaints.push(...bot.complaints());
      await bot.stop();
      bot = undefined;
    }
    if (has('latency')) {
      const d = p.latency.delays;
      log(
        `latency with network delays (REST ${d.restRoundTripMs} ms round trip, gateway ${d.gatewayLatencyMs} ms, voice UDP ${d.voiceUdpLatencyMs} ms): DAVE required and off`,
      );
      results.latency = await latencyFigure(p, planes, complaints);
    }
    results.problems = [
      ...(await servers.call('problems', {})).map((l) => `fake Discord: ${l}`),
      ...complaints.map((l) => `bot: ${l}`),
    ];
  } finally {
    await bot?.stop();
    await servers.close();
  }
}

await main();
