// A server-wide list (scenes, cloned voices) gives a member without Manage Server at most a share of its cap, so no one
// member fills it; a manager is held only to the cap. Counted in the transaction that adds.

/** The share of a server's cap one member without Manage Server may hold: a quarter. */
export const MEMBER_SHARE = 0.25;

/** How many of a store capped at `cap` one member without Manage Server may hold: a quarter, at least 1. */
export function memberShare(cap: number): number {
  return Math.max(1, Math.floor(cap * MEMBER_SHARE));
}

/** Why one more may not be added: the server's store is full, or this member holds their share of it. */
type ShareRefusal = { problem: 'full'; max: number } | { problem: 'member-share'; share: number; max: number };

/** Whether one more fits `cap` with `total` held, `mine` this member's: undefined when it may, else why not. */
export function shareRefusal(counts: {
  total: number;
  mine: number;
  cap: number;
  manager: boolean;
}): ShareRefusal | undefined {
  const { total, mine, cap, manager } = counts;
  if (total >= cap) return { problem: 'full', max: cap };
  const share = memberShare(cap);
  if (!manager && mine >= share) return { problem: 'member-share', share, max: cap };
  return undefined;
}
