// Files under way outside servers (the user install, src/features/speaking/user-install.ts), end to end: there each
// user has their own share (src/features/speaking/file-shares.ts), so a user with theirs under way is refused their
// next file or voice message before anything is accepted, deferred or made (one private response, in their language),
// while another user's DM, and the same user's file in a server, go on.
import { describe, expect, it, vi } from 'vitest';
import { MessageFlags } from 'discord.js';
import { t } from '../../src/core/i18n/catalogue.ts';
import { loadCommandModules } from '../../src/app/command-modules.ts';
import { deployCommands } from '../../src/core/interactions/deploy.ts';
import { MAX_FILES_PER_MEMBER } from '../../src/features/speaking/file-shares.ts';
import { useFileHarness } from '../support/file-harness.ts';
import { APP_ID, runCommand } from '../support/harness.ts';
import { oneRoomGuild } from '../support/world.ts';

const GUILD = '200000000000000281';
const DANA = '300000000000000281';
const ERIN = '300000000000000282';

const h = useFileHarness({
  guilds: [
    oneRoomGuild(GUILD, 'Home', { text: '210000000000000281', voice: '220000000000000281' }, [
      { id: DANA, username: 'dana' },
      { id: ERIN, username: 'erin' },
    ]),
  ],
  env: { USER_INSTALL: 'everyone' },
  config: { freeRequestsPerMinute: 0 },
});

const dmSay = (userId: string, text: string, output: 'file' | 'voice-message', locale = 'en-US') =>
  h.discord.privateCommand({
    userId,
    name: 'say',
    context: 1,
    locale,
    options: [
      { name: 'text', value: text },
      { name: 'voice', value: 'free-en-m' },
      { name: 'output', value: output },
    ],
  });

describe('files under way outside servers', () => {
  it("refuses a user's DM past their own share before deferring or making it; another user and servers go on", async () => {
    // Registered as `npm start` does, global (only global commands can be user-installed).
    await deployCommands({
      token: h.token,
      clientId: APP_ID,
      apiBaseUrl: h.discord.restUrl,
      commands: (await loadCommandModules()).values(),
      userInstall: true,
    });
    const held = Array.from({ length: MAX_FILES_PER_MEMBER }, () => h.bot.fileShares.take({ userId: DANA }));
    try {
      for (const output of ['file', 'voice-message'] as const) {
        const text = `One ${output} too many for this user.`;
        const refused = await dmSay(DANA, text, output, 'ko');
        const answer = await refused.waitForFinal(60_000);
        // Its one response: the refusal itself, private, in the user's language; no deferral, edit or deletion.
        expect(refused.responses.map((r) => [r.kind, r.type])).toEqual([['callback', 4]]);
        expect((answer.flags ?? 0) & MessageFlags.Ephemeral).toBe(MessageFlags.Ephemeral);
        expect(answer.content).toBe(t('ko', 'error.files.userBusy', { limit: MAX_FILES_PER_MEMBER }));
        expect(answer.files).toEqual([]);
        expect(h.sandbox.requests.some((r) => r.text === text)).toBe(false);
      }

      const other = await dmSay(ERIN, 'Another user is not held by the first one.', 'file');
      expect((await other.waitFor((r) => r.files.length > 0, 60_000)).files).toHaveLength(1);
      // The user's own share outside servers is not a server's: their file in a server goes on.
      const inServer = await runCommand(h, {
        guildId: GUILD,
        userId: DANA,
        name: 'say',
        options: { text: 'A file in a server.', voice: 'free-en-m', output: 'file' },
      });
      expect(inServer.handle.responses.some((r) => r.files.length > 0)).toBe(true);
    } finally {
      for (const release of held) release();
    }
    const after = await dmSay(DANA, 'Once their files are done, the user gets their own again.', 'file');
    expect((await after.waitFor((r) => r.files.length > 0, 60_000)).files).toHaveLength(1);
    await vi.waitFor(() => expect(h.bot.fileShares.held()).toBe(0), { timeout: 20_000 });
  });
});
