// Opus packets gathered on one thread for a file written on another: copied into blocks (u16 length + packet) that
// cross as a few transferred ArrayBuffers and are read there as views.

/** A block's size: a few hundred packets (a few seconds of audio); a block is never shared between threads. */
const BLOCK_BYTES = 64 * 1024;

/** The blocks, each with the bytes used in it: what is transferred. */
export interface PacketBlocks {
  blocks: ArrayBuffer[];
  used: number[];
}

/** Packets appended one at a time, each copy packet-sized (an Opus packet is at most 61,440 bytes: RFC 6716 §3.2.5). */
export class PacketFrames {
  readonly #blocks: ArrayBuffer[] = [];
  readonly #used: number[] = [];
  #block: Uint8Array | undefined;
  #at = 0;
  #count = 0;
  #bytes = 0;

  /** Packets appended. */
  get count(): number {
    return this.#count;
  }

  /** The packets' bytes, without their lengths. */
  get bytes(): number {
    return this.#bytes;
  }

  add(packet: Uint8Array): void {
    if (packet.length > 0xffff) throw new RangeError(`an Opus packet of ${packet.length} bytes is over the limit`);
    const need = 2 + packet.length;
    if (this.#block === undefined || this.#at + need > this.#block.length) {
      this.#close();
      this.#block = new Uint8Array(new ArrayBuffer(Math.max(BLOCK_BYTES, need)));
      this.#at = 0;
    }
    const block = this.#block;
    block[this.#at] = packet.length & 0xff;
    block[this.#at + 1] = packet.length >> 8;
    block.set(packet, this.#at + 2);
    this.#at += need;
    this.#count++;
    this.#bytes += packet.length;
  }

  /** The blocks to transfer; this object is empty afterwards. */
  take(): PacketBlocks {
    this.#close();
    const taken = { blocks: this.#blocks.splice(0), used: this.#used.splice(0) };
    this.#count = 0;
    this.#bytes = 0;
    return taken;
  }

  #close(): void {
    if (this.#block === undefined) return;
    this.#blocks.push(this.#block.buffer as ArrayBuffer);
    this.#used.push(this.#at);
    this.#block = undefined;
  }
}

/** The packets of `blocks` in order, as views of them. */
export function packetViews({ blocks, used }: PacketBlocks): Uint8Array[] {
  const packets: Uint8Array[] = [];
  blocks.forEach((buffer, i) => {
    const block = new Uint8Array(buffer, 0, used[i] ?? 0);
    for (let at = 0; at + 2 <= block.length;) {
      const length = (block[at] ?? 0) | ((block[at + 1] ?? 0) << 8);
      packets.push(block.subarray(at + 2, at + 2 + length));
      at += 2 + length;
    }
  });
  return packets;
}
