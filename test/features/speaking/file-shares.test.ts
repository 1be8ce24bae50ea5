import { describe, expect, it } from 'vitest';
import { AudioBusyError } from '../../../src/core/audio/errors.ts';
import { FileShares } from '../../../src/features/speaking/file-shares.ts';

const refusal = (take: () => unknown): AudioBusyError | undefined => {
  try {
    take();
  } catch (error) {
    if (error instanceof AudioBusyError) return error;
    throw error;
  }
  return undefined;
};

describe('FileShares', () => {
  it("refuses a server past its share, with its limit, and leaves another server's share alone", () => {
    const shares = new FileShares(2, 10);
    shares.take('a');
    shares.take('a');
    const refused = refusal(() => shares.take('a'));
    expect(refused?.reason).toBe('owner-busy');
    expect(refused?.limit).toBe(2);
    expect(shares.held('a')).toBe(2);
    expect(() => shares.take('b')).not.toThrow();
  });

  it('refuses every server once the bot holds its most files, whatever their share', () => {
    const shares = new FileShares(2, 3);
    shares.take('a');
    shares.take('a');
    shares.take('b');
    expect(refusal(() => shares.take('c'))?.reason).toBe('busy');
    expect(shares.held()).toBe(3);
  });

  it('gives a share back once, however often released, and keeps no entry for a server with none', () => {
    const shares = new FileShares(1, 1);
    const release = shares.take('a');
    release();
    release();
    expect(shares.held()).toBe(0);
    expect(shares.held('a')).toBe(0);
    const again = shares.take('a');
    expect(refusal(() => shares.take('b'))?.reason).toBe('busy');
    again();
    expect(() => shares.take('b')).not.toThrow();
  });

  it('counts what was already paid for without refusing it', () => {
    const shares = new FileShares(1, 1);
    shares.take('a');
    expect(() => shares.take('a', false)).not.toThrow();
    expect(shares.held('a')).toBe(2);
    expect(refusal(() => shares.take('b'))?.reason).toBe('busy');
  });
});
