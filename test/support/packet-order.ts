// Whether a listener got a reply's packets as SayBot sent them while another server's heavy work ran: in order and
// none missing, but for datagrams the kernel itself dropped from a full receive buffer (the local Discord runs in
// the test's process, so on a busy machine it may read late). What a test asserts instead of the gaps between
// packets, which measure the machine; the gaps are npm run bench's (bench/long-jobs.ts).
import type { HeardPacket } from '@saybot/local-discord/types.ts';
import { udpReceiveBufferErrors } from '../../fixtures/udp-drops.ts';

export interface PacketOrder {
  /** Packets of the reply (from its first sound to its last) whose sequence number is not after the one before. */
  outOfOrder: number;
  /** Packets missing from the reply's sequence that the kernel's dropped datagrams do not account for. */
  missing: number;
}

/** Counts the kernel's dropped datagrams from now on; `order` then judges the packets heard meanwhile. */
export function watchPacketOrder(): { order: (packets: readonly HeardPacket[]) => PacketOrder } {
  const dropsBefore = udpReceiveBufferErrors();
  return {
    order(packets) {
      const dropsAfter = udpReceiveBufferErrors();
      const dropped = dropsBefore === undefined || dropsAfter === undefined ? 0 : dropsAfter - dropsBefore;
      const first = packets.findIndex((p) => !p.silence);
      const last = packets.findLastIndex((p) => !p.silence);
      const audio = first < 0 ? [] : packets.slice(first, last + 1);
      let outOfOrder = 0;
      let missing = 0;
      for (let i = 1; i < audio.length; i++) {
        const step = ((audio[i]?.sequence ?? 0) - (audio[i - 1]?.sequence ?? 0) + 65536) % 65536;
        if (step === 0 || step > 32768) outOfOrder += 1;
        else missing += step - 1;
      }
      return { outOfOrder, missing: Math.max(0, missing - dropped) };
    },
  };
}
