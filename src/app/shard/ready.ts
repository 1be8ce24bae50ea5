// A shard tells its manager it is ready itself, over IPC: discord.js's own handshake is bound to the first Client,
// and SayBot makes a second one when Discord refuses Message Content (src/app/intents.ts).
import type { Shard } from 'discord.js';

const READY = 'saybot-shard-ready';

/** In a shard process (started by the manager, so with an IPC channel): SayBot is ready. Elsewhere, nothing. */
export function announceShardReady(): void {
  process.send?.({ [READY]: true });
}

/** Resolves once the shard's current process announces it is ready; rejects if it exits first or takes too long. */
export function shardReady(shard: Shard, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = (): void => {
      clearTimeout(timer);
      shard.off('message', onMessage);
      shard.off('death', onDeath);
    };
    const onMessage = (message: unknown): void => {
      if (!isReadyMessage(message)) return;
      done();
      resolve();
    };
    const onDeath = (): void => {
      done();
      reject(new Error(`Shard ${shard.id} exited before it was ready`));
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`Shard ${shard.id} was not ready within ${timeoutMs / 1000} s`));
    }, timeoutMs);
    shard.on('message', onMessage);
    shard.on('death', onDeath);
  });
}

export function isReadyMessage(message: unknown): boolean {
  return typeof message === 'object' && message !== null && (message as Record<string, unknown>)[READY] === true;
}
