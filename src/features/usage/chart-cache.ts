// The /usage chart's pictures, kept for the UTC hour (drawing loads 11 MB of fonts), keyed by what may change in the
// hour without notice: server, language, budget, the members named. Bounded; a drawing under way is shared.
import { createHash } from 'node:crypto';

/** Pictures kept at once (a chart is some tens of kB). */
export const MAX_CHARTS = 64;

/** What a chart is kept for. */
export interface ChartKeyParts {
  guildId: string;
  locale: string;
  /** Now: the picture is kept for this UTC hour. */
  at: Date;
  budget: number;
  /** The members it names, in order. */
  members: readonly string[];
}

/** One key for the parts (a hash: members' names are theirs to choose, of any length). */
export function chartKey({ guildId, locale, at, budget, members }: ChartKeyParts): string {
  const hour = at.toISOString().slice(0, 13);
  return createHash('sha256')
    .update(JSON.stringify([guildId, locale, hour, budget, members]))
    .digest('hex');
}

export class ChartCache {
  readonly #max: number;
  /** By key, in order of last use (the first the longest unused); a drawing under way included. */
  readonly #pictures = new Map<string, Promise<Buffer>>();

  constructor(max = MAX_CHARTS) {
    this.#max = max;
  }

  get size(): number {
    return this.#pictures.size;
  }

  /** The picture kept for `key`, else the one `draw` makes (kept unless it fails: a failure is tried again). */
  get(key: string, draw: () => Promise<Buffer>): Promise<Buffer> {
    const kept = this.#pictures.get(key);
    if (kept !== undefined) {
      this.#pictures.delete(key);
      this.#pictures.set(key, kept);
      return kept;
    }
    let drawing: Promise<Buffer>;
    try {
      drawing = draw();
    } catch (error) {
      // Refused before drawing (the free-request rate): nothing to keep.
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    this.#pictures.set(key, drawing);
    drawing.catch(() => {
      if (this.#pictures.get(key) === drawing) this.#pictures.delete(key);
    });
    while (this.#pictures.size > this.#max) {
      const oldest = this.#pictures.keys().next();
      if (oldest.done === true) break;
      this.#pictures.delete(oldest.value);
    }
    return drawing;
  }
}
