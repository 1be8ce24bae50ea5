// A store whose first paid request of a given size is held at its write ahead (spent, not yet sent), for the cases
// that act at that instant by an event rather than a timer.
import type { NewSpend } from '../../src/core/store/quota-store.ts';
import type { Store } from '../../src/core/store/types.ts';

/** The store's deadline (STORE_DEADLINE_MS) where a write-ahead is held: a minute, past whatever the case does before
 * it lets go (another member's order, a /stop) on a busy host. With the 5 s default, a hold outliving it fails the
 * write-ahead, and its part is never sent for that reason instead of the case's. */
export const HOLD_DEADLINE = { STORE_DEADLINE_MS: '60000' };

/**
 * The store, with the first paid request of `characters` written ahead held there (its request not yet sent) until
 * release(); tookBack() says whether SayBot has since taken a spend written ahead back (a request it did not send).
 */
export function heldWriteAhead(characters: number) {
  const reached = Promise.withResolvers<void>();
  const gate = Promise.withResolvers<void>();
  let held = false;
  let tookBack = false;
  const bound = <T extends object>(target: T, override: (key: string | symbol) => unknown): T =>
    new Proxy(target, {
      get(_, key) {
        const replaced = override(key);
        if (replaced !== undefined) return replaced;
        const value: unknown = Reflect.get(target, key, target);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
  const wrap = (store: Store): Store => {
    const spends = bound(store.spends, (key) => {
      if (key === 'record')
        return async (spend: NewSpend) => {
          if (!held && spend.unconfirmed === true && spend.characters === characters) {
            held = true;
            reached.resolve();
            await gate.promise;
          }
          return store.spends.record(spend);
        };
      if (key === 'erase')
        return async (...args: Parameters<Store['spends']['erase']>) => {
          const taken = await store.spends.erase(...args);
          tookBack ||= taken;
          return taken;
        };
      return undefined;
    });
    return bound(store, (key) => (key === 'spends' ? spends : undefined));
  };
  return { wrap, reached: reached.promise, release: () => gate.resolve(), tookBack: () => tookBack };
}
