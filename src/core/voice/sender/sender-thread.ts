// The main thread's side of the sender thread (sender-worker.ts): starts it, hands it voice sessions as sender
// connections (sockets claimed at IP discovery; packets through each one's ring in shared memory, ./packet-ring.ts,
// never posted) and keeps their books (a clip attached to its session's connection, keys given once, holds, DAVE
// generations), takes each clip's packets (./worker-clip.ts plays a clip: read ahead, DAVE-sealed there, handed over
// in batches), routes the thread's reports to the clips, and notices when it dies or stalls: then every connection
// is renewed (a new key, so no nonce is reused) and each clip goes on from its first packet not reported sent. A
// worker thread, not a child process: it opens its sockets, shares memory, and dies with SayBot (docs/decisions.md).
import { Worker } from 'node:worker_threads';
import { VoiceConnectionStatus, type VoiceConnection } from '@discordjs/voice';
import type { Logger } from '../../log.ts';
import {
  ConnectionBarrier,
  type ClipProgress,
  type FromSender,
  type PacketRun,
  type SenderStats,
  type ToSender,
} from './sender-messages.ts';
import { raiseToRealtime, type SenderPriority } from './realtime.ts';
import { MainThreadLook } from './main-thread-look.ts';
import { createRing, RING_SLOTS, RingWriter, SLOT_BYTES } from './packet-ring.ts';
import type { SenderConnectionData, UdpOwner } from '../discordjs-voice-types.ts';
import { SILENCE_FRAME } from '../packet-sender.ts';

/** The thread's name (Linux shows it in /proc/<pid>/task/<tid>/comm), telling it from the audio threads in `top -H`. */
export const SENDER_THREAD_NAME = 'voice-sender';
/** No message from the thread for this long while it holds connections (the main thread itself awake): it is stuck. */
export const STALL_MS = 3_000;
/** How long a new thread may take to say it started (its modules loading on a busy host) before it counts as stuck. */
const START_MS = 30_000;
const WATCH_MS = 500;
/** The longest a transition waits for a packet being sent that instant: microseconds, unless descheduled mid-send. */
const SEND_SETTLE_MS = 5;
/** How long a clip's end read just after the main thread was held up waits for a session's end that waited too. */
const SETTLE_MS = 100;
/** A writer waiting for ring room looks again after this unnotified (a held connection reads nothing). */
const ROOM_LOOK_MS = 1_000;

/** A packet (or, with none, its clip's end) waiting here for room in its connection's ring. */
interface Waiting {
  clip: number;
  number: number;
  generation: number;
  packet: Uint8Array | undefined;
}

/** What a clip hears of its packets. */
export interface ClipWatcher {
  progress(progress: ClipProgress): void;
  done(sent: number, how: 'ended' | 'stopped' | 'closed'): void;
  /** Its connection is gone with the thread: nothing more is reported; the last progress is what was confirmed. */
  gone(): void;
}

interface ConnectionEntry {
  id: number;
  /** Asks the library for a new voice session in place of this one (the thread that held its socket is gone). */
  renew: () => void;
  discovered: PromiseWithResolvers<{ ip: string; port: number }>;
  clips: Set<number>;
  /** Its DAVE generation, shared with the thread (see transition()). */
  barrier: Int32Array;
  /** Where its packets go to the thread (./packet-ring.ts). */
  ring: RingWriter;
  /** What did not fit in the ring yet, in order; bounded by the clips' lead (LEAD_PACKETS past what was reported sent). */
  waiting: Waiting[];
  /** It waits for room in its ring now (one wait at a time). */
  awaitingRoom: boolean;
  /** The thread holds it (its session is not ready: hold()). */
  held: boolean;
  /** performance.now() at the earliest its session may have ended, from when its end was first heard of (ending). */
  endedAt?: number;
}

interface SenderThreadOptions {
  /** The worker's module (default ./sender-worker.ts; tests give one that misbehaves). */
  worker?: URL;
  /** Default STALL_MS. */
  stallMs?: number;
}

/** What the main thread hands the thread, counted (tests: no message on the per-packet path). */
interface SenderCounts {
  /** Messages posted to the thread, by type. */
  messages: Record<string, number>;
  /** Times a connection's ring was found full and the main thread waited for room. */
  ringFull: number;
  /** Packets longer than a ring's slot (no 20 ms Opus frame is), sent as silence in their place. */
  oversized: number;
}

export class SenderThread {
  readonly #workerUrl: URL;
  readonly #stallMs: number;
  #worker: Worker | undefined;
  #nextConnection = 1;
  #nextClip = 1;
  readonly #connections = new Map<number, ConnectionEntry>();
  readonly #byUdp = new WeakMap<object, number>();
  /** Sessions whose keys the thread has, by the connection they were given to. */
  readonly #keyed = new WeakMap<SenderConnectionData, number>();
  readonly #clips = new Map<number, { connection: number; watcher: ClipWatcher }>();
  #lastHeard = 0;
  #started = false;
  /** Since when the main thread may have missed a session's end it hears of now. */
  readonly #look = new MainThreadLook();
  #lastWatch = 0;
  #watch: NodeJS.Timeout | undefined;
  #log: Logger | undefined;
  #statsWaiting: Array<(stats: SenderStats) => void> = [];
  /** Times the thread was found dead or stuck and its connections renewed. */
  failovers = 0;
  /** Packets handed to the thread so far (sealed again ones included), for the benchmark. */
  handed = 0;
  readonly counts: SenderCounts = { messages: {}, ringFull: 0, oversized: 0 };
  /** The slots of each connection's ring opened from now (a power of two; tests make it small to fill it). */
  ringSlots = RING_SLOTS;
  /** Whether a thread started from now asks for real-time scheduling (./realtime.ts); the benchmark turns it off. */
  realtime = true;
  /** The live thread's kernel thread ID (Linux), once it said it. */
  kernelThreadId: number | undefined;
  /** What the host said to the live thread's request for real-time scheduling; undefined until it answered. */
  priority: SenderPriority | undefined;
  #priorityLogged = false;

  constructor(options: SenderThreadOptions = {}) {
    this.#workerUrl = options.worker ?? new URL('./sender-worker.ts', import.meta.url);
    this.#stallMs = options.stallMs ?? STALL_MS;
  }

  /** Where a failover is logged (the last player's logger given). */
  useLogger(logger: Logger): void {
    this.#log = logger;
  }

  #start(): Worker {
    if (this.#worker) return this.#worker;
    const worker = new Worker(this.#workerUrl, { name: SENDER_THREAD_NAME });
    this.#worker = worker;
    this.priority = undefined;
    this.kernelThreadId = undefined;
    this.#lastHeard = performance.now();
    this.#started = false;
    worker.on('message', (message: FromSender) => {
      if (this.#worker !== worker) return;
      this.#lastHeard = performance.now();
      this.#look.heard(this.#lastHeard, 'at' in message ? message.at : undefined);
      this.#receive(message);
    });
    worker.on('error', (error) => this.#failover(worker, `the sender thread failed: ${error.message}`));
    worker.on('exit', (code) => this.#failover(worker, `the sender thread exited (${code})`));
    // After the listeners: a 'message' listener refs an unref'd worker's port again, keeping scripts alive.
    worker.unref();
    this.#lastWatch = performance.now();
    this.#watch = setInterval(() => this.#checkAlive(worker), WATCH_MS);
    this.#watch.unref();
    return worker;
  }

  #post(message: ToSender): void {
    this.#start().postMessage(message);
    this.counts.messages[message.type] = (this.counts.messages[message.type] ?? 0) + 1;
  }

  /** The thread of a live worker, for tests and the benchmark: the thread that sends. */
  get threadId(): number | undefined {
    return this.#worker?.threadId;
  }

  /** Opens a connection for the library's UDP socket `udp`: IP discovery from the sender thread's own socket. */
  open(udp: object, remote: { ip: string; port: number }, ssrc: number, renew: () => void) {
    const id = this.#nextConnection++;
    const barrier = new Int32Array(new SharedArrayBuffer(ConnectionBarrier.length * Int32Array.BYTES_PER_ELEMENT));
    const ring = createRing(this.ringSlots);
    const entry: ConnectionEntry = {
      id,
      renew,
      discovered: Promise.withResolvers(),
      clips: new Set(),
      barrier,
      ring: new RingWriter(ring),
      waiting: [],
      awaitingRoom: false,
      held: false,
    };
    this.#connections.set(id, entry);
    this.#byUdp.set(udp, id);
    this.#post({ type: 'open', connection: id, ip: remote.ip, port: remote.port, ssrc, barrier, ring });
    return { connection: id, discovered: entry.discovered.promise };
  }

  /** The live connection that holds `udp`'s session, if any. */
  connectionOf(udp: object): number | undefined {
    const id = this.#byUdp.get(udp);
    return id !== undefined && this.#connections.has(id) ? id : undefined;
  }

  /** The connection holding a ready session's socket (undefined: none yet), with the clip (`watcher`, `clip` its id
   * kept across connections) watched there and the session's keys given it once. */
  attach(udp: object, data: SenderConnectionData, watcher: ClipWatcher, clip: number | undefined) {
    const connection = this.connectionOf(udp);
    if (connection === undefined) return undefined;
    if (clip === undefined || this.#clips.get(clip)?.connection !== connection) {
      if (clip !== undefined) this.unwatch(clip);
      clip = this.watch(connection, watcher, clip);
    }
    if (this.#keyed.get(data) !== connection) {
      this.#keyed.set(data, connection);
      const key = data.secretKey instanceof Uint8Array ? data.secretKey : new Uint8Array(data.secretKey.export());
      this.keys(connection, data.encryptionMode, key, data.sequence, data.timestamp);
    }
    return { connection, clip };
  }

  /** Who takes `connection`'s voice sockets over at IP discovery (the seam's watchNetworking `udpOwner`). */
  udpOwner(voiceConnection: VoiceConnection): UdpOwner {
    // Renewing asks the library for a new voice session (new socket, new key): the nonce never restarts under an old key.
    const renew = (): void => {
      if (voiceConnection.state.status !== VoiceConnectionStatus.Destroyed) voiceConnection.configureNetworking();
    };
    return {
      claim: (udp, remote, ssrc) => this.open(udp, remote, ssrc, renew).discovered,
      // Dated when first heard of: by the time the library lets the socket go, the main thread may have caught up.
      ending: (udp) => {
        const entry = this.#connections.get(this.connectionOf(udp) ?? 0);
        if (entry) entry.endedAt ??= this.#look.lookedAt();
      },
      released: (udp) => {
        const connection = this.connectionOf(udp);
        // A move or a close: what was sent since the main thread last looked may have gone into an ended session.
        if (connection === undefined) return;
        const endedAt = this.#connections.get(connection)?.endedAt ?? Infinity;
        this.close(connection, Math.min(endedAt, this.#look.lookedAt()));
      },
    };
  }

  /** The connection's DAVE generation now: what packets sealed now are tagged with (PacketRun.generation). */
  generation(connection: number): number {
    const entry = this.#connections.get(connection);
    return entry ? Atomics.load(entry.barrier, ConnectionBarrier.generation) : 0;
  }

  /**
   * A DAVE transition executed on `connection` (in the same turn as the library's): from now the thread sends no packet
   * sealed before it, without waiting for a message (a joining member could not decrypt it). Their slots pass empty
   * until the resealed copies arrive. A send whose check came just before is let finish (sequentially consistent
   * atomics on both sides), so on return nothing sealed before is on its way. Returns the new generation.
   */
  transition(connection: number): number {
    const entry = this.#connections.get(connection);
    if (!entry) return 0;
    const generation = Atomics.add(entry.barrier, ConnectionBarrier.generation, 1) + 1;
    const until = performance.now() + SEND_SETTLE_MS;
    while (Atomics.load(entry.barrier, ConnectionBarrier.sending) === 1 && performance.now() < until) {
      // A send under way: a few microseconds.
    }
    return generation;
  }

  /** `clip`'s next packet as the thread last wrote it: resealing starts there, so sent packets take no slots. */
  nextToSend(connection: number, clip: number): number {
    const entry = this.#connections.get(connection);
    if (!entry || Atomics.load(entry.barrier, ConnectionBarrier.clip) !== clip) return 0;
    return Atomics.load(entry.barrier, ConnectionBarrier.next);
  }

  keys(connection: number, mode: string, key: Uint8Array, sequence: number, timestamp: number): void {
    this.#post({ type: 'keys', connection, mode, key, sequence, timestamp });
  }

  /** The session is over (the library let its socket go), maybe since `endedAt` (performance.now()'s clock). */
  close(connection: number, endedAt?: number): void {
    if (!this.#connections.delete(connection)) return;
    this.#post({
      type: 'close',
      connection,
      ...(endedAt !== undefined && { endedAt: performance.timeOrigin + endedAt }),
    });
  }

  /** A new clip id, its progress and end told to `watcher` while it is on `connection`. */
  watch(connection: number, watcher: ClipWatcher, clip = this.#nextClip++): number {
    this.#clips.set(clip, { connection, watcher });
    this.#connections.get(connection)?.clips.add(clip);
    return clip;
  }

  unwatch(clip: number): void {
    const known = this.#clips.get(clip);
    if (!known) return;
    this.#clips.delete(clip);
    this.#connections.get(known.connection)?.clips.delete(clip);
  }

  /** Writes packets into the ring as they fit; a resealed run replaces those still waiting here. */
  queue(run: PacketRun): void {
    this.handed += run.packets.length;
    const entry = this.#connections.get(run.connection);
    if (!entry) return;
    // Those it replaces go, and so does the clip's end, which must follow the copies again.
    let endWaiting = false;
    if (entry.waiting.length > 0)
      entry.waiting = entry.waiting.filter((w) => {
        if (w.clip !== run.clip) return true;
        if (w.packet === undefined) endWaiting = true;
        return w.packet !== undefined && w.number < run.first;
      });
    // Nothing waiting: straight into the ring while it has room, no record a packet.
    let n = 0;
    if (entry.waiting.length === 0)
      while (n < run.packets.length && entry.ring.push(run.clip, run.first + n, run.generation, this.#fit(run, n))) n++;
    if (n > 0 && entry.ring.wakeNeeded()) this.#post({ type: 'wake', connection: entry.id });
    for (; n < run.packets.length; n++)
      entry.waiting.push({
        clip: run.clip,
        number: run.first + n,
        generation: run.generation,
        packet: this.#fit(run, n),
      });
    if (endWaiting) entry.waiting.push({ clip: run.clip, number: 0, generation: 0, packet: undefined });
    if (entry.waiting.length > 0) this.#write(entry);
  }

  /** Packet `n` of the run, or silence in its place past a slot's bytes (no 20 ms Opus frame is that long). */
  #fit(run: PacketRun, n: number): Uint8Array {
    const packet = run.packets[n] as Uint8Array;
    if (packet.length <= SLOT_BYTES) return packet;
    this.counts.oversized += 1;
    return SILENCE_FRAME;
  }

  /** The clip has no more packets: its end follows its last packet in the ring (closing silence, then 'done'). */
  end(connection: number, clip: number): void {
    const entry = this.#connections.get(connection);
    if (!entry) return;
    entry.waiting.push({ clip, number: 0, generation: 0, packet: undefined });
    this.#write(entry);
  }

  /** Drops the clip's packets not sent (at once in the thread; those not written yet here). */
  stop(connection: number, clip: number): void {
    const entry = this.#connections.get(connection);
    if (entry) entry.waiting = entry.waiting.filter((w) => w.clip !== clip);
    this.#post({ type: 'stop', connection, clip });
  }

  /** Holds the connection (session not ready) or lets it go on; the hold is the connection's, whichever clip asked. */
  hold(connection: number, held: boolean): void {
    const entry = this.#connections.get(connection);
    if (!entry || entry.held === held) return;
    entry.held = held;
    this.#post({ type: 'hold', connection, held });
  }

  /** Writes what waits into the connection's ring; wakes the thread if it slept; waits for room if it is full. */
  #write(entry: ConnectionEntry): void {
    const { ring, waiting } = entry;
    let written = 0;
    while (written < waiting.length) {
      const next = waiting[written] as Waiting;
      if (!ring.push(next.clip, next.number, next.generation, next.packet)) break;
      written += 1;
    }
    if (written > 0) {
      waiting.splice(0, written);
      if (ring.wakeNeeded()) this.#post({ type: 'wake', connection: entry.id });
    }
    if (waiting.length === 0 || entry.awaitingRoom) return;
    entry.awaitingRoom = true;
    this.counts.ringFull += 1;
    void ring.room(ROOM_LOOK_MS).then(() => {
      entry.awaitingRoom = false;
      if (this.#connections.get(entry.id) === entry) this.#write(entry);
    });
  }

  /** The sender's figures since they were last reset; `reset` starts them afresh. */
  stats(reset = false): Promise<SenderStats> {
    const { promise, resolve } = Promise.withResolvers<SenderStats>();
    this.#statsWaiting.push(resolve);
    this.#post({ type: 'stats', reset });
    return promise;
  }

  /** Ends the thread as if it had died: its connections are renewed (the fail-safe's test, the benchmark). */
  async kill(): Promise<void> {
    const worker = this.#worker;
    if (!worker) return;
    await worker.terminate();
  }

  #receive(message: FromSender): void {
    switch (message.type) {
      case 'started':
        this.#started = true;
        this.kernelThreadId = message.tid;
        if (this.realtime && message.tid !== undefined) this.#askRealtime(message.tid);
        return;
      case 'discovered':
        this.#connections.get(message.connection)?.discovered.resolve({ ip: message.ip, port: message.port });
        return;
      case 'failed':
        this.#connections.get(message.connection)?.discovered.reject(new Error(message.message));
        this.#connections.delete(message.connection);
        return;
      case 'report':
        for (const progress of message.clips) this.#clips.get(progress.clip)?.watcher.progress(progress);
        return;
      case 'done': {
        const known = this.#clips.get(message.clip);
        if (known?.connection !== message.connection) return;
        if (message.how !== 'ended' || !this.#look.waited(message.at)) {
          known.watcher.done(message.sent, message.how);
          return;
        }
        // Its last packets went while the main thread was held up: a session's end it has yet to hear of may have had
        // them (the thread then tells it 'closed', and it goes on on the next session).
        setTimeout(() => {
          if (this.#clips.get(message.clip) === known) known.watcher.done(message.sent, 'ended');
        }, SETTLE_MS);
        return;
      }
      case 'lost': {
        const entry = this.#connections.get(message.connection);
        if (!entry) return;
        this.#connections.delete(message.connection);
        this.#log?.warn({ code: 'voice-sender-socket-lost', reason: message.message }, 'a voice socket failed');
        entry.renew();
        return;
      }
      case 'stats':
        for (const resolve of this.#statsWaiting.splice(0)) resolve(message.stats);
        return;
    }
  }

  /** Asks for the thread's real-time priority; the answer is logged once a process (a later thread asks again). */
  #askRealtime(tid: number): void {
    const worker = this.#worker;
    void raiseToRealtime(tid).then((priority) => {
      if (this.#worker !== worker) return;
      this.priority = priority;
      if (this.#priorityLogged || !this.#log) return;
      this.#priorityLogged = true;
      if (priority.realtime)
        this.#log.info(
          { code: 'voice-sender-priority', realtime: true },
          'the voice sender thread runs at real-time priority',
        );
      else
        this.#log.info(
          { code: 'voice-sender-priority', realtime: false, why: priority.why },
          'the voice sender thread runs at ordinary priority: on a busy host its packets can be late (docs/guide-owners.md)',
        );
    });
  }

  #checkAlive(worker: Worker): void {
    const now = performance.now();
    const mainAwake = now - this.#lastWatch < 2 * WATCH_MS;
    this.#lastWatch = now;
    // A main thread that was itself held up has not read the thread's messages yet: not a sign of anything.
    if (!mainAwake || this.#connections.size === 0) return;
    const bound = this.#started ? this.#stallMs : Math.max(this.#stallMs, START_MS);
    if (now - this.#lastHeard > bound) {
      this.#failover(worker, `the sender thread ${this.#started ? 'sent nothing' : 'did not start'} for ${bound} ms`);
      void worker.terminate();
    }
  }

  /** The thread is gone: clips keep what was reported sent, connections renewed (a new key), a next use starts one. */
  #failover(worker: Worker, reason: string): void {
    if (this.#worker !== worker) return;
    this.#worker = undefined;
    if (this.#watch) clearInterval(this.#watch);
    this.#watch = undefined;
    const connections = [...this.#connections.values()];
    this.#connections.clear();
    const clips = [...this.#clips.values()];
    this.#clips.clear();
    for (const resolve of this.#statsWaiting.splice(0))
      resolve({ threadId: -1, packets: 0, silence: 0, underruns: 0, lateMs: [], skippedSlots: 0 });
    if (connections.length === 0 && clips.length === 0) return;
    this.failovers += 1;
    this.#log?.warn(
      { code: 'voice-sender-failover', reason, voices: connections.length, clips: clips.length },
      'the voice sender thread stopped; its voices reconnect with new sessions and go on from the last packet sent',
    );
    for (const entry of connections) entry.discovered.reject(new Error(reason));
    for (const { watcher } of clips) watcher.gone();
    for (const entry of connections) entry.renew();
  }
}

/** The process's sender thread: every connection of every bot in this process. */
export const senderThread = new SenderThread();
