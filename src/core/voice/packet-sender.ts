// What plays a clip's Opus packets on a voice connection: SayBot's sender thread (sender/, a thread of its own owning
// the sockets); the benchmarks compare it with senders of their own (bench/senders/: a main-thread clock, the
// library's AudioPlayer), given to the player as its `sender`.
import type { Readable } from 'node:stream';
import type { VoiceConnection } from '@discordjs/voice';

/** Discord's "silence" Opus frame, sent after a clip so decoders do not interpolate into the gap; never DAVE-sealed. */
export const SILENCE_FRAME: Buffer = Buffer.from([0xf8, 0xff, 0xfe]);

/** Cycles without a packet before a clip ends as stalled (the library's 5 cut slow replies: bench figure 3). */
export const MAX_MISSED_FRAMES = 750;

export interface ClipEvents {
  /** The clip's first packet went out (library: the player started playing it). Called at most once. */
  started(): void;
  /** The clip is over (its end and closing silence sent, stopped, or failed with `error`). Called exactly once. */
  ended(error: unknown): void;
}

export interface PlayingClip {
  /** Audio sent so far, in milliseconds (20 per Opus packet; closing silence not counted). */
  readonly playedMs: number;
  /** Ends the clip at once, without closing silence; `ended` follows. False when it had already ended. */
  stop(): boolean;
}

export interface PacketSender {
  /** Plays 20 ms Opus packets, read as they are due; one clip at a time, a new one replacing the current. */
  play(connection: VoiceConnection, stream: Readable, events: ClipEvents): PlayingClip;
  /** Stops whatever plays and lets go of the connection. */
  destroy(): void;
}
