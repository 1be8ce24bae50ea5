// Figure 8: what the main thread spends per packet. Two ways, both in the bot's own process:
// - time, in every concurrency step: the send path timed where it runs (the clock's wakeups:
//   bench/senders/voice-clock.ts stats; the library's cycle: its AudioPlayer steps wrapped below), plus the whole
//   main thread's CPU time (process.threadCpuUsage) per packet heard;
// - allocations, in a step of their own: V8's sampling heap profiler on the main thread (objects later collected
//   included), every allocation attributed to the send path when one of its callers is in it; and a CPU profile over
//   the same window for the send path's share of the main thread.
import { Session } from 'node:inspector/promises';
import { AudioPlayer, VoiceConnection } from '@discordjs/voice';
import type { VoiceSenderKind } from './senders/senders.ts';
import { voiceClock } from './senders/voice-clock.ts';
import { senderThread } from '../src/core/voice/sender/sender-thread.ts';
import type { StepProbe } from './step-probe.ts';

type Method = (this: unknown, ...args: unknown[]) => unknown;

/** The library's cycle timed: its two per-player steps (prepare: read, encrypt; dispatch: send). */
class LibraryCycleMeter {
  packets = 0;
  busyMs = 0;

  constructor() {
    const add = (busyMs: number, packets: number): void => {
      this.busyMs += busyMs;
      this.packets += packets;
    };
    const player = AudioPlayer.prototype as unknown as Record<string, Method>;
    for (const name of ['_stepPrepare', '_stepDispatch']) {
      const original = player[name] as Method;
      player[name] = function timed(this: unknown, ...args: unknown[]) {
        const started = performance.now();
        try {
          return original.apply(this, args);
        } finally {
          add(performance.now() - started, 0);
        }
      };
    }
    const connection = VoiceConnection.prototype as unknown as Record<string, Method>;
    const dispatch = connection.dispatchAudio as Method;
    connection.dispatchAudio = function counted(this: unknown, ...args: unknown[]) {
      const sent = dispatch.apply(this, args);
      if (sent === true) add(0, 1);
      return sent;
    };
  }

  reset(): void {
    this.packets = 0;
    this.busyMs = 0;
  }

  read(): { packets: number; busyMs: number } {
    return { packets: this.packets, busyMs: this.busyMs };
  }
}

export const libraryCycleMeter = new LibraryCycleMeter();

interface CallFrame {
  functionName: string;
  url: string;
}

const CLOCK_FILES = ['voice-clock.ts', 'clock-sender.ts', 'rtp-sender.ts', 'discordjs-voice-seam.ts'];
/** The sender thread's main-thread side: reading ahead, DAVE sealing, handing over, reports. */
const WORKER_FILES = ['sender-thread.ts', 'worker-clip.ts', 'discordjs-voice-seam.ts'];
const LIBRARY_CYCLE = new Set(['audioCycleStep', 'prepareNextAudioFrame']);

function inSendPath(sender: VoiceSenderKind, frame: CallFrame): boolean {
  if (sender === 'clock') return CLOCK_FILES.some((file) => frame.url.endsWith(file));
  if (sender === 'worker') return WORKER_FILES.some((file) => frame.url.endsWith(file));
  return frame.url.includes('@discordjs/voice') && LIBRARY_CYCLE.has(frame.functionName);
}

interface HeapNode {
  callFrame: CallFrame;
  selfSize: number;
  children: HeapNode[];
}

interface CpuNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

interface CpuProfile {
  nodes: CpuNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface SendCost {
  sender: VoiceSenderKind;
  n: number;
  /** Datagrams the send path sent during the step (audio and silence). */
  packets: number;
  /** Bytes allocated on the main thread's JS heap per datagram: everything, and under the send path. */
  allocatedBytesPerPacket: number;
  sendAllocatedBytesPerPacket: number;
  /** The send path's share of the main thread's busy time (CPU profile, 100 µs samples). */
  sendShareOfBusy: number;
}

/** Profiles the main thread over one step (heap sampling every 256 bytes, CPU every 100 µs). */
export function costProbe(sender: VoiceSenderKind, n: number): StepProbe<SendCost> {
  const session = new Session();
  let handedBefore = 0;
  return {
    async start() {
      handedBefore = senderThread.handed;
      session.connect();
      await session.post('HeapProfiler.enable');
      await session.post('HeapProfiler.startSampling', {
        samplingInterval: 256,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: true,
      });
      await session.post('Profiler.enable');
      await session.post('Profiler.setSamplingInterval', { interval: 100 });
      await session.post('Profiler.start');
    },
    async stop() {
      const { profile: cpu } = (await session.post('Profiler.stop')) as unknown as { profile: CpuProfile };
      const { profile: heap } = (await session.post('HeapProfiler.stopSampling')) as unknown as {
        profile: { head: HeapNode };
      };
      session.disconnect();
      let total = 0;
      let send = 0;
      const walk = (node: HeapNode, under: boolean): void => {
        const here = under || inSendPath(sender, node.callFrame);
        total += node.selfSize;
        if (here) send += node.selfSize;
        for (const child of node.children) walk(child, here);
      };
      walk(heap.head, false);
      const packets =
        sender === 'clock'
          ? voiceClock.stats().packets
          : sender === 'worker'
            ? senderThread.handed - handedBefore
            : libraryCycleMeter.read().packets;
      return {
        sender,
        n,
        packets,
        allocatedBytesPerPacket: total / packets,
        sendAllocatedBytesPerPacket: send / packets,
        sendShareOfBusy: sendShare(cpu, sender),
      };
    },
  };
}

/** The share of non-idle samples taken with the send path on the stack. */
function sendShare(profile: CpuProfile, sender: VoiceSenderKind): number {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const memo = new Map<number, boolean>();
  const under = (id: number): boolean => {
    const known = memo.get(id);
    if (known !== undefined) return known;
    const node = byId.get(id);
    const up = parent.get(id);
    const result = node !== undefined && (inSendPath(sender, node.callFrame) || (up !== undefined && under(up)));
    memo.set(id, result);
    return result;
  };
  let busy = 0;
  let send = 0;
  profile.samples.forEach((id, i) => {
    const name = byId.get(id)?.callFrame.functionName;
    if (name === '(idle)' || name === '(program)') return;
    const dt = profile.timeDeltas[i] ?? 0;
    busy += dt;
    if (under(id)) send += dt;
  });
  return busy > 0 ? send / busy : Number.NaN;
}
