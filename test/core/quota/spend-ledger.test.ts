// A spend written ahead while the store refuses writes (disk full) is kept in memory; settled meanwhile, it reaches
// the store once, as it ended, when writes work again: one row, never an "accepted" one left behind, none twice.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../../src/app/store.ts';
import { silentLogger } from '../../../src/core/log.ts';
import { SpendLedger } from '../../../src/core/quota/spend-ledger.ts';
import type { NewSpend, Store } from '../../../src/core/store/types.ts';
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
    }));

describe('the spend ledger, for spends written ahead', () => {
  it('settles a spend the store could not take yet in the row written later: one row, as it ended', async () => {
    const ledger = new SpendLedger(
      withFailingSpendWrites(store, () => failing),
      silentLogger,
    );
    failing = true;
    const entry = await ledger.write(ahead(12));
    expect(ledger.failing).toBe(true);
    await ledger.settle(entry, 'undelivered');
    await ledger.settle(entry, 'delivered'); // a second settlement changes nothing
    expect(rows()).toEqual([]);

    failing = false;
    expect(await ledger.flush()).toBe(true);
    expect(rows()).toEqual([{ characters: 12, owner: null, undelivered: '1' }]);
  });

  it('settles a spend already in the store in its own row, once', async () => {
    const ledger = new SpendLedger(store, silentLogger);
    const entry = await ledger.write(ahead(7));
    expect(rows()).toEqual([{ characters: 7, owner: 'app:main', undelivered: '0' }]);
    await ledger.settle(entry, 'delivered');
    await ledger.settle(entry, 'undelivered');
    expect(rows()).toEqual([{ characters: 7, owner: null, undelivered: '0' }]);
  });
});
