// The streaming path to Discord: the audio body as it arrives -> 20 ms 48 kHz Opus packets (codecs/opus-settings.ts)
// in an object-mode Readable, transcoded in worker threads (jobs/transcode/) or, decode 'main', on this thread.
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
  /** How it is encoded (default OPUS_ENCODER_SETTINGS; the app's, src/app/start-saybot.ts). */
  encoding?: Readonly<OpusSettings> | undefined;
}

/**
 * WAV and MP3 are transcoded, Ogg/Opus passed through; FLAC, M4A and other Ogg end with UnsupportedAudioError. Any
 * failure ends the stream with its error and destroys the source, as does destroying the returned stream.
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

/** Connects source -> stages like stream.pipeline, removing its listeners after (pipeline's keep the chain alive). */
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
      // Without our error listener a stream that could still emit 'error' would crash the process.
      else if (!stream.destroyed) stream.destroy();
    });
  }
  for (let i = 0; i + 1 < streams.length; i++) streams[i]?.pipe(streams[i + 1] as Duplex);
  return output;
}
