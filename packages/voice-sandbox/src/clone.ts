import { randomBytes } from 'node:crypto';
import { ClipProblem, readClip } from './clip.ts';
import { pitchHz } from './pitch.ts';
import { badRequest } from './requests.ts';

export const MIN_REFERENCE_SECONDS = 3;
export const MAX_REFERENCE_SECONDS = 60;
const ACCEPTED_FORMATS: ReadonlySet<string> = new Set(['wav', 'mp3', 'm4a']);

// Pitches a clone may speak at: the detector's result is kept within what every output sample rate carries.
const MIN_CLONE_HZ = 60;
const MAX_CLONE_HZ = 2000;

/**
 * A stand-in pitch for a clip whose pitch cannot be measured here: M4A (no AAC decoder, so no samples) or a
 * clip without a clear tone (silence). FNV-1a of the bytes mapped onto 150..649.5 Hz in 0.5 Hz steps: the same
 * clip always gives the same voice, different clips almost always different ones.
 */
export function pitchFromBytes(bytes: Uint8Array): number {
  let hash = 0x811c9dc5;
  for (const byte of bytes) hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
  return 150 + (hash % 1000) / 2;
}

/**
 * Checks a reference clip by its bytes (format, 3 s to 60 s) and returns the pitch the cloned voice speaks at:
 * the clip's dominant pitch where it can be measured.
 */
export async function referencePitchHz(bytes: Uint8Array): Promise<number> {
  let info;
  try {
    info = await readClip(bytes, MAX_REFERENCE_SECONDS);
  } catch (error) {
    if (!(error instanceof ClipProblem)) throw error;
    if (error.kind === 'unsupported') {
      throw badRequest('unsupported_reference_format', 'ref_audio must be WAV, MP3 or M4A');
    }
    throw badRequest('invalid_reference_audio', `ref_audio could not be read (${error.message})`);
  }
  if (!ACCEPTED_FORMATS.has(info.format)) {
    throw badRequest(
      'unsupported_reference_format',
      `ref_audio must be WAV, MP3 or M4A, not ${info.format.toUpperCase()}`,
    );
  }
  const seconds = info.durationSeconds.toFixed(2);
  if (info.durationSeconds < MIN_REFERENCE_SECONDS) {
    throw badRequest(
      'reference_too_short',
      `ref_audio lasts ${seconds} s; it must last at least ${MIN_REFERENCE_SECONDS} s`,
    );
  }
  if (info.durationSeconds > MAX_REFERENCE_SECONDS) {
    throw badRequest(
      'reference_too_long',
      `ref_audio lasts ${seconds} s; it must last at most ${MAX_REFERENCE_SECONDS} s`,
    );
  }
  const measured = info.samples && info.sampleRate ? pitchHz(info.samples, info.sampleRate) : undefined;
  if (measured === undefined) return pitchFromBytes(bytes);
  return Math.min(MAX_CLONE_HZ, Math.max(MIN_CLONE_HZ, measured));
}

interface ClonedVoice {
  pitchHz: number;
  owner: string;
}

/** Cloned voices: opaque IDs, each usable only with the key that created it. */
export class CloneRegistry {
  readonly #voices = new Map<string, ClonedVoice>();

  add(pitchHz: number, owner: string): string {
    const id = `clone_${randomBytes(12).toString('hex')}`;
    this.#voices.set(id, { pitchHz, owner });
    return id;
  }

  pitchHz(id: string, owner?: string): number | undefined {
    const voice = this.#voices.get(id);
    return voice && (owner === undefined || voice.owner === owner) ? voice.pitchHz : undefined;
  }
}
