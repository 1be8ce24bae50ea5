// Types the area modules share (a leaf of the store, so that no area's types import types.ts and back). The speech
// settings' type is declared with the settings themselves.
export type { FileFormat, SpeechSettings } from '../settings/setting-declarations.ts';

export interface ListOptions {
  /** Keep only names (or voice IDs) containing this text, ignoring case. */
  contains?: string;
  /** Most rows returned; default: all. */
  limit?: number;
}
