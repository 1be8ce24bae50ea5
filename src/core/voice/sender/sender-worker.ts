// The sender thread (sender-thread.ts starts it): it owns every voice session's UDP socket and sends each voice's
// packets on that voice's own clock, so that nothing the main thread does (a garbage collection, a long task) can
// hold a packet up while the voice has packets queued. The packets come through each voice's ring in shared memory
// (./packet-ring.ts), never a message; messages are for control (open, keys, stop, hold, close) and the rare wake of
// a voice that slept with nothing to send. It reports each clip's progress a few times a second: what
// the main thread counts as played is what went out from here.
import { parentPort, threadId } from 'node:worker_threads';
import type { ClipProgress, FromSender, SenderStats, ToSender } from './sender-messages.ts';
import { WorkerVoice, type VoiceListener } from './worker-voice.ts';
import { ownThreadId } from './realtime.ts';

/** How often progress is reported (and, with none, a heartbeat: the main thread's sign that this thread lives). */
const REPORT_MS = 40;
const HEARTBEAT_MS = 500;
const SAMPLES = 20_000;

const port = parentPort;
if (!port) throw new Error('sender-worker.ts runs as a worker thread (sender-thread.ts)');

const post = (message: FromSender): void => port.postMessage(message);
// The main thread asks for this thread's real-time priority by its ID (./realtime.ts).
post({ type: 'started', tid: ownThreadId() });
const voices = new Map<number, WorkerVoice>();
const moved = new Set<WorkerVoice>();

const freshStats = (): SenderStats => ({
  threadId,
  packets: 0,
  silence: 0,
  underruns: 0,
  lateMs: [],
  skippedSlots: 0,
});
let stats = freshStats();

const listener: VoiceListener = {
  moved: (voice) => moved.add(voice),
  done: (voice, clip, sent, how) => post({ type: 'done', voice: voice.id, clip, sent, how }),
  lost: (voice, message) => {
    voices.delete(voice.id);
    post({ type: 'lost', voice: voice.id, message });
  },
  sent: (lateMs, silence, underrun) => {
    if (silence) stats.silence += 1;
    else stats.packets += 1;
    if (underrun) stats.underruns += 1;
    if (stats.lateMs.length < SAMPLES) stats.lateMs.push(lateMs);
  },
  skipped: (slots) => {
    stats.skippedSlots += slots;
  },
};

let timer: NodeJS.Timeout | undefined;
let wakeAt = Infinity;

/** Sends what is due on every voice, then sleeps until the next voice's packet is due. */
function wake(): void {
  timer = undefined;
  wakeAt = Infinity;
  const now = performance.now();
  let next = Infinity;
  for (const voice of voices.values()) {
    const due = voice.run(now);
    if (due !== undefined && due < next) next = due;
  }
  schedule(next);
}

function schedule(at: number): void {
  if (at === Infinity || at >= wakeAt) return;
  if (timer) clearTimeout(timer);
  wakeAt = at;
  timer = setTimeout(wake, Math.max(0, at - performance.now()));
}

/** A voice given something to send now: sent in this turn, the clock set from it. */
function runNow(voice: WorkerVoice): void {
  const due = voice.run(performance.now());
  if (due !== undefined) schedule(due);
}

function report(): void {
  const clips: ClipProgress[] = [];
  for (const voice of moved) {
    const progress = voice.progress();
    if (progress) clips.push({ voice: voice.id, ...progress });
  }
  moved.clear();
  if (clips.length > 0 || performance.now() - lastPost >= HEARTBEAT_MS) {
    lastPost = performance.now();
    post({ type: 'report', clips });
  }
}
let lastPost = 0;
setInterval(report, REPORT_MS);

function handle(message: ToSender): void {
  const now = performance.now();
  switch (message.type) {
    case 'open': {
      const voice = new WorkerVoice(message.voice, message.ssrc, listener, message.ring, message.barrier);
      voices.set(message.voice, voice);
      voice.discover(message.ip, message.port).then(
        (local) => post({ type: 'discovered', voice: message.voice, ...local }),
        (error: unknown) => {
          voices.delete(message.voice);
          voice.close();
          post({ type: 'failed', voice: message.voice, message: (error as Error).message });
        },
      );
      return;
    }
    case 'keys': {
      const voice = voices.get(message.voice);
      if (!voice) return;
      voice.keys(message.mode, message.key, message.sequence, message.timestamp);
      runNow(voice);
      return;
    }
    case 'wake': {
      const voice = voices.get(message.voice);
      if (voice) runNow(voice);
      return;
    }
    case 'stop': {
      const voice = voices.get(message.voice);
      if (!voice) {
        post({ type: 'done', voice: message.voice, clip: message.clip, sent: 0, how: 'closed' });
        return;
      }
      voice.stop(message.clip);
      // The next clip's packets may be in the ring already.
      runNow(voice);
      return;
    }
    case 'hold': {
      const voice = voices.get(message.voice);
      if (!voice) return;
      voice.held = message.held;
      // Let go again: it goes on from now, not with a burst of the slots it was held for.
      if (!message.held && voice.due !== undefined) voice.due = Math.max(voice.due, now);
      if (!message.held) runNow(voice);
      return;
    }
    case 'close': {
      const voice = voices.get(message.voice);
      voices.delete(message.voice);
      voice?.close();
      return;
    }
    case 'stats':
      post({ type: 'stats', stats });
      if (message.reset) stats = freshStats();
      return;
  }
}

port.on('message', (message: ToSender) => {
  handle(message);
  // A progress report as soon as a clip's first packet went out: the main thread says it started.
  if (message.type === 'wake') report();
});
