// A Discord voice message from a reply's Opus packets: one Ogg Opus file (48 kHz, mono), its duration and waveform,
// written from the packets the player plays and the cache keeps, never re-encoded. OpusHead says one channel: in
// mapping family 0 that is the output count (RFC 7845 §5.1.1.2), so a stereo-coded packet is downmixed (RFC 6716 §4)
// and mono and stereo packets (src/core/audio/codecs/opus-settings.ts) play alike.
import { setImmediate as nextTurn } from 'node:timers/promises';
import opus from '@discordjs/opus';
import { type AudioJobOwner, writeOggOffThread } from '../audio/jobs/audio-thread/audio-thread.ts';
import { OPUS_RATE } from '../audio/codecs/opus-encode.ts';
import { PacketMeter } from '../audio/voice-message/packet-meter.ts';
import type { VoiceMessage } from '../audio/voice-message/voice-message-types.ts';

export type { VoiceMessage } from '../audio/voice-message/voice-message-types.ts';
export { VoiceMessageError, type VoiceMessageErrorCode } from '../audio/errors.ts';

/** One part's packets, in order: a packet stream (object-mode Readable), an async generator or an array. */
type PacketSource = AsyncIterable<Uint8Array> | Iterable<Uint8Array>;

interface RenderOptions {
  /** OpusHead pre-skip (default 312, the player's lookahead); later parts keep their near-silent warm-up. */
  preSkip?: number;
  /** Stops between packets with the signal's reason. */
  signal?: AbortSignal;
  /** Whose the file's writing is in the audio worker: its server's share and, for a long message, its member's. */
  owner?: AudioJobOwner;
}

/** Packets decoded per event-loop turn (~1.5 ms): a cache hit at once would make every voice miss slots. */
const PACKETS_PER_TURN = 50;

/** Measures packets part after part here (packet-meter.ts); the audio worker writes the file from moved blocks. */
export class VoiceMessageBuilder {
  readonly #meter: PacketMeter;

  constructor(options: { preSkip?: number | undefined } = {}) {
    this.#meter = new PacketMeter(new opus.OpusEncoder(OPUS_RATE, 1), options);
  }

  /** Samples of audio so far, after the pre-skip. */
  get samples(): number {
    return this.#meter.samples;
  }

  add(packet: Uint8Array): void {
    this.#meter.add(packet);
  }

  /** The file; VoiceMessageError('no-audio') when nothing is audible, else the audio worker's errors. Once only. */
  async finish(owner: AudioJobOwner = {}): Promise<VoiceMessage> {
    const { packets, options, durationSecs, waveform } = this.#meter.done();
    const ogg = await writeOggOffThread(packets, options, owner);
    return { ogg, durationSecs, waveform };
  }
}

/** A reply's voice message: each part read to its end before the next starts, so parts may still be fetching. */
export async function renderVoiceMessage(
  parts: Iterable<PacketSource> | AsyncIterable<PacketSource>,
  options: RenderOptions = {},
): Promise<VoiceMessage> {
  const builder = new VoiceMessageBuilder({ preSkip: options.preSkip });
  let count = 0;
  for await (const part of parts) {
    options.signal?.throwIfAborted();
    for await (const packet of part) {
      options.signal?.throwIfAborted();
      builder.add(packet);
      if (++count % PACKETS_PER_TURN === 0) await nextTurn();
    }
  }
  return builder.finish(options.owner);
}
