// The one timer that paces every voice of the process, in place of @discordjs/voice's shared 20 ms cycle (which sends
// each packet a cycle late and slips with many voices). Each voice keeps its own phase, one of 20 1-ms slots: its
// first packet goes when ready, the next every 20 ms, so voices spread over the period instead of one burst.
import { getHeapStatistics } from 'node:v8';

export const PERIOD_MS = 20;
/** Missed slots the clock catches up after a stall; older ones are let go (a long burst would arrive too late). */
export const MAX_CATCH_UP_MS = 200;

export interface ClockVoice {
  /** Sends this voice's packet for the period now; false when it has nothing more to send (it leaves the clock). */
  tick(): boolean;
}

interface Entry {
  voice: ClockVoice;
  slot: number;
  index: number;
  /** The millisecond it joined at: its first packet went out then, so that slot's visit is skipped. */
  joinedAt: number;
  active: boolean;
}

export interface ClockHandle {
  /** Takes the voice off the clock (idempotent). */
  leave(): void;
}

/** What the clock did since the last reset, for the benchmark (bench/concurrency.ts). */
export interface ClockStats {
  wakeups: number;
  packets: number;
  /** Main-thread time spent sending (inside the clock's wakeups and first packets), in ms. */
  busyMs: number;
  /** How late each wakeup ran after its slot was due, at most the last 10,000 (ms). */
  lateMs: number[];
  /** With allocation sampling on: JS heap bytes allocated per packet in wakeups without a collection (last 10,000). */
  heapBytesPerPacket: number[];
}

const SAMPLES = 10_000;

export class VoiceClock {
  readonly #slots: Entry[][] = Array.from({ length: PERIOD_MS }, () => []);
  #voices = 0;
  #timer: NodeJS.Timeout | undefined;
  /** The last whole millisecond (performance.now()) whose slot has been run. */
  #doneUntil = -1;
  #stats: ClockStats = { wakeups: 0, packets: 0, busyMs: 0, lateMs: [], heapBytesPerPacket: [] };
  #sampleHeap = false;
  #turn = 0;
  readonly #run = (): void => this.#wake();

  /** Changes with every wakeup and every first packet: packets sent in one turn of the event loop share it. */
  get turn(): number {
    return this.#turn;
  }

  /** Sends the voice's first packet now and every 20 ms after; returns the handle that takes it off. */
  join(voice: ClockVoice): ClockHandle {
    const started = performance.now();
    const now = Math.floor(started);
    this.#turn += 1;
    const slot = now % PERIOD_MS;
    const list = this.#slots[slot] as Entry[];
    const entry: Entry = { voice, slot, index: list.length, joinedAt: now, active: true };
    list.push(entry);
    this.#voices += 1;
    if (this.#doneUntil < 0) this.#doneUntil = now - 1;
    const more = this.#tick(entry);
    this.#stats.busyMs += performance.now() - started;
    if (more) this.#schedule();
    return { leave: () => this.#leave(entry) };
  }

  #leave(entry: Entry): void {
    if (!entry.active) return;
    entry.active = false;
    const list = this.#slots[entry.slot] as Entry[];
    const last = list.pop() as Entry;
    if (last !== entry) {
      list[entry.index] = last;
      last.index = entry.index;
    }
    this.#voices -= 1;
    if (this.#voices === 0) {
      if (this.#timer) clearTimeout(this.#timer);
      this.#timer = undefined;
      this.#doneUntil = -1;
    }
  }

  /** One voice's packet; a voice that throws or is done leaves (one guild never stops the others). */
  #tick(entry: Entry): boolean {
    let more = false;
    try {
      more = entry.voice.tick();
    } catch {
      more = false;
    }
    this.#stats.packets += 1;
    if (!more) this.#leave(entry);
    return more;
  }

  #wake(): void {
    this.#timer = undefined;
    this.#turn += 1;
    const started = performance.now();
    const now = Math.floor(started);
    const heapBefore = this.#sampleHeap ? getHeapStatistics().used_heap_size : 0;
    const packetsBefore = this.#stats.packets;
    let from = this.#doneUntil + 1;
    if (now - from > MAX_CATCH_UP_MS) from = now - MAX_CATCH_UP_MS;
    if (from <= now) {
      this.#stats.wakeups += 1;
      if (this.#stats.lateMs.length < SAMPLES) this.#stats.lateMs.push(started - from);
    }
    for (let t = from; t <= now; t++) {
      const list = this.#slots[t % PERIOD_MS] as Entry[];
      // Backwards: a voice that leaves swaps the last one into its place, which has then been run already.
      for (let i = list.length - 1; i >= 0; i--) {
        const entry = list[i] as Entry;
        if (entry.joinedAt < t) this.#tick(entry);
      }
    }
    // The last voice may have left during this wakeup, which reset the clock: it starts afresh with the next voice.
    if (from <= now && this.#voices > 0) this.#doneUntil = now;
    if (this.#sampleHeap) {
      const packets = this.#stats.packets - packetsBefore;
      const grown = getHeapStatistics().used_heap_size - heapBefore;
      // A collection during the wakeup makes the difference meaningless (often negative): such wakeups are skipped.
      if (packets > 0 && grown >= 0 && this.#stats.heapBytesPerPacket.length < SAMPLES)
        this.#stats.heapBytesPerPacket.push(grown / packets);
    }
    this.#stats.busyMs += performance.now() - started;
    this.#schedule();
  }

  /** Wakes at the next slot that holds a voice. */
  #schedule(): void {
    if (this.#timer || this.#voices === 0) return;
    const next = this.#doneUntil + 1;
    let k = 0;
    while (k < PERIOD_MS && (this.#slots[(next + k) % PERIOD_MS] as Entry[]).length === 0) k++;
    this.#timer = setTimeout(this.#run, Math.max(0, next + k - performance.now()));
  }

  get voices(): number {
    return this.#voices;
  }

  stats(): ClockStats {
    return this.#stats;
  }

  /** Starts counting afresh; `sampleHeap` also measures allocations per wakeup (costs a heap query per wakeup). */
  resetStats(sampleHeap = false): void {
    this.#stats = { wakeups: 0, packets: 0, busyMs: 0, lateMs: [], heapBytesPerPacket: [] };
    this.#sampleHeap = sampleHeap;
  }
}

/** The process's clock: every voice of every bot in this process on one timer. */
export const voiceClock = new VoiceClock();
