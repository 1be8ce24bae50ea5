// Long work in slices: a long job calls nextSlice() between steps, and every SLICE_MS it gives a turn back so waiting
// short work goes first (./work-turns.ts). Outside a sliced job it is one event-loop turn.
import type { MessagePort } from 'node:worker_threads';

/** Work between two turns given back: a short job (a file's join, a two-line scene) takes about this much. */
export const SLICE_MS = 50;

/** The current job's way of giving a turn back, while one is set (the worker runs one job at a time). */
let giveTurn: (() => Promise<void>) | undefined;
let sliceStart = 0;

const eventLoopTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Between two steps of long work: a turn given back when the slice has run SLICE_MS, else at most an event-loop turn. */
export async function nextSlice(): Promise<void> {
  if (giveTurn === undefined) return eventLoopTurn();
  if (performance.now() - sliceStart < SLICE_MS) return;
  await giveTurn();
  sliceStart = performance.now();
}

/** Runs `work` as a sliced job: each slice ends with `turn()` (resolved when the main thread says go on). */
export async function inSlices<T>(turn: () => Promise<void>, work: () => Promise<T>): Promise<T> {
  giveTurn = turn;
  sliceStart = performance.now();
  try {
    return await work();
  } finally {
    giveTurn = undefined;
  }
}

/** What a sliced worker gets from the main thread besides jobs: go on with job `go`. */
interface GoMessage {
  go: number;
}

/** A worker's jobs from `port`; `sliced`: turns are `{ id, slice: true }`, answered by `{ go: id }`. */
export function serveJobs<J extends { id: number }, A>(
  port: MessagePort,
  handle: (job: J) => Promise<{ reply: A; transfer: ArrayBuffer[] }>,
  sliced: boolean,
): void {
  const waiting = new Map<number, () => void>();
  port.on('message', (message: J | GoMessage) => {
    if ('go' in message) {
      const go = waiting.get(message.go);
      waiting.delete(message.go);
      go?.();
      return;
    }
    const job = message;
    const turn = () =>
      new Promise<void>((go) => {
        waiting.set(job.id, go);
        port.postMessage({ id: job.id, slice: true });
      });
    const run = sliced ? inSlices(turn, () => handle(job)) : handle(job);
    void run.then(({ reply, transfer }) => port.postMessage(reply, transfer));
  });
}
