// How evenly a listener heard a reply: the longest time between two of its packets arriving.
import type { HeardPacket } from '@saybot/local-discord/types.ts';

/** The most a listener's packets may be spaced: a 20 ms period, with room for a busy machine's scheduling. */
export const MAX_GAP_MS = 60;

/** The longest time between two packets arriving, from the first sound to the last packet of the reply. */
export function maxGapMs(packets: readonly HeardPacket[]): number {
  const first = packets.findIndex((p) => !p.silence);
  let worst = 0;
  for (let i = Math.max(1, first + 1); i < packets.length; i++)
    worst = Math.max(worst, (packets[i]?.receivedAtMs ?? 0) - (packets[i - 1]?.receivedAtMs ?? 0));
  return worst;
}
