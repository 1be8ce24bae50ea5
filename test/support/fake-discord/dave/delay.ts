// A one-way network delay for the DAVE handshake: messages run in order, each `delayMs` after it was posted.

export class DelayedQueue {
  private readonly delayMs: number;
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;

  constructor(delayMs: number) {
    this.delayMs = Math.max(0, delayMs);
  }

  /** Runs `step` now (no delay) or after the delay; equal delays keep posting order (Node runs same-length timers FIFO). */
  post(step: () => void): void {
    if (this.closed) return;
    if (this.delayMs === 0) {
      step();
      return;
    }
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (!this.closed) step();
    }, this.delayMs);
    this.timers.add(timer);
  }

  close(): void {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
