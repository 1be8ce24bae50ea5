// A one-way network delay for the DAVE handshake: messages run in order, each `delayMs` after it was posted.

export class DelayedQueue {
  private readonly delayMs: number;
  private readonly onError: (error: unknown) => void;
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;

  /** `onError` gets what a step throws: a step may run in a timer, where nothing else would catch it. */
  constructor(delayMs: number, onError: (error: unknown) => void) {
    this.delayMs = Math.max(0, delayMs);
    this.onError = onError;
  }

  /** Runs `step` now (no delay) or after the delay; equal delays keep posting order (Node runs same-length timers FIFO). */
  post(step: () => void): void {
    if (this.closed) return;
    if (this.delayMs === 0) {
      this.run(step);
      return;
    }
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (!this.closed) this.run(step);
    }, this.delayMs);
    this.timers.add(timer);
  }

  private run(step: () => void): void {
    try {
      step();
    } catch (error) {
      this.onError(error);
    }
  }

  close(): void {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
