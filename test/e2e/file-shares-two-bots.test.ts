// Two SayBots in one process (as the tests and the bench run them) each bound their own files under way
// (src/features/speaking/file-shares.ts): a share one bot holds, or leaked, never refuses the other's files, even in
// a server of the same id.
import { describe, expect, it, vi } from 'vitest';
import type { FakeGuildSpec } from '@saybot/local-discord/types.ts';
import { useFileHarness } from '../support/file-harness.ts';
import { runCommand, type Harness } from '../support/harness.ts';
import { oneRoomGuild } from '../support/world.ts';
import { MAX_FILES_PER_GUILD } from '../../src/features/speaking/file-shares.ts';

const GUILD = '200000000000000271';
const MEMBER = '300000000000000271';

const guilds: FakeGuildSpec[] = [
  oneRoomGuild(GUILD, 'Twice', { text: '210000000000000271', voice: '220000000000000271' }, [
    { id: MEMBER, username: 'member' },
  ]),
];

// The same server (by id) in two local Discords, each with a SayBot of its own, both in this process.
const first = useFileHarness({ guilds, config: { freeRequestsPerMinute: 0 } });
const second = useFileHarness({ guilds, config: { freeRequestsPerMinute: 0 } });

const fileSay = (h: Harness, text: string) =>
  runCommand(h, { guildId: GUILD, userId: MEMBER, name: 'say', options: { text, voice: 'free-en-m', output: 'file' } });

describe('files under way, two bots in one process', () => {
  it("counts each bot's shares apart: one bot's full share of a server never refuses the other's file", async () => {
    const held = Array.from({ length: MAX_FILES_PER_GUILD }, () => first.bot.fileShares.take({ guildId: GUILD }));
    try {
      const other = await fileSay(second, 'The other bot is not held by the first one.');
      expect(other.handle.responses.some((r) => r.files.length > 0)).toBe(true);
      // Its share is its own, given back once its reply is posted; the first bot's are still the four held.
      await vi.waitFor(() => expect(second.bot.fileShares.held()).toBe(0), { timeout: 20_000 });
      expect(first.bot.fileShares.held({ guildId: GUILD })).toBe(MAX_FILES_PER_GUILD);

      const refused = await fileSay(first, 'The first bot holds its own share.');
      expect(refused.handle.responses.map((r) => [r.kind, r.type])).toEqual([['callback', 4]]);
      expect(refused.content).toContain(String(MAX_FILES_PER_GUILD));
    } finally {
      for (const release of held) release();
    }
    expect(first.bot.fileShares.held()).toBe(0);
  });
});
