// A paid request is written ahead, before it is sent, only into the store: a store that refuses it (disk full) means
// it is not sent, and nothing is kept. Its answer and settlement reach its own row once; one the store refuses is
// tried again, and until then the spend stays counted.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../../src/app/store.ts';
import { silentLogger } from '../../../src/core/log.ts';
import { SpendLedger } from '../../../src/core/quota/ledger.ts';
import type { NewSpend } from '../../../src/core/store/quota-store.ts';
import type { Store } from '../../../src/core/store/types.ts';
import { scanSqlite } from '../../support/db-scan.ts';
import { withFailingSpendWrites } from '../store/failing-store.ts';
import { tempDir } from '../store/helpers.ts';

const ahead = (characters: number): NewSpend => ({
  guildId: '200000000000000001',
  userId: '300000000000000001',
  command: 'say',
  endpoint: 'tts',
  characters,
  cached: false,
  owner: 'app:main',
  unconfirmed: true,
});

let tmp: ReturnType<typeof tempDir>;
let file: string;
let store: Store;
let failing = false;
beforeEach(() => {
  tmp = tempDir();
  file = tmp.file();
  failing = false;
  store = openSqliteStore(file);
});
afterEach(async () => {
  await store.close();
  tmp.cleanup();
});

const rows = () =>
  scanSqlite(file)
    .rows.filter((r) => r.table === 'spends')
    .map((r) => ({
      characters: Number(r.cells['characters']),
      owner: r.cells['owner'],
      undelivered: r.cells['undelivered'],
      unconfirmed: r.cells['unconfirmed'],
    }));

describe('the spend ledger, for spends written ahead', () => {
  it('a store that refuses the write ahead: it throws, nothing is kept to write later, no row', async () => {
    const ledger = new SpendLedger(
      withFailingSpendWrites(store, () => failing),
      silentLogger,
    );
    failing = true;
    await expect(ledger.writeAhead(ahead(12))).rejects.toThrow(/disk is full/);
    expect(ledger.failing).toBe(false);
    failing = false;
    expect(await ledger.flush()).toBe(true);
    expect(rows()).toEqual([]);
  });

  it('accepts and finishes a spend in its own row, once each', async () => {
    const ledger = new SpendLedger(store, silentLogger);
    const entry = await ledger.writeAhead(ahead(7));
    expect(rows()).toEqual([{ characters: 7, owner: 'app:main', undelivered: '0', unconfirmed: '1' }]);
    await ledger.accept(entry, { requestId: 'req_7' });
    await ledger.release(entry); // accepted: a release changes nothing
    await ledger.finish(entry, 'delivered');
    await ledger.finish(entry, 'undelivered');
    expect(rows()).toEqual([{ characters: 7, owner: null, undelivered: '0', unconfirmed: '0' }]);
  });

  it('a release the store refuses leaves the spend counted, and is tried again with the next flush', async () => {
    let refuse = true;
    const ledger = new SpendLedger(
      withFailingSpendWrites(store, () => refuse, ['release']),
      silentLogger,
    );
    const entry = await ledger.writeAhead(ahead(5));
    await ledger.release(entry);
    expect(rows()).toEqual([{ characters: 5, owner: 'app:main', undelivered: '0', unconfirmed: '1' }]);
    refuse = false;
    expect(await ledger.flush()).toBe(true);
    expect(rows()).toEqual([]);
    await ledger.finish(entry, 'undelivered'); // taken back: nothing left to finish
    expect(rows()).toEqual([]);
  });
});

describe('the spend ledger, while the store refuses writes', () => {
  it('keeps every paid spend to write later, and savings only up to its bound', async () => {
    const ledger = new SpendLedger(
      withFailingSpendWrites(store, () => failing),
      silentLogger,
    );
    failing = true;
    const saved = (userId: string): NewSpend => ({ ...ahead(3), userId, cached: true, unconfirmed: false });
    await ledger.write({ ...ahead(9), userId: 'paid-first', unconfirmed: false });
    for (let i = 0; i < 10_050; i++) await ledger.write(saved('saved'));
    await ledger.write({ ...ahead(9), userId: 'paid-last', unconfirmed: false });
    const kept = [...ledger.members()];
    expect(kept.length).toBe(10_001);
    expect([kept[0], kept.at(-1)]).toEqual(['paid-first', 'paid-last']);
  });
});
