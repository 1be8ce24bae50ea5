// What a scene played in voice sounded like: the dominant pitch of each line's stretch of what the local Discord
// heard (the sandbox speaks each voice as a tone at its own pitch), and the pitch each line's voice should have.
import { dominantPitchHz } from '../../src/core/audio/analysis/analysis.ts';
import type { HeardAudio } from '@saybot/local-discord/types.ts';
import { monoOf, type Harness } from './harness.ts';

/**
 * Each `Name: text` line's pitch, the lines taken one after another from the start of `heard` (silence between lines
 * is not in what was heard), each stretch as long as the sandbox makes its text, its edges left out.
 */
export function linePitches(harness: Harness, heard: HeardAudio, lines: readonly string[]): number[] {
  const samples = monoOf(heard);
  let start = 0;
  return lines.map((line) => {
    const seconds = harness.sandbox.expectedDurationSeconds(line.slice(line.indexOf(':') + 2));
    const middle = samples.subarray(Math.round((start + 0.1) * 48_000), Math.round((start + seconds - 0.1) * 48_000));
    start += seconds;
    return dominantPitchHz(middle, 48_000) ?? 0;
  });
}
