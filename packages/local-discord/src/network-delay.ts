// Network delays for benchmarks: on 127.0.0.1 a round trip is free, and a bot that waits for one before speaking
// looks as fast as one that does not. Each option is a one-way delay (or, for REST, a round trip); default none.
import type { WebSocket } from 'ws';

/** Every message the socket sends leaves `delayMs` late; every message it receives reaches its listeners `delayMs` late. */
export function delaySocket(ws: WebSocket, delayMs: number): void {
  if (!(delayMs > 0)) return;
  const send = ws.send.bind(ws);
  ws.send = ((...args: Parameters<WebSocket['send']>) => {
    // Same-length timers run in the order they were set: messages keep their order.
    setTimeout(() => {
      if (ws.readyState === ws.OPEN) send(...args);
    }, delayMs);
  }) as WebSocket['send'];
  const emit = ws.emit.bind(ws);
  ws.emit = ((event: string | symbol, ...args: unknown[]): boolean => {
    if (event !== 'message') return emit(event, ...args);
    setTimeout(() => emit(event, ...args), delayMs);
    return true;
  }) as WebSocket['emit'];
}

/** Runs `step` after `delayMs` (at once when 0). */
export function afterDelay(delayMs: number, step: () => void): void {
  if (delayMs > 0) setTimeout(step, delayMs);
  else step();
}
