// The sender thread's loop: each message from the main thread, the clock sending due packets and sleeping until the
// next, and the reports. Clock and posting are given, so a test plays it on its own
// (test/core/voice/sender/ring-fuzz.test.ts).
import type { ClipProgress, FromSender, SenderStats, ToSender } from './sender-messages.ts';
import { SenderConnection, type ConnectionListener } from './sender-connection.ts';

/** Samples of lateness kept between two reads of the figures. */
const SAMPLES = 20_000;
/** With no clip moving, a report this often all the same: the main thread's sign that this thread lives. */
const HEARTBEAT_MS = 500;

/** Where the loop's time comes from and how it sleeps: Node's performance.now() and setTimeout in the thread. */
interface LoopClock {
  now(): number;
  /** Calls `wake` in `delayMs` (one timer at a time: the loop clears the one before). */
  set(wake: () => void, delayMs: number): unknown;
  clear(timer: unknown): void;
  /** The epoch's ms at now() = 0 (performance.timeOrigin): the main thread's times are the epoch's. */
  origin?: number;
}

export class SenderLoop {
  readonly #post: (message: FromSender) => void;
  readonly #clock: LoopClock;
  readonly #threadId: number;
  readonly connections = new Map<number, SenderConnection>();
  readonly #moved = new Set<SenderConnection>();
  #stats: SenderStats;
  #timer: unknown;
  /** When the timer set fires (Infinity: none set). */
  wakeAt = Infinity;
  #lastPost = 0;
  readonly #listener: ConnectionListener = {
    moved: (connection) => this.#moved.add(connection),
    done: (connection, clip, sent, how) => {
      const origin = this.#clock.origin;
      this.#post({
        type: 'done',
        connection: connection.id,
        clip,
        sent,
        how,
        ...(origin !== undefined && { at: origin + this.#clock.now() }),
      });
    },
    lost: (connection, message) => {
      this.connections.delete(connection.id);
      this.#post({ type: 'lost', connection: connection.id, message });
    },
    sent: (lateMs, silence, underrun) => {
      const stats = this.#stats;
      if (silence) stats.silence += 1;
      else stats.packets += 1;
      if (underrun) stats.underruns += 1;
      if (stats.lateMs.length < SAMPLES) stats.lateMs.push(lateMs);
    },
    skipped: (slots) => {
      this.#stats.skippedSlots += slots;
    },
  };

  constructor(post: (message: FromSender) => void, clock: LoopClock, threadId: number) {
    this.#post = post;
    this.#clock = clock;
    this.#threadId = threadId;
    this.#stats = this.#freshStats();
  }

  #freshStats(): SenderStats {
    return { threadId: this.#threadId, packets: 0, silence: 0, underruns: 0, lateMs: [], skippedSlots: 0 };
  }

  /** Sends what is due on every connection, then sleeps until the next connection's packet is due. */
  readonly wake = (): void => {
    this.#timer = undefined;
    this.wakeAt = Infinity;
    const now = this.#clock.now();
    let next = Infinity;
    for (const connection of this.connections.values()) {
      const due = connection.run(now);
      if (due !== undefined && due < next) next = due;
    }
    this.#schedule(next);
  };

  #schedule(at: number): void {
    if (at === Infinity || at >= this.wakeAt) return;
    if (this.#timer !== undefined) this.#clock.clear(this.#timer);
    this.wakeAt = at;
    this.#timer = this.#clock.set(this.wake, Math.max(0, at - this.#clock.now()));
  }

  /** A connection given something to send now: sent in this turn, the clock set from it. */
  #runNow(connection: SenderConnection): void {
    const due = connection.run(this.#clock.now());
    if (due !== undefined) this.#schedule(due);
  }

  /** The progress of each clip that moved since the last report (or, with none for a while, a heartbeat); with `only`,
   * that connection's alone (a clip's start: told at every start, the others would hear twice as often as they need). */
  report(only?: SenderConnection): void {
    const clips: ClipProgress[] = [];
    for (const connection of this.#moved) {
      const progress = only === undefined || connection === only ? connection.progress() : undefined;
      if (progress) clips.push({ connection: connection.id, ...progress });
    }
    if (only) this.#moved.delete(only);
    else this.#moved.clear();
    const now = this.#clock.now();
    if (clips.length > 0 || now - this.#lastPost >= HEARTBEAT_MS) {
      this.#lastPost = now;
      const origin = this.#clock.origin;
      this.#post({ type: 'report', clips, ...(origin !== undefined && { at: origin + now }) });
    }
  }

  handle(message: ToSender): void {
    const now = this.#clock.now();
    switch (message.type) {
      case 'open': {
        const connection = new SenderConnection(
          message.connection,
          message.ssrc,
          this.#listener,
          message.ring,
          message.barrier,
        );
        this.connections.set(message.connection, connection);
        connection.discover(message.ip, message.port).then(
          (local) => this.#post({ type: 'discovered', connection: message.connection, ...local }),
          (error: unknown) => {
            this.connections.delete(message.connection);
            connection.close();
            this.#post({ type: 'failed', connection: message.connection, message: (error as Error).message });
          },
        );
        return;
      }
      case 'keys': {
        const connection = this.connections.get(message.connection);
        if (!connection) return;
        connection.keys(message.mode, message.key, message.sequence, message.timestamp);
        this.#runNow(connection);
        return;
      }
      case 'wake': {
        const connection = this.connections.get(message.connection);
        if (connection) this.#runNow(connection);
        // A progress report as soon as a clip's first packet went out: the main thread says it started.
        this.report(connection);
        return;
      }
      case 'stop': {
        const connection = this.connections.get(message.connection);
        if (!connection) {
          this.#post({ type: 'done', connection: message.connection, clip: message.clip, sent: 0, how: 'closed' });
          return;
        }
        connection.stop(message.clip);
        // The next clip's packets may be in the ring already.
        this.#runNow(connection);
        return;
      }
      case 'hold': {
        const connection = this.connections.get(message.connection);
        if (!connection) return;
        connection.held = message.held;
        // Let go again: it goes on from now, not with a burst of the slots it was held for.
        if (!message.held && connection.due !== undefined) connection.due = Math.max(connection.due, now);
        if (!message.held) this.#runNow(connection);
        return;
      }
      case 'close': {
        const connection = this.connections.get(message.connection);
        this.connections.delete(message.connection);
        connection?.close(message.endedAt === undefined ? undefined : message.endedAt - (this.#clock.origin ?? 0));
        return;
      }
      case 'stats':
        this.#post({ type: 'stats', stats: this.#stats });
        if (message.reset) this.#stats = this.#freshStats();
        return;
    }
  }
}
