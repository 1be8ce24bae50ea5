// The sender thread's loop: each message from the main thread, the clock sending due packets and sleeping until the
// next, and the reports. Clock and posting are given, so a test plays it on its own
// (test/core/voice/sender/ring-fuzz.test.ts).
import type { ClipProgress, FromSender, SenderStats, ToSender } from './sender-messages.ts';
import { SenderConnection, type VoiceListener } from './sender-connection.ts';

/** Samples of lateness kept between two reads of the figures. */
const SAMPLES = 20_000;
/** With no clip moving, a report this often all the same: the main thread's sign that this thread lives. */
const HEARTBEAT_MS = 500;

/** Where the loop's time comes from and how it sleeps: Node's performance.now() and setTimeout in the thread. */
export interface LoopClock {
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
  readonly voices = new Map<number, SenderConnection>();
  readonly #moved = new Set<SenderConnection>();
  #stats: SenderStats;
  #timer: unknown;
  /** When the timer set fires (Infinity: none set). */
  wakeAt = Infinity;
  #lastPost = 0;
  readonly #listener: VoiceListener = {
    moved: (voice) => this.#moved.add(voice),
    done: (voice, clip, sent, how) => {
      const origin = this.#clock.origin;
      this.#post({
        type: 'done',
        voice: voice.id,
        clip,
        sent,
        how,
        ...(origin !== undefined && { at: origin + this.#clock.now() }),
      });
    },
    lost: (voice, message) => {
      this.voices.delete(voice.id);
      this.#post({ type: 'lost', voice: voice.id, message });
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

  /** Sends what is due on every voice, then sleeps until the next voice's packet is due. */
  readonly wake = (): void => {
    this.#timer = undefined;
    this.wakeAt = Infinity;
    const now = this.#clock.now();
    let next = Infinity;
    for (const voice of this.voices.values()) {
      const due = voice.run(now);
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

  /** A voice given something to send now: sent in this turn, the clock set from it. */
  #runNow(voice: SenderConnection): void {
    const due = voice.run(this.#clock.now());
    if (due !== undefined) this.#schedule(due);
  }

  /** The progress of each clip that moved since the last report (or, with none for a while, a heartbeat). */
  report(): void {
    const clips: ClipProgress[] = [];
    for (const voice of this.#moved) {
      const progress = voice.progress();
      if (progress) clips.push({ voice: voice.id, ...progress });
    }
    this.#moved.clear();
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
        const voice = new SenderConnection(message.voice, message.ssrc, this.#listener, message.ring, message.barrier);
        this.voices.set(message.voice, voice);
        voice.discover(message.ip, message.port).then(
          (local) => this.#post({ type: 'discovered', voice: message.voice, ...local }),
          (error: unknown) => {
            this.voices.delete(message.voice);
            voice.close();
            this.#post({ type: 'failed', voice: message.voice, message: (error as Error).message });
          },
        );
        return;
      }
      case 'keys': {
        const voice = this.voices.get(message.voice);
        if (!voice) return;
        voice.keys(message.mode, message.key, message.sequence, message.timestamp);
        this.#runNow(voice);
        return;
      }
      case 'wake': {
        const voice = this.voices.get(message.voice);
        if (voice) this.#runNow(voice);
        // A progress report as soon as a clip's first packet went out: the main thread says it started.
        this.report();
        return;
      }
      case 'stop': {
        const voice = this.voices.get(message.voice);
        if (!voice) {
          this.#post({ type: 'done', voice: message.voice, clip: message.clip, sent: 0, how: 'closed' });
          return;
        }
        voice.stop(message.clip);
        // The next clip's packets may be in the ring already.
        this.#runNow(voice);
        return;
      }
      case 'hold': {
        const voice = this.voices.get(message.voice);
        if (!voice) return;
        voice.held = message.held;
        // Let go again: it goes on from now, not with a burst of the slots it was held for.
        if (!message.held && voice.due !== undefined) voice.due = Math.max(voice.due, now);
        if (!message.held) this.#runNow(voice);
        return;
      }
      case 'close': {
        const voice = this.voices.get(message.voice);
        this.voices.delete(message.voice);
        voice?.close(message.endedAt === undefined ? undefined : message.endedAt - (this.#clock.origin ?? 0));
        return;
      }
      case 'stats':
        this.#post({ type: 'stats', stats: this.#stats });
        if (message.reset) this.#stats = this.#freshStats();
        return;
    }
  }
}
