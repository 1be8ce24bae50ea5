// Scenes waiting for their member's confirmation: in memory, one per member and server, at most MAX_PENDING, each for
// less than its interaction token's 15 minutes. Nothing is held or paid while one waits.
import { randomBytes } from 'node:crypto';
import type { PendingScene } from './scene-types.ts';

export const PENDING_TTL_MS = 14 * 60_000;
const MAX_PENDING = 500;

export class PendingScenes {
  readonly #byToken = new Map<string, PendingScene & { expiresAt: number }>();
  readonly #now: () => number;

  constructor(now: () => number = () => performance.now()) {
    this.#now = now;
  }

  /** Keeps `scene` for its member's confirmation; returns its token (for the buttons' custom_id). */
  add(scene: PendingScene): string {
    for (const [token, other] of this.#byToken)
      if (other.guildId === scene.guildId && other.userId === scene.userId) this.#byToken.delete(token);
    while (this.#byToken.size >= MAX_PENDING) {
      const oldest = this.#byToken.keys().next().value;
      if (oldest === undefined) break;
      this.#byToken.delete(oldest);
    }
    const token = randomBytes(9).toString('base64url');
    this.#byToken.set(token, { ...scene, expiresAt: this.#now() + PENDING_TTL_MS });
    return token;
  }

  /** The scene waiting under `token`, unexpired, without taking it. */
  peek(token: string): PendingScene | undefined {
    const scene = this.#byToken.get(token);
    if (scene === undefined) return undefined;
    if (scene.expiresAt > this.#now()) return scene;
    this.#byToken.delete(token);
    return undefined;
  }

  /** Takes the scene (confirmed or cancelled): it can be taken once. */
  take(token: string): PendingScene | undefined {
    const scene = this.peek(token);
    this.#byToken.delete(token);
    return scene;
  }

  get size(): number {
    return this.#byToken.size;
  }
}
