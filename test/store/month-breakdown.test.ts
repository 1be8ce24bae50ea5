import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NewSpend, Store } from '../../src/store/types.ts';
import { BACKENDS } from './backends.ts';

const G1 = '200000000000000001';
const G2 = '200000000000000002';
const A = '300000000000000001';
const B = '300000000000000002';
const C = '300000000000000003';

// Store.monthBreakdown (the /usage chart's data) against every backend, SQLite and a real PostgreSQL.
describe.each(BACKENDS.map((make) => ({ make, name: make.name.replace('Backend', '') })))('$name', ({ make }) => {
  const backend = make();
  afterAll(() => backend.stop());

  let store: Store;
  beforeEach(async () => {
    store = await backend.open();
  });
  afterEach(async () => {
    await store.close();
  });

  const spend = (at: string, userId: string, characters: number, cached = false, guildId = G1): NewSpend => ({
    at: new Date(at), guildId, userId, command: 'say', endpoint: 'tts', characters, cached,
  });

  it('sums one guild\'s month per UTC day and ranks its members by characters, spent and saved apart', async () => {
    await store.recordSpend(spend('2025-03-02T10:00:00Z', A, 10));
    await store.recordSpend(spend('2025-03-02T23:59:59Z', A, 4, true));
    await store.recordSpend(spend('2025-03-03T00:00:00Z', B, 30));
    await store.recordSpend(spend('2025-03-09T12:00:00Z', C, 1));
    await store.recordSpend(spend('2025-03-09T13:00:00Z', C, 2, true));
    // Another guild and another month count for neither.
    await store.recordSpend(spend('2025-03-02T10:00:00Z', A, 500, false, G2));
    await store.recordSpend(spend('2025-04-01T00:00:00Z', A, 700));

    const breakdown = await store.monthBreakdown('2025-03', G1, 2);
    expect(breakdown.days).toEqual([
      { day: '2025-03-02', spent: 10, saved: 4 },
      { day: '2025-03-03', spent: 30, saved: 0 },
      { day: '2025-03-09', spent: 1, saved: 2 },
    ]);
    // B (30) before A (14); C (3) is third, past the two asked for.
    expect(breakdown.members).toEqual([
      { userId: B, spent: 30, saved: 0 },
      { userId: A, spent: 10, saved: 4 },
    ]);
    expect(await store.monthBreakdown('2025-05', G1, 5)).toEqual({ days: [], members: [] });
  });
});
