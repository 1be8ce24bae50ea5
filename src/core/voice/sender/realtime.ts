// Real-time scheduling for the sender thread, where the host allows it. On a host whose cores are all busy (other
// jobs, SayBot's own mixing), an ordinary thread that wakes for its 20 ms slot waits its turn behind them: its
// process's share is spread over every runnable task, and one late wakeup is a gap every listener hears (figure 24:
// single gaps of 61-86 ms beside three burners, with the thread waiting for a core, not working). A thread at a
// real-time policy runs as soon as it wakes. The sender does little each wakeup (a few packets sealed and sent), so
// it cannot starve the host, and Linux caps real-time threads at 95 % of a core anyway (sched_rt_runtime_us). Audio
// servers do the same (PipeWire, JACK). Linux grants it to root or a process with CAP_SYS_NICE or an RLIMIT_RTPRIO
// (Docker: `--ulimit rtprio=1`); elsewhere the thread keeps its ordinary priority, and the log says why once.
// util-linux's chrt sets it (Node has no call for it): one short process each time the thread starts.
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
