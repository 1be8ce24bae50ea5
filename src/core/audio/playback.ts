// The streaming path to Discord: the audio body as it arrives -> Opus packets (20 ms, 48 kHz, the channels of the
// source or stereo: codecs/opus-settings.ts), one Buffer per packet, in an object-mode Readable that the voice output
// plays. WAV and MP3 are decoded, resampled and encoded in worker threads (jobs/transcode/), or with decode 'main'
// on this thread and encoded apart (the benchmark's baseline).
import { addAbortSignal, finished, Readable } from 'node:stream';
import type { Duplex } from 'node:stream';
import { DecodeTo48kStream } from './codecs/decode-stream.ts';
import { UnsupportedAudioError } from './errors.ts';
import type { AudioFormat } from './codecs/format.ts';
import { Mp3StreamDecoder } from './codecs/mp3-stream.ts';
import { OggOpusPacketStream } from './codecs/ogg-opus-stream.ts';
import { createOpusEncoder } from './codecs/opus-encode.ts';
import { encoderSpec, OPUS_ENCODER_SETTINGS, type OpusSettings } from './codecs/opus-settings.ts';
import { sharedTranscodePool } from './jobs/transcode/transcode-pool.ts';
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

/**
 * Connects source -> stages like stream.pipeline (any failure or early destroy tears every stream down, the output
 * ending with the error), but removes every listener it added once each stream is done: pipeline leaves its
 * listeners on the finished streams, which would keep the whole decoder chain reachable from an HTTP body that
 * someone still holds.
 */
function chain(source: Readable, stages: readonly Duplex[]): Readable {
  const streams: Array<Readable | Duplex> = [source, ...stages];
  const output = streams[streams.length - 1] ?? source;
  let failed = false;
  const fail = (error: Error): void => {
    if (failed) return;
    failed = true;
    // Only the output reports the error (to whoever plays it); the others just stop and release what they hold.
    for (const stream of streams) {
      if (stream === output) stream.destroy(error);
      else stream.destroy();
    }
  };
  for (const stream of streams) {
    const cleanup = finished(stream, (error) => {
      cleanup();
      if (error) fail(error);
      // Without our error listener, a stream that could still emit 'error' (a source with autoDestroy off)
      // would crash the process; a destroyed one cannot.
      else if (!stream.destroyed) stream.destroy();
    });
  }
  for (let i = 0; i + 1 < streams.length; i++) streams[i]?.pipe(streams[i + 1] as Duplex);
  return output;
}
