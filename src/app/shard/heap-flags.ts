// V8's heap sizes are chosen on the command line (`npm start` caps the young generation: package.json), and a child
// process gets only the flags it is given: shard processes and the benchmark's children take these from their parent.

const HEAP_FLAG = /^--max-(semi|old)-space-size=\d+$/;

/** The V8 heap-size flags among `execArgv`, nothing else (not --inspect, whose port is taken). */
export function heapFlags(execArgv: readonly string[]): string[] {
  return execArgv.filter((arg) => HEAP_FLAG.test(arg));
}
