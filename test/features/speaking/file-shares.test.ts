import { describe, expect, it } from 'vitest';
import { UserError } from '../../../src/core/interactions/failures.ts';
import { FileShares } from '../../../src/features/speaking/file-shares.ts';

/** The words a take is refused with (each refusal is the member's, nothing made), if it is. */
const refusal = (take: () => unknown): UserError['userMessage'] | undefined => {
  try {
    take();
  } catch (error) {
    if (error instanceof UserError) return error.userMessage;
    throw error;
  }
  return undefined;
};

describe('FileShares', () => {
  it("refuses a server past its share, with its limit, and leaves another server's share alone", () => {
    const shares = new FileShares(2, 10);
    shares.take({ guildId: 'a' });
    shares.take({ guildId: 'a' });
    const refused = refusal(() => shares.take({ guildId: 'a' }));
    expect(refused?.key).toBe('error.files.guildBusy');
    expect(refused?.params).toEqual({ limit: 2 });
    expect(shares.held({ guildId: 'a' })).toBe(2);
    expect(() => shares.take({ guildId: 'b' })).not.toThrow();
  });

  it('refuses every server once the bot holds its most files, whatever their share', () => {
    const shares = new FileShares(2, 3);
    shares.take({ guildId: 'a' });
    shares.take({ guildId: 'a' });
    shares.take({ guildId: 'b' });
    expect(refusal(() => shares.take({ guildId: 'c' }))?.key).toBe('error.files.busy');
    expect(shares.held()).toBe(3);
  });

  it('gives a share back once, however often released, and keeps no entry for a server with none', () => {
    const shares = new FileShares(1, 1);
    const release = shares.take({ guildId: 'a' });
    release();
    release();
    expect(shares.held()).toBe(0);
    expect(shares.held({ guildId: 'a' })).toBe(0);
    const again = shares.take({ guildId: 'a' });
    expect(refusal(() => shares.take({ guildId: 'b' }))?.key).toBe('error.files.busy');
    again();
    expect(() => shares.take({ guildId: 'b' })).not.toThrow();
  });

  it('counts what was already paid for without refusing it', () => {
    const shares = new FileShares(1, 1);
    shares.take({ guildId: 'a' });
    expect(() => shares.take({ guildId: 'a' }, false)).not.toThrow();
    expect(shares.held({ guildId: 'a' })).toBe(2);
    expect(refusal(() => shares.take({ guildId: 'b' }))?.key).toBe('error.files.busy');
  });

  it("counts a user's files outside servers as their own: refused in their words, apart from a server of that id", () => {
    const shares = new FileShares(1, 10, 1);
    shares.take({ userId: '7' });
    let refused: unknown;
    try {
      shares.take({ userId: '7' });
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(UserError);
    expect((refused as UserError).userMessage).toEqual({ key: 'error.files.userBusy', params: { limit: 1 } });
    expect(() => shares.take({ guildId: '7' })).not.toThrow();
    expect(() => shares.take({ userId: '8' })).not.toThrow();
    expect(shares.held({ userId: '7' })).toBe(1);
  });

  it("holds a member to their own share within their server's: refused in their words, the server's crowd goes on", () => {
    const shares = new FileShares(3, 10, 1);
    shares.take({ guildId: 'g', userId: '1' });
    let refused: unknown;
    try {
      shares.take({ guildId: 'g', userId: '1' });
    } catch (error) {
      refused = error;
    }
    expect((refused as UserError).userMessage).toEqual({ key: 'error.files.memberBusy', params: { limit: 1 } });
    shares.take({ guildId: 'g', userId: '2' });
    shares.take({ guildId: 'g', userId: '3' });
    expect(shares.held({ guildId: 'g' })).toBe(3);
    expect(shares.held({ guildId: 'g', userId: '1' })).toBe(1);
    expect(refusal(() => shares.take({ guildId: 'g', userId: '4' }))?.key).toBe('error.files.guildBusy');
    expect(shares.held()).toBe(3);
  });
});
