// A running bot hears of `npm run forget` through the store: it finds whom each notice's pseudonyms stand for among
// what it holds in memory, applies each notice once, and applies nothing for someone it holds nothing of.
import { once } from 'node:events';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../../src/app/store.ts';
import { silentLogger } from '../../../src/core/log.ts';
import type { Store } from '../../../src/core/store/types.ts';
import { ForgetNotices, type Forgotten } from '../../../src/features/privacy/forget-notices.ts';

const G = '200000000000000001';
const OTHER_G = '200000000000000002';
const HELD = '300000000000000001';
const NOT_HELD = '300000000000000002';
const ALSO_HELD = '300000000000000003';

let store: Store;
let notices: ForgetNotices | undefined;
beforeEach(() => {
  store = openSqliteStore(':memory:');
});
afterEach(async () => {
  await notices?.close();
  await store.close();
});

async function watching(applied: Forgotten[]): Promise<ForgetNotices> {
  notices = new ForgetNotices({
    store,
    logger: silentLogger,
    holds: { guilds: () => [OTHER_G, G], members: (guildId) => (guildId === OTHER_G ? [] : [ALSO_HELD, HELD]) },
    apply: (forgotten) => applied.push(forgotten),
    pollMs: 20,
  });
  await notices.start();
  return notices;
}

describe('forget notices', () => {
  it('applies a member notice once, to the member and server it names by pseudonym', async () => {
    const applied: Forgotten[] = [];
    const watcher = await watching(applied);
    const heard = once(watcher, 'applied');
    await store.forgetNotices.add({ guildId: G, userId: HELD });
    expect(await heard).toEqual([{ guildId: G, userId: HELD }]);
    // A second notice is read on a later turn: the first is not applied again meanwhile.
    const next = once(watcher, 'applied');
    await store.forgetNotices.add({ guildId: G });
    expect(await next).toEqual([{ guildId: G }]);
    expect(applied).toEqual([{ guildId: G, userId: HELD }, { guildId: G }]);
  });

  it('applies nothing for a member it holds nothing of, and ignores the notices there before it started', async () => {
    await store.forgetNotices.add({ userId: HELD });
    const applied: Forgotten[] = [];
    const watcher = await watching(applied);
    const heard = once(watcher, 'applied');
    await store.forgetNotices.add({ userId: NOT_HELD });
    expect(await heard).toEqual([undefined]);
    expect(applied).toEqual([]);
  });
});
