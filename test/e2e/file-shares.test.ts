// Files under way, per server and over the bot (src/features/speaking/file-shares.ts), end to end: a server that has
// its share of files under way is refused its next file before anything is accepted, deferred or made (one private
// response, in the member's language), another server's file goes on, and a share is held until the file is posted.
import { describe, expect, it, vi } from 'vitest';
import { MessageFlags } from 'discord.js';
import type { FakeGuildSpec } from '@saybot/local-discord/types.ts';
import { useFileHarness } from '../support/file-harness.ts';
import { runCommand } from '../support/harness.ts';
import { oneRoomGuild } from '../support/world.ts';
import { MAX_FILES_PER_GUILD } from '../../src/features/speaking/file-shares.ts';

const FLOOD = '200000000000000251';
const CAFE = '200000000000000252';
const FLOODER = '300000000000000251';
const KOREAN = '300000000000000252';
const GUEST = '300000000000000261';

const guilds: FakeGuildSpec[] = [
  oneRoomGuild(FLOOD, 'Flood', { text: '210000000000000251', voice: '220000000000000251' }, [
    { id: FLOODER, username: 'flooder' },
    { id: KOREAN, username: 'minji', locale: 'ko' },
  ]),
  oneRoomGuild(CAFE, 'Cafe', { text: '210000000000000252', voice: '220000000000000252', voiceName: 'lounge' }, [
    { id: GUEST, username: 'guest' },
  ]),
];

const h = useFileHarness({ guilds, config: { freeRequestsPerMinute: 0 } });

const fileSay = (guildId: string, userId: string, text: string, locale?: string) =>
  runCommand(h, {
    guildId,
    userId,
    name: 'say',
    options: { text, voice: 'free-en-m', output: 'file' },
    ...(locale === undefined ? {} : { locale }),
  });

describe('files under way', () => {
  it("refuses a server's file past its share before deferring or making it; another server's goes on", async () => {
    const held = Array.from({ length: MAX_FILES_PER_GUILD }, () => h.bot.fileShares.take({ guildId: FLOOD }));
    try {
      const refused = await fileSay(FLOOD, KOREAN, 'One file too many for this server.', 'ko');
      // Its one response: the refusal itself, private, in the member's language; no deferral, edit or deletion.
      expect(refused.handle.responses.map((r) => [r.kind, r.type])).toEqual([['callback', 4]]);
      expect((refused.handle.responses[0]?.flags ?? 0) & MessageFlags.Ephemeral).toBe(MessageFlags.Ephemeral);
      expect(refused.content).toContain(String(MAX_FILES_PER_GUILD));
      expect(refused.content).not.toMatch(/This server already has/);
      expect(refused.handle.responses[0]?.files).toEqual([]);

      const other = await fileSay(CAFE, GUEST, 'Another server is not held by the first one.');
      expect(other.handle.responses.some((r) => r.files.length > 0)).toBe(true);
    } finally {
      for (const release of held) release();
    }
    const after = await fileSay(FLOOD, FLOODER, 'Once its files are done, the server gets its own again.');
    expect(after.handle.responses.some((r) => r.files.length > 0)).toBe(true);
    // Given back once its reply is posted: no share is left taken.
    await vi.waitFor(() => expect(h.bot.fileShares.held()).toBe(0));
  });
});
