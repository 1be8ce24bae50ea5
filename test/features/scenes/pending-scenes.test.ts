// Scenes waiting for their member's confirmation: one per member and server, taken once, bounded in time and count.
import { describe, expect, it } from 'vitest';
import { PENDING_TTL_MS, PendingScenes } from '../../../src/features/scenes/pending-scenes.ts';
import type { PendingScene } from '../../../src/features/scenes/scene-types.ts';

const G1 = '100000000000000001';
const G2 = '100000000000000002';
const MINA = '200000000000000001';
const BOB = '200000000000000002';

/** PendingScenes' bound on scenes waiting in all (not exported: the module's own). */
const MAX_PENDING = 500;

function scene(guildId: string, userId: string, text = 'Hello.'): PendingScene {
  return {
    guildId,
    userId,
    plan: {
      lines: [{ request: { kind: 'tts', text, voice: 'voice-b-en-f-01', format: 'wav' }, pauseBefore: 0 }],
      turns: [{ speaker: 'Alice', text }],
      seconds: 1,
      speakers: 1,
    },
    speakers: new Map(),
    output: 'voice',
    format: 'wav',
    quoted: text.length,
  };
}

/** A clock the test moves by hand. */
function clock(start = 1_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('PendingScenes', () => {
  it('gives a scene back by its token, once', () => {
    const pending = new PendingScenes(clock().now);
    const token = pending.add(scene(G1, MINA, 'Mine.'));
    expect(pending.take(token)?.plan.turns).toEqual([{ speaker: 'Alice', text: 'Mine.' }]);
    expect(pending.take(token)).toBeUndefined();
    expect(pending.peek(token)).toBeUndefined();
    expect(pending.size).toBe(0);
  });

  it('lets a peek look without taking', () => {
    const pending = new PendingScenes(clock().now);
    const token = pending.add(scene(G1, MINA));
    expect(pending.peek(token)?.userId).toBe(MINA);
    expect(pending.peek(token)?.userId).toBe(MINA);
    expect(pending.take(token)?.userId).toBe(MINA);
  });

  it('knows no token it did not give', () => {
    const pending = new PendingScenes(clock().now);
    pending.add(scene(G1, MINA));
    expect(pending.peek('not-a-token')).toBeUndefined();
    expect(pending.take('not-a-token')).toBeUndefined();
    expect(pending.size).toBe(1);
  });

  it("keeps one scene per member and server: a new preview replaces the member's last there only", () => {
    const pending = new PendingScenes(clock().now);
    const first = pending.add(scene(G1, MINA, 'First.'));
    const elsewhere = pending.add(scene(G2, MINA, 'Elsewhere.'));
    const bobs = pending.add(scene(G1, BOB, "Bob's."));
    const second = pending.add(scene(G1, MINA, 'Second.'));
    expect(second).not.toBe(first);
    expect(pending.peek(first)).toBeUndefined();
    expect(pending.peek(second)?.plan.turns[0]?.text).toBe('Second.');
    expect(pending.peek(elsewhere)?.plan.turns[0]?.text).toBe('Elsewhere.');
    expect(pending.peek(bobs)?.plan.turns[0]?.text).toBe("Bob's.");
    expect(pending.size).toBe(3);
  });

  it('gives each scene its own token', () => {
    const pending = new PendingScenes(clock().now);
    const tokens = new Set([G1, G2].flatMap((guild) => [MINA, BOB].map((user) => pending.add(scene(guild, user)))));
    expect(tokens.size).toBe(4);
    // Safe in a custom_id: base64url only.
    for (const token of tokens) expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it('forgets a scene once PENDING_TTL_MS have passed, by the clock it was given', () => {
    const time = clock();
    const pending = new PendingScenes(time.now);
    const token = pending.add(scene(G1, MINA));
    time.advance(PENDING_TTL_MS - 1);
    expect(pending.peek(token)).toBeDefined();
    time.advance(1);
    expect(pending.peek(token)).toBeUndefined();
    expect(pending.take(token)).toBeUndefined();
    expect(pending.size).toBe(0);
  });

  it('lets an expired scene be taken by nobody, even without a peek first', () => {
    const time = clock();
    const pending = new PendingScenes(time.now);
    const token = pending.add(scene(G1, MINA));
    time.advance(PENDING_TTL_MS + 60_000);
    expect(pending.take(token)).toBeUndefined();
  });

  it('waits less than the 15 minutes an interaction token lives', () => {
    expect(PENDING_TTL_MS).toBeLessThan(15 * 60_000);
  });

  it('keeps at most MAX_PENDING scenes in all: the oldest goes', () => {
    const pending = new PendingScenes(clock().now);
    const member = (index: number) => String(300000000000000000n + BigInt(index));
    const tokens = Array.from({ length: MAX_PENDING }, (_, index) => pending.add(scene(G1, member(index))));
    expect(pending.size).toBe(MAX_PENDING);
    expect(tokens.every((token) => pending.peek(token) !== undefined)).toBe(true);
    const newest = pending.add(scene(G1, member(MAX_PENDING)));
    expect(pending.size).toBe(MAX_PENDING);
    expect(pending.peek(tokens[0] ?? '')).toBeUndefined();
    expect(pending.peek(tokens[1] ?? '')).toBeDefined();
    expect(pending.peek(newest)).toBeDefined();
  });
});
