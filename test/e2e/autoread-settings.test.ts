// The reading settings end to end: the real bot against the local Discord (MESSAGE_CREATE, voice with DAVE)
// and the sandbox Voice API. Each test checks what the voice channel HEARD and the texts the Voice API received
// (none for a message that is not read).
import { Events, MessageFlags, PermissionFlagsBits } from 'discord.js';
import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '@saybot/local-discord/message-create.ts';
import type { FakeGuildSpec } from '@saybot/local-discord/types.ts';
import { t } from '../../src/core/i18n/catalogue.ts';
import type { Store } from '../../src/core/store/types.ts';
import { useHarnessPerTest } from '../support/file-harness.ts';
import { APP_ID, numberValue, runCommand, type Harness, type HarnessOptions } from '../support/harness.ts';
import {
  ALICE as ALICE_ID,
  GENERAL as VOICE,
  LONDON as GUILD,
  LONDON_TEXT as TEXT,
  londonWith,
} from '../support/world.ts';
import { postChat, snowflakeAt, spoken, startAutoRead } from '../support/chat.ts';

const ALICE = { id: ALICE_ID, username: 'alice' }; // Manage Server, in voice
const CAROL = { id: '300000000000000013', username: 'carol' }; // in voice, no Manage Server
const DAVE = { id: '300000000000000014', username: 'dave' }; // not in voice at first

function guilds(): FakeGuildSpec[] {
  return [
    londonWith([
      { ...ALICE, voiceChannelId: VOICE, locale: 'en-US', permissions: PermissionFlagsBits.ManageGuild },
      { ...CAROL, voiceChannelId: VOICE, locale: 'en-US' },
      { ...DAVE, locale: 'en-US' },
    ]),
  ];
}

const openOwnHarness = useHarnessPerTest();
/**
 * Each test's own bot, its sandbox speaking at twice its default rate: every length here is the sandbox's
 * (expectedDurationSeconds), so the same speeds and lengths are heard in half the time.
 */
const openHarness = (options: HarnessOptions = {}) =>
  openOwnHarness({ ...options, sandbox: { secondsPerCharacter: 0.03, ...options.sandbox } });

async function startReading(options: HarnessOptions = {}): Promise<Harness> {
  const harness = await openHarness({ guilds: guilds(), config: { voiceIdleTimeoutMs: 60_000 }, ...options });
  await startAutoRead(harness, GUILD, ALICE.id, { text: TEXT, voice: VOICE });
  return harness;
}

type Author = { id: string; username: string };
/** Posts a chat message in the read channel; resolves with its ID once delivered. */
async function post(h: Harness, author: Author, content: string, extra: Partial<ChatMessage> = {}): Promise<string> {
  const id = snowflakeAt();
  expect(await postChat(h, { guildId: GUILD, channelId: TEXT }, author, content, { id, ...extra })).toBe(true);
  return id;
}

async function settings(h: Harness, options: Record<string, unknown>): Promise<string> {
  const { content } = await runCommand(h, {
    guildId: GUILD,
    userId: ALICE.id,
    name: 'autoread',
    subcommand: 'settings',
    options: options as never,
  });
  return content;
}

/** Waits until the channel heard `text` at `speed` (the sandbox's length for it, divided by the speed), and returns its length. */
async function heardSeconds(h: Harness, text: string, speed = 1): Promise<number> {
  const expected = h.sandbox.expectedDurationSeconds(text) / speed;
  const audio = await h.discord.waitForAudio(GUILD, { minSeconds: expected - 0.1, quietMs: 400 });
  return audio.seconds;
}

describe('speed and volume kept in presets and /myvoice', () => {
  it("the server's default preset with speed 1.5 reads a message in 2/3 of its time, from one paid call", async () => {
    const h = await startReading();
    const saved = await runCommand(h, {
      guildId: GUILD,
      userId: ALICE.id,
      name: 'preset',
      subcommand: 'save',
      options: { name: 'brisk', voice: 'voice-b-en-m-01', speed: numberValue(1.5), volume: numberValue(-3) },
    });
    expect(saved.content).toContain('speed 1.5×');
    expect(saved.content).toContain('volume -3 dB');
    await runCommand(h, {
      guildId: GUILD,
      userId: ALICE.id,
      name: 'preset',
      subcommand: 'default',
      options: { name: 'brisk' },
    });
    const listed = await runCommand(h, { guildId: GUILD, userId: CAROL.id, name: 'preset', subcommand: 'list' });
    expect(listed.content).toContain('speed 1.5×');
    const from = h.sandbox.requests.length;
    h.discord.clearAudio(GUILD);
    await post(h, CAROL, 'Read this one a little faster, please.');
    const text = 'carol said, Read this one a little faster, please.';
    const seconds = await heardSeconds(h, text, 1.5);
    expect(spoken(h, from)).toEqual([text]);
    expect(Math.abs(seconds - h.sandbox.expectedDurationSeconds(text) / 1.5)).toBeLessThan(0.15);
  });

  it("/myvoice set speed:0.75 is the member's own: their messages are read slower, shown in the reply", async () => {
    const h = await startReading();
    const set = await runCommand(h, {
      guildId: GUILD,
      userId: CAROL.id,
      name: 'myvoice',
      subcommand: 'set',
      options: { speed: numberValue(0.75) },
    });
    expect(set.content).toContain('speed 0.75×');
    h.discord.clearAudio(GUILD);
    await post(h, CAROL, 'Slowly now.');
    const text = 'carol said, Slowly now.';
    const seconds = await heardSeconds(h, text, 0.75);
    expect(Math.abs(seconds - h.sandbox.expectedDurationSeconds(text) / 0.75)).toBeLessThan(0.15);
  });
});

describe("a member's own name and opt-out (/myvoice name, read_me)", () => {
  it('reads a member by the name they set, not their display name; a mention-shaped name is refused', async () => {
    const h = await startReading();
    const refused = await runCommand(h, {
      guildId: GUILD,
      userId: CAROL.id,
      name: 'myvoice',
      subcommand: 'set',
      options: { name: `<@${ALICE.id}>` },
    });
    expect(refused.content).toContain('A name to be read is 1 to 32 letters or digits');
    const set = await runCommand(h, {
      guildId: GUILD,
      userId: CAROL.id,
      name: 'myvoice',
      subcommand: 'set',
      options: { name: 'Caz' },
    });
    expect(set.content).toContain('auto-read names you "Caz"');
    const from = h.sandbox.requests.length;
    h.discord.clearAudio(GUILD);
    await post(h, CAROL, 'Hello everyone.');
    const text = 'Caz said, Hello everyone.';
    const seconds = await heardSeconds(h, text);
    expect(spoken(h, from)).toEqual([text]);
    expect(Math.abs(seconds - h.sandbox.expectedDurationSeconds(text))).toBeLessThan(0.15);
  });

  it("an opted-out member's message makes no API call; read_me:True reads them again", async () => {
    const h = await startReading();
    const set = await runCommand(h, {
      guildId: GUILD,
      userId: CAROL.id,
      name: 'myvoice',
      subcommand: 'set',
      options: { read_me: false },
    });
    expect(set.content).toContain('auto-read does not read you');
    const from = h.sandbox.requests.length;
    h.discord.clearAudio(GUILD);
    await post(h, CAROL, 'Please do not read this.');
    // Messages are handed over in order: once Alice's is sent to the service, Carol's was decided.
    await post(h, ALICE, 'But read mine.');
    await heardSeconds(h, 'alice said, But read mine.');
    expect(spoken(h, from)).toEqual(['alice said, But read mine.']);
    expect(h.logs()).toContain('"skipped":"opted-out"');

    await runCommand(h, {
      guildId: GUILD,
      userId: CAROL.id,
      name: 'myvoice',
      subcommand: 'set',
      options: { read_me: true },
    });
    const again = h.sandbox.requests.length;
    h.discord.clearAudio(GUILD);
    await post(h, CAROL, 'Now read me.');
    await heardSeconds(h, 'carol said, Now read me.');
    expect(spoken(h, again)).toEqual(['carol said, Now read me.']);
  });
});

describe('/myvoice clear what:name', () => {
  it('forgets only the spoken name: auto-read says the display name again, at the speed the member kept', async () => {
    const h = await startReading();
    const set = await runCommand(h, {
      guildId: GUILD,
      userId: CAROL.id,
      name: 'myvoice',
      subcommand: 'set',
      options: { name: 'Caz', speed: numberValue(0.75) },
    });
    expect(set.content).toContain('auto-read names you "Caz"');
    const cleared = await runCommand(h, {
      guildId: GUILD,
      userId: CAROL.id,
      name: 'myvoice',
      subcommand: 'clear',
      options: { what: 'name' },
    });
    expect(cleared.content).toContain(t('en-US', 'myvoice.clear.name'));
    expect(cleared.content).toContain('speed 0.75');
    expect(cleared.content).not.toContain('Caz');
    const from = h.sandbox.requests.length;
    h.discord.clearAudio(GUILD);
    await post(h, CAROL, 'Hello again.');
    const text = 'carol said, Hello again.';
    const seconds = await heardSeconds(h, text, 0.75);
    expect(spoken(h, from)).toEqual([text]);
    expect(Math.abs(seconds - h.sandbox.expectedDurationSeconds(text) / 0.75)).toBeLessThan(0.15);
    // Nothing left to clear of that kind; and what:voice then leaves no defaults at all.
    const again = await runCommand(h, {
      guildId: GUILD,
      userId: CAROL.id,
      name: 'myvoice',
      subcommand: 'clear',
      options: { what: 'name' },
    });
    expect(again.content).toBe(t('en-US', 'myvoice.clear.none.name'));
    const voice = await runCommand(h, {
      guildId: GUILD,
      userId: CAROL.id,
      name: 'myvoice',
      subcommand: 'clear',
      options: { what: 'voice' },
    });
    expect(voice.content).toBe(t('en-US', 'myvoice.clear.voice'));
    const all = await runCommand(h, { guildId: GUILD, userId: CAROL.id, name: 'myvoice', subcommand: 'clear' });
    expect(all.content).toBe(t('en-US', 'myvoice.none'));
  });
});

describe('/autoread settings: skip_prefix, read_silent', () => {
  it('never reads a message starting with the skip prefix: no API call', async () => {
    const h = await startReading();
    expect(await settings(h, { skip_prefix: '!!', say_name: false })).toContain('skip messages starting with: `!!`');
    const from = h.sandbox.requests.length;
    h.discord.clearAudio(GUILD);
    await post(h, CAROL, '!! not for reading aloud');
    await post(h, CAROL, 'This one is read.');
    await heardSeconds(h, 'This one is read.');
    expect(spoken(h, from)).toEqual(['This one is read.']);
    expect(h.logs()).toContain('"skipped":"skip-prefix"');
    // Within Discord's max_length (8), so SayBot's own rule answers: no space in a prefix.
    expect(await settings(h, { skip_prefix: 'no space' })).toContain('The skip prefix is 1 to 8 characters');
  });

  it('reads @silent messages by default; with read_silent off they make no API call', async () => {
    const h = await startReading();
    await settings(h, { say_name: false });
    const silent = { flags: MessageFlags.SuppressNotifications };
    let from = h.sandbox.requests.length;
    h.discord.clearAudio(GUILD);
    await post(h, CAROL, 'Quietly, but still read.', silent);
    await heardSeconds(h, 'Quietly, but still read.');
    expect(spoken(h, from)).toEqual(['Quietly, but still read.']);

    expect(await settings(h, { read_silent: false })).toContain('read @silent messages: off');
    from = h.sandbox.requests.length;
    h.discord.clearAudio(GUILD);
    await post(h, CAROL, 'A silent aside.', silent);
    await post(h, CAROL, 'A normal line.');
    await heardSeconds(h, 'A normal line.');
    expect(spoken(h, from)).toEqual(['A normal line.']);
    expect(h.logs()).toContain('"skipped":"silent"');
  });
});

describe('/autoread settings: read_attachments', () => {
  const image = (name: string) => ({
    id: '230000000000000001',
    filename: name,
    content_type: 'image/png',
    size: 1024,
    url: `https://cdn.example/${name}`,
  });

  it('says a message came with an image by default; with read_attachments off its files pass in silence, and a picture alone makes no API call', async () => {
    const h = await startReading();
    await settings(h, { say_name: false });
    let from = h.sandbox.requests.length;
    h.discord.clearAudio(GUILD);
    await post(h, CAROL, 'Look', { attachments: [image('cat.png')] });
    await heardSeconds(h, 'Look, image');
    expect(spoken(h, from)).toEqual(['Look, image']);

    expect(await settings(h, { read_attachments: false })).toContain('say files: off');
    from = h.sandbox.requests.length;
    h.discord.clearAudio(GUILD);
    await post(h, CAROL, '', { attachments: [image('dog.png')] });
    await post(h, CAROL, 'Look again.', { attachments: [image('cow.png')] });
    await heardSeconds(h, 'Look again.');
    expect(spoken(h, from)).toEqual(['Look again.']);
  });
});

describe('/autoread settings: autojoin', () => {
  it('after SayBot left an empty channel, a member joining it brings SayBot back to read', async () => {
    let store: Store | undefined;
    const h = await startReading({ wrapStore: (s) => (store = s) });
    expect(await settings(h, { autojoin: true })).toContain('join when a member joins: on');
    const left = new Promise<void>((resolve) =>
      h.bot.client.on(Events.VoiceStateUpdate, (_b, after) => {
        if (after.id === APP_ID && after.channelId === null) resolve();
      }),
    );
    h.discord.setVoiceState(GUILD, ALICE.id, null);
    h.discord.setVoiceState(GUILD, CAROL.id, null);
    await left;
    await expect.poll(async () => (await store?.autoRead.get(GUILD))?.bindings[0]?.stoppedWhy).toBe('left-voice');
    expect(h.discord.botVoiceChannel(GUILD)).toBeNull();

    h.discord.setVoiceState(GUILD, DAVE.id, VOICE);
    await expect.poll(() => h.discord.botVoiceChannel(GUILD), { timeout: 10_000 }).toBe(VOICE);
    await expect.poll(() => h.logs().includes('"code":"autoread-autojoined"'), { timeout: 10_000 }).toBe(true);
    const from = h.sandbox.requests.length;
    h.discord.clearAudio(GUILD);
    await post(h, DAVE, 'Glad you came back.');
    await heardSeconds(h, 'dave said, Glad you came back.');
    expect(spoken(h, from)).toEqual(['dave said, Glad you came back.']);
  });

  it('does not come back where SayBot may no longer read the channel: one notice, and later joins stay quiet', async () => {
    let store: Store | undefined;
    const h = await startReading({ wrapStore: (s) => (store = s) });
    await settings(h, { autojoin: true });
    h.discord.setVoiceState(GUILD, ALICE.id, null);
    h.discord.setVoiceState(GUILD, CAROL.id, null);
    await expect
      .poll(async () => (await store?.autoRead.get(GUILD))?.bindings[0]?.stoppedWhy, { timeout: 10_000 })
      .toBe('left-voice');
    // Meanwhile a moderator takes Read Message History from SayBot in the channel it reads.
    h.discord.setChannelOverwrites(GUILD, TEXT, [
      { id: APP_ID, type: 1, deny: PermissionFlagsBits.ReadMessageHistory },
    ]);
    const notice = t('en-US', 'autoread.pausedRights.text', { channel: `<#${TEXT}>`, voice: `<#${VOICE}>` });
    h.discord.setVoiceState(GUILD, DAVE.id, VOICE);
    await h.discord.waitForChannelMessage((m) => m.message['content'] === notice);
    expect(h.logs()).toContain('"code":"autoread-paused-rights"');
    const seen = new Promise<void>((resolve) =>
      h.bot.client.on(Events.VoiceStateUpdate, (_b, after) => {
        if (after.id === CAROL.id && after.channelId === VOICE) resolve();
      }),
    );
    h.discord.setVoiceState(GUILD, CAROL.id, VOICE);
    await seen;
    await settings(h, {});
    expect(h.discord.botVoiceChannel(GUILD)).toBeNull();
    expect(h.logs()).not.toContain('"code":"autoread-autojoined"');
    expect(h.discord.channelMessages(TEXT).filter((m) => m.message['content'] === notice)).toHaveLength(1);
  });

  it.each([
    ['/autoread stop', ['stop']],
    ["a manager's /leave (a pause)", []],
  ] as const)('does not undo %s when a member joins', async (_, stop) => {
    const h = await startReading();
    await settings(h, { autojoin: true });
    for (const subcommand of stop)
      await runCommand(h, { guildId: GUILD, userId: ALICE.id, name: 'autoread', subcommand });
    await runCommand(h, { guildId: GUILD, userId: ALICE.id, name: 'leave' });
    await expect.poll(() => h.discord.botVoiceChannel(GUILD)).toBeNull();
    const seen = new Promise<void>((resolve) =>
      h.bot.client.on(Events.VoiceStateUpdate, (_b, after) => {
        if (after.id === DAVE.id && after.channelId === VOICE) resolve();
      }),
    );
    h.discord.setVoiceState(GUILD, DAVE.id, VOICE);
    await seen;
    // The decision reads the store once; a join would be under way by the time /autoread settings answers.
    await settings(h, {});
    expect(h.discord.botVoiceChannel(GUILD)).toBeNull();
    expect(h.logs()).not.toContain('"code":"autoread-autojoined"');
  });
});

describe('/autoread settings: backlog', () => {
  /**
   * The first line plays; the others arrive while it does, however long their delivery takes: the sandbox pauses the
   * first line's audio part of the way through (a pause in what the service sends, as a slow network makes) until all
   * are delivered. Resolves once all are delivered and the first goes on.
   */
  async function burst(h: Harness, first: string, texts: readonly string[]): Promise<void> {
    h.sandbox.injectFault({ kind: 'pause-after', bytes: 24_000, endpoint: 'tts' });
    try {
      await post(h, CAROL, first);
      await h.discord.waitForAudio(GUILD, { minSeconds: 0.2, quietMs: 0 });
      await expect.poll(() => h.sandbox.requests.some((r) => r.text === first && r.outcome === 'paused')).toBe(true);
      for (const text of texts) await post(h, CAROL, text);
    } finally {
      h.sandbox.clearFaults();
      h.sandbox.resumePaused();
    }
  }

  it('reads faster while more than faster_after messages wait, heard at the expected length', async () => {
    const h = await startReading();
    expect(
      await settings(h, { say_name: false, faster_after: 1, max_speed: numberValue(1.5), skip_after: 0 }),
    ).toContain('faster past 1 waiting (up to 1.5×)');
    const first = 'The first message, read while the rest arrive.';
    const texts = [
      'Line two.',
      'Line three is read faster.',
      'Line four is read faster too.',
      'Line five.',
      'Line six.',
    ];
    const from = h.sandbox.requests.length;
    h.discord.clearAudio(GUILD);
    await burst(h, first, texts);
    // Line two is handed over at once (nothing waits); when it plays, three wait behind line three, then two, one, none.
    const speeds = [1, 1, 1.5, 1.5, 1, 1];
    const all = [first, ...texts];
    const expected = all.reduce((sum, text, i) => sum + h.sandbox.expectedDurationSeconds(text) / (speeds[i] ?? 1), 0);
    const audio = await h.discord.waitForAudio(GUILD, { minSeconds: expected - 0.2, quietMs: 600, timeoutMs: 40_000 });
    expect(spoken(h, from)).toEqual(all);
    expect(Math.abs(audio.seconds - expected)).toBeLessThan(0.3);
    expect(h.logs().match(/"code":"autoread-faster"/g)).toHaveLength(2);
  }, 60_000);

  it('past skip_after waiting, skips to the newest with ONE notice; the skipped make no API call', async () => {
    const h = await startReading();
    await settings(h, { say_name: false, faster_after: 0, skip_after: 2 });
    const first = 'The first message, read while the rest arrive.';
    const texts = [
      'Message two.',
      'Message three.',
      'Message four.',
      'Message five.',
      'Message six.',
      'Message seven.',
      'Message eight.',
    ];
    const from = h.sandbox.requests.length;
    const notices = () =>
      h.discord.channelMessages(TEXT).filter((m) => String(m.message['content']).startsWith('Auto-read fell'));
    h.discord.clearAudio(GUILD);
    await burst(h, first, texts);
    // Two is handed at once; three, four, five wait: past 2, three and four go (the one notice); five, six, seven:
    // past 2 again, five and six go (no second notice); seven and eight are read.
    const read = [first, 'Message two.', 'Message seven.', 'Message eight.'];
    await expect.poll(() => spoken(h, from), { timeout: 30_000 }).toEqual(read);
    const expected = read.reduce((sum, text) => sum + h.sandbox.expectedDurationSeconds(text), 0);
    await h.discord.waitForAudio(GUILD, { minSeconds: expected - 0.2, quietMs: 600, timeoutMs: 30_000 });
    expect(spoken(h, from)).toEqual(read);
    expect(notices()).toHaveLength(1);
    expect(notices()[0]?.message['content']).toBe(
      'Auto-read fell 2 messages behind, so it skipped to the newest (nothing is spent on skipped ones).',
    );
  }, 60_000);
});
