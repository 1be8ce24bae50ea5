// Types the area modules share (a leaf module, so that no area's types import types.ts and back).
export type OutputFormat = 'wav' | 'mp3';

/**
 * How a text is spoken: the settings a command, a preset or a member default may fix; each one left out falls
 * through to the next layer (src/core/speech/settings.ts). Speed and volume among them: SayBot applies those two to the
 * audio itself (never sent to the service, so never paid for), yet every layer resolves them in the same order.
 */
export interface SpeechSettings {
  voice?: string;
  language?: string;
  tone?: string;
  exaggeration?: number;
  format?: OutputFormat;
  /** 0.5..2 times as fast, pitch kept: applied by SayBot to the audio, never sent to (nor paid at) the service. */
  speed?: number;
  /** Gain in dB, -20..+6: applied by SayBot to the audio. */
  volume?: number;
}

export interface ListOptions {
  /** Keep only names (or voice IDs) containing this text, ignoring case. */
  contains?: string;
  /** Most rows returned; default: all. */
  limit?: number;
}
