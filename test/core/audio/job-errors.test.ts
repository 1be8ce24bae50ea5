import { describe, expect, it } from 'vitest';
import { ClipCheckUnavailableError } from '../../../src/core/audio/jobs/clip-check/clip-thread.ts';
import { AudioBusyError, JobUnavailableError } from '../../../src/core/audio/errors.ts';

describe('a worker job that cannot run now', () => {
  it('keeps its own name and reason per use, so failures.ts can tell a clip check from the audio thread', () => {
    const clip = new ClipCheckUnavailableError('timeout', 'clip check: too slow');
    const audio = new AudioBusyError('busy', 'audio thread: 64 jobs are already waiting', { cause: new Error('x') });
    expect([clip.name, clip.reason, clip.message]).toEqual([
      'ClipCheckUnavailableError',
      'timeout',
      'clip check: too slow',
    ]);
    expect([audio.name, audio.reason]).toEqual(['AudioBusyError', 'busy']);
    expect(audio.cause).toBeInstanceOf(Error);
    expect(clip).toBeInstanceOf(JobUnavailableError);
    expect(clip).not.toBeInstanceOf(AudioBusyError);
    expect(audio).not.toBeInstanceOf(ClipCheckUnavailableError);
  });
});
