// Figure 22 of npm run bench: voices on time while SayBot's main thread pauses (issue 68). N guilds speak at once
// (each its own text) on one bot per sender: SayBot's sender thread ('worker'), the main-thread voice clock
// ('clock') and @discordjs/voice's own cycle ('library'), each without pauses and with a pause injector holding the
// main thread busy for 100 ms, then 250 ms, every 2 s. Arrivals are stamped by the fake Discord in its own process
// (bench/servers.ts), so a pause of the bot's main thread cannot shift them. Beside the late share: the sender's own
// lateness (due to sent, the sender thread's or the clock's wakeups), its underruns (slots without a packet queued,
// silence sent instead: the sender thread only), and the main thread's event loop delay over the same window.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { startBot, type BenchBot } from './bot.ts';
import { joinAll, probedStep, type ConcurrencyStep } from './concurrency.ts';
import { gatewayBudget, textLasting } from './drive.ts';
import { benchGuilds } from './guilds.ts';
import { Servers } from './servers-client.ts';
import { max, percentile } from './stats.ts';
import type { StepProbe } from './step-probe.ts';
import { OPUS_ENCODER_SETTINGS } from '../src/core/cache/audio-fill.ts';
import type { VoiceSenderKind } from './senders/senders.ts';
import { senderThread } from '../src/core/voice/sender/sender-thread.ts';
import { voiceClock } from './senders/voice-clock.ts';

const SENDERS: readonly VoiceSenderKind[] = ['worker', 'clock', 'library'];
const PAUSES_MS = [0, 100, 250] as const;
const EVERY_MS = 2_000;
const SECONDS_PER_CHARACTER = 0.06;

interface Probed {
  /** The sender's own lateness, due to sent, ms (undefined for the library: it keeps none). */
  senderLate: number[] | undefined;
  underruns: number | undefined;
  loopP99Ms: number;
  loopMaxMs: number;
  pauses: number;
}

interface Row {
  sender: VoiceSenderKind;
  pauseMs: number;
  step: ConcurrencyStep;
  probed: Probed;
}

/** Holds the main thread busy for `pauseMs` every EVERY_MS over the window; reads the sender's own figures. */
function pauseProbe(sender: VoiceSenderKind, pauseMs: number): StepProbe<Probed> {
  const loop = monitorEventLoopDelay({ resolution: 10 });
  let timer: NodeJS.Timeout | undefined;
  let pauses = 0;
  return {
    async start() {
      if (sender === 'worker') await senderThread.stats(true);
      loop.enable();
      if (pauseMs > 0)
        timer = setInterval(() => {
          pauses += 1;
          const until = performance.now() + pauseMs;
          while (performance.now() < until) {
            // Busy: the main thread does nothing else.
          }
        }, EVERY_MS);
    },
    async stop() {
      if (timer) clearInterval(timer);
      loop.disable();
      const own =
        sender === 'worker'
          ? await senderThread.stats()
          : sender === 'clock'
            ? { lateMs: voiceClock.stats().lateMs, underruns: undefined }
            : undefined;
      return {
        senderLate: own?.lateMs,
        underruns: own?.underruns,
        loopP99Ms: loop.percentile(99) / 1e6,
        loopMaxMs: loop.max / 1e6,
        pauses,
      };
    },
  };
}

async function onBot(
  servers: Servers,
  sender: VoiceSenderKind,
  n: number,
  clipSeconds: number,
  log: (line: string) => void,
): Promise<Row[]> {
  const guilds = benchGuilds(n);
  await servers.call('botOutOfVoice', { guildIds: guilds.map((g) => g.guildId) });
  let bot: BenchBot | undefined;
  const rows: Row[] = [];
  try {
    bot = await startBot(servers.info, { voicePlane: { encoding: OPUS_ENCODER_SETTINGS, sender } });
    gatewayBudget.reset();
    log(`pauses: ${sender}, joining ${n} guilds`);
    await joinAll(servers, guilds);
    for (const pauseMs of PAUSES_MS) {
      log(`pauses: ${sender}, N = ${n}, pauses of ${pauseMs} ms every ${EVERY_MS / 1000} s`);
      const text = (i: number) =>
        textLasting(clipSeconds, SECONDS_PER_CHARACTER, `Pauses ${sender} ${pauseMs} guild ${i} of ${n}`);
      const expected = await servers.call('expectedSeconds', { text: text(0) });
      const { step, probed } = await probedStep(
        servers,
        guilds,
        { sender, text, clipSeconds: expected },
        n,
        pauseProbe(sender, pauseMs),
      );
      rows.push({ sender, pauseMs, step, probed: probed as Probed });
    }
  } finally {
    await bot?.stop();
  }
  return rows;
}

const fixed = (x: number | undefined, digits = 0) => (x === undefined || Number.isNaN(x) ? '–' : x.toFixed(digits));

export async function measurePauses(mode: 'quick' | 'full', log: (line: string) => void): Promise<string> {
  const n = mode === 'quick' ? 20 : 100;
  const clipSeconds = mode === 'quick' ? 6 : 10;
  const servers = await Servers.start(n);
  const rows: Row[] = [];
  try {
    await servers.call('setPacing', { pacing: { startDelayMs: 0, realtimeFactor: 0 } });
    for (const sender of SENDERS) rows.push(...(await onBot(servers, sender, n, clipSeconds, log)));
  } finally {
    await servers.close();
  }
  const line = (r: Row) => {
    const s = r.step;
    const late = s.packets > 0 ? (s.late / s.packets) * 100 : Number.NaN;
    const own = r.probed.senderLate;
    return (
      `| ${r.sender} | ${r.pauseMs === 0 ? 'none' : `${r.pauseMs} ms`} | ${r.probed.pauses} | ${s.played}/${s.n} | ` +
      `${s.packets} | ${fixed(late, 2)} % (${s.late}) | ${fixed(s.behindMaxMs)} ms | ` +
      `${own ? `${fixed(percentile(own, 99), 1)} / ${fixed(max(own), 1)} ms` : '–'} | ${fixed(r.probed.underruns)} | ` +
      `${fixed(r.probed.loopP99Ms)} / ${fixed(r.probed.loopMaxMs)} ms | ${s.audioFaults} | ${fixed(s.cpuPerStreamPct, 2)} % |`
    );
  };
  return [
    '### Figure 22: voices on time while the main thread pauses (bench/pauses.ts)',
    '',
    `${n} guilds speak at once (${clipSeconds} s clips, each its own text, the sandbox at full speed) on one bot per ` +
      "sender: SayBot's sender thread (worker), the main-thread voice clock (clock) and @discordjs/voice's cycle " +
      `(library), without pauses and with the bot's main thread held busy for 100 ms, then 250 ms, every ${EVERY_MS / 1000} s. ` +
      `Late: gaps over 40 ms between a guild's packets as the fake Discord stamps them in its own process. Behind: ` +
      "the largest lag behind a steady 20 ms schedule from a guild's first packet. Sender late: due to sent, p99 / " +
      "max, as the sender itself measures (the sender thread's packets; the clock's wakeups). Underruns: slots the " +
      'sender thread had no packet queued for. Loop delay: the main thread, p99 / max. Faults: decrypt, decode and ' +
      'plaintext frames in the sampled guilds. CPU: the bot process per stream (all threads).',
    '',
    '| Sender | Pauses | Injected | Played | Packets | Late | Behind max | Sender late p99 / max | Underruns | Loop delay p99 / max | Faults | CPU / stream |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(line),
  ].join('\n');
}
