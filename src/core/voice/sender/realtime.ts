// Real-time scheduling for the sender thread where the host allows it: on busy cores an ordinary thread waking for its
// 20 ms slot waits behind others, a gap every listener hears (figure 24: 61-86 ms beside three burners). It does little
// per wakeup and Linux caps real-time threads at 95 % of a core, as PipeWire and JACK rely on. Granted to root,
// CAP_SYS_NICE or RLIMIT_RTPRIO (Docker: `--ulimit rtprio=1`), else logged once; set with util-linux's chrt.
import { execFile } from 'node:child_process';
import { readlinkSync } from 'node:fs';

/** SCHED_RR at the lowest real-time priority: ahead of every ordinary thread, behind every real-time one. */
const CHRT_ARGS = ['--rr', '--pid', '1'] as const;
const CHRT_TIMEOUT_MS = 5_000;
/** A refusal's reason as logged: chrt's own words, at most this long. */
const WHY_MAX = 200;

export type SenderPriority = { realtime: true } | { realtime: false; why: string };

/** The calling thread's kernel thread ID (Linux: /proc/thread-self names it), else undefined. */
export function ownThreadId(): number | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    const match = /\/task\/(\d+)$/.exec(readlinkSync('/proc/thread-self'));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** Asks Linux to run thread `tid` at SCHED_RR 1: whether it did, or why not. Never rejects. */
export function raiseToRealtime(tid: number): Promise<SenderPriority> {
  return new Promise((resolve) => {
    execFile('chrt', [...CHRT_ARGS, String(tid)], { timeout: CHRT_TIMEOUT_MS }, (error, _stdout, stderr) => {
      if (!error) {
        resolve({ realtime: true });
        return;
      }
      const code = (error as NodeJS.ErrnoException).code;
      const why =
        code === 'ENOENT'
          ? 'chrt (util-linux) was not found on PATH'
          : (stderr.trim().split('\n')[0] ?? '') || error.message;
      resolve({ realtime: false, why: why.slice(0, WHY_MAX) });
    });
  });
}
