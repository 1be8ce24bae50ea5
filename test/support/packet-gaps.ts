// How evenly a listener heard a reply: the longest time between two of its packets arriving.
import type { HeardPacket } from '@saybot/local-discord/types.ts';

/**
 * The most a listener's packets may be spaced while another server's heavy work runs: a 20 ms period with room for a
 * loaded 2-core machine's scheduling (quiet runs measure 25-40 ms; 62 ms was seen with four test runs side by side).
 * A guard against work moving back onto the main thread, which measured 112-700 ms; the figures themselves are the
 * benchmarks' (docs/benchmarks.md).
 */
export const MAX_GAP_MS = 100;

/** The longest time between two packets arriving, from the first sound to the last packet of the reply. */
export function maxGapMs(packets: readonly HeardPacket[]): number {
  const first = packets.findIndex((p) => !p.silence);
  let worst = 0;
  for (let i = Math.max(1, first + 1); i < packets.length; i++)
    worst = Math.max(worst, (packets[i]?.receivedAtMs ?? 0) - (packets[i - 1]?.receivedAtMs ?? 0));
  return worst;
}
