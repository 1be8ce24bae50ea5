// Types the area modules share (a leaf module, so that no area's types import types.ts and back).
export type OutputFormat = 'wav' | 'mp3';

/** The speech settings a preset or a member default may fix; each one left out falls through to the next layer. */
export interface VoiceSettings {
  voice?: string;
  language?: string;
  tone?: string;
  exaggeration?: number;
  format?: OutputFormat;
}

export interface ListOptions {
  /** Keep only names (or voice IDs) containing this text, ignoring case. */
  contains?: string;
  /** Most rows returned; default: all. */
  limit?: number;
}
