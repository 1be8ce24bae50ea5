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
import { DEFAULT_TIMEOUTS } from '../../src/core/api/client.ts';
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

// Room for one text whose WAV is over Discord's upload limit (the too-large path), its part a few seconds.
// A file held at the service (holdOneFile) stays under way however long the others take on a slow host: the service's
// headers are waited for longer than any case here lasts (by default 20 s, which one core's worth can pass).
const clientTimeouts = { ...DEFAULT_TIMEOUTS, headersMs: 300_000, totalMs: 400_000 };
const h = useFileHarness({ guilds, clientTimeouts, config: { freeRequestsPerMinute: 0, maxCharsPerRequest: 2_000 } });

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

/** Voice messages posted in a channel (flag 8192), not a reply's. */
const voiceMessagesIn = (channelId: string) =>
  h.discord.channelMessages(channelId).filter((m) => ((Number(m.message['flags']) || 0) & 8192) !== 0).length;

/** One file of FLOODER's being made: its answer held at the service (one share under way) until `resumePaused`. */
async function holdOneFile(text: string): Promise<InteractionHandle> {
  h.sandbox.injectFault({ kind: 'hold-after-charge', endpoint: 'tts' });
  const from = h.sandbox.requests.length;
  const held = await h.discord.command({
    guildId: FLOOD,
    userId: FLOODER,
    name: 'say',
    options: [
      { name: 'text', value: text },
      { name: 'output', value: 'file' },
    ],
  });
  await expect.poll(() => h.sandbox.requests.slice(from).some((r) => r.outcome === 'held')).toBe(true);
  h.sandbox.clearFaults();
  return held;
}

/**
 * Discord answers the interaction's webhook route with 429s (discord.js retries a retry_after apart) until the case
 * clears them: held as long as the case needs, where a fixed retry_after could run out first on a slow host. Armed as
 * the interaction is sent, before SayBot can have answered it.
 */
const holdRoute = (interaction: InteractionHandle, route: 'webhook-edit' | 'webhook-follow-up'): void =>
  h.discord.rateLimit({ route, interactionToken: interaction.token, retryAfterMs: 200, times: Infinity });

/** FLOODER's next file is made, not refused: one of hers is under way, not two. */
async function nextFileMade(): Promise<void> {
  const next = await fileSay(FLOOD, FLOODER, 'My next file, one being made.');
  expect(next.content).not.toBe(t('en-US', 'error.files.memberBusy', { limit: 2 }));
  expect(next.handle.responses.some((r) => r.files.length > 0)).toBe(true);
}

/**
 * `posted` is out while Discord holds its late answer (`late`): FLOODER's next file is made before that answer comes
 * (the share was given back at the post). Then Discord lets the answer through.
 */
async function nextFileBeforeLate(
  posted: InteractionHandle,
  late: (r: InteractionResponse) => boolean,
): Promise<InteractionResponse> {
  expect(posted.responses.some(late)).toBe(false);
  await nextFileMade();
  expect(posted.responses.some(late)).toBe(false);
  h.discord.clearRateLimits();
  return posted.waitFor(late, 60_000);
}

/** Discord and the service let go of what the case held. */
function letGo(): void {
  h.discord.clearRateLimits();
  h.sandbox.clearFaults();
  h.sandbox.resumePaused();
}

/** The held file is posted, and no share is left held. */
async function sharesBack(held: InteractionHandle): Promise<void> {
  await held.waitFor((r) => r.files.length > 0, 60_000);
  await vi.waitFor(() => expect(h.bot.fileShares.held()).toBe(0), { timeout: 20_000 });
}

describe('a share is held until its file is posted, not after', () => {
  it("gives a voice message's share back once it is posted, while its buttons still wait on Discord: the member's next file is not refused", async () => {
    // One file of the member's is being made: its answer held at the service (one share, under way).
    const held = await holdOneFile('Made while the others come and go.');
    try {
      const voiceMessage = await h.discord.command({
        guildId: FLOOD,
        userId: FLOODER,
        name: 'say',
        options: [
          { name: 'text', value: 'Posted, its buttons late.' },
          { name: 'output', value: 'voice-message' },
        ],
      });
      // Her voice message is posted as the response; Discord makes its buttons (a follow-up) wait (429s) until her
      // next file is made.
      holdRoute(voiceMessage, 'webhook-follow-up');
      await voiceMessage.waitFor((r) => r.files.length > 0, 60_000);
      // Posted: one file of hers is under way, not two.
      await nextFileBeforeLate(voiceMessage, (r) => r.kind === 'follow-up');
    } finally {
      letGo();
    }
    await sharesBack(held);
  });

  it("gives a scene's share back once its file is posted, while the line saying so still waits on Discord: the member's next file is not refused", async () => {
    const cast = 'cast: Ann = voice-b-en-f-01, Ben = voice-b-en-m-01';
    const scene = await previewScene(h, FLOOD, [cast, 'Ann: Posted first.', 'Ben: Said after.'].join('\n'), 'file', {
      userId: FLOODER,
    });
    const held = await holdOneFile('Made while the scene is posted.');
    try {
      const played = await pressSceneButton(h, FLOOD, scene, scene.confirm, FLOODER);
      // The scene's files are posted (a follow-up); Discord makes the edit saying so wait (429s) until her next file
      // is made.
      holdRoute(played, 'webhook-edit');
      await played.waitFor((r) => r.kind === 'follow-up' && r.files.length === 2, 60_000);
      // Posted: one file of hers is under way, not two.
      await nextFileBeforeLate(played, (r) => (r.content ?? '').startsWith('🎬 Posted'));
    } finally {
      letGo();
    }
    await sharesBack(held);
  });

  it('gives "Again"\'s share back once its voice message is posted, while the line saying so still waits on Discord: the member\'s next file is not refused', async () => {
    const voiceMessage = await runCommand(h, {
      guildId: FLOOD,
      userId: FLOODER,
      name: 'say',
      options: { text: 'Once more, please.', output: 'voice-message' },
    });
    const follow = await voiceMessage.handle.waitFor((r) => r.kind === 'follow-up', 60_000);
    const held = await holdOneFile('Made while "Again" is posted.');
    try {
      const posted = voiceMessagesIn(FLOOD_TEXT);
      const again = await press(FLOOD, FLOODER, String(follow.message?.id), buttonsOf(follow).get('post') ?? '');
      // "Again" posts the voice message in the channel; Discord makes the edit saying so wait (429s) until her next
      // file is made.
      holdRoute(again, 'webhook-edit');
      await expect.poll(() => voiceMessagesIn(FLOOD_TEXT), { timeout: 60_000 }).toBe(posted + 1);
      const said = await nextFileBeforeLate(again, (r) => r.kind === 'edit-original');
      expect(said.content).toBe(t('en-US', 'buttons.posted'));
    } finally {
      letGo();
    }
    await sharesBack(held);
  });

  it("gives a file too large's share back once it is posted as a voice message, while the line saying so still waits on Discord: the member's next file is not refused", async () => {
    const held = await holdOneFile('Made while the large one is posted.');
    // At 48 kHz a text this long is a WAV over Discord's 10 MiB: posted as a voice message in the channel instead.
    h.sandbox.setVariants({ sampleRate: 48_000 });
    try {
      const posted = voiceMessagesIn(FLOOD_TEXT);
      const large = await h.discord.command({
        guildId: FLOOD,
        userId: FLOODER,
        name: 'say',
        options: [
          { name: 'text', value: 'A long line read aloud. '.repeat(80).trim() },
          { name: 'output', value: 'file' },
        ],
      });
      holdRoute(large, 'webhook-edit');
      // A bound, not a figure: two minutes of audio encoded as a voice message as long work at the lowest priority;
      // beside three busy processes on one core that took past 60 s (as speed-volume-file.test.ts' case does).
      await expect.poll(() => voiceMessagesIn(FLOOD_TEXT), { timeout: 150_000 }).toBe(posted + 1);
      const said = await nextFileBeforeLate(large, (r) => r.kind === 'edit-original');
      expect(said.content).toContain('so I posted it as a voice message instead');
    } finally {
      h.sandbox.setVariants({ sampleRate: 24_000 });
      letGo();
    }
    await sharesBack(held);
  }, 240_000);
});
