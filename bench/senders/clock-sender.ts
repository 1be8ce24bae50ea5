// A guild's clips on the process's voice clock (voice-clock.ts): each packet read from the clip's stream in the
// slot it is due and sent in the same turn (rtp-sender.ts), the first one the moment it is ready.
import type { Readable } from 'node:stream';
import type { VoiceConnection } from '@discordjs/voice';
import { RtpSender } from './rtp-sender.ts';
import { readySession } from '../../src/core/voice/discordjs-voice-seam.ts';
import type { ReadySession } from '../../src/core/voice/discordjs-voice-types.ts';
import { voiceClock, type ClockHandle, type ClockVoice } from './voice-clock.ts';
import {
  MAX_MISSED_FRAMES,
  SILENCE_FRAME,
  type ClipEvents,
  type PlayingClip,
  type PacketSender,
} from '../../src/core/voice/packet-sender.ts';

/** Silence frames sent after a clip's last packet, as Discord asks (and as the library does). */
const CLOSING_SILENCE_FRAMES = 5;

class ClockClip implements PlayingClip, ClockVoice {
  readonly #output: ClockSender;
  readonly #connection: VoiceConnection;
  readonly #stream: Readable;
  readonly #events: ClipEvents;
  #handle: ClockHandle | undefined;
  #playedMs = 0;
  #missed = 0;
  /** Set once the stream has no more packets (ended, closed or failed); closing silence follows. */
  #drained = false;
  #silenceLeft = CLOSING_SILENCE_FRAMES;
  #error: unknown;
  #over = false;
  readonly #onReadable = (): void => this.#begin();
  readonly #onEnd = (): void => this.#drain();
  readonly #onError = (error: unknown): void => {
    this.#error ??= error;
    this.#drain();
  };

  constructor(output: ClockSender, connection: VoiceConnection, stream: Readable, events: ClipEvents) {
    this.#output = output;
    this.#connection = connection;
    this.#stream = stream;
    this.#events = events;
    stream.on('error', this.#onError);
    stream.on('end', this.#onEnd);
    stream.on('close', this.#onEnd);
    // Nothing is sent until the first packet is there (the library's "buffering"): no silence before the words.
    if (stream.readableLength > 0) queueMicrotask(() => this.#begin());
    else stream.once('readable', this.#onReadable);
  }

  get playedMs(): number {
    return this.#playedMs;
  }

  #begin(): void {
    if (this.#over || this.#handle) return;
    this.#stream.off('readable', this.#onReadable);
    this.#handle = voiceClock.join(this);
  }

  #drain(): void {
    this.#drained = true;
    // Ended before its first packet: nothing was said, nothing to close.
    if (!this.#handle) this.#finish();
  }

  tick(): boolean {
    if (this.#over) return false;
    let session: ReadySession | undefined;
    try {
      session = readySession(this.#connection);
    } catch (error) {
      // @discordjs/voice is not the release the sender was written for: the clip fails with that message.
      this.#error ??= error;
      this.#finish();
      return false;
    }
    // Not ready (reconnecting, moving): the clip waits, as the library's player pauses; GuildPlayer gives up later.
    if (!session) return true;
    let packet: Buffer | null = null;
    if (!this.#drained) {
      packet = this.#stream.read() as Buffer | null;
      if (packet === null && (this.#stream.readableEnded || this.#stream.destroyed)) this.#drained = true;
    }
    if (packet !== null) {
      this.#missed = 0;
      this.#send(session, packet);
      this.#playedMs += 20;
      if (this.#playedMs === 20) this.#events.started();
      return true;
    }
    if (!this.#drained) {
      this.#missed += 1;
      // Nothing said yet ('readable' came with no packet): wait for the first one without sending anything.
      // Later, a packet that is late (a slow body, a busy encoder) is held by silence, as the library does.
      if (this.#playedMs > 0) this.#send(session, SILENCE_FRAME);
      if (this.#missed >= MAX_MISSED_FRAMES) this.#drained = true;
      return true;
    }
    if (this.#silenceLeft > 0 && this.#playedMs > 0) {
      this.#silenceLeft -= 1;
      this.#send(session, SILENCE_FRAME);
      if (this.#silenceLeft > 0) return true;
    }
    this.#finish();
    return false;
  }

  #send(session: ReadySession, packet: Buffer): void {
    if (!session.connectionData.speaking) this.#connection.setSpeaking(true);
    this.#output.sender.send(session, packet, voiceClock.turn);
  }

  /** Ends at once, without closing silence. */
  stop(): boolean {
    if (this.#over) return false;
    this.#finish();
    return true;
  }

  #finish(): void {
    if (this.#over) return;
    this.#over = true;
    this.#handle?.leave();
    this.#stream.off('readable', this.#onReadable);
    this.#stream.off('end', this.#onEnd);
    this.#stream.off('close', this.#onEnd);
    this.#stream.off('error', this.#onError);
    // A stream left unread (stopped, skipped) must not keep its source open; a later error is nobody's business.
    this.#stream.on('error', () => undefined);
    if (!this.#stream.destroyed) this.#stream.destroy();
    this.#connection.setSpeaking(false);
    this.#output.ended(this);
    this.#events.ended(this.#error);
  }
}

/** One guild's clips on the voice clock, one at a time, each on its own RTP sender state of the connection. */
export class ClockSender implements PacketSender {
  readonly sender = new RtpSender();
  #current: ClockClip | undefined;

  play(connection: VoiceConnection, stream: Readable, events: ClipEvents): PlayingClip {
    this.#current?.stop();
    const clip = new ClockClip(this, connection, stream, events);
    this.#current = clip;
    return clip;
  }

  /** Called by a clip as it ends. */
  ended(clip: ClockClip): void {
    if (this.#current === clip) this.#current = undefined;
  }

  destroy(): void {
    this.#current?.stop();
  }
}
