// The sender thread (sender-thread.ts starts it): it owns every voice session's UDP socket and sends each voice's
// packets on that voice's own clock, so that nothing the main thread does (a garbage collection, a long task) can
// hold a packet up while the voice has packets queued. The packets come through each voice's ring in shared memory
// (./packet-ring.ts), never a message; messages are for control (open, keys, stop, hold, close) and the rare wake of
// a voice that slept with nothing to send. It reports each clip's progress a few times a second: what
// the main thread counts as played is what went out from here. The loop itself is ./sender-loop.ts; this module
// gives it the thread's port and Node's timers.
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
  },
  threadId,
);
setInterval(() => loop.report(), REPORT_MS);
port.on('message', (message: ToSender) => loop.handle(message));
