// One voice session in the sender thread: its UDP socket, transport seal, the ring the main thread writes packets into
// (./packet-ring.ts), and its own clock: a clip's first packet goes the moment it is there, each next 20 ms later.
// When a clip starts is worker-clip.ts' alone (it writes the first packets once its start lead is read).
import { createSocket, type Socket } from 'node:dgram';
import { isIPv4 } from 'node:net';
import { ConnectionBarrier } from './sender-messages.ts';
import { END_OF_CLIP, RingReader, SLOT_BYTES } from './packet-ring.ts';
import { TransportSeal } from './transport-seal.ts';
import { SILENCE_FRAME } from '../packet-sender.ts';

export const PERIOD_MS = 20;
/** Held up longer than this (the sender's own thread starved), a connection lets missed slots go, not bursting. */
export const MAX_CATCH_UP_MS = 200;
/** Silence frames after a clip's last packet, as Discord asks (and as the library does). */
export const CLOSING_SILENCE_FRAMES = 5;
/** Slots a clip waits for resealed packets after a DAVE transition; a second covers a stalled main thread. */
export const STALE_GRACE_SLOTS = 50;
/** A datagram's largest size: an Opus frame (1,275 bytes at most) with DAVE's trailer and the transport's framing. */
const DATAGRAM_BYTES = SLOT_BYTES + 64;
/** Datagram buffers a connection takes turns with. */
const DATAGRAMS = Math.ceil(MAX_CATCH_UP_MS / PERIOD_MS) + 2;
interface Datagram {
  buffer: Buffer;
  /** Views of `buffer` by length. */
  views: Array<Buffer | undefined>;
}
const newDatagrams = (): Datagram[] =>
  Array.from({ length: DATAGRAMS }, () => ({ buffer: Buffer.allocUnsafeSlow(DATAGRAM_BYTES), views: [] }));
/** Send times kept of the clip under way (2.56 s): how far a close can tell what went into an ended session. */
const SENT_TIMES = 128;
const DISCOVERY_BYTES = 74;
const KEEP_ALIVE_MS = 5_000;

/** What a connection tells the thread that owns it. */
export interface ConnectionListener {
  /** A clip's packet went out (or its slot had none: `idle`). */
  moved(connection: SenderConnection): void;
  done(connection: SenderConnection, clip: number, sent: number, how: 'ended' | 'stopped' | 'closed'): void;
  lost(connection: SenderConnection, message: string): void;
  /** One datagram went out `lateMs` after it was due; `silence` for a silence frame. */
  sent(lateMs: number, silence: boolean, underrun: boolean): void;
  skipped(slots: number): void;
}

interface Clip {
  id: number;
  /** Packets of it sent: the next one it sends is packet number `sent`. */
  sent: number;
  /** Its first packet sent on this connection. */
  from: number;
  /** When it sent its packet n, at n % SENT_TIMES (its last SENT_TIMES packets). */
  sentAt: Float64Array;
  /** Its packets sealed before a DAVE transition were dropped: their copies sealed again are on their way. */
  awaitingCopy: boolean;
  /** Slots in a row it passed empty waiting for those copies. */
  staleSlots: number;
  ended: boolean;
  closingLeft: number;
  /** Slots in a row it had nothing to send. */
  idleSlots: number;
}

export class SenderConnection {
  readonly id: number;
  readonly #socket: Socket;
  readonly #ssrc: number;
  readonly #listener: ConnectionListener;
  /** The packets the main thread wrote ahead (./packet-ring.ts). */
  readonly #ring: RingReader;
  /** The connection's DAVE generation, raised by the main thread as a transition executes (SenderThread.transition). */
  readonly #barrier: Int32Array;
  #seal: TransportSeal | undefined;
  #datagrams = newDatagrams();
  #nextDatagram = 0;
  #clip: Clip | undefined;
  /** The last clip that ended here: a close may find its last packets went into an ended session. */
  #ended: Clip | undefined;
  /** Clips below this one are over here (stopped, ended or replaced): what the ring still holds of them is dropped. */
  #floor = 0;
  /** When its next packet is due (performance.now()); undefined while it has nothing to send. */
  due: number | undefined;
  held = false;
  #closed = false;
  readonly #keepAlive: NodeJS.Timeout;
  #keepAliveCount = 0;

  constructor(
    id: number,
    ssrc: number,
    listener: ConnectionListener,
    ring: SharedArrayBuffer,
    barrier: Int32Array = new Int32Array(
      new SharedArrayBuffer(ConnectionBarrier.length * Int32Array.BYTES_PER_ELEMENT),
    ),
  ) {
    this.id = id;
    this.#ssrc = ssrc;
    this.#listener = listener;
    this.#ring = new RingReader(ring);
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

  /** Drops the clip's unsent packets; `done` answers even when it is not here (it ended, or none of it came). */
  stop(clip: number): void {
    this.#floor = Math.max(this.#floor, clip + 1);
    const current = this.#clip;
    if (current?.id !== clip) {
      this.#listener.done(this, clip, 0, 'stopped');
      return;
    }
    this.#clip = undefined;
    this.due = undefined;
    this.#listener.done(this, current.id, current.sent, 'stopped');
  }

  /** Sends whatever is due by `now`; returns its next due time, or undefined to sleep until the ring's next 'wake'. */
  run(now: number): number | undefined {
    if (this.held || this.#closed || this.#seal === undefined) return undefined;
    for (;;) {
      if (this.due === undefined && !this.#ring.empty) this.due = now;
      const due = this.#run(now);
      if (due !== undefined || this.#closed) return due;
      if (this.#ring.sleep()) return undefined;
    }
  }

  #run(now: number): number | undefined {
    let due = this.due;
    while (due !== undefined && due <= now) {
      if (now - due > MAX_CATCH_UP_MS) {
        const skipped = Math.floor((now - due) / PERIOD_MS);
        this.#listener.skipped(skipped);
        due += skipped * PERIOD_MS;
      }
      const found = this.#seek();
      const clip = this.#clip;
      if (!clip) {
        due = undefined;
        break;
      }
      if (found) {
        if (this.#sendNext(clip, now - due)) {
          clip.sentAt[clip.sent % SENT_TIMES] = now;
          clip.sent += 1;
          clip.idleSlots = 0;
          clip.staleSlots = 0;
          clip.awaitingCopy = false;
        } else clip.staleSlots += 1;
      } else if (clip.awaitingCopy && clip.staleSlots < STALE_GRACE_SLOTS) {
        // Sealed before an executed transition (a joining member could not decrypt it): the slot passes empty.
        clip.staleSlots += 1;
      } else if (!clip.ended) {
        // Late: held by silence (after its first packet only), as the library does; the main thread's lead ran out.
        clip.awaitingCopy = false;
        clip.idleSlots += 1;
        if (clip.sent > 0) this.#transmit(SILENCE_FRAME, now - due, true, true);
        else {
          due = undefined;
          this.#listener.moved(this);
          break;
        }
      } else if (clip.closingLeft > 0 && clip.sent > 0) {
        clip.awaitingCopy = false;
        clip.closingLeft -= 1;
        this.#transmit(SILENCE_FRAME, now - due, true, false);
      } else {
        this.#clip = undefined;
        this.#floor = clip.id + 1;
        this.#ended = clip;
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
   * Reads the ring up to the clip's next packet, dropping slots of clips over here, copies of sent packets, and packets
   * sealed before an executed transition. A later clip's slot starts that clip; an end slot ends its clip. True when the
   * head is the clip's next packet.
   */
  #seek(): boolean {
    const ring = this.#ring;
    while (!ring.empty) {
      const id = ring.clip;
      if (id < this.#floor) {
        ring.advance();
        continue;
      }
      let clip = this.#clip;
      if (!clip || id > clip.id) {
        if (clip?.ended) this.#ended = clip;
        if (clip) this.#listener.done(this, clip.id, clip.sent, clip.ended ? 'ended' : 'stopped');
        clip = {
          id,
          sent: ring.number,
          from: ring.number,
          sentAt: new Float64Array(SENT_TIMES),
          awaitingCopy: false,
          staleSlots: 0,
          ended: false,
          closingLeft: CLOSING_SILENCE_FRAMES,
          idleSlots: 0,
        };
        this.#clip = clip;
        this.#floor = id;
      }
      if (ring.bytes === END_OF_CLIP) {
        clip.ended = true;
        ring.advance();
        continue;
      }
      // Only the clip's next packet is sent, so no packet can go twice whatever the ring holds.
      if (ring.number !== clip.sent) {
        ring.advance();
        continue;
      }
      if (ring.generation < Atomics.load(this.#barrier, ConnectionBarrier.generation)) {
        clip.awaitingCopy = true;
        ring.advance();
        continue;
      }
      return true;
    }
    return false;
  }

  /** Sends the head unless sealed before an executed transition; `sending` brackets it (SenderThread.transition). */
  #sendNext(clip: Clip, lateMs: number): boolean {
    const ring = this.#ring;
    Atomics.store(this.#barrier, ConnectionBarrier.sending, 1);
    try {
      if (ring.generation < Atomics.load(this.#barrier, ConnectionBarrier.generation)) {
        clip.awaitingCopy = true;
        ring.advance();
        return false;
      }
      // Where the main thread's copies sealed again start if a transition comes now (this packet goes).
      Atomics.store(this.#barrier, ConnectionBarrier.clip, clip.id);
      Atomics.store(this.#barrier, ConnectionBarrier.next, clip.sent + 1);
      // Sealed from its slot, which is freed after.
      this.#transmit(ring.take(), lateMs, false, false);
      ring.advance();
      return true;
    } finally {
      Atomics.store(this.#barrier, ConnectionBarrier.sending, 0);
    }
  }

  /** A datagram buffer nothing still reads: dgram may send a turn later, so buffers take turns. */
  #nextBuffer(): Datagram {
    if (this.#socket.getSendQueueCount() > 0) this.#datagrams = newDatagrams();
    this.#nextDatagram = (this.#nextDatagram + 1) % DATAGRAMS;
    return this.#datagrams[this.#nextDatagram] as Datagram;
  }

  #transmit(payload: Uint8Array, lateMs: number, silence: boolean, underrun: boolean): void {
    const seal = this.#seal as TransportSeal;
    const datagram = this.#nextBuffer();
    const length = seal.sealTo(datagram.buffer, payload);
    // Its view of that length, made once: no new object a packet.
    let view = datagram.views[length];
    if (!view) {
      view = datagram.buffer.subarray(0, length);
      datagram.views[length] = view;
    }
    this.#send(view);
    this.#listener.sent(lateMs, silence, underrun);
  }

  /** The clip under way and how far it went, for reports. */
  progress(): { clip: number; sent: number; idleSlots: number } | undefined {
    const clip = this.#clip;
    return clip && { clip: clip.id, sent: clip.sent, idleSlots: clip.idleSlots };
  }

  /** Packets of `clip` sent before `at`, as far as the send times kept reach back. */
  #sentBefore(clip: Clip, at: number): number {
    let sent = clip.sent;
    const oldest = Math.max(clip.from, clip.sent - SENT_TIMES);
    while (sent > oldest && (clip.sentAt[(sent - 1) % SENT_TIMES] as number) >= at) sent -= 1;
    return sent;
  }

  #lose(message: string): void {
    if (this.#closed) return;
    this.close();
    this.#listener.lost(this, message);
  }

  /**
   * Closes it; the clip under way is told done at its first packet sent at or after `endedAt` (this clock's time), and
   * so is the last clip that ended here if it sent packets since.
   */
  close(endedAt = Infinity): void {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#keepAlive);
    const clip = this.#clip;
    this.#clip = undefined;
    this.due = undefined;
    const ended = this.#ended;
    if (ended && this.#sentBefore(ended, endedAt) < ended.sent)
      this.#listener.done(this, ended.id, this.#sentBefore(ended, endedAt), 'closed');
    if (clip) this.#listener.done(this, clip.id, this.#sentBefore(clip, endedAt), 'closed');
    try {
      this.#socket.close();
    } catch {
      // Closed already.
    }
  }
}
