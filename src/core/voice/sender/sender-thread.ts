// The main thread's side of the sender thread (sender-worker.ts): starts it, hands it voice sessions (their sockets
// claimed at IP discovery; packets go through each voice's ring in shared memory, ./packet-ring.ts, never posted),
// plays each clip (WorkerClip: read ahead, DAVE-sealed here, handed over in batches), routes the thread's reports to
// the clips, and notices when it dies or stalls: then every voice is renewed (a new key, so no nonce is reused) and
// each clip goes on from its first packet not reported sent. A worker thread, not a child process: it opens its own
// sockets, shares memory, and dies with SayBot (docs/decisions.md).
import type { KeyObject } from 'node:crypto';
import type { Readable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import { VoiceConnectionStatus, type VoiceConnection } from '@discordjs/voice';
import type { Logger } from '../../log.ts';
import {
  VoiceBarrier,
  type ClipProgress,
  type FromSender,
  type PacketRun,
  type SenderStats,
  type ToSender,
} from './sender-messages.ts';
import { raiseToRealtime, type SenderPriority } from './realtime.ts';
import { MainThreadLook } from './main-thread-look.ts';
import { createRing, RING_SLOTS, RingWriter, SLOT_BYTES } from './packet-ring.ts';
import { canSendAudio, readySession } from '../discordjs-voice-seam.ts';
import type { ReadySession, SenderConnectionData, UdpOwner } from '../discordjs-voice-types.ts';
import {
  MAX_MISSED_FRAMES,
  SILENCE_FRAME,
  type ClipEvents,
  type PacketSender,
  type PlayingClip,
} from '../packet-sender.ts';

/** The thread's name (Linux shows it in /proc/<pid>/task/<tid>/comm), telling it from the audio threads in `top -H`. */
export const SENDER_THREAD_NAME = 'voice-sender';
/** No message from the thread for this long while it holds voices (the main thread itself awake): it is stuck. */
export const STALL_MS = 3_000;
const WATCH_MS = 500;
/** The longest a transition waits for a packet being sent that instant: microseconds, unless descheduled mid-send. */
const SEND_SETTLE_MS = 5;
/** How long a clip's end read just after the main thread was held up waits for a session's end that waited too. */
const SETTLE_MS = 100;
/** A writer waiting for ring room looks again after this unnotified (a held voice reads nothing). */
const ROOM_LOOK_MS = 1_000;

/** A packet (or, with none, its clip's end) waiting here for room in its voice's ring. */
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
  /** Its voice is gone with the thread: nothing more is reported; the last progress is what was confirmed. */
  gone(): void;
}

interface VoiceEntry {
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
}

export interface SenderThreadOptions {
  /** The worker's module (default ./sender-worker.ts; tests give one that misbehaves). */
  worker?: URL;
  /** Default STALL_MS. */
  stallMs?: number;
}

/** What the main thread hands the thread, counted (tests: no message on the per-packet path). */
export interface SenderCounts {
  /** Messages posted to the thread, by type. */
  messages: Record<string, number>;
  /** Times a voice's ring was found full and the main thread waited for room. */
  ringFull: number;
  /** Packets longer than a ring's slot (no 20 ms Opus frame is), sent as silence in their place. */
  oversized: number;
}

export class SenderThread {
  readonly #workerUrl: URL;
  readonly #stallMs: number;
  #worker: Worker | undefined;
  #nextVoice = 1;
  #nextClip = 1;
  readonly #voices = new Map<number, VoiceEntry>();
  readonly #byUdp = new WeakMap<object, number>();
  readonly #clips = new Map<number, { voice: number; watcher: ClipWatcher }>();
  #lastHeard = 0;
  /** Since when the main thread may have missed a session's end it hears of now. */
  readonly #look = new MainThreadLook();
  #lastWatch = 0;
  #watch: NodeJS.Timeout | undefined;
  #log: Logger | undefined;
  #statsWaiting: Array<(stats: SenderStats) => void> = [];
  /** Times the thread was found dead or stuck and its voices renewed. */
  failovers = 0;
  /** Packets handed to the thread so far (sealed again ones included), for the benchmark. */
  handed = 0;
  readonly counts: SenderCounts = { messages: {}, ringFull: 0, oversized: 0 };
  /** The slots of each voice's ring opened from now (a power of two; tests make it small to fill it). */
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

  /** Opens a voice for the library's UDP socket `udp`: IP discovery from the sender thread's own socket. */
  open(udp: object, remote: { ip: string; port: number }, ssrc: number, renew: () => void) {
    const id = this.#nextVoice++;
    const barrier = new Int32Array(new SharedArrayBuffer(VoiceBarrier.length * Int32Array.BYTES_PER_ELEMENT));
    const ring = createRing(this.ringSlots);
    const entry: VoiceEntry = {
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
    this.#voices.set(id, entry);
    this.#byUdp.set(udp, id);
    this.#post({ type: 'open', voice: id, ip: remote.ip, port: remote.port, ssrc, barrier, ring });
    return { voice: id, discovered: entry.discovered.promise };
  }

  /** The live voice that holds `udp`'s session, if any. */
  voiceOf(udp: object): number | undefined {
    const id = this.#byUdp.get(udp);
    return id !== undefined && this.#voices.has(id) ? id : undefined;
  }

  /** Who takes `connection`'s voice sockets over at IP discovery (the seam's watchNetworking `udpOwner`). */
  udpOwner(connection: VoiceConnection): UdpOwner {
    // Renewing asks the library for a new voice session (new socket, new key): the nonce never restarts under an old key.
    const renew = (): void => {
      if (connection.state.status !== VoiceConnectionStatus.Destroyed) connection.configureNetworking();
    };
    return {
      claim: (udp, remote, ssrc) => this.open(udp, remote, ssrc, renew).discovered,
      released: (udp) => {
        const voice = this.voiceOf(udp);
        // A move or a close: what was sent since the main thread last looked may have gone into an ended session.
        if (voice !== undefined) this.close(voice, this.#look.lookedAt());
      },
    };
  }

  /** The voice's DAVE generation now: what packets sealed now are tagged with (PacketRun.generation). */
  generation(voice: number): number {
    const entry = this.#voices.get(voice);
    return entry ? Atomics.load(entry.barrier, VoiceBarrier.generation) : 0;
  }

  /**
   * A DAVE transition executed on `voice` (in the same turn as the library's): from now the thread sends no packet
   * sealed before it, without waiting for a message (a joining member could not decrypt it). Their slots pass empty
   * until the resealed copies arrive. A send whose check came just before is let finish (sequentially consistent
   * atomics on both sides), so on return nothing sealed before is on its way. Returns the new generation.
   */
  transition(voice: number): number {
    const entry = this.#voices.get(voice);
    if (!entry) return 0;
    const generation = Atomics.add(entry.barrier, VoiceBarrier.generation, 1) + 1;
    const until = performance.now() + SEND_SETTLE_MS;
    while (Atomics.load(entry.barrier, VoiceBarrier.sending) === 1 && performance.now() < until) {
      // A send under way: a few microseconds.
    }
    return generation;
  }

  /** `clip`'s next packet as the thread last wrote it: resealing starts there, so sent packets take no slots. */
  nextToSend(voice: number, clip: number): number {
    const entry = this.#voices.get(voice);
    if (!entry || Atomics.load(entry.barrier, VoiceBarrier.clip) !== clip) return 0;
    return Atomics.load(entry.barrier, VoiceBarrier.next);
  }

  keys(voice: number, mode: string, key: Uint8Array, sequence: number, timestamp: number): void {
    this.#post({ type: 'keys', voice, mode, key, sequence, timestamp });
  }

  /** The session is over (the library let its socket go), maybe since `endedAt` (performance.now()'s clock). */
  close(voice: number, endedAt?: number): void {
    if (!this.#voices.delete(voice)) return;
    this.#post({ type: 'close', voice, ...(endedAt !== undefined && { endedAt: performance.timeOrigin + endedAt }) });
  }

  /** A new clip id, its progress and end told to `watcher` while it is on `voice`. */
  watch(voice: number, watcher: ClipWatcher, clip = this.#nextClip++): number {
    this.#clips.set(clip, { voice, watcher });
    this.#voices.get(voice)?.clips.add(clip);
    return clip;
  }

  unwatch(clip: number): void {
    const known = this.#clips.get(clip);
    if (!known) return;
    this.#clips.delete(clip);
    this.#voices.get(known.voice)?.clips.delete(clip);
  }

  /** Writes packets into the ring as they fit; a resealed run replaces those still waiting here. */
  queue(run: PacketRun): void {
    this.handed += run.packets.length;
    const entry = this.#voices.get(run.voice);
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
    if (n > 0 && entry.ring.wakeNeeded()) this.#post({ type: 'wake', voice: entry.id });
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
  end(voice: number, clip: number): void {
    const entry = this.#voices.get(voice);
    if (!entry) return;
    entry.waiting.push({ clip, number: 0, generation: 0, packet: undefined });
    this.#write(entry);
  }

  /** Drops the clip's packets not sent (at once in the thread; those not written yet here). */
  stop(voice: number, clip: number): void {
    const entry = this.#voices.get(voice);
    if (entry) entry.waiting = entry.waiting.filter((w) => w.clip !== clip);
    this.#post({ type: 'stop', voice, clip });
  }

  /** Holds the voice (session not ready) or lets it go on; the hold is the voice's, whichever clip asked. */
  hold(voice: number, held: boolean): void {
    const entry = this.#voices.get(voice);
    if (!entry || entry.held === held) return;
    entry.held = held;
    this.#post({ type: 'hold', voice, held });
  }

  /** Writes what waits into the voice's ring; wakes the thread if it slept; waits for room if it is full. */
  #write(entry: VoiceEntry): void {
    const { ring, waiting } = entry;
    let written = 0;
    while (written < waiting.length) {
      const next = waiting[written] as Waiting;
      if (!ring.push(next.clip, next.number, next.generation, next.packet)) break;
      written += 1;
    }
    if (written > 0) {
      waiting.splice(0, written);
      if (ring.wakeNeeded()) this.#post({ type: 'wake', voice: entry.id });
    }
    if (waiting.length === 0 || entry.awaitingRoom) return;
    entry.awaitingRoom = true;
    this.counts.ringFull += 1;
    void ring.room(ROOM_LOOK_MS).then(() => {
      entry.awaitingRoom = false;
      if (this.#voices.get(entry.id) === entry) this.#write(entry);
    });
  }

  /** The sender's figures since they were last reset; `reset` starts them afresh. */
  stats(reset = false): Promise<SenderStats> {
    const { promise, resolve } = Promise.withResolvers<SenderStats>();
    this.#statsWaiting.push(resolve);
    this.#post({ type: 'stats', reset });
    return promise;
  }

  /** Ends the thread as if it had died: its voices are renewed (the fail-safe's test, the benchmark). */
  async kill(): Promise<void> {
    const worker = this.#worker;
    if (!worker) return;
    await worker.terminate();
  }

  #receive(message: FromSender): void {
    switch (message.type) {
      case 'started':
        this.kernelThreadId = message.tid;
        if (this.realtime && message.tid !== undefined) this.#askRealtime(message.tid);
        return;
      case 'discovered':
        this.#voices.get(message.voice)?.discovered.resolve({ ip: message.ip, port: message.port });
        return;
      case 'failed':
        this.#voices.get(message.voice)?.discovered.reject(new Error(message.message));
        this.#voices.delete(message.voice);
        return;
      case 'report':
        for (const progress of message.clips) this.#clips.get(progress.clip)?.watcher.progress(progress);
        return;
      case 'done': {
        const known = this.#clips.get(message.clip);
        if (known?.voice !== message.voice) return;
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
        const entry = this.#voices.get(message.voice);
        if (!entry) return;
        this.#voices.delete(message.voice);
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
    if (!mainAwake || this.#voices.size === 0) return;
    if (now - this.#lastHeard > this.#stallMs) {
      this.#failover(worker, `the sender thread sent nothing for ${this.#stallMs} ms`);
      void worker.terminate();
    }
  }

  /** The thread is gone: clips keep what was reported sent, voices are renewed (a new key), the next use starts a thread. */
  #failover(worker: Worker, reason: string): void {
    if (this.#worker !== worker) return;
    this.#worker = undefined;
    if (this.#watch) clearInterval(this.#watch);
    this.#watch = undefined;
    const voices = [...this.#voices.values()];
    this.#voices.clear();
    const clips = [...this.#clips.values()];
    this.#clips.clear();
    for (const resolve of this.#statsWaiting.splice(0))
      resolve({ threadId: -1, packets: 0, silence: 0, underruns: 0, lateMs: [], skippedSlots: 0 });
    if (voices.length === 0 && clips.length === 0) return;
    this.failovers += 1;
    this.#log?.warn(
      { code: 'voice-sender-failover', reason, voices: voices.length, clips: clips.length },
      'the voice sender thread stopped; its voices reconnect with new sessions and go on from the last packet sent',
    );
    for (const entry of voices) entry.discovered.reject(new Error(reason));
    for (const { watcher } of clips) watcher.gone();
    for (const entry of voices) entry.renew();
  }
}

/** The process's sender thread: every voice of every bot in this process. */
export const senderThread = new SenderThread();

// One clip played by the sender thread: packets read ahead (up to LEAD_PACKETS past what was reported sent),
// DAVE-sealed here and handed over in batches, the first as a start lead so a main-thread pause early on does not
// starve it. Plain frames stay until reported sent, so a key change reseals the queued ones and a new voice session
// goes on from the first packet not sent. A guild's clips go one at a time (WorkerSender).

/** Packets handed to the sender ahead of what it reported sent: about 500 ms, longer than any pause measured. */
const LEAD_PACKETS = 25;
/**
 * Frames kept after they were reported sent: a session found ended later (the main thread held up meanwhile) may have
 * had them, and they are said again on the next. Reports can run a lead ahead of the main thread's last look.
 */
const KEPT_PACKETS = 2 * LEAD_PACKETS;
/** Frames go once this many wait, or sooner below LOW_WATER_PACKETS: ~a message per 100 ms. */
const BATCH_PACKETS = 5;
const LOW_WATER_PACKETS = 10;
/** A clip starts once this many packets are read: 300 ms, the longest measured main-thread pause (250 ms) plus 50. */
export const START_LEAD_PACKETS = 15;
/** The longest a clip's start waits for its lead: fast streams have it well before; a slow one keeps it. */
export const START_WAIT_MS = 150;
const PACKET_MS = 20;
/** How soon a clip whose session is not ready looks again: DAVE's readiness does not always come with an event. */
const SESSION_LOOK_MS = 50;

/** Sessions whose keys the sender thread has, by the voice it was given to. */
const keyed = new WeakMap<SenderConnectionData, number>();

function keyBytes(key: Uint8Array | KeyObject): Uint8Array {
  return key instanceof Uint8Array ? key : new Uint8Array(key.export());
}

class WorkerClip implements PlayingClip, ClipWatcher {
  readonly #connection: VoiceConnection;
  readonly #stream: Readable;
  readonly #events: ClipEvents;
  readonly #onOver: (clip: WorkerClip) => void;
  /** Packets its start waits for: START_LEAD_PACKETS, or 1 without the start lead (the first frame read goes). */
  readonly #startLead: number;
  /** The clip's id with the sender thread (kept across voices). */
  #id: number | undefined;
  #voice: number | undefined;
  /** While its session is not ready: a look again soon (readiness can come back without an event of the library's). */
  #sessionLook: NodeJS.Timeout | undefined;
  /** Packets reported sent. */
  #confirmed = 0;
  /** Plain Opus frames from packet #base on, read from the stream: those not reported sent, and KEPT_PACKETS before. */
  #frames: Buffer[] = [];
  #base = 0;
  /** Packets handed to the current voice. */
  #posted = 0;
  #drained = false;
  #endPosted = false;
  #stopping = false;
  #over = false;
  #started = false;
  /** Its first packets were handed over (the start lead is behind it, across voices too). */
  #begun = false;
  /** Set when its first frame is read; fills once START_WAIT_MS passed, if the lead was not read by then. */
  #startWait: NodeJS.Timeout | undefined;
  #startWaitOver = false;
  #error: unknown;
  /** The group's keys changed while no session was ready: what is queued is sealed again once one is. */
  #resealDue = false;
  readonly #pump = (): void => this.#fill();
  readonly #onEnd = (): void => {
    this.#drained = true;
    this.#fill();
  };
  readonly #onError = (error: unknown): void => {
    this.#error ??= error;
    this.#onEnd();
  };
  readonly #reseal = (): void => {
    // First, in the turn it executes: from now the thread sends nothing sealed before (nor of a clip stopping).
    if (this.#voice !== undefined && !this.#over) senderThread.transition(this.#voice);
    this.#sealAgain();
    this.#fill();
  };

  constructor(
    connection: VoiceConnection,
    stream: Readable,
    events: ClipEvents,
    onOver: (clip: WorkerClip) => void,
    startLead = true,
  ) {
    this.#connection = connection;
    this.#startLead = startLead ? START_LEAD_PACKETS : 1;
    this.#stream = stream;
    this.#events = events;
    this.#onOver = onOver;
    stream.on('readable', this.#pump);
    stream.on('error', this.#onError);
    stream.on('end', this.#onEnd);
    stream.on('close', this.#onEnd);
    connection.on('stateChange', this.#pump);
    connection.on('transitioned', this.#reseal);
    queueMicrotask(this.#pump);
  }

  get playedMs(): number {
    return this.#confirmed * PACKET_MS;
  }

  /** The session audio goes to now, or undefined (the clip waits, its voice held) until its DAVE group is ready. */
  #session(): ReadySession | undefined {
    try {
      const session = readySession(this.#connection);
      return session && canSendAudio(this.#connection) ? session : undefined;
    } catch (error) {
      // @discordjs/voice is not the release the sender was written for: the clip fails with that message.
      this.#error ??= error;
      this.#finish();
      return undefined;
    }
  }

  #fill(): void {
    if (this.#over || this.#stopping) return;
    const session = this.#session();
    if (this.#over) return;
    if (!session) {
      if (this.#voice !== undefined) senderThread.hold(this.#voice, true);
      this.#sessionLook ??= setTimeout(() => {
        this.#sessionLook = undefined;
        this.#fill();
      }, SESSION_LOOK_MS);
      return;
    }
    const voice = senderThread.voiceOf(session.udp);
    // A session whose socket the sender thread does not hold (yet): its new session is on the way.
    if (voice === undefined) return;
    if (voice !== this.#voice) this.#attach(voice);
    this.#keys(voice, session.connectionData);
    if (this.#resealDue) {
      this.#resealDue = false;
      this.#postAgain(voice, session);
    }
    // The hold is the voice's: let go whoever held it (an earlier clip on this voice, over since).
    senderThread.hold(voice, false);
    this.#read();
    const waiting = this.#base + this.#frames.length - this.#posted;
    if (waiting > 0 && this.#handOver(waiting)) {
      if (!session.connectionData.speaking) this.#connection.setSpeaking(true);
      this.#begun = true;
      this.#post(voice, session, this.#posted);
      this.#posted += waiting;
    }
    if (this.#drained && !this.#endPosted && this.#posted === this.#base + this.#frames.length) {
      // Ended before its first packet: nothing was said, nothing to close.
      if (this.#posted === 0) {
        this.#finish();
        return;
      }
      this.#endPosted = true;
      senderThread.end(voice, this.#id as number);
    }
  }

  /** Whether the `waiting` frames read and not handed over go now. */
  #handOver(waiting: number): boolean {
    if (this.#drained) return true;
    if (!this.#begun) {
      if (waiting >= this.#startLead || this.#startWaitOver) return true;
      this.#startWait ??= setTimeout(() => {
        this.#startWaitOver = true;
        this.#fill();
      }, START_WAIT_MS);
      return false;
    }
    return waiting >= BATCH_PACKETS || this.#posted - this.#confirmed < LOW_WATER_PACKETS;
  }

  #read(): void {
    while (!this.#drained && this.#base + this.#frames.length - this.#confirmed < LEAD_PACKETS) {
      const packet = this.#stream.read() as Buffer | null;
      if (packet === null) {
        if (this.#stream.readableEnded || this.#stream.destroyed) {
          // A stream destroyed with an error is `destroyed` at once but says so on the next tick: its error is taken
          // now, or the clip would end as if it had ended well (a part the service charged and cut, told as spoken).
          this.#error ??= this.#stream.errored ?? undefined;
          this.#drained = true;
        }
        return;
      }
      this.#frames.push(packet);
    }
  }

  /** Hands packets from `first` to the last read to the sender, sealed with the session's DAVE keys of now. */
  #post(voice: number, session: ReadySession, first: number): void {
    const packets: Uint8Array[] = [];
    for (let n = Math.max(first, this.#base); n < this.#base + this.#frames.length; n++) {
      const frame = this.#frames[n - this.#base] as Buffer;
      // No copy: the ring takes just its bytes, and a frame kept here is never changed.
      packets.push(session.dave ? session.dave.encrypt(frame) : frame);
    }
    if (packets.length === 0) return;
    senderThread.queue({ voice, clip: this.#id as number, first, packets, generation: senderThread.generation(voice) });
  }

  #keys(voice: number, data: SenderConnectionData): void {
    if (keyed.get(data) === voice) return;
    keyed.set(data, voice);
    senderThread.keys(voice, data.encryptionMode, keyBytes(data.secretKey), data.sequence, data.timestamp);
  }

  /** On a new voice (the first, or a new session's): from the first packet not reported sent. */
  #attach(voice: number): void {
    if (this.#id !== undefined) senderThread.unwatch(this.#id);
    this.#id = senderThread.watch(voice, this, this.#id);
    this.#voice = voice;
    this.#posted = this.#confirmed;
    this.#endPosted = false;
  }

  /** The group's keys changed (a member joined or left, an epoch, a downgrade): packets not sent are sealed again. */
  #sealAgain(): void {
    if (this.#over || this.#stopping || this.#voice === undefined) return;
    const session = this.#session();
    if (!session || senderThread.voiceOf(session.udp) !== this.#voice) {
      this.#resealDue = true;
      return;
    }
    this.#postAgain(this.#voice, session);
  }

  /** Every frame not sent, resealed from the thread's next packet (SenderThread.nextToSend); it drops the old ones. */
  #postAgain(voice: number, session: ReadySession): void {
    const next = Math.min(senderThread.nextToSend(voice, this.#id as number), this.#base + this.#frames.length);
    this.#post(voice, session, Math.max(this.#confirmed, next));
    this.#posted = this.#base + this.#frames.length;
  }

  progress(progress: ClipProgress): void {
    this.#confirm(progress.sent);
    if (progress.idleSlots >= MAX_MISSED_FRAMES && !this.#drained) {
      // Nothing came for that long while the clip was under way: as the library does, it ends where it is.
      this.#drained = true;
    }
    this.#fill();
  }

  #confirm(sent: number): void {
    if (sent <= this.#confirmed) return;
    this.#confirmed = sent;
    const done = Math.min(sent - KEPT_PACKETS - this.#base, this.#frames.length);
    if (done > 0) {
      this.#frames.splice(0, done);
      this.#base += done;
    }
    if (!this.#started) {
      this.#started = true;
      this.#events.started();
    }
  }

  done(sent: number, how: 'ended' | 'stopped' | 'closed'): void {
    if (how === 'closed' && !this.#stopping) {
      // Its session is over (a new one comes: a move, a new voice server): it goes on there from the first packet that
      // may have gone into the ended session, as far as frames are kept (reports may have counted those already).
      if (sent > this.#confirmed) this.#confirm(sent);
      else this.#confirmed = Math.max(sent, this.#base);
      if (this.#id !== undefined) senderThread.unwatch(this.#id);
      this.#voice = undefined;
      return;
    }
    this.#confirm(sent);
    this.#finish();
  }

  gone(): void {
    this.#voice = undefined;
    if (this.#stopping) this.#finish();
  }

  /** Ends at once: what the sender has not sent is dropped there, without closing silence. */
  stop(): boolean {
    if (this.#over || this.#stopping) return false;
    this.#stopping = true;
    this.#release();
    if (this.#voice === undefined || this.#id === undefined) this.#finish();
    else senderThread.stop(this.#voice, this.#id);
    return true;
  }

  /** Lets go of the stream (a stream left unread must not keep its source open) and the connection's events. */
  #release(): void {
    this.#stream.off('readable', this.#pump);
    this.#stream.off('end', this.#onEnd);
    this.#stream.off('close', this.#onEnd);
    this.#stream.off('error', this.#onError);
    this.#connection.off('stateChange', this.#pump);
    clearTimeout(this.#startWait);
    clearTimeout(this.#sessionLook);
    // A later error is nobody's business.
    this.#stream.on('error', () => undefined);
    if (!this.#stream.destroyed) this.#stream.destroy();
    this.#frames = [];
  }

  #finish(): void {
    if (this.#over) return;
    this.#over = true;
    this.#release();
    this.#connection.off('transitioned', this.#reseal);
    if (this.#id !== undefined) senderThread.unwatch(this.#id);
    this.#connection.setSpeaking(false);
    this.#onOver(this);
    this.#events.ended(this.#error);
  }
}

export interface WorkerSenderOptions {
  /** A clip's start waits for its lead (START_LEAD_PACKETS); false only for the benchmark's comparison. */
  startLead?: boolean;
}

export class WorkerSender implements PacketSender {
  #current: WorkerClip | undefined;
  readonly #startLead: boolean;

  constructor(options: WorkerSenderOptions = {}) {
    this.#startLead = options.startLead ?? true;
  }

  play(connection: VoiceConnection, stream: Readable, events: ClipEvents): PlayingClip {
    this.#current?.stop();
    const clip = new WorkerClip(
      connection,
      stream,
      events,
      (over) => {
        if (this.#current === over) this.#current = undefined;
      },
      this.#startLead,
    );
    this.#current = clip;
    return clip;
  }

  destroy(): void {
    this.#current?.stop();
  }
}
