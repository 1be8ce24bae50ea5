// SayBot's speed, pitch and volume (src/core/settings/setting-declarations.ts: 0.5..2 times as fast, -12..+12
// semitones, -20..+6 dB) mapped onto each engine's own controls, so that the engine renders them (better than an
// effect on its audio); what an engine has no control for, SayBot applies to the audio itself (src/core/audio/effects/).
//
// VOICEVOX's audio query (its engine's tts_pipeline):
// - `speedScale` is a factor on the phoneme lengths: SayBot's speed as it is (1 = as the voice speaks).
// - `volumeScale` multiplies the samples: 10^(dB/20) (-20 dB = 0.1, +6 dB = 2.0, the ends of its editor's 0..2).
// - `pitchScale` multiplies each mora's pitch, which is the natural log of its F0 in Hz, by 2^pitchScale. A shift of
//   n semitones multiplies F0 by 2^(n/12), that is adds n·ln2/12 to its log: at a typical speaking F0 of about 245 Hz
//   (log 5.5) that is 2^pitchScale = 1 + n·ln2/(12·5.5), so ±12 semitones are about +0.17 and -0.19 (its editor's
//   range, ±0.15, is about ±10 semitones). Exact at 245 Hz, within a semitone for any speaking voice between 100 and
//   500 Hz.
// An OpenAI-compatible speech server has `speed` (0.25..4) alone: SayBot's speed as it is; pitch and volume are
// SayBot's to apply.
import type { AppliedControls, EngineControls } from './engine-types.ts';

/** log(F0) of a typical speaking voice, the mean VOICEVOX's pitches sit around. */
const TYPICAL_LOG_F0 = 5.5;

/** VOICEVOX's query fields for SayBot's controls: only those set (a field left out keeps the query's own). */
export function voicevoxScales(controls: EngineControls): {
  speedScale?: number;
  pitchScale?: number;
  volumeScale?: number;
} {
  const scales: { speedScale?: number; pitchScale?: number; volumeScale?: number } = {};
  if (controls.speed !== undefined && controls.speed !== 1) scales.speedScale = round(controls.speed);
  if (controls.pitch !== undefined && controls.pitch !== 0)
    scales.pitchScale = round(Math.log2(1 + (controls.pitch * Math.LN2) / (12 * TYPICAL_LOG_F0)));
  if (controls.volumeDb !== undefined && controls.volumeDb !== 0)
    scales.volumeScale = round(10 ** (controls.volumeDb / 20));
  return scales;
}

/** VOICEVOX renders all three. */
export const VOICEVOX_APPLIES: Readonly<AppliedControls> = Object.freeze({ speed: true, pitch: true, volume: true });

/** A speech server renders the speed; SayBot applies pitch and volume. */
export const SPEECH_SERVER_APPLIES: Readonly<AppliedControls> = Object.freeze({
  speed: true,
  pitch: false,
  volume: false,
});

/** The speech server's `speed` (1 when SayBot's is unset). */
export function speechServerSpeed(controls: EngineControls): number {
  return round(controls.speed ?? 1);
}

const round = (value: number): number => Math.round(value * 10_000) / 10_000;
