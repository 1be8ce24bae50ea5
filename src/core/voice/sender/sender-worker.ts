// The sender thread: it owns every sender connection's UDP socket and sends each one's packets on its own clock, so
// nothing on the main thread (a collection, a long task) holds a packet up. Packets come through each connection's ring
// (./packet-ring.ts); messages are for control. Its reports are what the main thread counts as played. The loop is
// ./sender-loop.ts; this gives it the port and Node's timers.
import { parentPort, threadId } from 'node:worker_threads';
import type { FromSender, ToSender } from './sender-messages.ts';
import { ownThreadId } from './realtime.ts';
import { SenderLoop } from './sender-loop.ts';

/** How often progress is reported. */
const REPORT_MS = 40;

const port = parentPort;
if (!port) throw new Error('sender-worker.ts runs as a worker thread (sender-thread.ts)');

const post = (message: FromSender): void => port.postMessage(message);
// The main thread asks for this thread's real-time priority by its ID (./realtime.ts).
post({ type: 'started', tid: ownThreadId() });
const loop = new SenderLoop(
  post,
  {
    now: () => performance.now(),
    set: (wake, delayMs) => setTimeout(wake, delayMs),
    clear: (timer) => clearTimeout(timer as NodeJS.Timeout),
    origin: performance.timeOrigin,
  },
  threadId,
);
setInterval(() => loop.report(), REPORT_MS);
port.on('message', (message: ToSender) => loop.handle(message));
