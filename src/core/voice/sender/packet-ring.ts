// One connection's packets from the main thread to the sender thread: a single-producer, single-consumer ring of fixed
// slots in shared memory, with no lock, no message per packet and no allocation per packet in the reader
// (docs/decisions.md). Two rare hand-shakes: a reader asleep is woken by one message (`idle`), and a writer facing a
// full ring waits with Atomics.waitAsync (`wantRoom`).

/** Bytes a slot holds: one Opus packet with its DAVE trailer (at most 1,275 bytes of Opus a 20 ms frame). */
export const SLOT_BYTES = 1_500;
/** Slots a connection's ring has by default: 2.56 s of 20 ms packets, room for the lead and its copies sealed again. */
export const RING_SLOTS = 128;
/** A slot's length that marks the end of its clip (no packet: closing silence follows the clip's last). */
export const END_OF_CLIP = -1;

const Control = {
  /** Slots the reader has freed (counts up, wrapping at 2^32; its slot is head & mask). */
  head: 0,
  /** Slots the writer has filled. */
  tail: 1,
  /** 1 while the writer waits for room: the reader notifies on `head` when it frees a slot. */
  wantRoom: 2,
  /** 1 while the reader sleeps with nothing to read: the writer wakes it (a message) after its next write. */
  idle: 3,
  length: 4,
} as const;

const Meta = { clip: 0, number: 1, generation: 2, bytes: 3, length: 4 } as const;

interface Layout {
  slots: number;
  control: Int32Array;
  meta: Int32Array;
  data: Buffer;
}

function layout(ring: SharedArrayBuffer): Layout {
  const control = new Int32Array(ring, 0, Control.length);
  const metaBytes = ring.byteLength - Control.length * 4;
  const slots = metaBytes / (Meta.length * 4 + SLOT_BYTES);
  if (!Number.isInteger(slots) || slots < 1 || (slots & (slots - 1)) !== 0)
    throw new RangeError('not a packet ring (createRing)');
  const meta = new Int32Array(ring, Control.length * 4, slots * Meta.length);
  const data = Buffer.from(ring, (Control.length + slots * Meta.length) * 4, slots * SLOT_BYTES);
  return { slots, control, meta, data };
}

/** A new ring of `slots` slots (a power of two), its reader asleep until the first write. */
export function createRing(slots = RING_SLOTS): SharedArrayBuffer {
  if (!Number.isInteger(slots) || slots < 1 || (slots & (slots - 1)) !== 0)
    throw new RangeError(`a ring's slots are a power of two, not ${slots}`);
  const ring = new SharedArrayBuffer((Control.length + slots * Meta.length) * 4 + slots * SLOT_BYTES);
  Atomics.store(new Int32Array(ring, 0, Control.length), Control.idle, 1);
  return ring;
}

/** The main thread's end: writes a connection's packets and end-of-clip marks in order. */
export class RingWriter {
  readonly #ring: Layout;
  readonly #mask: number;

  constructor(ring: SharedArrayBuffer) {
    this.#ring = layout(ring);
    this.#mask = this.#ring.slots - 1;
  }

  /** Slots free now. */
  get free(): number {
    const { control, slots } = this.#ring;
    return slots - ((Atomics.load(control, Control.tail) - Atomics.load(control, Control.head)) | 0);
  }

  /** Writes packet `number` of `clip` (or, with none, the clip's end); false when full. Past SLOT_BYTES: RangeError. */
  push(clip: number, number: number, generation: number, packet: Uint8Array | undefined): boolean {
    const { control, meta, data, slots } = this.#ring;
    const tail = Atomics.load(control, Control.tail);
    if (((tail - Atomics.load(control, Control.head)) | 0) >= slots) return false;
    if (packet && packet.length > SLOT_BYTES)
      throw new RangeError(`a voice packet of ${packet.length} bytes is over a slot's ${SLOT_BYTES}`);
    const slot = tail & this.#mask;
    const at = slot * Meta.length;
    meta[at + Meta.clip] = clip;
    meta[at + Meta.number] = number;
    meta[at + Meta.generation] = generation;
    meta[at + Meta.bytes] = packet ? packet.length : END_OF_CLIP;
    if (packet) data.set(packet, slot * SLOT_BYTES);
    // The slot's bytes before the tail that publishes them (sequentially consistent: the reader sees both or none).
    Atomics.store(control, Control.tail, (tail + 1) | 0);
    return true;
  }

  /** After a write: whether the reader was asleep and must be woken (it is counted woken from now). */
  wakeNeeded(): boolean {
    return Atomics.compareExchange(this.#ring.control, Control.idle, 1, 0) === 1;
  }

  /** Resolves once the reader freed a slot, or after `boundMs` (a held reader frees none). Only a full writer waits. */
  room(boundMs: number): Promise<unknown> {
    const { control } = this.#ring;
    Atomics.store(control, Control.wantRoom, 1);
    const head = Atomics.load(control, Control.head);
    // Freed between the full write and the flag: the reader may not have seen it.
    if (this.free > 0) {
      Atomics.store(control, Control.wantRoom, 0);
      return Promise.resolve();
    }
    const wait = Atomics.waitAsync(control, Control.head, head, boundMs);
    return wait.async ? wait.value : Promise.resolve();
  }
}

/** The sender thread's end: reads the slot at the head in place, then frees it. */
export class RingReader {
  readonly #ring: Layout;
  readonly #mask: number;
  #head: number;

  constructor(ring: SharedArrayBuffer) {
    this.#ring = layout(ring);
    this.#mask = this.#ring.slots - 1;
    this.#head = Atomics.load(this.#ring.control, Control.head);
  }

  get empty(): boolean {
    return Atomics.load(this.#ring.control, Control.tail) === this.#head;
  }

  #field(field: number): number {
    return this.#ring.meta[(this.#head & this.#mask) * Meta.length + field] as number;
  }

  /** The head slot's clip (valid while not empty). */
  get clip(): number {
    return this.#field(Meta.clip);
  }

  get number(): number {
    return this.#field(Meta.number);
  }

  get generation(): number {
    return this.#field(Meta.generation);
  }

  /** Its packet's length, or END_OF_CLIP. */
  get bytes(): number {
    return this.#field(Meta.bytes);
  }

  /** The head slot's packet in place, not copied: valid until advance() frees the slot for the writer. */
  take(): Uint8Array {
    const from = (this.#head & this.#mask) * SLOT_BYTES;
    return this.#ring.data.subarray(from, from + this.bytes);
  }

  /** Frees the head slot (a writer waiting for room is notified). */
  advance(): void {
    const { control } = this.#ring;
    this.#head = (this.#head + 1) | 0;
    Atomics.store(control, Control.head, this.#head);
    if (Atomics.load(control, Control.wantRoom) === 1 && Atomics.compareExchange(control, Control.wantRoom, 1, 0) === 1)
      Atomics.notify(control, Control.head);
  }

  /** Sleeps with nothing to read (true), or false when a packet came; flag before look on both sides. */
  sleep(): boolean {
    const { control } = this.#ring;
    Atomics.store(control, Control.idle, 1);
    if (this.empty) return true;
    Atomics.store(control, Control.idle, 0);
    return false;
  }
}
