// What plays a clip's Opus packets on a voice connection, for GuildPlayer. Three ways, chosen at start-up
// (src/app/start-saybot.ts): 'worker' (sender/: a thread of its own that owns the voice sockets and sends each
// voice's packets, handed over ahead of time; SayBot's sender, the default), 'clock' (voice-clock.ts,
// clock-sender.ts: every packet sealed and sent on the main thread in its slot; the benchmark's comparison) and
// 'library' (@discordjs/voice's AudioPlayer and its shared 20 ms cycle; the benchmark's baseline, and a way back).
import type { Readable } from 'node:stream';
import type { VoiceConnection } from '@discordjs/voice';

export type VoiceSenderKind = 'worker' | 'clock' | 'library';

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
  /**
   * Plays a stream of 20 ms Opus packets (object mode, one Buffer each) on the connection. The stream is read as
   * packets are due and destroyed when the clip ends early. One clip at a time: a new one replaces the current one.
   */
  play(connection: VoiceConnection, stream: Readable, events: ClipEvents): PlayingClip;
  /** Stops whatever plays and lets go of the connection. */
  destroy(): void;
}
