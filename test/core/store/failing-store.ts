import type { Store } from '../../../src/core/store/types.ts';

/** `target` with its methods bound to it (the store's areas keep private fields), and `override` in front. */
function withMethods<T extends object>(target: T, override: (property: string | symbol) => unknown): T {
  return new Proxy(target, {
    get(_, property) {
      const replaced = override(property);
      if (replaced !== undefined) return replaced;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/**
 * The store as a full disk makes it: reads work, and while `failing()` says so, writes of spends fail the way
 * SQLite fails them. Every other method passes through to `store`.
 */
export function withFailingSpendWrites(store: Store, failing: () => boolean): Store {
  const spends = withMethods(store.spends, (property) =>
    property !== 'record'
      ? undefined
      : async (...args: Parameters<Store['spends']['record']>) => {
          if (failing())
            throw Object.assign(new Error('database or disk is full'), { code: 'ERR_SQLITE_ERROR', errcode: 13 });
          return store.spends.record(...args);
        },
  );
  return withMethods(store, (property) => (property === 'spends' ? spends : undefined));
}
