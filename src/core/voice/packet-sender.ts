// What plays a clip's Opus packets on a voice connection (src/app/start-saybot.ts chooses): 'worker' (sender/, a
// thread of its own owning the sockets: the default), 'clock' (voice-clock.ts on the main thread) or 'library'
// (@discordjs/voice's AudioPlayer); the last two are the benchmark's comparisons.
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
  /** Plays 20 ms Opus packets, read as they are due; one clip at a time, a new one replacing the current. */
  play(connection: VoiceConnection, stream: Readable, events: ClipEvents): PlayingClip;
  /** Stops whatever plays and lets go of the connection. */
  destroy(): void;
}
