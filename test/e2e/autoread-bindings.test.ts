// Auto-read's bindings, one per (server, voice channel), end to end: the real bot against the local Discord and the
// sandbox Voice API. Each binding reads its own text channel into its own voice channel, on a seat of its own (the
// main bot, a helper), and is stopped on its own.
import { PermissionFlagsBits } from 'discord.js';
import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_PERMISSIONS } from '@saybot/local-discord';
import { t } from '../../src/core/i18n/catalogue.ts';
import { openSqliteStore } from '../../src/app/store.ts';
import { useHarnessPerTest } from '../support/file-harness.ts';
import { APP_ID, runCommand, type Harness, type HarnessOptions } from '../support/harness.ts';
import type { FakeGuildSpec, FakeMemberSpec, FakeOverwrite } from '@saybot/local-discord/types.ts';
import {
  ALICE as ALICE_ID,
  GENERAL as VOICE,
  LONDON as GUILD,
  LONDON_TEXT as TEXT,
  londonWith,
} from '../support/world.ts';
import { postChat, snowflakeAt, spoken, startAutoRead } from '../support/chat.ts';

const OTHER_TEXT = '210000000000000009';
const QUIET_VOICE = '220000000000000004';
const LOBBY_VOICE = '220000000000000005';
const ALICE = { id: ALICE_ID, username: 'alice' }; // Manage Server, in #general's voice
const DORA = { id: '300000000000000021', username: 'dora' }; // Manage Server, in the quiet room
const BOBG = { id: '300000000000000031', username: 'bobg' }; // a plain member

/** `quiet`: the quiet room's overwrites (a bot barred from it, say); `more`: members besides ALICE and DORA. */
function guilds(quiet: FakeOverwrite[] = [], more: FakeMemberSpec[] = []): FakeGuildSpec[] {
  return [
    londonWith(
      [
        { ...ALICE, voiceChannelId: VOICE, locale: 'en-US', permissions: PermissionFlagsBits.ManageGuild },
        { ...DORA, voiceChannelId: QUIET_VOICE, locale: 'en-US', permissions: PermissionFlagsBits.ManageGuild },
        ...more,
      ],
      {
        voiceChannels: [
          { id: VOICE, name: 'general' },
          { id: QUIET_VOICE, name: 'quiet', overwrites: quiet },
          { id: LOBBY_VOICE, name: 'lobby' },
        ],
        textChannels: [{ id: OTHER_TEXT, name: 'other' }],
      },
    ),
  ];
}

const openHarness = useHarnessPerTest();

/**
 * ALICE binds #london-text to general, read by the main bot; DORA binds #other to the quiet room, read by the helper:
 * ALICE still listens in general, so the main bot is never moved from it.
 */
async function twoBindings(
  options: Pick<HarnessOptions, 'beforeStart'> & { quiet?: FakeOverwrite[] } = {},
): Promise<Harness> {
  const { quiet, ...rest } = options;
  const h = await openHarness({ guilds: guilds(quiet), helpers: 1, config: { voiceIdleTimeoutMs: 60_000 }, ...rest });
  await startAutoRead(h, GUILD, ALICE.id, { text: TEXT, voice: VOICE });
  const { content } = await runCommand(h, {
    guildId: GUILD,
    userId: DORA.id,
    name: 'autoread',
    subcommand: 'start',
    options: { channel: { type: 7, value: OTHER_TEXT } },
  });
  expect(content).toContain(`Reading <#${OTHER_TEXT}> aloud in <#${QUIET_VOICE}>`);
  expect(seating(h)).toEqual([VOICE, QUIET_VOICE]);
  expect(await stored(h)).toEqual([
    [TEXT, VOICE, true, undefined],
    [OTHER_TEXT, QUIET_VOICE, true, undefined],
  ]);
  return h;
}

/** Where each bot sits: the main bot, then the helper. */
const seating = (h: Harness) => [
  h.discord.botVoiceChannel(GUILD, APP_ID),
  ...h.helpers.map((helper) => h.discord.botVoiceChannel(GUILD, helper.userId)),
];

/** The bindings the bot's store keeps: [text, voice, reading, why stopped]. */
async function stored(h: Harness): Promise<Array<[string, string, boolean, string | undefined]>> {
  const store = openSqliteStore(h.databasePath);
  try {
    const { bindings } = await store.autoRead.get(GUILD);
    return bindings.map((b) => [b.textChannelId, b.voiceChannelId, b.reading, b.stoppedWhy]);
  } finally {
    await store.close();
  }
}

async function post(h: Harness, channelId: string, author: { id: string; username: string }, content: string) {
  expect(await postChat(h, { guildId: GUILD, channelId }, author, content, { id: snowflakeAt() })).toBe(true);
}

describe('auto-read bindings, one per voice channel', () => {
  it('reads two text channels at once into two voice channels, main bot and helper: each hears only its own', async () => {
    const h = await twoBindings();
    const from = h.sandbox.requests.length;
    for (const channelId of [VOICE, QUIET_VOICE]) h.discord.clearAudio({ guildId: GUILD, channelId });
    await post(h, TEXT, ALICE, 'meant for general, a longer line than the other one');
    await post(h, OTHER_TEXT, DORA, 'meant for the quiet room');
    for (const [channelId, line] of [
      [VOICE, 'alice said, meant for general, a longer line than the other one'],
      [QUIET_VOICE, 'dora said, meant for the quiet room'],
    ] as const) {
      const expected = h.sandbox.expectedDurationSeconds(line);
      const audio = await h.discord.waitForAudio(
        { guildId: GUILD, channelId },
        { minSeconds: expected - 0.1, quietMs: 400 },
      );
      // Its own line whole, and nothing of the other's.
      expect(audio.seconds).toBeLessThan(expected + 0.3);
    }
    expect(new Set(spoken(h, from))).toEqual(
      new Set([
        'alice said, meant for general, a longer line than the other one',
        'dora said, meant for the quiet room',
      ]),
    );
    const shown = await runCommand(h, { guildId: GUILD, userId: DORA.id, name: 'autoread', subcommand: 'settings' });
    expect(shown.content).toContain(
      t('en-US', 'autoread.status.reading', { channel: `<#${OTHER_TEXT}>`, voice: `<#${QUIET_VOICE}>` }),
    );
  });

  it('without a helper, a second binding is refused while the main bot reads to a listener elsewhere: nothing joined or kept', async () => {
    const h = await openHarness({ guilds: guilds(), config: { voiceIdleTimeoutMs: 60_000 } });
    await startAutoRead(h, GUILD, ALICE.id, { text: TEXT, voice: VOICE });
    const { content } = await runCommand(h, {
      guildId: GUILD,
      userId: DORA.id,
      name: 'autoread',
      subcommand: 'start',
      options: { channel: { type: 7, value: OTHER_TEXT } },
    });
    // /autoread has no `output` option: the refusal offers none.
    expect(content).not.toContain('output');
    expect(content).toBe(t('en-US', 'error.voice.noSeat.voiceOnly', { channels: `<#${VOICE}>` }));
    expect(h.discord.botVoiceChannel(GUILD)).toBe(VOICE);
    expect(await stored(h)).toEqual([[TEXT, VOICE, true, undefined]]);
  });

  it.each([
    ['kicked from voice', (h: Harness, helperId: string) => h.discord.setVoiceState(GUILD, helperId, null)],
    [
      'moved to another channel',
      (h: Harness, helperId: string) => h.discord.setVoiceState(GUILD, helperId, LOBBY_VOICE),
    ],
    ['removed from the server', (h: Harness, helperId: string) => h.discord.removeBot(GUILD, helperId)],
  ])(
    "the helper reading a binding %s: that binding stops as the main bot's leaving would, the other reads on",
    async (_how, leave) => {
      const h = await twoBindings();
      leave(h, h.helpers[0]!.userId);
      await expect
        .poll(() => stored(h))
        .toEqual([
          [TEXT, VOICE, true, undefined],
          [OTHER_TEXT, QUIET_VOICE, false, 'left-voice'],
        ]);
      const from = h.sandbox.requests.length;
      h.discord.clearAudio({ guildId: GUILD, channelId: VOICE });
      await post(h, OTHER_TEXT, DORA, 'nobody reads me now');
      await post(h, TEXT, ALICE, 'general still reads');
      const expected = h.sandbox.expectedDurationSeconds('alice said, general still reads');
      await h.discord.waitForAudio({ guildId: GUILD, channelId: VOICE }, { minSeconds: expected - 0.1, quietMs: 400 });
      expect(spoken(h, from)).toEqual(['alice said, general still reads']);
    },
  );

  it("autojoin per binding: a member coming back to the helper's channel brings a seat back while the main bot reads elsewhere", async () => {
    const h = await twoBindings();
    const { content } = await runCommand(h, {
      guildId: GUILD,
      userId: ALICE.id,
      name: 'autoread',
      subcommand: 'settings',
      options: { autojoin: true },
    });
    expect(content).toContain('join when a member joins: on');
    h.discord.setVoiceState(GUILD, h.helpers[0]!.userId, null);
    h.discord.setVoiceState(GUILD, DORA.id, LOBBY_VOICE);
    await expect.poll(() => stored(h)).toContainEqual([OTHER_TEXT, QUIET_VOICE, false, 'left-voice']);
    h.discord.setVoiceState(GUILD, DORA.id, QUIET_VOICE);
    await expect.poll(() => h.logs().includes('"code":"autoread-autojoined"'), { timeout: 10_000 }).toBe(true);
    expect(seating(h)).toEqual([VOICE, QUIET_VOICE]);
    expect(await stored(h)).toEqual([
      [TEXT, VOICE, true, undefined],
      [OTHER_TEXT, QUIET_VOICE, true, undefined],
    ]);
  });

  it("a helper's binding shows its voice channel status through the helper's own client, and clears it so", async () => {
    const withStatus = DEFAULT_PERMISSIONS | PermissionFlagsBits.SetVoiceChannelStatus;
    const h = await twoBindings({
      beforeStart: (discord, helpers) => {
        discord.setBotPermissions(GUILD, withStatus);
        discord.setBotPermissions(GUILD, withStatus, helpers[0]!.userId);
      },
    });
    const puts = (channelId: string) =>
      h.discord.restLog
        .filter((e) => e.method === 'PUT' && e.path.endsWith(`/channels/${channelId}/voice-status`))
        .map((e) => [e.headers['authorization'], e.status]);
    await vi.waitFor(
      () => {
        expect(h.discord.voiceChannelStatus(GUILD, QUIET_VOICE)).toBe('Reading #other aloud');
        expect(h.discord.voiceChannelStatus(GUILD, VOICE)).toBe('Reading #general aloud');
      },
      { timeout: 5_000 },
    );
    const { content } = await runCommand(h, { guildId: GUILD, userId: DORA.id, name: 'autoread', subcommand: 'stop' });
    expect(content).toBe(t('en-US', 'autoread.stopped'));
    // Cleared by the helper while it still sat there (Discord takes a status only from a bot connected in it).
    expect(h.discord.voiceChannelStatus(GUILD, QUIET_VOICE)).toBeUndefined();
    const helper = `Bot ${h.helpers[0]!.token}`;
    expect(puts(QUIET_VOICE)).toEqual([
      [helper, 204],
      [helper, 204],
    ]);
    expect(puts(VOICE)).toEqual([[`Bot ${h.discord.botToken()}`, 204]]);
  });

  it("a helper's gateway lost for good: the voice channel status it set is cleared before its client goes", async () => {
    const withStatus = DEFAULT_PERMISSIONS | PermissionFlagsBits.SetVoiceChannelStatus;
    const h = await twoBindings({
      beforeStart: (discord, helpers) => {
        discord.setBotPermissions(GUILD, withStatus);
        discord.setBotPermissions(GUILD, withStatus, helpers[0]!.userId);
      },
    });
    await expect.poll(() => h.discord.voiceChannelStatus(GUILD, QUIET_VOICE)).toBe('Reading #other aloud');
    h.discord.dropGateway(GUILD, 4014, h.helpers[0]!.userId);
    await expect.poll(() => h.logs().includes('"code":"helper-gateway-lost"')).toBe(true);
    await expect.poll(() => h.discord.voiceChannelStatus(GUILD, QUIET_VOICE)).toBeUndefined();
    expect(h.discord.voiceChannelStatus(GUILD, VOICE)).toBe('Reading #general aloud');
    expect(h.logs()).not.toContain('"code":"voice-status-failed"');
  });

  it("a member's /say elsewhere while the main bot reads takes a free helper, reading untouched", async () => {
    const h = await openHarness({ guilds: guilds(), helpers: 1, config: { voiceIdleTimeoutMs: 60_000 } });
    await startAutoRead(h, GUILD, ALICE.id, { text: TEXT, voice: VOICE });
    const said = await runCommand(h, { guildId: GUILD, userId: DORA.id, name: 'say', options: { text: 'over here' } });
    await said.handle.waitFor((r) => (r.content ?? '').startsWith('Spoke'), 15_000);
    expect(seating(h)).toEqual([VOICE, QUIET_VOICE]);
    expect(h.discord.heard({ guildId: GUILD, channelId: QUIET_VOICE }).seconds).toBeGreaterThan(0);
    expect(h.discord.heard({ guildId: GUILD, channelId: VOICE }).seconds).toBe(0);
    expect(await stored(h)).toEqual([[TEXT, VOICE, true, undefined]]);
  });

  it("a manager's /join elsewhere while the main bot reads takes the free helper, and so does their /say: reading untouched", async () => {
    const h = await openHarness({ guilds: guilds(), helpers: 1, config: { voiceIdleTimeoutMs: 60_000 } });
    await startAutoRead(h, GUILD, ALICE.id, { text: TEXT, voice: VOICE });
    const join = await runCommand(h, { guildId: GUILD, userId: DORA.id, name: 'join' });
    const helper = { bot: `<@${h.helpers[0]!.userId}>`, channel: `<#${QUIET_VOICE}>` };
    expect(join.content).toBe(t('en-US', 'join.joinedAs', helper));
    const said = await runCommand(h, { guildId: GUILD, userId: DORA.id, name: 'say', options: { text: 'over here' } });
    await said.handle.waitFor((r) => (r.content ?? '').startsWith('Spoke'), 15_000);
    expect(seating(h)).toEqual([VOICE, QUIET_VOICE]);
    expect(h.discord.heard({ guildId: GUILD, channelId: VOICE }).seconds).toBe(0);
    expect(await stored(h)).toEqual([[TEXT, VOICE, true, undefined]]);
    const from = h.sandbox.requests.length;
    await post(h, TEXT, ALICE, 'general still reads');
    await expect.poll(() => spoken(h, from)).toEqual(['alice said, general still reads']);
  });

  it("without a helper, a manager's /join elsewhere moves the reading bot there and pauses that reading, saying so", async () => {
    const h = await openHarness({ guilds: guilds(), config: { voiceIdleTimeoutMs: 60_000 } });
    await startAutoRead(h, GUILD, ALICE.id, { text: TEXT, voice: VOICE });
    const where = { channel: `<#${TEXT}>`, voice: `<#${VOICE}>` };
    const from = h.sandbox.requests.length;
    // A /say never moves it, a manager's included.
    const refused = await runCommand(h, { guildId: GUILD, userId: DORA.id, name: 'say', options: { text: 'here' } });
    expect(refused.content).toBe(t('en-US', 'autoread.guard.elsewhere', where));
    const join = await runCommand(h, { guildId: GUILD, userId: DORA.id, name: 'join' });
    const joined = t('en-US', 'join.joined', { channel: `<#${QUIET_VOICE}>` });
    expect(join.content).toBe(`${t('en-US', 'autoread.pausedByLeave', where)}\n${joined}`);
    expect(seating(h)).toEqual([QUIET_VOICE]);
    // Paused as a manager's /leave pauses it (the binding kept), not stopped by the bot leaving.
    expect(h.logs()).not.toContain('"why":"left-voice"');
    await post(h, TEXT, ALICE, 'nobody reads me now');
    const said = await runCommand(h, { guildId: GUILD, userId: DORA.id, name: 'say', options: { text: 'over here' } });
    await said.handle.waitFor((r) => (r.content ?? '').startsWith('Spoke'), 15_000);
    expect(spoken(h, from)).toEqual(['over here']);
    expect(h.discord.heard({ guildId: GUILD, channelId: QUIET_VOICE }).seconds).toBeGreaterThan(0);
    // Once the quiet room lets the bot go, a manager's /join in general reads there again.
    const left = await runCommand(h, { guildId: GUILD, userId: DORA.id, name: 'leave' });
    expect(left.content).toBe(t('en-US', 'leave.left', { channel: `<#${QUIET_VOICE}>` }));
    const back = await runCommand(h, { guildId: GUILD, userId: ALICE.id, name: 'join' });
    expect(back.content).toBe(t('en-US', 'autoread.resumed', where));
    expect(await stored(h)).toEqual([[TEXT, VOICE, true, undefined]]);
  });

  it("a manager's /join elsewhere ends what plays and waits in the reading channel as /leave does: nothing of it in B", async () => {
    // BOBG is barred from the quiet room: his line queued in general must never be requested nor played there.
    const barred = PermissionFlagsBits.ViewChannel | PermissionFlagsBits.Connect | PermissionFlagsBits.Speak;
    const h = await openHarness({
      guilds: guilds([{ id: BOBG.id, type: 1, deny: barred }], [{ ...BOBG, voiceChannelId: VOICE, locale: 'en-US' }]),
      config: { voiceIdleTimeoutMs: 60_000 },
    });
    await startAutoRead(h, GUILD, ALICE.id, { text: TEXT, voice: VOICE });
    const text = 'A long line said in general, long enough to be playing still when the manager moves the bot away.';
    const alice = runCommand(h, { guildId: GUILD, userId: ALICE.id, name: 'say', options: { text } });
    await expect.poll(() => h.discord.heard({ guildId: GUILD, channelId: VOICE }).seconds).toBeGreaterThan(0.2);
    const bob = runCommand(h, {
      guildId: GUILD,
      userId: BOBG.id,
      name: 'say',
      options: { text: 'bob queued in general' },
    });
    await (await bob).handle.waitFor((r) => (r.content ?? '').startsWith('Queued'));
    await post(h, TEXT, BOBG, 'a chat line queued in general');
    await runCommand(h, { guildId: GUILD, userId: DORA.id, name: 'join' });
    // The move has left general: nothing of it is requested from here on.
    const moved = h.sandbox.requests.length;
    for (const said of [alice, bob]) {
      const answer = await (await said).handle.waitFor((r) => /^(Spoke|Stopped)/.test(r.content ?? ''), 30_000);
      expect(answer.content).toMatch(/^Stopped \(`voice-b-en-f-01`/);
    }
    expect(h.discord.heard({ guildId: GUILD, channelId: QUIET_VOICE }).seconds).toBe(0);
    const asked = await runCommand(h, {
      guildId: GUILD,
      userId: DORA.id,
      name: 'say',
      options: { text: 'asked after' },
    });
    await asked.handle.waitFor((r) => (r.content ?? '').startsWith('Spoke'), 15_000);
    // BOBG's /say and the chat line may be fetched in general before the move (the order ahead plays its last clip),
    // once at most; never after it.
    expect(spoken(h, moved)).toEqual(['asked after']);
    const bobs = ['bob queued in general', 'bobg said, a chat line queued in general'];
    for (const line of bobs) expect(spoken(h).filter((said) => said === line).length).toBeLessThanOrEqual(1);
  });

  it('refuses a text channel already read into another voice channel, naming it, before joining', async () => {
    const h = await twoBindings();
    const { content } = await runCommand(h, {
      guildId: GUILD,
      userId: ALICE.id,
      name: 'autoread',
      subcommand: 'start',
      options: { channel: { type: 7, value: OTHER_TEXT } },
    });
    expect(content).toBe(t('en-US', 'autoread.textTaken', { channel: `<#${OTHER_TEXT}>`, voice: `<#${QUIET_VOICE}>` }));
    expect(seating(h)).toEqual([VOICE, QUIET_VOICE]);
  });

  it('/autoread stop stops the binding of the voice channel the manager is in, and no other', async () => {
    const h = await twoBindings();
    const fromAlice = await runCommand(h, { guildId: GUILD, userId: ALICE.id, name: 'autoread', subcommand: 'stop' });
    expect(fromAlice.content).toBe(t('en-US', 'autoread.stopped'));
    expect(await stored(h)).toEqual([
      [TEXT, VOICE, false, 'asked'],
      [OTHER_TEXT, QUIET_VOICE, true, undefined],
    ]);
    const fromDora = await runCommand(h, { guildId: GUILD, userId: DORA.id, name: 'autoread', subcommand: 'stop' });
    expect(fromDora.content).toBe(t('en-US', 'autoread.stopped'));
    expect((await stored(h)).map(([, voice, reading]) => [voice, reading])).toEqual([
      [VOICE, false],
      [QUIET_VOICE, false],
    ]);
    const again = await runCommand(h, { guildId: GUILD, userId: DORA.id, name: 'autoread', subcommand: 'stop' });
    expect(again.content).toBe(t('en-US', 'autoread.notReading'));
    const from = h.sandbox.requests.length;
    await post(h, OTHER_TEXT, DORA, 'nobody reads me');
    const said = await runCommand(h, { guildId: GUILD, userId: DORA.id, name: 'say', options: { text: 'said' } });
    await said.handle.waitFor((r) => (r.content ?? '').startsWith('Spoke'), 15_000);
    expect(spoken(h, from)).toEqual(['said']);
  });

  it('resumes each binding after a restart by its own voice channel: the one with members back, the empty one dropped', async () => {
    const h = await twoBindings();
    // Both reading when the process stops; general is empty by the restart.
    await h.bot.stop();
    h.discord.setVoiceState(GUILD, ALICE.id, null);
    await h.restart();
    const lines = h
      .logs()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const about = (code: string) =>
      lines.filter((line) => line['code'] === code).map((line) => [line['voiceChannelId'], line['reason']]);
    expect(about('autoread-not-resumed')).toEqual([[VOICE, 'channel-empty']]);
    expect(about('autoread-resumed')).toEqual([[QUIET_VOICE, undefined]]);
    // The main bot is free after the restart: the seat rule gives it the quiet room.
    expect(h.discord.botVoiceChannel(GUILD)).toBe(QUIET_VOICE);
    expect(await stored(h)).toEqual([
      [TEXT, VOICE, false, 'left-voice'],
      [OTHER_TEXT, QUIET_VOICE, true, undefined],
    ]);
  });

  it('after a restart, two bindings with listeners resume each on a seat by the seat rule: the main bot and the helper', async () => {
    const h = await twoBindings();
    await h.bot.stop();
    await h.restart();
    const resumed = h
      .logs()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line['code'] === 'autoread-resumed')
      .map((line) => line['voiceChannelId']);
    expect(resumed.sort()).toEqual([VOICE, QUIET_VOICE].sort());
    // General first (the main bot is free after a restart), then the quiet room: the main bot is kept, the helper free.
    expect(seating(h)).toEqual([VOICE, QUIET_VOICE]);
    expect(await stored(h)).toEqual([
      [TEXT, VOICE, true, undefined],
      [OTHER_TEXT, QUIET_VOICE, true, undefined],
    ]);
    h.discord.clearAudio({ guildId: GUILD, channelId: QUIET_VOICE });
    const from = h.sandbox.requests.length;
    await post(h, OTHER_TEXT, DORA, 'back in the quiet room');
    const expected = h.sandbox.expectedDurationSeconds('dora said, back in the quiet room');
    await h.discord.waitForAudio(
      { guildId: GUILD, channelId: QUIET_VOICE },
      { minSeconds: expected - 0.1, quietMs: 400 },
    );
    expect(spoken(h, from)).toEqual(['dora said, back in the quiet room']);
    expect(h.discord.heard({ guildId: GUILD, channelId: VOICE }).seconds).toBe(0);
  });

  it("after a restart without its helper (token refused), the helper's binding is kept for a seat, not dropped", async () => {
    const h = await twoBindings();
    await h.bot.stop();
    h.discord.resetBotToken(h.helpers[0]!.userId);
    await h.restart();
    const notResumed = h
      .logs()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line['code'] === 'autoread-not-resumed')
      .map((line) => [line['voiceChannelId'], line['reason']]);
    expect(notResumed).toEqual([[QUIET_VOICE, 'no-seat']]);
    expect(h.discord.botVoiceChannel(GUILD)).toBe(VOICE);
    // Stopped as if SayBot had left by itself: an autojoin brings it back once a seat is free.
    expect(await stored(h)).toEqual([
      [TEXT, VOICE, true, undefined],
      [OTHER_TEXT, QUIET_VOICE, false, 'left-voice'],
    ]);
  });

  it('after a restart, a helper\'s binding where that bot may no longer speak pauses with one notice naming it, not "me"', async () => {
    const h = await twoBindings({ quiet: [{ id: APP_ID, type: 1, deny: PermissionFlagsBits.Connect }] });
    const helper = h.helpers[0]!;
    await h.bot.stop();
    // Discord still shows the helper in the quiet room (as after a crash), and a moderator took its Speak there.
    h.discord.setVoiceState(GUILD, helper.userId, QUIET_VOICE);
    h.discord.setChannelOverwrites(GUILD, QUIET_VOICE, [
      { id: APP_ID, type: 1, deny: PermissionFlagsBits.Connect },
      { id: helper.userId, type: 1, deny: PermissionFlagsBits.Speak },
    ]);
    await h.restart();
    const posted = await h.discord.waitForChannelMessage((m) => String(m.message['content']).includes('paused'));
    expect(posted.message['content']).toContain(`<@${helper.userId}>`);
    expect(posted.message['content']).toBe(
      t('en-US', 'autoread.pausedRights.voice.helper', {
        bot: `<@${helper.userId}>`,
        channel: `<#${OTHER_TEXT}>`,
        voice: `<#${QUIET_VOICE}>`,
      }),
    );
    expect(posted.message['mentions']).toEqual([]);
    expect(
      h.discord.channelMessages(OTHER_TEXT).filter((m) => m.message['content'] === posted.message['content']),
    ).toHaveLength(1);
    expect(await stored(h)).toEqual([
      [TEXT, VOICE, true, undefined],
      [OTHER_TEXT, QUIET_VOICE, false, 'asked'],
    ]);
  });

  it("after a restart, a helper's binding resumes on the helper where only the main bot may not connect: the helper's rights are read", async () => {
    const h = await twoBindings({ quiet: [{ id: APP_ID, type: 1, deny: PermissionFlagsBits.Connect }] });
    await h.bot.stop();
    await h.restart();
    const codes = h
      .logs()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => String(line['code']).startsWith('autoread-'))
      .map((line) => [line['code'], line['voiceChannelId']]);
    expect(codes).not.toContainEqual(['autoread-paused-rights', QUIET_VOICE]);
    expect(codes).toContainEqual(['autoread-resumed', QUIET_VOICE]);
    expect(seating(h)).toEqual([VOICE, QUIET_VOICE]);
    expect(await stored(h)).toEqual([
      [TEXT, VOICE, true, undefined],
      [OTHER_TEXT, QUIET_VOICE, true, undefined],
    ]);
  });
});
