import { describe, expect, it } from 'vitest';
import { memberShare, shareRefusal } from '../../../src/core/store/member-share.ts';

describe('memberShare', () => {
  it('is a quarter of the cap, at least 1', () => {
    expect(memberShare(25)).toBe(6);
    expect(memberShare(100)).toBe(25);
    expect(memberShare(3)).toBe(1);
    expect(memberShare(1)).toBe(1);
  });
});

describe('shareRefusal', () => {
  it('lets a member add up to their share, a manager up to the cap, nobody past it', () => {
    expect(shareRefusal({ total: 5, mine: 5, cap: 25, manager: false })).toBeUndefined();
    expect(shareRefusal({ total: 6, mine: 6, cap: 25, manager: false })).toEqual({
      problem: 'member-share',
      share: 6,
      max: 25,
    });
    expect(shareRefusal({ total: 6, mine: 6, cap: 25, manager: true })).toBeUndefined();
    expect(shareRefusal({ total: 24, mine: 0, cap: 25, manager: false })).toBeUndefined();
    expect(shareRefusal({ total: 25, mine: 0, cap: 25, manager: true })).toEqual({ problem: 'full', max: 25 });
  });
});
