// The TLS presentation language as MLS (RFC 9420 §2.1) uses it: big-endian integers and vectors whose length
// prefix is the MLS variable-size header (1, 2 or 4 bytes, the top two bits of the first byte give the size).

export class TlsReader {
  offset = 0;
  readonly bytes: Uint8Array;

  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
  }

  get remaining(): number {
    return this.bytes.length - this.offset;
  }

  private take(n: number): Uint8Array {
    if (n < 0 || this.offset + n > this.bytes.length)
      throw new Error(`MLS: truncated at byte ${this.offset} (wanted ${n})`);
    const out = this.bytes.subarray(this.offset, this.offset + n);
    this.offset += n;
    return out;
  }

  u8(): number {
    return this.take(1)[0] ?? 0;
  }

  u16(): number {
    const b = this.take(2);
    return ((b[0] ?? 0) << 8) | (b[1] ?? 0);
  }

  u32(): number {
    const b = this.take(4);
    return new DataView(b.buffer, b.byteOffset, 4).getUint32(0);
  }

  u64(): bigint {
    const b = this.take(8);
    return new DataView(b.buffer, b.byteOffset, 8).getBigUint64(0);
  }

  varint(): number {
    const first = this.u8();
    const size = 1 << (first >> 6);
    if (size === 8) throw new Error('MLS: invalid variable-size length header');
    let value = first & 0x3f;
    for (let i = 1; i < size; i++) value = value * 256 + this.u8();
    return value;
  }

  /** opaque x<V> */
  vector(): Uint8Array {
    return this.take(this.varint());
  }

  /** Raw bytes [start, current) of what was just read. */
  since(start: number): Uint8Array {
    return this.bytes.subarray(start, this.offset);
  }

  bytesN(n: number): Uint8Array {
    return this.take(n);
  }
}

export class TlsWriter {
  private readonly parts: Uint8Array[] = [];

  u8(v: number): this {
    this.parts.push(Uint8Array.of(v & 0xff));
    return this;
  }

  u16(v: number): this {
    this.parts.push(Uint8Array.of((v >> 8) & 0xff, v & 0xff));
    return this;
  }

  u32(v: number): this {
    const b = new Uint8Array(4);
    new DataView(b.buffer).setUint32(0, v);
    this.parts.push(b);
    return this;
  }

  u64(v: bigint): this {
    const b = new Uint8Array(8);
    new DataView(b.buffer).setBigUint64(0, v);
    this.parts.push(b);
    return this;
  }

  raw(bytes: Uint8Array): this {
    this.parts.push(bytes);
    return this;
  }

  /** opaque x<V> */
  vector(bytes: Uint8Array): this {
    this.parts.push(varintBytes(bytes.length), bytes);
    return this;
  }

  finish(): Buffer {
    return Buffer.concat(this.parts);
  }
}

export function varintBytes(n: number): Uint8Array {
  if (n < 0x40) return Uint8Array.of(n);
  if (n < 0x4000) return Uint8Array.of(0x40 | (n >> 8), n & 0xff);
  if (n < 0x40000000) return Uint8Array.of(0x80 | (n >>> 24), (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff);
  throw new Error('MLS: vector too long');
}
