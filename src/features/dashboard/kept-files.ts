// Files made for one member in one server (a sample; a scene's audio and captions), kept a few minutes for them to
// fetch: bounded in count, bytes and time, the oldest out first.
import { randomBytes } from 'node:crypto';

const MEDIA_TYPES: Record<string, string> = {
  wav: 'audio/wav',
  mp3: 'audio/mpeg',
  ogg: 'audio/ogg',
  flac: 'audio/flac',
  m4a: 'audio/mp4',
  srt: 'application/x-subrip; charset=utf-8',
};

export interface KeptFile {
  userId: string;
  guildId: string;
  data: Buffer;
  name: string;
  at: number;
}

/** A kept file's Content-Type, by its name's extension. */
export const mediaType = (kept: KeptFile): string =>
  MEDIA_TYPES[kept.name.slice(kept.name.lastIndexOf('.') + 1)] ?? 'application/octet-stream';

/** A view of the kept bytes, not a copy on the main thread: a scene's WAV may be tens of megabytes. */
export const bytesOf = (kept: KeptFile): Uint8Array<ArrayBuffer> =>
  new Uint8Array(kept.data.buffer as ArrayBuffer, kept.data.byteOffset, kept.data.byteLength);

export class KeptFiles {
  readonly #kept = new Map<string, KeptFile>();
  readonly #limits: { files: number; bytes: number; ms: number };
  readonly #now: () => number;

  constructor(limits: { files: number; bytes: number; ms: number }, now: () => number = Date.now) {
    this.#limits = limits;
    this.#now = now;
  }

  keep(owner: { userId: string; guildId: string }, data: Buffer, name: string): string {
    this.#expire();
    let bytes = data.length;
    for (const kept of this.#kept.values()) bytes += kept.data.length;
    for (const [id, kept] of this.#kept) {
      if (this.#kept.size < this.#limits.files && bytes <= this.#limits.bytes) break;
      bytes -= kept.data.length;
      this.#kept.delete(id);
    }
    const id = randomBytes(16).toString('base64url');
    this.#kept.set(id, { userId: owner.userId, guildId: owner.guildId, data, name, at: this.#now() });
    return id;
  }

  /** A kept file, only for the member it was made for in that server. */
  get(id: string, userId: string, guildId: string): KeptFile | undefined {
    this.#expire();
    const kept = this.#kept.get(id);
    return kept && kept.userId === userId && kept.guildId === guildId ? kept : undefined;
  }

  #expire(): void {
    const now = this.#now();
    for (const [id, kept] of this.#kept) {
      if (now - kept.at < this.#limits.ms) break;
      this.#kept.delete(id);
    }
  }
}
