import type { Store } from '../../src/store/types.ts';

/**
 * The store as a full disk makes it: reads work, and while `failing()` says so, writes of spends fail the way
 * SQLite fails them. Every other method passes through to `store`.
 */
export function withFailingSpendWrites(store: Store, failing: () => boolean): Store {
  return new Proxy(store, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      const method = value as (...args: unknown[]) => unknown;
      if (property === 'recordSpend') {
        return async (...args: unknown[]) => {
          if (failing()) throw Object.assign(new Error('database or disk is full'), { code: 'ERR_SQLITE_ERROR', errcode: 13 });
          return method.apply(target, args);
        };
      }
      return method.bind(target);
    },
  });
}
