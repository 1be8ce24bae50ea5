// Figures 3 and 9: N guilds speaking at once in one bot process. What a listener hears as stutter is the gap between
// consecutive packets at the voice server: 20 ms when all is well. Also the bot's CPU per stream (all threads, and
// its main thread per packet), its event-loop delay, RSS per active stream, and the servers process's load (it
// decrypts and decodes a sample of the guilds and times every packet; it runs in its own process so that this is not
// billed to the bot, but on 2 cores it still competes for the machine).
import { setTimeout as sleep } from 'node:timers/promises';
import type { VoiceSenderKind } from './senders/senders.ts';
import { voiceClock } from './senders/voice-clock.ts';
import { SAY_FINISHED, join } from './drive.ts';
import type { BenchGuild } from './guilds.ts';
import type { ProcessUsage } from './protocol.ts';
import type { Servers } from './servers-client.ts';
import { libraryCycleMeter } from './send-cost.ts';
import type { StepProbe } from './step-probe.ts';
import { behindSchedule, gaps, max, percentile } from './stats.ts';
import { udpReceiveBufferErrors } from '../fixtures/udp-drops.ts';
import { UsageMeter } from './usage.ts';

/** A gap this long means at least one 20 ms frame slot went by without a packet: a listener hears it. */
export const LATE_GAP_MS = 40;

export interface ConcurrencyStep {
  n: number;
  /** SayBot's sender thread ('worker'), its clock ('clock') or @discordjs/voice's shared cycle ('library'). */
  sender: VoiceSenderKind;
  /** Every stream played in full. */
  played: number;
  failures: string[];
  packets: number;
  /** Audio packets the bot's stream should have produced (clip length / 20 ms, per guild). */
  expectedPackets: number;
  /** Datagrams the kernel dropped for a full receive buffer during the step (all sockets; undefined off Linux). */
  udpDrops: number | undefined;
  gapP50Ms: number;
  gapP99Ms: number;
  gapMaxMs: number;
  /** Gaps > LATE_GAP_MS. */
  late: number;
  /** Packets behind a steady 20 ms schedule from each guild's first packet (stalls caught up by bursts). */
  behindP99Ms: number;
  behindMaxMs: number;
  /** Time to first audio: from the commands sent to each guild's first packet at the voice server (its clock). */
  firstAudioP50Ms: number;
  firstAudioMaxMs: number;
  /** Bot CPU time / audio time / N: the share of one core each stream costs. */
  cpuPerStreamPct: number;
  /** The bot's main thread alone: CPU time (process.threadCpuUsage) per audio packet heard, in µs. */
  mainUsPerPacket: number;
  /** The send path alone (the clock's wakeups, or the library's cycle): main-thread time per datagram sent, in µs. */
  sendUsPerPacket: number;
  /** Guilds whose audio the fake decrypted and decoded (its sample), and what went wrong there. */
  heardInFull: number;
  /** Transport or DAVE decrypt failures, plaintext frames and Opus decode failures in those guilds. */
  audioFaults: number;
  /** The bot process's whole CPU over the window, as % of one core. */
  botCpuPct: number;
  bot: ProcessUsage;
  servers: ProcessUsage;
  serversCpuPct: number;
  /** (Peak RSS during the run - RSS before it) / N. */
  rssPerStreamBytes: number;
  rssBeforeBytes: number;
  rssPeakBytes: number;
  wallSeconds: number;
}

export interface ConcurrencyOptions {
  /** The sender the bot was started with (bench/bot.ts voicePlane): whose send-path figures the step reads. */
  sender: VoiceSenderKind;
  /** What guild `index` says in the step with `n` guilds. */
  text: (index: number, n: number) => string;
  clipSeconds: number;
}

/**
 * Joins every guild first (a few at a time), so that the runs measure speaking, not joining: each until its DAVE
 * group is ready, or the last handshakes would still be running (MLS commits on the main thread) when the step starts.
 */
export async function joinAll(servers: Servers, guilds: BenchGuild[], parallel = 10): Promise<void> {
  for (let i = 0; i < guilds.length; i += parallel) {
    await Promise.all(
      guilds.slice(i, i + parallel).map(async (g) => {
        await join(servers, g);
        await servers.call('daveReady', { guildId: g.guildId, timeoutMs: 15_000 });
      }),
    );
  }
}

export async function measureStep(
  servers: Servers,
  guilds: BenchGuild[],
  options: ConcurrencyOptions,
  n: number,
): Promise<ConcurrencyStep> {
  return (await probedStep(servers, guilds, options, n)).step;
}

/** A step on the bot as it was started (its sender: options.sender), and `probe` running over the same window. */
export async function probedStep<T = undefined>(
  servers: Servers,
  guilds: BenchGuild[],
  options: ConcurrencyOptions,
  n: number,
  probe?: StepProbe<T>,
): Promise<{ step: ConcurrencyStep; probed: T | undefined }> {
  const active = guilds.slice(0, n);
  const guildIds = active.map((g) => g.guildId);
  await servers.call('clearAudio', { guildIds });
  const gc = globalThis.gc;
  gc?.();
  voiceClock.resetStats();
  libraryCycleMeter.reset();
  const mainBefore = process.threadCpuUsage();
  await probe?.start();
  const meter = new UsageMeter();
  await servers.call('usage', { reset: true });
  const rssBeforeBytes = process.memoryUsage.rss();
  const dropsBefore = udpReceiveBufferErrors();
  let rssPeakBytes = rssBeforeBytes;
  const sampler = setInterval(() => {
    rssPeakBytes = Math.max(rssPeakBytes, process.memoryUsage.rss());
  }, 100);
  const started = performance.now();
  try {
    const sentAt = await servers.call('now', {});
    const sent = await servers.call('commandMany', {
      commands: active.map((g, i) => ({
        guildId: g.guildId,
        userId: g.userId,
        name: 'say',
        options: { text: options.text(i, n) },
      })),
    });
    const finals = await Promise.allSettled(
      sent.map((s) =>
        servers.call('waitResponse', {
          interactionId: s.interactionId,
          pattern: SAY_FINISHED,
          timeoutMs: 60_000 + options.clipSeconds * 1000,
        }),
      ),
    );
    // The bot reports "Spoke" when the player went idle; the last packets and silence frames may still be in flight.
    const heard = await Promise.all(
      guildIds.map((guildId) =>
        servers
          .call('waitAudio', { guildIds: [guildId], minSeconds: 0, quietMs: 200, timeoutMs: 10_000 })
          .then((h) => h[0]),
      ),
    );
    const bot = meter.read();
    const main = process.threadCpuUsage(mainBefore);
    const probed = await probe?.stop();
    const dropsAfter = udpReceiveBufferErrors();
    const serversUsage = await servers.call('usage', { reset: true });
    const failures = finals.flatMap((f) =>
      f.status === 'rejected' ? [String(f.reason)] : f.value.startsWith('Spoke') ? [] : [f.value],
    );
    const pooled = heard.flatMap((h) => (h ? gaps(h.arrivals) : []));
    const behind = heard.flatMap((h) => (h ? behindSchedule(h.arrivals) : []));
    const firstAudio = heard.flatMap((h) => (h?.arrivals[0] === undefined ? [] : [h.arrivals[0] - sentAt]));
    const audioSeconds = heard.reduce((sum, h) => sum + (h?.seconds ?? 0), 0);
    const packets = heard.reduce((sum, h) => sum + (h?.arrivals.length ?? 0), 0);
    const full = heard.filter((h) => h?.inFull);
    // The sender thread sends nothing on the main thread: no main-thread send path to time.
    const sendPath =
      options.sender === 'clock'
        ? voiceClock.stats()
        : options.sender === 'library'
          ? libraryCycleMeter.read()
          : { packets: 0, busyMs: 0 };
    const step: ConcurrencyStep = {
      n,
      sender: options.sender,
      played: n - failures.length,
      failures,
      packets,
      expectedPackets: Math.round(options.clipSeconds * 50) * n,
      udpDrops: dropsBefore === undefined || dropsAfter === undefined ? undefined : dropsAfter - dropsBefore,
      gapP50Ms: percentile(pooled, 50),
      gapP99Ms: percentile(pooled, 99),
      gapMaxMs: max(pooled),
      late: pooled.filter((g) => g > LATE_GAP_MS).length,
      behindP99Ms: percentile(behind, 99),
      behindMaxMs: max(behind),
      firstAudioP50Ms: percentile(firstAudio, 50),
      firstAudioMaxMs: max(firstAudio),
      cpuPerStreamPct: audioSeconds > 0 ? (bot.cpuUs / 1e6 / audioSeconds) * 100 : Number.NaN,
      mainUsPerPacket: packets > 0 ? (main.user + main.system) / packets : Number.NaN,
      sendUsPerPacket: sendPath.packets > 0 ? (sendPath.busyMs * 1000) / sendPath.packets : Number.NaN,
      heardInFull: full.length,
      audioFaults: full.reduce(
        (sum, h) => sum + (h ? h.decryptFailures + h.decodeFailures + h.plaintextFrames + h.daveFailures : 0),
        0,
      ),
      botCpuPct: (bot.cpuUs / 1000 / bot.wallMs) * 100,
      bot,
      servers: serversUsage,
      serversCpuPct: (serversUsage.cpuUs / 1000 / serversUsage.wallMs) * 100,
      rssPerStreamBytes: (rssPeakBytes - rssBeforeBytes) / n,
      rssBeforeBytes,
      rssPeakBytes,
      wallSeconds: (performance.now() - started) / 1000,
    };
    return { step, probed };
  } finally {
    clearInterval(sampler);
    meter.stop();
    // Let the players' closing frames and the final edits settle before the next step.
    await sleep(300);
  }
}
