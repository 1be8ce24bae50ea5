// Incremental WAV decoding: the header may arrive in pieces, the data size may be unknown, and chunk
// boundaries fall anywhere, also inside a sample.
import type { PcmSink, StreamDecoder } from './decode-stream.ts';
import { ClipError } from '../errors.ts';
import { decodedChannels, decodePcm, parseWavHeader } from './wav.ts';
import type { PcmFormat } from './wav.ts';

export class WavStreamDecoder implements StreamDecoder {
  // Until the data chunk is found: the bytes so far, concatenated only once enough have arrived.
  #pending: Uint8Array[] = [];
  #pendingBytes = 0;
  #needBytes = 12;
  #format: PcmFormat | undefined;
  #remaining = Infinity; // data bytes still to come (Infinity: until the end of the stream)
  #carry = new Uint8Array(0); // the start of a sample frame split across chunks
  #carryLength = 0;
  #planes: Float32Array[] = [];

  write(chunk: Uint8Array, sink: PcmSink): void {
    if (this.#format) {
      this.#data(chunk, sink);
      return;
    }
    this.#pending.push(chunk);
    this.#pendingBytes += chunk.length;
    if (this.#pendingBytes < this.#needBytes) return;
    const head = this.#pending.length === 1 ? chunk : Buffer.concat(this.#pending, this.#pendingBytes);
    this.#pending = [head];
    const parsed = parseWavHeader(head);
    if ('needBytes' in parsed) {
      this.#needBytes = parsed.needBytes;
      return;
    }
    const { format, dataOffset, dataBytes } = parsed.header;
    this.#format = format;
    this.#remaining = dataBytes ?? Infinity;
    this.#carry = new Uint8Array(format.blockAlign);
    this.#pending = [];
    if (dataOffset < head.length) this.#data(head.subarray(dataOffset), sink);
  }

  end(): void {
    if (!this.#format) throw new ClipError('corrupt', 'the WAV stream ended before its data chunk');
    // A partial sample frame left in #carry is dropped: half a sample is not audio.
  }

  free(): void {
    this.#pending = [];
    this.#planes = [];
  }

  #data(chunk: Uint8Array, sink: PcmSink): void {
    const format = this.#format;
    if (!format || this.#remaining <= 0) return; // bytes after the data chunk (trailing LIST etc.) are not audio
    const bytes = chunk.length > this.#remaining ? chunk.subarray(0, this.#remaining) : chunk;
    this.#remaining -= bytes.length;
    const block = format.blockAlign;
    let offset = 0;
    let framesFromCarry = 0;
    if (this.#carryLength > 0) {
      const take = Math.min(block - this.#carryLength, bytes.length);
      this.#carry.set(bytes.subarray(0, take), this.#carryLength);
      this.#carryLength += take;
      offset = take;
      if (this.#carryLength < block) return;
      framesFromCarry = 1;
    }
    const frames = Math.floor((bytes.length - offset) / block);
    const planes = this.#planesFor(format, framesFromCarry + frames);
    if (framesFromCarry) decodePcm(this.#carry, 0, 1, format, planes, 0);
    decodePcm(bytes, offset, frames, format, planes, framesFromCarry);
    const used = offset + frames * block;
    this.#carryLength = bytes.length - used;
    if (this.#carryLength > 0) this.#carry.set(bytes.subarray(used), 0);
    if (framesFromCarry + frames > 0) sink(planes, framesFromCarry + frames, format.sampleRate);
  }

  #planesFor(format: PcmFormat, frames: number): Float32Array[] {
    const count = decodedChannels(format);
    const first = this.#planes[0];
    if (this.#planes.length !== count || !first || first.length < frames) {
      const size = Math.max(frames, 4096);
      this.#planes = Array.from({ length: count }, () => new Float32Array(size));
    }
    return this.#planes;
  }
}
