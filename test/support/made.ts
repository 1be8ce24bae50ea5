/**
 * What a vitest hook made, for a test to read once the hook ran: reading it earlier (at a file's top level, say)
 * is a mistake in the test, said plainly instead of an undefined further on.
 */
export function made<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`${what} is made in a hook: read it inside a test or a later hook`);
  return value;
}
