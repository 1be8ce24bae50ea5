// The streaming path to Discord: the audio body as it arrives -> Opus packets (20 ms, 48 kHz, the channels of the
// source or stereo: codecs/opus-settings.ts), one Buffer per packet, in an object-mode Readable that the voice output
// plays. WAV and MP3 are decoded, resampled and encoded in worker threads (workers/transcode/), or with decode 'main'
// on this thread and encoded apart (the benchmark's baseline).
import { addAbortSignal, Readable } from 'node:stream';
import type { Duplex } from 'node:stream';
import { chain } from './chain.ts';
import { DecodeTo48kStream } from './codecs/decode-stream.ts';
import { UnsupportedAudioError } from './errors.ts';
import type { AudioFormat } from './codecs/format.ts';
import { Mp3StreamDecoder } from './codecs/mp3-stream.ts';
import { OggOpusPacketStream } from './codecs/ogg-opus-stream.ts';
import { createOpusEncoder } from './codecs/opus-encode.ts';
import { encoderSpec, OPUS_ENCODER_SETTINGS, type OpusSettings } from './codecs/opus-settings.ts';
import { sharedTranscodePool } from './workers/transcode/transcode-pool.ts';
import { WavStreamDecoder } from './codecs/wav-stream.ts';

export { UnsupportedAudioError } from './errors.ts';

export interface OpusPacketStreamOptions {
  /** Aborting destroys the stream (and the source) with the signal's AbortError. */
  signal?: AbortSignal | undefined;
  /**
   * How it is encoded (default OPUS_ENCODER_SETTINGS): the app's, given once at start-up (src/app/start-saybot.ts
   * VoicePlaneOptions).
   */
  encoding?: Readonly<OpusSettings> | undefined;
}

/**
 * WAV and MP3 are decoded, resampled and encoded here; Ogg/Opus is passed through. FLAC, M4A and Ogg with
 * another codec end the stream with an UnsupportedAudioError. Any failure (source error, bad data, abort) ends
 * the stream with that error and destroys the source; destroying the returned stream destroys the source too.
 */
export function createOpusPacketStream(
  source: Readable,
  format: AudioFormat,
  options: OpusPacketStreamOptions = {},
): Readable {
  let stages: Duplex[];
  const settings = options.encoding ?? OPUS_ENCODER_SETTINGS;
  const encode = (decode: DecodeTo48kStream): Duplex[] => [decode, createOpusEncoder(() => decode.channels, settings)];
  const choose = (source: 1 | 2): 1 | 2 => encoderSpec(settings, source).channels;
  if ((format === 'wav' || format === 'mp3') && settings.thread === 'workers' && settings.decode === 'workers') {
    const { complexity, bitrate, celtOnly, channels } = settings;
    const transcode = sharedTranscodePool(settings.workers).stream({
      format,
      encoder: { complexity, bitrate, celtOnly, channels },
    });
    const output = chain(source, [transcode]);
    if (options.signal) addAbortSignal(options.signal, output);
    return output;
  }
  switch (format) {
    case 'wav':
      stages = encode(new DecodeTo48kStream(new WavStreamDecoder(), choose));
      break;
    case 'mp3':
      stages = encode(new DecodeTo48kStream(new Mp3StreamDecoder(), choose));
      break;
    case 'ogg':
      stages = [new OggOpusPacketStream()];
      break;
    case 'flac':
      return failed(source, new UnsupportedAudioError('flac', 'FLAC'));
    case 'm4a':
      return failed(source, new UnsupportedAudioError('m4a', 'M4A/AAC'));
    default:
      return failed(source, new UnsupportedAudioError(undefined, String(format)));
  }
  const output = chain(source, stages);
  if (options.signal) addAbortSignal(options.signal, output);
  return output;
}

function failed(source: Readable, error: Error): Readable {
  source.destroy();
  const output = new Readable({ objectMode: true, read() {} });
  output.destroy(error);
  return output;
}
