// A store whose next reads answer late: what makes a command wait past Discord's deadlines in a test.
import type { Store } from '../../src/core/store/types.ts';

/** Reads of the store (get…, list…, find…, totals): the next `state.slowNext` of them answer only after `delayMs`. */
export function slowReads(delayMs: number) {
  const state = { slowNext: 0, slowed: 0 };
  // Each area of the store, and each of its reads, seen through a proxy. The areas keep private fields: their
  // methods run on the area itself, not on the proxy.
  const slowArea = <T extends object>(area: T): T =>
    new Proxy(area, {
      get(target, property) {
        const value: unknown = Reflect.get(target, property, target);
        if (typeof value !== 'function') return value;
        const method = value as (...a: unknown[]) => Promise<unknown>;
        if (typeof property !== 'string' || !/^(get|list|find|month|member|last)/.test(property))
          return method.bind(target);
        return async (...args: unknown[]) => {
          if (state.slowNext > 0) {
            state.slowNext -= 1;
            state.slowed += 1;
            await new Promise((resolve) => setTimeout(resolve, delayMs));
          }
          return method.apply(target, args);
        };
      },
    });
  const wrap = (store: Store): Store =>
    new Proxy(store, {
      get(target, property) {
        const value: unknown = Reflect.get(target, property, target);
        if (typeof value === 'function') return (value as (...a: unknown[]) => unknown).bind(target);
        return typeof value === 'object' && value !== null ? slowArea(value) : value;
      },
    });
  return { state, wrap };
}
