// Files under way, per server and over the bot (src/features/speaking/file-shares.ts), end to end: a server that has
// its share of files under way is refused its next file or voice message before anything is accepted, deferred or
// made (one private response, in the member's language), another server's goes on, and a share is held until the
// file is posted. Each front-end that posts one for a member: /say, the Speak menu, /scene's "Play it" as a file,
// and the reply buttons "Again" (a voice message once more) and "Save as sound".
import { describe, expect, it, vi } from 'vitest';
import { MessageFlags, PermissionFlagsBits } from 'discord.js';
import { DEFAULT_PERMISSIONS } from '@saybot/local-discord';
import type { FakeGuildSpec, InteractionHandle, InteractionResponse } from '@saybot/local-discord/types.ts';
import { t } from '../../src/core/i18n/catalogue.ts';
import '../../src/features/scenes/strings.ts';
import { useFileHarness } from '../support/file-harness.ts';
import { runCommand } from '../support/harness.ts';
import { pressSceneButton, previewScene } from '../support/scene-preview.ts';
import { oneRoomGuild } from '../support/world.ts';
import { MAX_FILES_PER_GUILD } from '../../src/features/speaking/file-shares.ts';

const FLOOD = '200000000000000251';
const CAFE = '200000000000000252';
const FLOOD_TEXT = '210000000000000251';
const FLOODER = '300000000000000251';
const KOREAN = '300000000000000252';
const GUEST = '300000000000000261';

/** Voice messages and soundboard sounds, for the members and SayBot, as on Discord with Create Expressions given. */
const rights = (guild: FakeGuildSpec): FakeGuildSpec => ({
  ...guild,
  everyonePermissions: DEFAULT_PERMISSIONS | PermissionFlagsBits.SendVoiceMessages,
  botPermissions:
    DEFAULT_PERMISSIONS | PermissionFlagsBits.CreateGuildExpressions | PermissionFlagsBits.SendVoiceMessages,
});

const guilds: FakeGuildSpec[] = [
  rights(
    oneRoomGuild(FLOOD, 'Flood', { text: FLOOD_TEXT, voice: '220000000000000251' }, [
      { id: FLOODER, username: 'flooder', permissions: PermissionFlagsBits.CreateGuildExpressions },
      { id: KOREAN, username: 'minji', locale: 'ko' },
    ]),
  ),
  rights(
    oneRoomGuild(CAFE, 'Cafe', { text: '210000000000000252', voice: '220000000000000252', voiceName: 'lounge' }, [
      { id: GUEST, username: 'guest', permissions: PermissionFlagsBits.CreateGuildExpressions },
    ]),
  ),
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

/** The server's whole share, held as files under way would hold it; returns what gives it back. */
function holdShare(guildId: string): () => void {
  // Counted whatever an earlier case still holds as it ends (taken as already paid for: never refused here).
  const held = Array.from({ length: MAX_FILES_PER_GUILD }, () => h.bot.fileShares.take({ guildId }, false));
  return () => {
    for (const release of held) release();
  };
}

/**
 * The refusal as the interaction's one response: private, in `locale`, no file; `words` not asked of the Voice API
 * since request `from` (its count before the interaction).
 */
async function expectRefused(handle: InteractionHandle, locale: string, words: string, from = 0): Promise<void> {
  const answer = await handle.waitForFinal(60_000);
  expect(handle.responses.map((r) => [r.kind, r.type])).toEqual([['callback', 4]]);
  expect((answer.flags ?? 0) & MessageFlags.Ephemeral).toBe(MessageFlags.Ephemeral);
  expect(answer.content).toBe(t(locale, 'error.files.guildBusy', { limit: MAX_FILES_PER_GUILD }));
  expect(answer.files).toEqual([]);
  expect(h.sandbox.requests.slice(from).some((r) => r.text === words)).toBe(false);
}

const press = (guildId: string, userId: string, messageId: string, customId: string) =>
  h.discord.pressButton({ guildId, userId, messageId, customId });

/** A reply's buttons, walked through its components (classic rows, or a Components V2 container). */
function buttonsOf(response: InteractionResponse): Map<string, string> {
  type Component = { type: number; components?: Component[]; custom_id?: string };
  const walk = (list: Component[]): Component[] => list.flatMap((c) => [c, ...walk(c.components ?? [])]);
  const ids = walk((response.message?.components ?? []) as Component[]).flatMap((c) => c.custom_id ?? []);
  return new Map(ids.map((id) => [id.split(':')[1] ?? '', id]));
}

describe('files under way', () => {
  it("refuses a server's file past its share before deferring or making it; another server's goes on", async () => {
    const release = holdShare(FLOOD);
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
      release();
    }
    const after = await fileSay(FLOOD, FLOODER, 'Once its files are done, the server gets its own again.');
    expect(after.handle.responses.some((r) => r.files.length > 0)).toBe(true);
    // Given back once its reply is posted: no share is left taken.
    await vi.waitFor(() => expect(h.bot.fileShares.held()).toBe(0), { timeout: 20_000 });
  });

  it("refuses the Speak menu's voice message past the server's share; another server's goes on", async () => {
    const words = 'Speak this message, one voice message too many.';
    const message = { author: { id: FLOODER, username: 'flooder' }, content: words };
    const release = holdShare(FLOOD);
    try {
      await expectRefused(
        await h.discord.messageCommand({ guildId: FLOOD, userId: KOREAN, name: 'Speak', message }),
        'ko',
        words,
      );
      const other = await h.discord.messageCommand({
        guildId: CAFE,
        userId: GUEST,
        name: 'Speak',
        message: { author: { id: GUEST, username: 'guest' }, content: 'Another server speaks.' },
      });
      expect((await other.waitFor((r) => r.files.length > 0, 60_000)).files).toHaveLength(1);
    } finally {
      release();
    }
  });

  it("refuses a scene's \"Play it\" as a file past the server's share, keeping it to press again; another server's plays", async () => {
    const cast = 'cast: Ann = voice-b-en-f-01, Ben = voice-b-en-m-01';
    const words = 'A scene held back by its server.';
    const mine = await previewScene(h, FLOOD, [cast, `Ann: ${words}`, 'Ben: Then it plays.'].join('\n'), 'file', {
      userId: FLOODER,
    });
    const theirs = await previewScene(
      h,
      CAFE,
      [cast, 'Ann: Another server.', 'Ben: Its own scene.'].join('\n'),
      'file',
      {
        userId: GUEST,
      },
    );
    const release = holdShare(FLOOD);
    try {
      await expectRefused(await pressSceneButton(h, FLOOD, mine, mine.confirm, FLOODER), 'en-US', words);
      const played = await pressSceneButton(h, CAFE, theirs, theirs.confirm, GUEST);
      await played.waitFor((r) => r.kind === 'follow-up' && r.files.length === 2, 30_000);
    } finally {
      release();
    }
    // Nothing was taken from the waiting scenes: once the server's files are done, the same button plays it.
    const again = await pressSceneButton(h, FLOOD, mine, mine.confirm, FLOODER);
    await again.waitFor((r) => r.kind === 'follow-up' && r.files.length === 2, 30_000);
  });

  it('refuses "Again" and "Save as sound" past the server\'s share, before their deferral; another server\'s saves', async () => {
    const file = await runCommand(h, {
      guildId: FLOOD,
      userId: FLOODER,
      name: 'say',
      options: { text: 'Good game.', output: 'file' },
    });
    const fileReply = await file.handle.waitFor((r) => r.files.length > 0, 60_000);
    const voiceMessage = await runCommand(h, {
      guildId: FLOOD,
      userId: FLOODER,
      name: 'say',
      options: { text: 'Well played.', output: 'voice-message' },
    });
    const follow = await voiceMessage.handle.waitFor((r) => r.kind === 'follow-up', 60_000);
    const cafe = await runCommand(h, {
      guildId: CAFE,
      userId: GUEST,
      name: 'say',
      options: { text: 'Nice one.', output: 'file' },
    });
    const cafeReply = await cafe.handle.waitFor((r) => r.files.length > 0, 60_000);
    const posted = h.discord.channelMessages(FLOOD_TEXT).length;
    const from = h.sandbox.requests.length;
    const release = holdShare(FLOOD);
    try {
      const sound = buttonsOf(fileReply).get('sound') ?? '';
      await expectRefused(
        await press(FLOOD, FLOODER, String(fileReply.message?.id), sound),
        'en-US',
        'Good game.',
        from,
      );
      const again = buttonsOf(follow).get('post') ?? '';
      await expectRefused(
        await press(FLOOD, FLOODER, String(follow.message?.id), again),
        'en-US',
        'Well played.',
        from,
      );
      expect(h.discord.soundboardSounds(FLOOD)).toEqual([]);
      expect(h.discord.channelMessages(FLOOD_TEXT).length).toBe(posted);

      const saved = await press(CAFE, GUEST, String(cafeReply.message?.id), buttonsOf(cafeReply).get('sound') ?? '');
      expect((await saved.waitForFinal(60_000)).content).toMatch(/^Saved as "Nice one\." on this server's soundboard/);
      expect(h.discord.soundboardSounds(CAFE)).toHaveLength(1);
    } finally {
      release();
    }
    await vi.waitFor(() => expect(h.bot.fileShares.held()).toBe(0), { timeout: 20_000 });
  });
});
