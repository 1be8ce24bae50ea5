// One guild's clips sent by the sender thread (sender-thread.ts), one at a time: SayBot's sender.
import type { Readable } from 'node:stream';
import type { VoiceConnection } from '@discordjs/voice';
import type { ClipEvents, PacketSender, PlayingClip } from '../packet-sender.ts';
import { WorkerClip } from './worker-clip.ts';

export class WorkerSender implements PacketSender {
  #current: WorkerClip | undefined;

  play(connection: VoiceConnection, stream: Readable, events: ClipEvents): PlayingClip {
    this.#current?.stop();
    const clip = new WorkerClip(connection, stream, events, (over) => {
      if (this.#current === over) this.#current = undefined;
    });
    this.#current = clip;
    return clip;
  }

  destroy(): void {
    this.#current?.stop();
  }
}
