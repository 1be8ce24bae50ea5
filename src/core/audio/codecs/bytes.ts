// Small readers over Uint8Array; the parsers work on raw bytes, not Buffers, so any Uint8Array is accepted.

export function ascii(bytes: Uint8Array, offset: number, length: number): string {
  let s = '';
  const end = Math.min(bytes.length, offset + length);
  for (let i = offset; i < end; i++) s += String.fromCharCode(bytes[i] ?? 0);
  return s;
}

export function u8(bytes: Uint8Array, offset: number): number {
  return bytes[offset] ?? 0;
}

export function u16le(bytes: Uint8Array, offset: number): number {
  return u8(bytes, offset) | (u8(bytes, offset + 1) << 8);
}

export function u32le(bytes: Uint8Array, offset: number): number {
  return (u16le(bytes, offset) + u16le(bytes, offset + 2) * 0x10000) >>> 0;
}

export function u16be(bytes: Uint8Array, offset: number): number {
  return (u8(bytes, offset) << 8) | u8(bytes, offset + 1);
}

export function u32be(bytes: Uint8Array, offset: number): number {
  return (u16be(bytes, offset) * 0x10000 + u16be(bytes, offset + 2)) >>> 0;
}

/** 64-bit big-endian as a Number; exact below 2^53, which every real size and duration is. */
export function u64be(bytes: Uint8Array, offset: number): number {
  return u32be(bytes, offset) * 0x1_0000_0000 + u32be(bytes, offset + 4);
}

export function u64le(bytes: Uint8Array, offset: number): number {
  return u32le(bytes, offset + 4) * 0x1_0000_0000 + u32le(bytes, offset);
}

export function startsWith(bytes: Uint8Array, offset: number, text: string): boolean {
  if (offset + text.length > bytes.length) return false;
  for (let i = 0; i < text.length; i++) {
    if (bytes[offset + i] !== text.charCodeAt(i)) return false;
  }
  return true;
}
