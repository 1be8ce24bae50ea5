// What concurrency.ts runs over a step's window and send-cost.ts implements, in a type-only module of its own so that
// neither imports the other (no import cycle, test/structure/import-cycles.test.ts).

/** Something measured over one step's window (bench/send-cost.ts's profiles). */
export interface StepProbe<T> {
  start(): Promise<void>;
  stop(): Promise<T>;
}
