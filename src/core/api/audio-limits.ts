// How much audio a request's text can take: a body past it is not speech of that text (a service fault, a proxy
// replaying or never ending), and is cut before it takes the process's memory. The bound is in seconds of audio,
// turned into bytes with the format's byte rate read from the first bytes, and a hard byte cap above it.
import type { AudioFormat } from '../audio/codecs/format.ts';
import { parseWavHeader } from '../audio/codecs/wav.ts';
import { countCharacters } from '../characters.ts';

export interface AudioLimits {
  /**
   * Seconds of audio one character may take at most. Speech runs at about 0.07 s a character (English) to 0.15 s
   * (a Hangul syllable, a kana); the default allows several times that (slow voices, pauses, long tones).
   */
  secondsPerCharacter: number;
  /** Seconds allowed whatever the text's length: a word or two may come with silence around it. */
  minSeconds: number;
  /** Bytes one audio body may have at most, whatever its text and format. */
  maxBytes: number;
}

export const DEFAULT_AUDIO_LIMITS: Readonly<AudioLimits> = Object.freeze({
  secondsPerCharacter: 1,
  minSeconds: 30,
  maxBytes: 64 * 1024 * 1024,
});

/** 48 kHz stereo 32-bit PCM: no WAV, FLAC, Ogg or M4A of speech takes more bytes a second. */
const WORST_PCM_BYTES_PER_SECOND = 48_000 * 2 * 4;
/** MPEG audio's highest bitrate (320 kb/s). */
const MP3_BYTES_PER_SECOND = 320_000 / 8;
/** Headers, tags and chunks besides the audio (an ID3 tag with a picture, a LIST chunk). */
const HEADER_ALLOWANCE_BYTES = 256 * 1024;

/** The most bytes a second of this audio can take, from its header where it says (WAV), else the format's worst. */
function bytesPerSecond(format: AudioFormat, head: Uint8Array): number {
  if (format === 'mp3') return MP3_BYTES_PER_SECOND;
  if (format === 'wav') {
    try {
      const parsed = parseWavHeader(head);
      if ('header' in parsed) {
        const { sampleRate, blockAlign } = parsed.header.format;
        if (sampleRate > 0 && blockAlign > 0) return sampleRate * blockAlign;
      }
    } catch {
      // A header the decoder will refuse anyway: the worst rate bounds it meanwhile.
    }
  }
  return WORST_PCM_BYTES_PER_SECOND;
}

export interface AudioBound {
  maxBytes: number;
  /** The seconds `text` may take (what a member is told about and the log shows). */
  maxSeconds: number;
}

/** The most bytes an audio body for `text` may have, in `format` as its first bytes show. */
export function audioBound(limits: AudioLimits, text: string, format: AudioFormat, head: Uint8Array): AudioBound {
  const maxSeconds = Math.max(limits.minSeconds, countCharacters(text) * limits.secondsPerCharacter);
  const bySeconds = Math.ceil(maxSeconds * bytesPerSecond(format, head)) + HEADER_ALLOWANCE_BYTES;
  return { maxBytes: Math.min(limits.maxBytes, bySeconds), maxSeconds };
}
