// One voice session in the sender thread: its UDP socket (from IP discovery on), its transport seal, the packets
// queued ahead of time by the main thread, and its own clock: the first packet of a clip goes out the moment it is
// there, each next one 20 ms after the one before, wherever the main thread is meanwhile.
import { createSocket, type Socket } from 'node:dgram';
import { isIPv4 } from 'node:net';
import { VoiceBarrier, type PacketRun } from './sender-messages.ts';
import { TransportSeal } from './transport-seal.ts';

export const PERIOD_MS = 20;
/** Held up longer than this (the sender's own thread starved), a voice lets the missed slots go instead of bursting. */
export const MAX_CATCH_UP_MS = 200;
/** Silence frames after a clip's last packet, as Discord asks (and as the library does). */
export const CLOSING_SILENCE_FRAMES = 5;
/** Discord's "silence" Opus frame (never DAVE-sealed: DAVE passes it as it is). */
export const SILENCE_FRAME: Uint8Array = Uint8Array.from([0xf8, 0xff, 0xfe]);
/**
 * Slots a clip may wait for packets sealed again after a DAVE transition before those slots count as missed (the
 * main thread's copies come within a turn or so of its event loop; a second covers a main thread held up long).
 */
export const STALE_GRACE_SLOTS = 50;
const DISCOVERY_BYTES = 74;
const KEEP_ALIVE_MS = 5_000;

/** What a voice tells the thread that owns it. */
export interface VoiceListener {
  /** A clip's packet went out (or its slot had none: `idle`). */
  moved(voice: WorkerVoice): void;
  done(voice: WorkerVoice, clip: number, sent: number, how: 'ended' | 'stopped' | 'closed'): void;
  lost(voice: WorkerVoice, message: string): void;
  /** One datagram went out `lateMs` after it was due; `silence` for a silence frame. */
  sent(lateMs: number, silence: boolean, underrun: boolean): void;
  skipped(slots: number): void;
}

interface Clip {
  id: number;
  /** Packets of it sent. */
  sent: number;
  /** Queued packets, the first being packet number `sent`. */
  queue: Uint8Array[];
  /** The DAVE generation each queued packet was sealed in (PacketRun.generation), beside it. */
  generations: number[];
  /** Slots in a row its next packet was sealed before a transition (its copy sealed again not here yet). */
  staleSlots: number;
  ended: boolean;
  closingLeft: number;
  /** Slots in a row it had nothing queued. */
  idleSlots: number;
}

export class WorkerVoice {
  readonly id: number;
  readonly #socket: Socket;
  readonly #ssrc: number;
  readonly #listener: VoiceListener;
  /** The voice's DAVE generation, raised by the main thread as a transition executes (SenderThread.transition). */
  readonly #barrier: Int32Array;
  #seal: TransportSeal | undefined;
  #clip: Clip | undefined;
  /** When its next packet is due (performance.now()); undefined while it has nothing to send. */
  due: number | undefined;
  held = false;
  #closed = false;
  readonly #keepAlive: NodeJS.Timeout;
  #keepAliveCount = 0;

  constructor(
    id: number,
    ssrc: number,
    listener: VoiceListener,
    barrier: Int32Array = new Int32Array(new SharedArrayBuffer(VoiceBarrier.length * Int32Array.BYTES_PER_ELEMENT)),
  ) {
    this.id = id;
    this.#ssrc = ssrc;
    this.#listener = listener;
    this.#barrier = barrier;
    this.#socket = createSocket('udp4');
    this.#socket.on('error', (error) => this.#lose(`voice socket error: ${error.message}`));
    this.#keepAlive = setInterval(() => this.#sendKeepAlive(), KEEP_ALIVE_MS);
  }

  /** IP discovery to the voice server: connects the socket to it and answers the address it saw. */
  discover(ip: string, port: number): Promise<{ ip: string; port: number }> {
    return new Promise((resolve, reject) => {
      this.#socket.connect(port, ip, (error?: Error) => {
        if (error) {
          reject(error);
          return;
        }
        const listener = (message: Buffer): void => {
          if (message.length < DISCOVERY_BYTES || message.readUInt16BE(0) !== 2) return;
          const address = message.subarray(8, message.indexOf(0, 8)).toString('utf8');
          if (!isIPv4(address)) return;
          this.#socket.off('message', listener);
          resolve({ ip: address, port: message.readUInt16BE(message.length - 2) });
        };
        this.#socket.on('message', listener);
        this.#socket.once('close', () => reject(new Error('the voice socket closed during IP discovery')));
        const request = Buffer.alloc(DISCOVERY_BYTES);
        request.writeUInt16BE(1, 0);
        request.writeUInt16BE(70, 2);
        request.writeUInt32BE(this.#ssrc, 4);
        this.#socket.send(request);
        this.#sendKeepAlive();
      });
    });
  }

  #sendKeepAlive(): void {
    if (this.#closed || this.#socket.remoteAddress === undefined) return;
    const buffer = Buffer.alloc(8);
    buffer.writeUInt32LE(this.#keepAliveCount, 0);
    this.#keepAliveCount = this.#keepAliveCount >= 2 ** 32 - 1 ? 0 : this.#keepAliveCount + 1;
    this.#send(buffer);
  }

  #send(buffer: Buffer): void {
    try {
      this.#socket.send(buffer);
    } catch (error) {
      this.#lose(`voice socket send failed: ${(error as Error).message}`);
    }
  }

  keys(mode: string, key: Uint8Array, sequence: number, timestamp: number): void {
    if (this.#seal?.sameKey(mode, key)) return;
    this.#seal = new TransportSeal(mode, key, this.#ssrc, sequence, timestamp);
  }

  /** Queues a run of a clip's packets; packets of it already queued are replaced (sealed again), sent ones skipped. */
  queue(run: PacketRun, now: number): void {
    if (this.#closed) return;
    let clip = this.#clip;
    if (!clip || clip.id !== run.clip) {
      // A new clip replaces one that is over (its closing silence is not owed: the next clip's words come instead).
      if (clip) this.#listener.done(this, clip.id, clip.sent, 'stopped');
      clip = {
        id: run.clip,
        sent: run.first,
        queue: [],
        generations: [],
        staleSlots: 0,
        ended: false,
        closingLeft: CLOSING_SILENCE_FRAMES,
        idleSlots: 0,
      };
      this.#clip = clip;
    }
    const from = Math.max(run.first, clip.sent);
    for (let n = from; n < run.first + run.packets.length; n++) {
      clip.queue[n - clip.sent] = run.packets[n - run.first] as Uint8Array;
      clip.generations[n - clip.sent] = run.generation;
    }
    if (this.due === undefined && clip.queue.length > 0) this.due = now;
  }

  end(clip: number, now: number): void {
    if (this.#clip?.id !== clip) return;
    this.#clip.ended = true;
    if (this.due === undefined) this.due = now;
  }

  /** Drops the clip's unsent packets; `done` answers even when it is not here (it ended, or none of it came). */
  stop(clip: number): void {
    const current = this.#clip;
    if (current?.id !== clip) {
      this.#listener.done(this, clip, 0, 'stopped');
      return;
    }
    this.#clip = undefined;
    this.due = undefined;
    this.#listener.done(this, current.id, current.sent, 'stopped');
  }

  /** Sends whatever is due by `now`; its next due time (or undefined when it has nothing to send). */
  run(now: number): number | undefined {
    if (this.held || this.#closed || this.#seal === undefined) return undefined;
    let due = this.due;
    while (due !== undefined && due <= now) {
      if (now - due > MAX_CATCH_UP_MS) {
        const skipped = Math.floor((now - due) / PERIOD_MS);
        this.#listener.skipped(skipped);
        due += skipped * PERIOD_MS;
      }
      const clip = this.#clip;
      if (!clip) {
        due = undefined;
        break;
      }
      const packet = clip.queue[0];
      if (packet !== undefined) {
        if (this.#sendQueued(clip, packet, now - due)) {
          clip.sent += 1;
          clip.idleSlots = 0;
          clip.staleSlots = 0;
        } else {
          // Sealed with the keys of before a transition that has executed: a member who just joined could not
          // decrypt it. Its copy sealed again is on its way; the slot passes empty (no silence: the words go on where
          // they were), and counts as missed only past the grace.
          clip.staleSlots += 1;
          if (clip.staleSlots > STALE_GRACE_SLOTS) clip.idleSlots += 1;
        }
      } else if (!clip.ended) {
        // Late: held by silence (after its first packet only), as the library does; the main thread's lead ran out.
        clip.idleSlots += 1;
        if (clip.sent > 0) this.#transmit(SILENCE_FRAME, now - due, true, true);
        else {
          due = undefined;
          this.#listener.moved(this);
          break;
        }
      } else if (clip.closingLeft > 0 && clip.sent > 0) {
        clip.closingLeft -= 1;
        this.#transmit(SILENCE_FRAME, now - due, true, false);
      } else {
        this.#clip = undefined;
        this.#listener.done(this, clip.id, clip.sent, 'ended');
        due = undefined;
        break;
      }
      this.#listener.moved(this);
      due += PERIOD_MS;
    }
    this.due = due;
    return due;
  }

  /**
   * Sends the clip's next queued packet unless it was sealed before a DAVE transition that has executed (false).
   * `sending` is marked before the generation is read and cleared once the packet went: a transition on the main
   * thread either is seen here or waits for this send (SenderThread.transition), so none of the old keys leaves
   * after it returned.
   */
  #sendQueued(clip: Clip, packet: Uint8Array, lateMs: number): boolean {
    Atomics.store(this.#barrier, VoiceBarrier.sending, 1);
    try {
      if ((clip.generations[0] as number) < Atomics.load(this.#barrier, VoiceBarrier.generation)) return false;
      clip.queue.shift();
      clip.generations.shift();
      this.#transmit(packet, lateMs, false, false);
      return true;
    } finally {
      Atomics.store(this.#barrier, VoiceBarrier.sending, 0);
    }
  }

  #transmit(payload: Uint8Array, lateMs: number, silence: boolean, underrun: boolean): void {
    const seal = this.#seal as TransportSeal;
    this.#send(seal.seal(payload));
    this.#listener.sent(lateMs, silence, underrun);
  }

  /** The clip under way and how far it went, for reports. */
  progress(): { clip: number; sent: number; idleSlots: number } | undefined {
    const clip = this.#clip;
    return clip && { clip: clip.id, sent: clip.sent, idleSlots: clip.idleSlots };
  }

  #lose(message: string): void {
    if (this.#closed) return;
    this.close();
    this.#listener.lost(this, message);
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#keepAlive);
    const clip = this.#clip;
    this.#clip = undefined;
    this.due = undefined;
    if (clip) this.#listener.done(this, clip.id, clip.sent, 'closed');
    try {
      this.#socket.close();
    } catch {
      // Closed already.
    }
  }
}
