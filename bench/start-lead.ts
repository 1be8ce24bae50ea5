// Figure 23 of npm run bench: a clip's start while SayBot's main thread pauses (issue 68's start lead,
// src/core/voice/sender/worker-clip.ts). One guild speaks one clip at a time on the sender thread, with the start lead
// and without it (a bot of its own each): the main thread is held busy for 100 ms, then 250 ms, right after each
// clip's first packets are handed to the sender thread, when they are all it holds. Per clip: the sender's underruns
// (slots it had nothing queued for: silence instead) and the largest gap between its packets as the fake Discord
// stamps them in its own process. Beside that, what the lead costs: time to first audio for an encoded stream
// (figure 1's pacing) and for a cache hit (figure 2's), each with and without it.
import { setTimeout as sleep } from 'node:timers/promises';
import { startBot, type BenchBot } from './bot.ts';
import { joinAll } from './concurrency.ts';
import { SAY_FINISHED, gatewayBudget, say, textLasting } from './drive.ts';
import { benchGuild } from './guilds.ts';
import { Servers } from './servers-client.ts';
import { gaps, max, percentile } from './stats.ts';
import { measureTtfa } from './ttfa.ts';
import { OPUS_ENCODER_SETTINGS } from '../src/core/cache/audio-fill.ts';
import { senderThread } from '../src/core/voice/sender/sender-thread.ts';
import { START_LEAD_PACKETS, START_WAIT_MS } from '../src/core/voice/sender/worker-clip.ts';

const PAUSES_MS = [0, 100, 250] as const;
const SECONDS_PER_CHARACTER = 0.06;
/** Figure 1's pacing: the Voice API's first byte after 300 ms, then the body at 4x real time. */
const START_DELAY_MS = 300;
const REALTIME_FACTOR = 0.25;

interface PauseRow {
  startLead: boolean;
  pauseMs: number;
  clips: number;
  /** Per clip. */
  underruns: number[];
  largestGapMs: number[];
  /** Clips that underran at all. */
  holes: number;
}

interface TtfaRow {
  startLead: boolean;
  encodedMs: number[];
  cacheHitMs: number[];
}

/**
 * Holds the main thread for `pauseMs` once per clip, right after its first run of packets was posted to the sender
 * thread (the run's own flush is an earlier setImmediate: it goes first). Returns the undo.
 */
function pauseAtFirstHandover(pauseMs: number): () => void {
  const queue = senderThread.queue.bind(senderThread);
  const seen = new Set<number>();
  senderThread.queue = (run) => {
    queue(run);
    if (pauseMs === 0 || run.first !== 0 || seen.has(run.clip)) return;
    seen.add(run.clip);
    setImmediate(() => {
      const until = performance.now() + pauseMs;
      while (performance.now() < until) {
        // Busy: the main thread does nothing else.
      }
    });
  };
  return () => {
    senderThread.queue = queue;
  };
}

async function pauseRows(servers: Servers, startLead: boolean, clips: number, log: (l: string) => void) {
  const guild = benchGuild(0);
  const rows: PauseRow[] = [];
  await servers.call('setPacing', { pacing: { startDelayMs: START_DELAY_MS, realtimeFactor: REALTIME_FACTOR } });
  for (const pauseMs of PAUSES_MS) {
    log(`start lead ${startLead ? 'on' : 'off'}: ${clips} clips, a ${pauseMs} ms pause at each first handover`);
    const row: PauseRow = { startLead, pauseMs, clips, underruns: [], largestGapMs: [], holes: 0 };
    for (let i = 0; i < clips; i++) {
      await servers.call('clearAudio', { guildIds: [guild.guildId] });
      await senderThread.stats(true);
      const undo = pauseAtFirstHandover(pauseMs);
      try {
        const text = textLasting(2, SECONDS_PER_CHARACTER, `Start ${startLead ? 'on' : 'off'} ${pauseMs} clip ${i}`);
        const sent = await say(servers, guild, text);
        const final = await servers.call('waitResponse', {
          interactionId: sent.interactionId,
          pattern: SAY_FINISHED,
          timeoutMs: 30_000,
        });
        if (!final.startsWith('Spoke')) throw new Error(`/say ended with "${final}"`);
      } finally {
        undo();
      }
      const [heard] = await servers.call('waitAudio', {
        guildIds: [guild.guildId],
        minSeconds: 0,
        quietMs: 200,
        timeoutMs: 10_000,
      });
      const stats = await senderThread.stats();
      row.underruns.push(stats.underruns);
      if (stats.underruns > 0) row.holes += 1;
      row.largestGapMs.push(max(gaps(heard?.arrivals ?? [])));
    }
    rows.push(row);
  }
  return rows;
}

async function ttfaRow(servers: Servers, startLead: boolean, runs: number, log: (l: string) => void) {
  const guild = benchGuild(0);
  await servers.call('setPacing', { pacing: { startDelayMs: START_DELAY_MS, realtimeFactor: REALTIME_FACTOR } });
  log(`start lead ${startLead ? 'on' : 'off'}: time to first audio, encoded stream`);
  const tag = startLead ? 'on' : 'off';
  const encoded = await measureTtfa(servers, guild, {
    text: (run) => textLasting(10, SECONDS_PER_CHARACTER, `Lead ${tag} encoded ${run}`),
    startDelayMs: START_DELAY_MS,
    runs,
    warmup: 2,
    firstJoin: false,
  });
  log(`start lead ${startLead ? 'on' : 'off'}: time to first audio, cache hits`);
  const text = textLasting(10, SECONDS_PER_CHARACTER, `Lead ${tag} from the cache`);
  await measureTtfa(servers, guild, { text: () => text, startDelayMs: 0, runs: 1, warmup: 0, firstJoin: false });
  // The stopped run's part is still read to its end and cached: the body's time (10 s at 4x) and more.
  await sleep(10 * REALTIME_FACTOR * 1000 + 1000);
  const hits = await measureTtfa(servers, guild, {
    text: () => text,
    startDelayMs: 0,
    runs,
    warmup: 1,
    firstJoin: false,
  });
  return { startLead, encodedMs: encoded.overheadMs, cacheHitMs: hits.overheadMs };
}

const fixed = (x: number, digits = 0) => (Number.isFinite(x) ? x.toFixed(digits) : '–');
const p50max = (xs: number[], digits = 0) => `${fixed(percentile(xs, 50), digits)} / ${fixed(max(xs), digits)}`;

export async function measureStartLead(mode: 'quick' | 'full', log: (line: string) => void): Promise<string> {
  const clips = mode === 'quick' ? 5 : 20;
  const runs = mode === 'quick' ? 8 : 30;
  const guild = benchGuild(0);
  const servers = await Servers.start(1);
  const pauses: PauseRow[] = [];
  const ttfa: TtfaRow[] = [];
  try {
    for (const startLead of [true, false]) {
      await servers.call('botOutOfVoice', { guildIds: [guild.guildId] });
      let bot: BenchBot | undefined;
      try {
        bot = await startBot(servers.info, {
          voicePlane: { encoding: OPUS_ENCODER_SETTINGS, sender: 'worker', startLead },
        });
        gatewayBudget.reset();
        await joinAll(servers, [guild]);
        pauses.push(...(await pauseRows(servers, startLead, clips, log)));
        ttfa.push(await ttfaRow(servers, startLead, runs, log));
      } finally {
        await bot?.stop();
      }
    }
  } finally {
    await servers.close();
  }
  const lead = (on: boolean) => (on ? `on (${START_LEAD_PACKETS} packets, wait ${START_WAIT_MS} ms)` : 'off');
  return [
    "### Figure 23: a clip's start while the main thread pauses (bench/start-lead.ts)",
    '',
    `One guild, 2 s clips one after another on SayBot's sender thread, the Voice API answering after ${START_DELAY_MS} ms ` +
      "and sending at 4x real time; the bot's main thread held busy for 100 ms, then 250 ms, right after each " +
      "clip's first packets were handed to the sender thread. With the start lead (a clip starts once " +
      `${START_LEAD_PACKETS} packets are read, its stream ended, or its stream gave nothing for ${START_WAIT_MS} ms: a ` +
      'stall) and without it (the first frame read goes at once), a bot each. Underruns: slots the sender thread ' +
      'had no packet queued for (silence sent instead), per clip. Largest gap: between two of its packets as the ' +
      "fake Discord stamps them in its own process, per clip (20 ms when all is well). Time to first audio: figure 1's " +
      "overhead (an encoded stream, in channel) and figure 2's (a cache hit), the lead's cost.",
    '',
    '| Start lead | Pause | Clips | Clips with underruns | Underruns p50 / max | Largest gap p50 / max |',
    '|---|---|---:|---:|---:|---:|',
    ...pauses.map(
      (r) =>
        `| ${lead(r.startLead)} | ${r.pauseMs === 0 ? 'none' : `${r.pauseMs} ms`} | ${r.clips} | ${r.holes} | ` +
        `${p50max(r.underruns)} | ${p50max(r.largestGapMs)} ms |`,
    ),
    '',
    '| Start lead | Runs | Encoded stream: overhead p50 / p95 / max | Cache hit: time to first audio p50 / p95 / max |',
    '|---|---:|---:|---:|',
    ...ttfa.map(
      (r) =>
        `| ${lead(r.startLead)} | ${r.encodedMs.length} | ${fixed(percentile(r.encodedMs, 50), 1)} / ` +
        `${fixed(percentile(r.encodedMs, 95), 1)} / ${fixed(max(r.encodedMs), 1)} ms | ` +
        `${fixed(percentile(r.cacheHitMs, 50), 1)} / ${fixed(percentile(r.cacheHitMs, 95), 1)} / ` +
        `${fixed(max(r.cacheHitMs), 1)} ms |`,
    ),
  ].join('\n');
}
