// How the player's Opus packets are made: the encoder's settings and where it runs (the player's own,
// OPUS_ENCODER_SETTINGS, src/core/cache/audio-fill.ts; the benchmark switches them to compare behaviours in one run),
// and the native encoder they make.
import { createRequire } from 'node:module';
import type * as DiscordOpus from '@discordjs/opus';
import type OpusScriptType from 'opusscript';
import { nativeCall } from '../workers/native-calls.ts';

export interface OpusSettings {
  /** 'source': as many channels as the audio (TTS is mono: half the work; mono plays on both sides). 'stereo': two. */
  channels: 'source' | 'stereo';
  /** libopus complexity 0..10 (its default is 10). */
  complexity: number;
  /** Bits per second, or 'auto' (libopus: about 96 kb/s stereo, 48 kb/s mono at 20 ms). */
  bitrate: number | 'auto';
  /** Force the CELT layer (no SILK/hybrid): see OPUS_ENCODER_SETTINGS (src/core/cache/audio-fill.ts). */
  celtOnly: boolean;
  /** 'workers': encoders live in a pool of worker threads; 'main': on the calling thread. */
  thread: 'workers' | 'main';
  /** Worker threads in the pool (when thread is 'workers'). */
  workers: number;
  /** Where WAV/MP3 are decoded: 'workers' (src/core/audio/jobs/transcode/; thread 'workers') or 'main' (baseline). */
  decode: 'workers' | 'main';
}

/** What an encoder needs to know; crosses to worker threads as is. */
export interface EncoderSpec extends Pick<OpusSettings, 'complexity' | 'bitrate' | 'celtOnly'> {
  channels: 1 | 2;
  /** Hz its source was sampled at: no band above half of it is coded, the same sound for an eighth less work at 24 kHz. */
  sourceRate?: number | undefined;
  /** 'wasm': opusscript even where the native addon loads, for a thread that may be ended mid-encode (the addon aborts). */
  backend?: 'wasm' | undefined;
}

export interface NativeEncoder {
  /** One 20 ms frame of s16le at 48 kHz with `channels` interleaved -> one Opus packet. */
  encode(frame: Buffer): Buffer;
}

// libopus request numbers (opus_defines.h; FORCE_MODE and MODE_CELT_ONLY from opus_private.h, stable since 1.0).
const OPUS_SET_BITRATE = 4002;
const OPUS_SET_COMPLEXITY = 4010;
const OPUS_SET_MAX_BANDWIDTH = 4004;
/** OPUS_BANDWIDTH_NARROWBAND to _FULLBAND (1101-1105) by the highest frequency each codes (fullband: all there is). */
const BANDWIDTH_TOP_HZ = [4_000, 6_000, 8_000, 12_000, Infinity];
const OPUS_SET_FORCE_MODE = 11002;
const MODE_CELT_ONLY = 1002;

interface Backend {
  create(channels: 1 | 2): { encode(frame: Buffer): Buffer; ctl(request: number, value: number): void };
}

let backend: Backend | undefined;

/** @discordjs/opus (native), else opusscript (WASM), as prism-media chose before; opusscript when asked for. */
function loadBackend(wasm: boolean): Backend {
  if (wasm) return (wasmBackend ??= opusscriptBackend());
  if (backend) return backend;
  const require = createRequire(import.meta.url);
  try {
    const opus = require('@discordjs/opus') as typeof DiscordOpus;
    backend = {
      // Each call guarded: a pool's thread is told to retire rather than ended inside one (../workers/native-calls.ts).
      create(channels) {
        const encoder = nativeCall(() => new opus.OpusEncoder(48_000, channels));
        return {
          encode: (frame) => nativeCall(() => encoder.encode(frame)),
          ctl: (request, value) => nativeCall(() => encoder.applyEncoderCTL(request, value)),
        };
      },
    };
  } catch {
    backend = opusscriptBackend();
  }
  return backend;
}

let wasmBackend: Backend | undefined;

function opusscriptBackend(): Backend {
  const OpusScript = createRequire(import.meta.url)('opusscript') as typeof OpusScriptType;
  return {
    create(channels) {
      const encoder = new OpusScript(48_000, channels, OpusScript.Application.AUDIO);
      return {
        encode: (frame) => encoder.encode(frame, 960),
        ctl: (request, value) => encoder.encoderCTL(request, value),
      };
    },
  };
}

export function createNativeEncoder(spec: EncoderSpec): NativeEncoder {
  const encoder = loadBackend(spec.backend === 'wasm').create(spec.channels);
  encoder.ctl(OPUS_SET_COMPLEXITY, spec.complexity);
  if (spec.bitrate !== 'auto') encoder.ctl(OPUS_SET_BITRATE, spec.bitrate);
  const top = (spec.sourceRate ?? Infinity) / 2;
  encoder.ctl(OPUS_SET_MAX_BANDWIDTH, 1101 + BANDWIDTH_TOP_HZ.findIndex((hz) => hz >= top));
  if (spec.celtOnly) {
    try {
      encoder.ctl(OPUS_SET_FORCE_MODE, MODE_CELT_ONLY);
    } catch {
      // A libopus without the request: it still chooses CELT at this bitrate for most audio.
    }
  }
  return encoder;
}

export function encoderSpec(settings: Readonly<OpusSettings>, sourceChannels: 1 | 2, sourceRate?: number): EncoderSpec {
  return {
    channels: settings.channels === 'stereo' ? 2 : sourceChannels,
    sourceRate,
    complexity: settings.complexity,
    bitrate: settings.bitrate,
    celtOnly: settings.celtOnly,
  };
}
