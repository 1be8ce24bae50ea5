// One clip played by the sender thread (./sender-thread.ts), when it starts decided here alone (#fill: its session
// ready, its socket the thread's, its start lead read, #handOver). Read ahead (LEAD_PACKETS past what was reported
// sent), DAVE-sealed here, handed over in batches. Plain frames stay until reported sent, so a key change reseals the
// queued ones and a new voice session goes on from the first packet not sent. A guild's clips go one at a time.
import type { Readable } from 'node:stream';
import type { VoiceConnection } from '@discordjs/voice';
import type { ClipProgress } from './sender-messages.ts';
import { senderThread, type ClipWatcher } from './sender-thread.ts';
import { sendableSession, untilSendable } from '../discordjs-voice-seam.ts';
import type { ReadySession } from '../discordjs-voice-types.ts';
import { MAX_MISSED_FRAMES, type ClipEvents, type PacketSender, type PlayingClip } from '../packet-sender.ts';

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
/** A clip whose stream gave nothing more for this long before its lead (a stall) starts with what it read. */
export const START_WAIT_MS = 150;
const PACKET_MS = 20;

class WorkerClip implements PlayingClip, ClipWatcher {
  readonly #voiceConnection: VoiceConnection;
  readonly #stream: Readable;
  readonly #events: ClipEvents;
  readonly #onOver: (clip: WorkerClip) => void;
  /** Packets its start waits for: START_LEAD_PACKETS; 1 without the start lead (the first frame read goes) or stalled. */
  #startLead: number;
  /** The clip's id with the sender thread (kept across connections). */
  #id: number | undefined;
  #connection: number | undefined;
  /** While its session is not ready: the seam's wait for it (untilSendable), ended when the clip lets go. */
  #sessionWait: AbortController | undefined;
  /** Packets reported sent. */
  #confirmed = 0;
  /** Plain Opus frames from packet #base on, read from the stream: those not reported sent, and KEPT_PACKETS before. */
  #frames: Buffer[] = [];
  #base = 0;
  /** Packets handed to the current connection. */
  #posted = 0;
  #drained = false;
  #endPosted = false;
  #stopping = false;
  #over = false;
  #started = false;
  /** Its first packets were handed over (the start lead is behind it, across connections too). */
  #begun = false;
  /** Set when its first frames are read: looks again once START_WAIT_MS passed, if the lead was not read by then. */
  #startWait: NodeJS.Timeout | undefined;
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
    if (this.#connection !== undefined && !this.#over) senderThread.transition(this.#connection);
    this.#sealAgain();
    this.#fill();
  };

  constructor(
    voiceConnection: VoiceConnection,
    stream: Readable,
    events: ClipEvents,
    onOver: (clip: WorkerClip) => void,
    startLead = true,
  ) {
    this.#voiceConnection = voiceConnection;
    this.#startLead = startLead ? START_LEAD_PACKETS : 1;
    this.#stream = stream;
    this.#events = events;
    this.#onOver = onOver;
    stream.on('readable', this.#pump);
    stream.on('error', this.#onError);
    stream.on('end', this.#onEnd);
    stream.on('close', this.#onEnd);
    voiceConnection.on('stateChange', this.#pump);
    voiceConnection.on('transitioned', this.#reseal);
    queueMicrotask(this.#pump);
  }

  get playedMs(): number {
    return this.#confirmed * PACKET_MS;
  }

  /** The session audio goes to now, or undefined (the clip waits, its connection held) until its DAVE group's ready. */
  #session(): ReadySession | undefined {
    try {
      return sendableSession(this.#voiceConnection);
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
      if (this.#connection !== undefined) senderThread.hold(this.#connection, true);
      if (this.#sessionWait === undefined) {
        const wait = (this.#sessionWait = new AbortController());
        const again = () => {
          this.#sessionWait = undefined;
          this.#fill();
        };
        void untilSendable(this.#voiceConnection, wait.signal).then(again, again);
      }
      return;
    }
    const attached = senderThread.attach(session.udp, session.connectionData, this, this.#id);
    // A session whose socket the sender thread does not hold (yet): its new session is on the way.
    if (attached === undefined) return;
    const { connection } = attached;
    this.#id = attached.clip;
    // On a new connection (the first, or a new session's): from the first packet not reported sent.
    if (connection !== this.#connection) {
      this.#connection = connection;
      this.#posted = this.#confirmed;
      this.#endPosted = false;
    }
    if (this.#resealDue) {
      this.#resealDue = false;
      this.#postAgain(connection, session);
    }
    // The hold is the connection's: let go whoever held it (an earlier clip on this connection, over since).
    senderThread.hold(connection, false);
    this.#read();
    const waiting = this.#base + this.#frames.length - this.#posted;
    if (waiting > 0 && this.#handOver(waiting)) {
      if (!session.connectionData.speaking) this.#voiceConnection.setSpeaking(true);
      this.#begun = true;
      this.#post(connection, session, this.#posted);
      this.#posted += waiting;
    }
    if (this.#drained && !this.#endPosted && this.#posted === this.#base + this.#frames.length) {
      // Ended before its first packet: nothing was said, nothing to close.
      if (this.#posted === 0) {
        this.#finish();
        return;
      }
      this.#endPosted = true;
      senderThread.end(connection, this.#id as number);
    }
  }

  /** Whether the `waiting` frames read and not handed over go now. */
  #handOver(waiting: number): boolean {
    if (this.#drained) return true;
    if (this.#begun) return waiting >= BATCH_PACKETS || this.#posted - this.#confirmed < LOW_WATER_PACKETS;
    if (waiting >= this.#startLead) return true;
    this.#startWait ??= setTimeout(() => setImmediate(() => this.#lookAgain(waiting)), START_WAIT_MS);
    return false;
  }

  /** After the I/O due: a stall (nothing read since `waiting`) starts it, not a held-up main thread or a busy transcoder. */
  #lookAgain(waiting: number): void {
    this.#startWait = undefined;
    if (this.#base + this.#frames.length - this.#posted === waiting) this.#startLead = 1;
    this.#fill();
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
  #post(connection: number, session: ReadySession, first: number): void {
    const packets: Uint8Array[] = [];
    for (let n = Math.max(first, this.#base); n < this.#base + this.#frames.length; n++) {
      const frame = this.#frames[n - this.#base] as Buffer;
      // No copy: the ring takes just its bytes, and a frame kept here is never changed.
      packets.push(session.dave ? session.dave.encrypt(frame) : frame);
    }
    if (packets.length === 0) return;
    senderThread.queue({
      connection,
      clip: this.#id as number,
      first,
      packets,
      generation: senderThread.generation(connection),
    });
  }

  /** The group's keys changed (a member joined or left, an epoch, a downgrade): packets not sent are sealed again. */
  #sealAgain(): void {
    if (this.#over || this.#stopping || this.#connection === undefined) return;
    const session = this.#session();
    if (!session || senderThread.connectionOf(session.udp) !== this.#connection) {
      this.#resealDue = true;
      return;
    }
    this.#postAgain(this.#connection, session);
  }

  /** Every frame not sent, resealed from the thread's next packet (SenderThread.nextToSend); it drops the old ones. */
  #postAgain(connection: number, session: ReadySession): void {
    const next = Math.min(senderThread.nextToSend(connection, this.#id as number), this.#base + this.#frames.length);
    this.#post(connection, session, Math.max(this.#confirmed, next));
    this.#posted = this.#base + this.#frames.length;
  }

  progress(progress: ClipProgress): void {
    this.#confirm(progress.sent);
    // Nothing came for that long while the clip was under way: as the library does, it ends where it is.
    if (progress.idleSlots >= MAX_MISSED_FRAMES) this.#drained = true;
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
      this.#connection = undefined;
      return;
    }
    this.#confirm(sent);
    this.#finish();
  }

  gone(): void {
    this.#connection = undefined;
    if (this.#stopping) this.#finish();
  }

  /** Ends at once: what the sender has not sent is dropped there, without closing silence. */
  stop(): boolean {
    if (this.#over || this.#stopping) return false;
    this.#stopping = true;
    this.#release();
    if (this.#connection === undefined || this.#id === undefined) this.#finish();
    else senderThread.stop(this.#connection, this.#id);
    return true;
  }

  /** Lets go of the stream (a stream left unread must not keep its source open) and the connection's events. */
  #release(): void {
    this.#stream.off('readable', this.#pump);
    this.#stream.off('end', this.#onEnd);
    this.#stream.off('close', this.#onEnd);
    this.#stream.off('error', this.#onError);
    this.#voiceConnection.off('stateChange', this.#pump);
    clearTimeout(this.#startWait);
    this.#sessionWait?.abort();
    // A later error is nobody's business.
    this.#stream.on('error', () => undefined);
    if (!this.#stream.destroyed) this.#stream.destroy();
    this.#frames = [];
  }

  #finish(): void {
    if (this.#over) return;
    this.#over = true;
    this.#release();
    this.#voiceConnection.off('transitioned', this.#reseal);
    if (this.#id !== undefined) senderThread.unwatch(this.#id);
    this.#voiceConnection.setSpeaking(false);
    this.#onOver(this);
    this.#events.ended(this.#error);
  }
}

interface WorkerSenderOptions {
  /** A clip's start waits for its lead (START_LEAD_PACKETS); false only for the benchmark's comparison. */
  startLead?: boolean;
}

export class WorkerSender implements PacketSender {
  #current: WorkerClip | undefined;
  readonly #startLead: boolean;

  constructor(options: WorkerSenderOptions = {}) {
    this.#startLead = options.startLead ?? true;
  }

  play(voiceConnection: VoiceConnection, stream: Readable, events: ClipEvents): PlayingClip {
    this.#current?.stop();
    const clip = new WorkerClip(
      voiceConnection,
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
