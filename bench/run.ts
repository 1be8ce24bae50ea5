// npm run bench [-- --quick] [--only=ttfa,cache,concurrency,memory,dave,shared-cache] [--counts=10,50] [--write]
// Runs the real bot against the fake Discord and the sandbox on 127.0.0.1 and prints each figure beside its
// baseline measured in the same run; --write also puts the report in docs/benchmarks.md.
import { readFile, writeFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { startBot, type BenchBot } from './bot.ts';
import { joinAll, measureStep, type ConcurrencyStep } from './concurrency.ts';
import { gatewayBudget, textLasting } from './drive.ts';
import { benchGuild, benchGuilds } from './guilds.ts';
import { machine } from './machine.ts';
import { measureMemory, snapshot } from './memory.ts';
import { FIGURES, STANDALONE, plan, type Figure, type Plan } from './plan.ts';
import { render, type Results, type TtfaSamples } from './report.ts';
import { Servers } from './servers-client.ts';
import { measureSharedCache } from './shared-cache.ts';
import { measureTtfa } from './ttfa.ts';

const SECONDS_PER_CHARACTER = 0.06; // the sandbox's default

function parse(): { plan: Plan; write: boolean; command: string } {
  const { values } = parseArgs({
    options: {
      quick: { type: 'boolean', default: false },
      only: { type: 'string' },
      counts: { type: 'string' },
      write: { type: 'boolean', default: false },
    },
  });
  const figures = values.only === undefined ? [...FIGURES] : values.only.split(',').map((f) => f.trim());
  for (const f of figures) if (!FIGURES.includes(f as Figure)) throw new Error(`--only: unknown figure "${f}" (${FIGURES.join(', ')})`);
  const counts = values.counts?.split(',').map(Number);
  if (counts?.some((n) => !Number.isInteger(n) || n < 1)) throw new Error('--counts: whole numbers >= 1, e.g. --counts=10,50');
  const args = process.argv.slice(2);
  return {
    plan: plan(values.quick ? 'quick' : 'full', figures as Figure[], counts),
    write: values.write,
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
  const next = start >= 0 && end > start ? current.slice(0, start) + block + current.slice(end + END.length) : `${block}\n`;
  await writeFile(file, next);
}

function log(line: string): void {
  console.error(`[bench ${new Date().toISOString().slice(11, 19)}] ${line}`);
}

async function ttfaWith(servers: Servers, p: Plan, label: string): Promise<TtfaSamples> {
  const text = (phase: string) => (run: number) => textLasting(p.ttfa.clipSeconds, SECONDS_PER_CHARACTER, `${label} ${phase} ${run}`);
  await servers.call('setPacing', { pacing: { startDelayMs: p.ttfa.startDelayMs, realtimeFactor: p.ttfa.realtimeFactor } });
  const inChannel = await measureTtfa(servers, benchGuild(0), {
    text: text('in channel'), startDelayMs: p.ttfa.startDelayMs, runs: p.ttfa.runs, warmup: p.ttfa.warmup, firstJoin: false,
  });
  const firstJoin = await measureTtfa(servers, benchGuild(1), {
    text: text('first join'), startDelayMs: p.ttfa.startDelayMs, runs: p.ttfa.firstJoinRuns, warmup: p.ttfa.firstJoinWarmup, firstJoin: true,
  });
  return { inChannel: inChannel.overheadMs, firstJoin: firstJoin.overheadMs };
}

/** Figure 5: the figure 1 measurement (to first heard audio) on a fake Discord per DAVE mode, same bot code. */
async function daveFigure(p: Plan, complaints: string[]): Promise<NonNullable<Results['dave']>> {
  const measure = async (mode: 'off' | 'required'): Promise<TtfaSamples> => {
    const servers = await Servers.start(10, { mode, handshakeDelayMs: mode === 'off' ? 0 : p.dave.handshakeDelayMs });
    let bot: BenchBot | undefined;
    try {
      bot = await startBot(servers.info, { bufferResponses: false });
      await servers.call('setPacing', { pacing: { startDelayMs: p.ttfa.startDelayMs, realtimeFactor: p.ttfa.realtimeFactor } });
      const text = (phase: string) => (run: number) => textLasting(p.ttfa.clipSeconds, SECONDS_PER_CHARACTER, `DAVE ${mode} ${phase} ${run}`);
      const common = { startDelayMs: p.ttfa.startDelayMs, warmup: p.dave.warmup, heard: true };
      const inChannel = await measureTtfa(servers, benchGuild(0), { ...common, text: text('in channel'), runs: p.dave.runs, firstJoin: false });
      const firstJoin = await measureTtfa(servers, benchGuild(1), { ...common, text: text('first join'), runs: p.dave.firstJoinRuns, firstJoin: true });
      complaints.push(...bot.complaints(), ...(await servers.call('problems', {})).map((l) => `fake Discord (DAVE ${mode}): ${l}`));
      return { inChannel: inChannel.overheadMs, firstJoin: firstJoin.overheadMs };
    } finally {
      await bot?.stop();
      await servers.close();
    }
  };
  return { off: await measure('off'), required: await measure('required') };
}

/** Figure 2: the same text again, once a first /say put it in the cache; no request should reach the sandbox. */
async function cacheHits(servers: Servers, p: Plan): Promise<NonNullable<Results['cacheHit']>> {
  const text = textLasting(p.ttfa.clipSeconds, SECONDS_PER_CHARACTER, 'A reply from the cache');
  const guild = benchGuild(0);
  await servers.call('setPacing', { pacing: { startDelayMs: p.ttfa.startDelayMs, realtimeFactor: p.ttfa.realtimeFactor } });
  await measureTtfa(servers, guild, { text: () => text, startDelayMs: 0, runs: 1, warmup: 0, firstJoin: false });
  // The stopped run's part is still read to its end and cached: give it the body's time (10 s at 4x) and more.
  await sleep(p.ttfa.clipSeconds * p.ttfa.realtimeFactor * 1000 + 1000);
  const before = await servers.call('requestCount', {});
  const hits = await measureTtfa(servers, guild, { text: () => text, startDelayMs: 0, runs: p.ttfa.runs, warmup: p.ttfa.warmup, firstJoin: false });
  return { totalMs: hits.overheadMs, apiRequests: (await servers.call('requestCount', {})) - before };
}

async function main(): Promise<void> {
  const { plan: p, write, command } = parse();
  const started = performance.now();
  const results: Results = { plan: p, machine: machine(), command, date: new Date().toISOString(), problems: [], seconds: 0 };
  const has = (f: Figure): boolean => p.figures.includes(f);
  if (globalThis.gc === undefined) log('node runs without --expose-gc: memory snapshots will include garbage (npm run bench sets it)');

  log(`${p.mode} run: ${p.figures.join(', ')}`);
  // First, while nothing else runs: it needs neither the bot nor the servers.
  if (has('shared-cache')) {
    log('shared cache and /usage chart');
    results.sharedCache = await measureSharedCache(p.sharedCache);
  }
  if (p.figures.some((f) => !STANDALONE.includes(f))) await botFigures(p, results);
  results.seconds = (performance.now() - started) / 1000;
  const report = render(results);
  console.log(report);
  if (write) {
    await writeReport(report);
    log('wrote docs/benchmarks.md');
  }
}

/** The figures measured on the real bot against the fake Discord and the sandbox (1 to 5). */
async function botFigures(p: Plan, results: Results): Promise<void> {
  const has = (f: Figure): boolean => p.figures.includes(f);
  log(`fake Discord with ${p.guilds} guilds`);
  const servers = await Servers.start(p.guilds);
  let bot: BenchBot | undefined;
  const complaints: string[] = [];
  try {
    // The streaming bot (the default) first, in a fresh process: its RSS when ready is the process's own.
    bot = await startBot(servers.info, { bufferResponses: false });
    gatewayBudget.reset();
    results.readyRss = await snapshot();
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
    if (has('concurrency')) {
      const guilds = benchGuilds(Math.max(...p.concurrency.counts));
      log(`concurrency: joining ${guilds.length} guilds`);
      await joinAll(servers, guilds);
      await servers.call('setPacing', { pacing: { startDelayMs: p.ttfa.startDelayMs, realtimeFactor: p.ttfa.realtimeFactor } });
      // A text per guild and step: identical ones would share one request and one decoder, or hit the cache.
      const text = (guild: number, n: number) => textLasting(p.concurrency.clipSeconds, SECONDS_PER_CHARACTER, `Guild ${guild} of ${n}`);
      const clipSeconds = await servers.call('expectedSeconds', { text: text(0, 1) });
      const steps: ConcurrencyStep[] = [];
      for (const n of p.concurrency.counts) {
        log(`concurrency: N = ${n}`);
        steps.push(await measureStep(servers, guilds, { counts: p.concurrency.counts, text, clipSeconds }, n));
      }
      results.concurrency = steps;
    }
    complaints.push(...bot.complaints());
    await bot.stop();
    bot = undefined;

    if (streaming) {
      // The baseline: the same bot path, each response downloaded in full before decoding.
      log('time to first audio: baseline (buffered responses)');
      bot = await startBot(servers.info, { bufferResponses: true });
      gatewayBudget.reset();
      const buffered = await ttfaWith(servers, p, 'Buffered');
      results.ttfa = { streaming, buffered };
      complaints.push(...bot.complaints());
      await bot.stop();
      bot = undefined;
    }
    if (has('dave')) {
      log(`DAVE: required against off, ${p.dave.handshakeDelayMs} ms handshake delay`);
      results.dave = await daveFigure(p, complaints);
    }
    results.problems = [...(await servers.call('problems', {})).map((l) => `fake Discord: ${l}`), ...complaints.map((l) => `bot: ${l}`)];
  } finally {
    await bot?.stop();
    await servers.close();
  }
}

await main();
