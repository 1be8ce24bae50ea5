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
 * The store as a full disk makes it: reads work, and while `failing()` says so, writes of spends (`methods` of
 * store.spends: by default `record`) fail the way SQLite fails them; while `lands(method)` says so too, each write is done
 * first and its answer lost after (a network database's connection dropped after its COMMIT). Every other method
 * passes through to `store`.
 */
export function withFailingSpendWrites(
  store: Store,
  failing: () => boolean,
  methods: ReadonlyArray<keyof Store['spends']> = ['record'],
  lands: (method: keyof Store['spends']) => boolean = () => false,
): Store {
  const spends = withMethods(store.spends, (property) => {
    if (!methods.includes(property as keyof Store['spends'])) return undefined;
    const original = Reflect.get(store.spends, property, store.spends) as (...args: unknown[]) => Promise<unknown>;
    return async (...args: unknown[]) => {
      if (failing() && lands(property as keyof Store['spends'])) {
        await original.apply(store.spends, args);
        throw Object.assign(new Error('read ECONNRESET (after its COMMIT)'), { code: 'ECONNRESET' });
      }
      if (failing())
        throw Object.assign(new Error('database or disk is full'), { code: 'ERR_SQLITE_ERROR', errcode: 13 });
      return original.apply(store.spends, args);
    };
  });
  return withMethods(store, (property) => (property === 'spends' ? spends : undefined));
}

/**
 * The store as a hung database makes it: calls to `methods` of store.spends wait (never answered) until `letGo()`,
 * then run on `store`. Every other method passes through.
 */
export function withHangingSpendWrites(
  store: Store,
  methods: ReadonlyArray<keyof Store['spends']>,
): { store: Store; letGo: () => void } {
  const { promise: gate, resolve: letGo } = Promise.withResolvers<void>();
  const spends = withMethods(store.spends, (property) => {
    if (!methods.includes(property as keyof Store['spends'])) return undefined;
    const original = Reflect.get(store.spends, property, store.spends) as (...args: unknown[]) => Promise<unknown>;
    return async (...args: unknown[]) => {
      await gate;
      return original.apply(store.spends, args);
    };
  });
  return { store: withMethods(store, (property) => (property === 'spends' ? spends : undefined)), letGo };
}
