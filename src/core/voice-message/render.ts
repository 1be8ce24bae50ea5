// A Discord voice message from the Opus packets of a reply's parts: one Ogg Opus file (48 kHz, mono), its true
// duration and its waveform. The packets are the ones the player plays and the cache keeps, written as they are:
// a cached reply is never decoded, resampled or encoded again to become a voice message.
//
// Mono without re-encoding: OpusHead says one channel whatever each packet's TOC says. In channel mapping family 0
// the head's count is the OUTPUT channel count (RFC 7845 §5.1.1.2); a decoder opened for one channel downmixes a
// stereo-coded packet (RFC 6716 §4: a mono decoder may decode a stereo stream), so the player's mono packets (a mono
// source, encoded in the same worker pool with the same settings: src/core/audio/codecs/opus-settings.ts) and stereo
// ones (a stereo source, or audio cached before the player went mono) both play as the same mono audio.
import { setImmediate as nextTurn } from 'node:timers/promises';
import opus from '@discordjs/opus';
import { type AudioJobOwner, writeOggOffThread } from '../audio/jobs/audio-thread/audio-thread.ts';
import { OPUS_RATE } from '../audio/codecs/opus-encode.ts';
import { PacketMeter } from '../audio/voice-message/packet-meter.ts';
import type { VoiceMessage } from '../audio/voice-message/voice-message-types.ts';

export type { VoiceMessage } from '../audio/voice-message/voice-message-types.ts';
export { VoiceMessageError, type VoiceMessageErrorCode } from '../audio/voice-message/voice-message-error.ts';

/** One part's packets, in order: a packet stream (object-mode Readable), an async generator or an array. */
export type PacketSource = AsyncIterable<Uint8Array> | Iterable<Uint8Array>;

export interface RenderOptions {
  /**
   * Samples the decoder drops at the start (OpusHead pre-skip). Default: the lookahead of the encoder that makes
   * the player's packets (312). Parts after the first keep their own encoder's warm-up (6.5 ms, near silence):
   * Ogg Opus can trim only at the start and the end of a stream.
   */
  preSkip?: number;
  /** Stops between packets with the signal's reason. */
  signal?: AbortSignal;
  /** Whose the file's writing is in the audio worker: its server's share and, for a long message, its member's. */
  owner?: AudioJobOwner;
}

/**
 * Packets decoded between two turns of the event loop: about 1.5 ms of work (one second of audio). Packets already
 * in memory (a cache hit) would otherwise be decoded in one go, ~100 ms per minute of audio, long enough for every
 * guild's 20 ms voice send cycle to miss its slots. A file made a voice message is measured in the audio worker
 * instead (audio-thread.ts voiceMessageOffThread): none of its packets is decoded here.
 */
const PACKETS_PER_TURN = 50;

/**
 * On the main thread: collects packets part after part and measures them (src/core/audio/voice-message/packet-meter.ts,
 * with the native decoder),
 * then has the audio worker write the file (its pages and CRCs, work the size of the file), the packets moved there
 * in blocks, not copied.
 */
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

  /**
   * The file, its duration and its waveform. Rejects with VoiceMessageError('no-audio') when nothing is audible
   * time, and with the audio worker's errors (AudioBusyError when it cannot run now). Once only: the packets move.
   */
  async finish(owner: AudioJobOwner = {}): Promise<VoiceMessage> {
    const { packets, options, durationSecs, waveform } = this.#meter.done();
    const ogg = await writeOggOffThread(packets, options, owner);
    return { ogg, durationSecs, waveform };
  }
}

/**
 * The voice message of a reply: every part's packets in order, joined into one Ogg. A part is read to its end
 * before the next is started, so a caller may hand in parts whose audio is still being fetched.
 */
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
