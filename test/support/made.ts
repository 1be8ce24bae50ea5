/**
 * An object whose fields read what vitest hooks made, once they ran: `made({ client: () => client })`. Reading a
 * field earlier (at a file's top level, say) is a mistake in the test, said plainly instead of an undefined later.
 */
export function made<T extends object>(readers: { [K in keyof T]: () => T[K] | undefined }): T {
  const fields: PropertyDescriptorMap = {};
  for (const [name, read] of Object.entries(readers) as Array<[string, () => unknown]>) {
    fields[name] = {
      enumerable: true,
      get() {
        const value = read();
        if (value === undefined) throw new Error(`${name} is made in a hook: read it inside a test or a later hook`);
        return value;
      },
    };
  }
  return Object.defineProperties({}, fields) as T;
}
