// CPU time, event-loop delay and RSS of this process over a window: the same meter on both sides of the
// process boundary, so the bot's figures and the servers' figures read alike.
import { monitorEventLoopDelay, type ELDHistogram } from 'node:perf_hooks';
import type { ProcessUsage } from './protocol.ts';

export class UsageMeter {
  // 1 ms resolution: the gaps we care about are 20 ms packets, so the default 10 ms would hide most of them.
  readonly #loop: ELDHistogram = monitorEventLoopDelay({ resolution: 1 });
  #cpu = process.cpuUsage();
  #since = performance.now();

  constructor() {
    this.#loop.enable();
  }

  reset(): void {
    this.#loop.reset();
    this.#cpu = process.cpuUsage();
    this.#since = performance.now();
  }

  read(): ProcessUsage {
    const cpu = process.cpuUsage(this.#cpu);
    // The histogram is in nanoseconds and includes the resolution itself as a floor.
    const ms = (ns: number): number => (Number.isFinite(ns) ? ns / 1e6 : 0);
    return {
      cpuUs: cpu.user + cpu.system,
      wallMs: performance.now() - this.#since,
      eventLoopP99Ms: ms(this.#loop.percentile(99)),
      eventLoopMaxMs: ms(this.#loop.max),
      rssBytes: process.memoryUsage.rss(),
    };
  }

  stop(): void {
    this.#loop.disable();
  }
}
