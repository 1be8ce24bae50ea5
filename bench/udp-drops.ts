// Datagrams the kernel dropped because a UDP socket's receive buffer was full (Linux, system-wide): if the fake's
// voice server drops packets, gaps and counts at the voice server would blame the bot for the fake's own backlog.
import { readFileSync } from 'node:fs';

/** RcvbufErrors from /proc/net/snmp; undefined where it cannot be read. */
export function udpReceiveBufferErrors(): number | undefined {
  try {
    const lines = readFileSync('/proc/net/snmp', 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('Udp:'));
    const names = lines[0]?.split(/\s+/) ?? [];
    const values = lines[1]?.split(/\s+/) ?? [];
    const index = names.indexOf('RcvbufErrors');
    const value = index > 0 ? Number(values[index]) : Number.NaN;
    return Number.isFinite(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
