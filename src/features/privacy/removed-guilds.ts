import type { Logger } from '../../core/log.ts';
import { forgetGuild, type Forgetting } from './forget.ts';

/** How often the sweep looks for servers whose grace period has passed, and how many it deletes per look. */
export const SWEEP_INTERVAL_MS = 60 * 60_000;
export const SWEEP_BATCH = 20;

export interface RemovedGuildsOptions extends Forgetting {
  /** How long a server's data stays after SayBot was removed from it (FORGET_REMOVED_GUILD_AFTER_DAYS). */
  graceMs: number;
  logger: Logger;
  /** The wall clock the removal times are kept in (tests move it past the grace period). */
  now?: (() => Date) | undefined;
  /** Guilds this process is in now: never deleted, whatever the store says (added back while SayBot was down). */
  present?: (guildId: string) => boolean;
  /** Guilds this process answers for (its shard's): another shard's are left to it, which knows if they came back. */
  ours?: (guildId: string) => boolean;
}

/** Servers SayBot was removed from: the time kept in the store, their data swept once the grace period passed. */
export class RemovedGuilds {
  readonly #options: RemovedGuildsOptions;
  readonly #now: () => Date;
  #timer: NodeJS.Timeout | undefined;
  #sweeping: Promise<number> | undefined;

  constructor(options: RemovedGuildsOptions) {
    this.#options = options;
    this.#now = options.now ?? (() => new Date());
  }

  /** GUILD_DELETE without `unavailable`: SayBot was removed (an outage is not a removal). */
  async removed(guildId: string): Promise<void> {
    const at = this.#now();
    await this.#options.store.removedGuilds.mark(guildId, at);
    const deleteAfter = new Date(at.getTime() + this.#options.graceMs).toISOString();
    this.#options.logger.info(
      { guild: guildId, deleteAfter },
      'SayBot was removed from a server: its data is deleted after the grace period unless it is added back',
    );
  }

  /** GUILD_CREATE of a new guild (or one present at start-up): its data stays. */
  async present(guildId: string): Promise<void> {
    if (await this.#options.store.removedGuilds.cancel(guildId)) {
      this.#options.logger.info({ guild: guildId }, 'SayBot is back in a server it was removed from: its data is kept');
    }
  }

  /** Deletes the data of servers whose grace period has passed, at most one batch; how many. One sweep at a time. */
  sweep(): Promise<number> {
    this.#sweeping ??= this.#sweep().finally(() => (this.#sweeping = undefined));
    return this.#sweeping;
  }

  async #sweep(): Promise<number> {
    const { store, graceMs, logger } = this.#options;
    const cutoff = new Date(this.#now().getTime() - graceMs);
    let done = 0;
    for (const guildId of await store.removedGuilds.removedBefore(cutoff, SWEEP_BATCH)) {
      if (this.#options.ours?.(guildId) === false) continue;
      if (this.#options.present?.(guildId)) {
        await store.removedGuilds.cancel(guildId);
        continue;
      }
      const report = await forgetGuild(this.#options, guildId);
      logger.info(
        { guild: guildId, deleted: report.deleted, anonymised: report.anonymised, voices: report.voices.length },
        "the grace period after SayBot's removal has passed: the server's data is deleted",
      );
      done++;
    }
    return done;
  }

  /** Sweeps now (awaited), then every SWEEP_INTERVAL_MS until close(); a failed sweep is logged and retried. */
  async start(): Promise<void> {
    const run = () =>
      this.sweep().catch((error: unknown) =>
        this.#options.logger.error({ err: error }, 'sweep of removed servers failed'),
      );
    await run();
    this.#timer = setInterval(() => void run(), SWEEP_INTERVAL_MS);
    this.#timer.unref();
  }

  /** Stops the timer and waits for a sweep under way (so the store is not closed under it). */
  async close(): Promise<void> {
    clearInterval(this.#timer);
    await this.#sweeping?.catch(() => undefined);
  }
}
