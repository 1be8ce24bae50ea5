/**
 * A stand-in for whatever `current()` returns when it is used: each property read goes to that object (its
 * methods bound to it). A test rig opens its object in a hook and hands out this stand-in at once, so a test file
 * names it once at the top. Throws `closed` when read while nothing is open.
 */
export function forwardingTo<T extends object>(current: () => T | undefined, closed: string): T {
  return new Proxy({} as T, {
    get(_, property) {
      const target = current();
      if (target === undefined) throw new Error(closed);
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
