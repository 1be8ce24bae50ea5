// The Speak menu with a server's dictionary, end to end: its entries are read from the store only when they changed,
// in this process or another, never with every message, so a message costs nothing that grows with the dictionary
// (the standard: nothing on the main thread proportional to a dictionary's size); and what is said follows the
// store's entries all the same. Counted where the bot reads them: store.dictionary.list.
import { PermissionFlagsBits } from 'discord.js';
import { describe, expect, it } from 'vitest';
import type { InteractionResponse } from '@saybot/local-discord/types.ts';
import { openSqliteStore } from '../../src/app/store.ts';
import type { Store } from '../../src/core/store/types.ts';
import { useFileHarness } from '../support/file-harness.ts';
import { runCommand } from '../support/harness.ts';
import { ALICE, BOB, GENERAL, LONDON, LONDON_ADMIN, londonWith } from '../support/world.ts';

let listed = 0;

/** The store the bot gets, its dictionary's list() counted. */
function countingLists(store: Store): Store {
  const dictionary = new Proxy(store.dictionary, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      const method = value as (...args: unknown[]) => unknown;
      return (...args: unknown[]) => {
        if (key === 'list') listed += 1;
        return method.apply(target, args);
      };
    },
  });
  return new Proxy(store, {
    get(target, key) {
      if (key === 'dictionary') return dictionary;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

const h = useFileHarness({
  guilds: [
    londonWith([
      { id: LONDON_ADMIN, username: 'admin', locale: 'en-US', permissions: PermissionFlagsBits.ManageGuild },
      { id: ALICE, username: 'alice', voiceChannelId: GENERAL, locale: 'en-US' },
      { id: BOB, username: 'bob', locale: 'en-US' },
    ]),
  ],
  config: { voiceIdleTimeoutMs: 60_000 },
  wrapStore: countingLists,
});

/** Alice uses Speak on Bob's message; resolves with the text the Voice API was asked to say once it was spoken. */
async function spoken(words: string): Promise<string | undefined> {
  const from = h.sandbox.requests.length;
  const handle = await h.discord.messageCommand({
    guildId: LONDON,
    userId: ALICE,
    name: 'Speak',
    message: { author: { id: BOB, username: 'bob' }, content: words },
  });
  await handle.waitFor((r: InteractionResponse) => (r.content ?? '').startsWith('Spoke'), 60_000);
  return h.sandbox.requests.slice(from).find((r) => r.endpoint === 'tts')?.text;
}

const dictionary = (subcommand: string, options: Record<string, string>) =>
  runCommand(h, { guildId: LONDON, userId: LONDON_ADMIN, name: 'dictionary', subcommand, options });

describe('the Speak menu and the dictionary it reads with', () => {
  it('reads the entries again only after a change, made here or by another process, and says what they say', async () => {
    expect((await dictionary('add', { word: 'SayBot', reading: 'say bot' })).content).toContain('SayBot');
    expect(await spoken('SayBot reads this.')).toBe('say bot reads this.');
    const afterFirst = listed;
    // Unchanged: nothing of the dictionary is read again, and it still applies.
    expect(await spoken('SayBot reads that too.')).toBe('say bot reads that too.');
    expect(await spoken('And SayBot once more.')).toBe('And say bot once more.');
    expect(listed).toBe(afterFirst);
    // Changed by another process on the same database (a shard, the dashboard's, npm run forget): seen at once.
    const other = openSqliteStore(h.databasePath);
    try {
      expect((await other.dictionary.put(LONDON, 'saybot', 'sei bot', LONDON_ADMIN)).status).toBe('replaced');
    } finally {
      await other.close();
    }
    expect(await spoken('SayBot changed.')).toBe('sei bot changed.');
    expect(listed).toBe(afterFirst + 1);
    // Changed here: removed, and said as written.
    await dictionary('remove', { word: 'SayBot' });
    expect(await spoken('SayBot as written.')).toBe('SayBot as written.');
    expect(listed).toBe(afterFirst + 2);
  });
});
