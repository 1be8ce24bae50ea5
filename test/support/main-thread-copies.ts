// The audio-sized copies the main thread makes while some work runs: what a test asserts instead of a time, since a
// copy of a few megabytes there is a gap in every server's voice. Counted: Buffer.concat, Buffer.from and
// Buffer.copyBytesFrom of bytes, a typed array constructed from another, a typed array's slice and set, Buffer#copy,
// and a worker message's bytes that are neither transferred nor shared (a structured clone copies them on the
// sending thread). Node's own internals (their captured primordials) are not seen; a worker's copies are its own.
import { Worker } from 'node:worker_threads';

export interface Copy {
  how: string;
  bytes: number;
}

const TypedArray = Object.getPrototypeOf(Uint8Array) as { prototype: Uint8Array };

/** Bytes a worker message clones: ArrayBuffers and views of them not in the transfer list (shared memory is not). */
function cloned(value: unknown, transfer: readonly unknown[], depth = 0): number {
  if (depth > 4 || value === null || typeof value !== 'object') return 0;
  if (value instanceof ArrayBuffer) return transfer.includes(value) ? 0 : value.byteLength;
  if (ArrayBuffer.isView(value))
    return value.buffer instanceof ArrayBuffer && !transfer.includes(value.buffer) ? value.byteLength : 0;
  const items = Array.isArray(value) ? value : Object.values(value);
  return items.reduce((sum: number, item) => sum + cloned(item, transfer, depth + 1), 0);
}

/** Runs `work` and lists the main thread's copies of at least `atLeast` bytes (smaller ones are headers, packets). */
export async function mainThreadCopies<T>(
  work: () => Promise<T>,
  atLeast = 16 * 1024,
): Promise<{ result: T; copies: Copy[] }> {
  const copies: Copy[] = [];
  const note = (how: string, bytes: number) => {
    if (bytes >= atLeast) copies.push({ how, bytes });
  };
  const restore: Array<() => void> = [];
  const patch = <O extends object, K extends keyof O>(owner: O, key: K, make: (original: O[K]) => O[K]) => {
    const original = owner[key];
    owner[key] = make(original);
    restore.push(() => {
      owner[key] = original;
    });
  };
  type Concat = typeof Buffer.concat;
  patch(
    Buffer,
    'concat',
    (original: Concat) =>
      ((list, length) => {
        const out = original(list, length);
        note('Buffer.concat', out.length);
        return out;
      }) as Concat,
  );
  const from = Buffer.from.bind(Buffer) as (...args: unknown[]) => Buffer;
  patch(
    Buffer,
    'from',
    () =>
      ((...args: unknown[]) => {
        const out = from(...args);
        if (ArrayBuffer.isView(args[0])) note('Buffer.from', out.length);
        return out;
      }) as typeof Buffer.from,
  );
  patch(
    Buffer,
    'copyBytesFrom',
    (original) =>
      ((view, offset, length) => {
        const out = original(view, offset, length);
        note('Buffer.copyBytesFrom', out.length);
        return out;
      }) as typeof Buffer.copyBytesFrom,
  );
  patch(
    Buffer.prototype,
    'copy',
    (original) =>
      function (this: Buffer, ...args: Parameters<Buffer['copy']>) {
        const copied = original.apply(this, args);
        note('Buffer#copy', copied);
        return copied;
      },
  );
  patch(
    TypedArray.prototype,
    'slice',
    (original) =>
      function (this: Uint8Array, ...args: Parameters<Uint8Array['slice']>) {
        const out = original.apply(this, args);
        note('TypedArray#slice', out.byteLength);
        return out;
      } as Uint8Array['slice'],
  );
  patch(
    TypedArray.prototype,
    'set',
    (original) =>
      function (this: Uint8Array, source: ArrayLike<number>, offset?: number) {
        note('TypedArray#set', (ArrayBuffer.isView(source) ? source.byteLength : source.length) ?? 0);
        original.call(this, source, offset);
      } as Uint8Array['set'],
  );
  patch(
    globalThis,
    'Uint8Array',
    (original) =>
      new Proxy(original, {
        construct(target, args, newTarget) {
          if (ArrayBuffer.isView(args[0])) note('new Uint8Array(bytes)', args[0].byteLength);
          return Reflect.construct(target, args, newTarget) as object;
        },
      }),
  );
  patch(
    Worker.prototype,
    'postMessage',
    (original) =>
      function (this: Worker, message: unknown, transfer?: readonly unknown[]) {
        note('a worker message', cloned(message, transfer ?? []));
        original.call(this, message, transfer as never);
      } as Worker['postMessage'],
  );
  try {
    const result = await work();
    return { result, copies };
  } finally {
    for (const undo of restore.reverse()) undo();
  }
}
