import { describe, expect, it } from 'vitest';
import { CONFIRMATION_TTL_MS, ServerDeletionConfirmations } from '../../../src/features/privacy/confirmations.ts';

const G = '200000000000000001';
const A = '300000000000000001';
const B = '300000000000000002';

describe("/privacy server's confirmation codes", () => {
  it('accept the code once, only from the member it was given to, in that server, before it expires', () => {
    let now = 0;
    const codes = new ServerDeletionConfirmations(() => now);
    const code = codes.issue(G, A);
    expect(code).toMatch(/^[A-Z2-9]{6}$/);
    expect(codes.accept(G, B, code)).toBe(false);
    expect(codes.accept('200000000000000002', A, code)).toBe(false);
    expect(codes.accept(G, A, 'WRONG1')).toBe(false);
    expect(codes.accept(G, A, code.toLowerCase())).toBe(true);
    expect(codes.accept(G, A, code)).toBe(false); // used up

    const late = codes.issue(G, A);
    now += CONFIRMATION_TTL_MS;
    expect(codes.accept(G, A, late)).toBe(false);
  });

  it('replace an earlier code when a new one is issued', () => {
    const codes = new ServerDeletionConfirmations(() => 0);
    const first = codes.issue(G, A);
    let second = codes.issue(G, A);
    while (second === first) second = codes.issue(G, A);
    expect(codes.accept(G, A, first)).toBe(false);
    expect(codes.accept(G, A, second)).toBe(true);
  });
});
