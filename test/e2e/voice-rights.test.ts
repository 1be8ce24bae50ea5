// A member's own voice rights, end to end against the local Discord and the sandbox: SayBot never speaks for a member
// where they may not speak themselves (server-muted, denied Speak by the channel's overwrite, a Stage listener), and
// /stop and /skip act on what the member asked for unless they moderate voice. Refusals need no audio: they are
// checked by what the Voice API was asked (nothing) and where SayBot is (nowhere).
import { MessageFlags, PermissionFlagsBits as P } from 'discord.js';
import { beforeEach, describe, expect, it } from 'vitest';
import type { FakeGuildSpec, InteractionHandle } from '@saybot/local-discord/types.ts';
import { t } from '../../src/core/i18n/catalogue.ts';
import { useFileHarness } from '../support/file-harness.ts';
import { APP_ID, runCommand } from '../support/harness.ts';
import { postChat } from '../support/chat.ts';
import { heldSay } from '../support/held-say.ts';

const GUILD = '200000000000000032';
const TEXT = '210000000000000032';
const VOICE = '220000000000000032';
const STAGE = '220000000000000033';
const ALICE = { id: '300000000000000321', username: 'alice' }; // plain member, in voice
const CAROL = { id: '300000000000000322', username: 'carol' }; // plain member, in voice
const BOB = { id: '300000000000000323', username: 'bob' }; // plain member, not in voice
const MOD = { id: '300000000000000324', username: 'mod' }; // Mute Members, not in voice
const QUIET = { id: '300000000000000325', username: 'quiet' }; // in voice, denied Speak there by an overwrite
const LISTENER = { id: '300000000000000326', username: 'listener' }; // in the Stage's audience
const MANAGER = { id: '300000000000000327', username: 'manager' }; // Manage Server, in voice (auto-read)
/** A Stage where SayBot has Mute Members (a Stage moderator's right): it may make itself a speaker. */
const MODERATED_STAGE = '220000000000000034';
const SPEAKER = { id: '300000000000000328', username: 'speaker' }; // on the moderated Stage, made a speaker
const PLAIN_SPEAKER = { id: '300000000000000329', username: 'plainspeaker' }; // on the plain Stage, made a speaker
const MOVER = { id: '300000000000000330', username: 'mover' }; // Move Members, not in voice
const ELSEWHERE = { id: '300000000000000331', username: 'elsewhere' }; // plain member, in the other voice channel
const OTHER_VOICE = '220000000000000035';
const AUDIENCE = { id: '300000000000000332', username: 'audience' }; // in the moderated Stage's audience

function guilds(): FakeGuildSpec[] {
  return [
    {
      id: GUILD,
      name: 'Rights',
      textChannelId: TEXT,
      voiceChannels: [
        { id: VOICE, name: 'v', overwrites: [{ id: QUIET.id, type: 1, deny: P.Speak }] },
        { id: OTHER_VOICE, name: 'w' },
      ],
      stageChannels: [
        { id: STAGE, name: 'stage' },
        {
          id: MODERATED_STAGE,
          name: 'moderated',
          overwrites: [{ id: APP_ID, type: 1, allow: P.MuteMembers }],
        },
      ],
      members: [
        { ...ALICE, voiceChannelId: VOICE, locale: 'en-US' },
        { ...CAROL, voiceChannelId: VOICE, locale: 'en-US' },
        { ...BOB, locale: 'en-US' },
        { ...MOD, locale: 'en-US', permissions: P.MuteMembers },
        { ...QUIET, voiceChannelId: VOICE, locale: 'en-US' },
        { ...LISTENER, voiceChannelId: STAGE, locale: 'en-US' },
        { ...MANAGER, voiceChannelId: VOICE, locale: 'en-US', permissions: P.ManageGuild },
        { ...SPEAKER, voiceChannelId: MODERATED_STAGE, locale: 'en-US' },
        { ...PLAIN_SPEAKER, voiceChannelId: STAGE, locale: 'en-US' },
        { ...MOVER, locale: 'en-US', permissions: P.MoveMembers },
        { ...ELSEWHERE, voiceChannelId: OTHER_VOICE, locale: 'en-US' },
        { ...AUDIENCE, voiceChannelId: MODERATED_STAGE, locale: 'en-US' },
      ],
    },
  ];
}

// The sandbox speaks at twice its default rate: every length asserted here is its own (expectedDurationSeconds).
const h = useFileHarness({
  guilds: guilds(),
  config: { voiceIdleTimeoutMs: 60_000 },
  sandbox: { secondsPerCharacter: 0.03 },
});

// Each test starts with nobody muted, the bot in no voice channel and nothing read aloud, whatever ran before.
beforeEach(async () => {
  h.discord.setVoiceState(GUILD, ALICE.id, VOICE, { mute: false });
  if (h.discord.botVoiceChannel(GUILD) !== null) {
    await runCommand(h, { guildId: GUILD, userId: MANAGER.id, name: 'autoread', subcommand: 'stop' });
    await runCommand(h, { guildId: GUILD, userId: MANAGER.id, name: 'leave' });
    await expect.poll(() => h.discord.botVoiceChannel(GUILD), { timeout: 10_000 }).toBeNull();
  }
});

const isPrivate = (handle: InteractionHandle) =>
  ((handle.responses.at(-1)?.flags ?? 0) & MessageFlags.Ephemeral) === MessageFlags.Ephemeral;
const say = (userId: string, text: string) => runCommand(h, { guildId: GUILD, userId, name: 'say', options: { text } });
/** Waits for a reply of `handle` starting with `prefix` (a /say's "Speaking", "Spoke", "Stopped"): a bound, not a figure. */
const reply = (handle: InteractionHandle, prefix: string) =>
  handle.waitFor((r) => (r.content ?? '').startsWith(prefix), 60_000);

/** Its reply once past "Speaking…". */
const ended = (said: InteractionHandle) =>
  said.waitFor((r) => (r.content ?? 'Speaking').startsWith('Speaking') === false, 60_000);

describe("the member's own voice rights", () => {
  it('refuses a server-muted member privately, for /say and for a reply\'s "Play in my voice channel", with nothing paid', async () => {
    // A file first (Alice not muted yet), whose "Play in my voice channel" she presses once muted.
    const file = await runCommand(h, {
      guildId: GUILD,
      userId: ALICE.id,
      name: 'say',
      options: { text: 'Muted soon.', output: 'file' },
    });
    const message = (await file.handle.waitFor((r) => r.files.length > 0, 60_000)).message ?? {};
    const rows = (message.components ?? []) as Array<{ components: Array<{ custom_id: string }> }>;
    const play = rows[0]?.components[0]?.custom_id ?? '';
    h.discord.setVoiceState(GUILD, ALICE.id, VOICE, { mute: true });
    const requests = h.sandbox.requests.length;
    const refused = await say(ALICE.id, 'I am muted.');
    expect(refused.content).toBe(t('en-US', 'error.voice.memberMuted', { channel: `<#${VOICE}>` }));
    expect(isPrivate(refused.handle)).toBe(true);
    const pressed = await h.discord.pressButton({
      guildId: GUILD,
      userId: ALICE.id,
      messageId: String(message.id),
      customId: play,
    });
    expect((await pressed.waitForFinal(60_000)).content).toBe(
      t('en-US', 'error.voice.memberMuted', { channel: `<#${VOICE}>` }),
    );
    expect(h.sandbox.requests.length).toBe(requests);
    expect(h.discord.botVoiceChannel(GUILD)).toBeNull();
    expect(h.logs()).toContain('"code":"error.voice.memberMuted"');
  });

  it("refuses a member denied Speak by the voice channel's overwrite, for /say and the Speak menu, with nothing paid", async () => {
    const requests = h.sandbox.requests.length;
    const refused = await say(QUIET.id, 'Let me talk.');
    expect(refused.content).toBe(t('en-US', 'error.voice.memberMayNotSpeak', { channel: `<#${VOICE}>` }));
    expect(isPrivate(refused.handle)).toBe(true);
    const menu = await h.discord.messageCommand({
      guildId: GUILD,
      userId: QUIET.id,
      name: 'Speak',
      message: { author: { id: ALICE.id, username: 'alice' }, content: 'Read this for me.' },
    });
    const answer = await menu.waitFor((r) => r.kind !== 'delete' && r.content !== undefined, 60_000);
    expect(answer.content).toBe(t('en-US', 'error.voice.memberMayNotSpeak', { channel: `<#${VOICE}>` }));
    expect(isPrivate(menu)).toBe(true);
    expect(h.sandbox.requests.length).toBe(requests);
    expect(h.discord.botVoiceChannel(GUILD)).toBeNull();
  });

  it('refuses a Stage listener who is not a speaker, for /emote, with nothing paid', async () => {
    const requests = h.sandbox.requests.length;
    const refused = await runCommand(h, {
      guildId: GUILD,
      userId: LISTENER.id,
      name: 'emote',
      options: { text: 'From the audience!' },
    });
    expect(refused.content).toBe(t('en-US', 'error.voice.memberSuppressed', { channel: `<#${STAGE}>` }));
    expect(isPrivate(refused.handle)).toBe(true);
    expect(h.sandbox.requests.length).toBe(requests);
    expect(h.discord.botVoiceChannel(GUILD)).toBeNull();
  });
});

describe('on a Stage', () => {
  /** The speaker's /say of `text` is heard on the moderated Stage, SayBot having asked Discord once to speak there. */
  async function expectHeardOnStage(text: string): Promise<void> {
    const from = h.discord.restLog.length;
    const said = await say(SPEAKER.id, text);
    await reply(said.handle, 'Spoke');
    expect(h.discord.botVoiceChannel(GUILD)).toBe(MODERATED_STAGE);
    expect(h.discord.heard(GUILD).seconds).toBeGreaterThan(h.sandbox.expectedDurationSeconds(text) - 0.3);
    // It asked Discord once to speak there, as Discord's API has it (its own requests since this /say).
    const patches = h.discord.restLog
      .slice(from)
      .filter((entry) => entry.method === 'PATCH' && decodeURIComponent(entry.path).endsWith('/voice-states/@me'));
    expect(patches.map((entry) => [entry.status, JSON.parse(entry.body) as unknown])).toEqual([
      [204, { channel_id: MODERATED_STAGE, suppress: false }],
    ]);
  }

  it("makes itself a speaker where it may, so a Stage speaker's /say is heard by the Stage", async () => {
    h.discord.setVoiceState(GUILD, SPEAKER.id, MODERATED_STAGE, { suppress: false });
    h.discord.clearAudio(GUILD);
    await expectHeardOnStage('Heard on the Stage.');
  });

  it('moved onto the Stage from another channel, makes itself a speaker there too: the Stage hears what was paid', async () => {
    const first = await say(ALICE.id, 'First in the voice channel.');
    await reply(first.handle, 'Spoke');
    expect(h.discord.botVoiceChannel(GUILD)).toBe(VOICE);
    // SayBot never leaves members who listen for a caller elsewhere: it goes once nobody is left to hear it.
    const listeners = [ALICE, CAROL, QUIET, MANAGER];
    for (const member of listeners) h.discord.setVoiceState(GUILD, member.id, null);
    try {
      h.discord.setVoiceState(GUILD, SPEAKER.id, MODERATED_STAGE, { suppress: false });
      h.discord.clearAudio(GUILD);
      await expectHeardOnStage('Heard on the Stage after a move.');
    } finally {
      for (const member of listeners) h.discord.setVoiceState(GUILD, member.id, VOICE);
    }
  });

  it("joins a Stage listener's Stage in the audience: a /join makes SayBot no speaker, its first audio does", async () => {
    const from = h.discord.restLog.length;
    const joined = await runCommand(h, { guildId: GUILD, userId: AUDIENCE.id, name: 'join' });
    expect(joined.content).toContain(`<#${MODERATED_STAGE}>`);
    expect(h.discord.botVoiceChannel(GUILD)).toBe(MODERATED_STAGE);
    const speakerRequests = () =>
      h.discord.restLog
        .slice(from)
        .filter((entry) => entry.method === 'PATCH' && decodeURIComponent(entry.path).endsWith('/voice-states/@me'));
    expect(speakerRequests()).toEqual([]);
    h.discord.setVoiceState(GUILD, SPEAKER.id, MODERATED_STAGE, { suppress: false });
    h.discord.clearAudio(GUILD);
    await expectHeardOnStage('Heard once a speaker asked.');
  });

  it('sent back to the audience by a moderator, makes itself a speaker again before its next audio', async () => {
    h.discord.setVoiceState(GUILD, SPEAKER.id, MODERATED_STAGE, { suppress: false });
    h.discord.clearAudio(GUILD);
    await expectHeardOnStage('Heard on the Stage first.');
    h.discord.setVoiceState(GUILD, APP_ID, MODERATED_STAGE, { suppress: true });
    h.discord.clearAudio(GUILD);
    await expectHeardOnStage('Heard again once a speaker.');
  });

  it('sent back to the audience while it speaks, makes itself a speaker again at once, not at its next part', async () => {
    h.discord.setVoiceState(GUILD, SPEAKER.id, MODERATED_STAGE, { suppress: false });
    h.discord.clearAudio(GUILD);
    const from = h.discord.restLog.length;
    const said = await h.discord.command({
      guildId: GUILD,
      userId: SPEAKER.id,
      name: 'say',
      options: [{ name: 'text', value: 'One part that lasts a few seconds, long enough to be sent to the audience.' }],
    });
    await h.discord.waitForPacket(GUILD, (p) => !p.silence);
    h.discord.setVoiceState(GUILD, APP_ID, MODERATED_STAGE, { suppress: true });
    const done = await ended(said);
    expect(done.content).toMatch(/^Spoke/);
    const speakerRequests = h.discord.restLog
      .slice(from)
      .filter((entry) => entry.method === 'PATCH' && decodeURIComponent(entry.path).endsWith('/voice-states/@me'));
    expect(speakerRequests).toHaveLength(2);
  });

  it('in the audience and no longer allowed to become a speaker once paid: says nobody heard it, never "Spoke"', async () => {
    h.discord.setVoiceState(GUILD, SPEAKER.id, MODERATED_STAGE, { suppress: false });
    await runCommand(h, { guildId: GUILD, userId: SPEAKER.id, name: 'join' });
    expect(h.discord.botVoiceChannel(GUILD)).toBe(MODERATED_STAGE);
    h.discord.clearAudio(GUILD);
    const said = await heldSay(h, GUILD, SPEAKER.id, 'Paid, then the Stage right taken away.');
    h.discord.setChannelOverwrites(GUILD, MODERATED_STAGE, []);
    try {
      // SayBot knows of the overwrite before the answer is let go.
      const overwrites = () => {
        const stage = h.bot.client.guilds.cache.get(GUILD)?.channels.cache.get(MODERATED_STAGE);
        return stage?.isVoiceBased() === true ? stage.permissionOverwrites.cache.size : -1;
      };
      await expect.poll(overwrites).toBe(0);
      h.sandbox.resumePaused();
      const done = await ended(said);
      // Nothing of it was heard: never "the rest was dropped" (issue 94, item 7).
      expect(done.content).toContain(
        t('en-US', 'error.revoked.notStarted.bot-unheard', { channel: `<#${MODERATED_STAGE}>` }),
      );
      expect(h.discord.heard(GUILD).seconds).toBe(0);
    } finally {
      h.discord.setChannelOverwrites(GUILD, MODERATED_STAGE, [{ id: APP_ID, type: 1, allow: P.MuteMembers }]);
    }
  });

  it('refuses a Stage speaker privately where it could only join the audience, with nothing paid', async () => {
    h.discord.setVoiceState(GUILD, PLAIN_SPEAKER.id, STAGE, { suppress: false });
    const requests = h.sandbox.requests.length;
    const refused = await say(PLAIN_SPEAKER.id, 'Nobody would hear this.');
    expect(refused.content).toBe(t('en-US', 'error.voice.botStageAudience', { channel: `<#${STAGE}>` }));
    expect(isPrivate(refused.handle)).toBe(true);
    expect(h.sandbox.requests.length).toBe(requests);
    expect(h.discord.botVoiceChannel(GUILD)).toBeNull();
  });
});

describe('SayBot server-muted by a moderator', () => {
  const meMuted = () => h.bot.client.guilds.cache.get(GUILD)?.members.me?.voice.serverMute;
  async function muteSayBot(mute: boolean): Promise<void> {
    h.discord.setVoiceState(GUILD, APP_ID, VOICE, { mute });
    await expect.poll(meMuted).toBe(mute);
  }

  it('refuses a /say privately where nobody would hear it, with nothing paid', async () => {
    await reply((await say(ALICE.id, 'Heard before the mute.')).handle, 'Spoke');
    await muteSayBot(true);
    try {
      const requests = h.sandbox.requests.length;
      const refused = await say(ALICE.id, 'Nobody would hear this.');
      expect(refused.content).toBe(t('en-US', 'error.voice.botMuted', { channel: `<#${VOICE}>` }));
      expect(isPrivate(refused.handle)).toBe(true);
      expect(h.sandbox.requests.length).toBe(requests);
    } finally {
      await muteSayBot(false);
    }
  });

  it('reads no chat aloud while muted, nothing paid; unmuted, it reads again', async () => {
    await runCommand(h, { guildId: GUILD, userId: MANAGER.id, name: 'autoread', subcommand: 'start' });
    await muteSayBot(true);
    const from = h.sandbox.requests.length;
    try {
      await postChat(h, { guildId: GUILD, channelId: TEXT }, ALICE, 'Said while nobody would hear.');
    } finally {
      await muteSayBot(false);
    }
    await postChat(h, { guildId: GUILD, channelId: TEXT }, ALICE, 'Said once heard again.');
    const spoken = () => h.sandbox.requests.slice(from).map((r) => r.text ?? '');
    await expect.poll(() => spoken().some((text) => text.endsWith('Said once heard again.'))).toBe(true);
    expect(spoken().filter((text) => text.includes('nobody would hear'))).toEqual([]);
  });

  it('muted while a paid part waits: it is not played to nobody, the member told why, the rest dropped', async () => {
    await reply((await say(ALICE.id, 'Heard before the mute.')).handle, 'Spoke');
    h.discord.clearAudio(GUILD);
    const from = h.sandbox.requests.length;
    const said = await heldSay(h, GUILD, ALICE.id, 'Paid, then muted before it played.');
    await muteSayBot(true);
    try {
      h.sandbox.resumePaused();
      const done = await ended(said);
      // Nothing of it was heard: never "the rest was dropped" (issue 94, item 7).
      expect(done.content).toContain(t('en-US', 'error.revoked.notStarted.bot-unheard', { channel: `<#${VOICE}>` }));
      expect(h.sandbox.requests.length - from).toBe(1);
    } finally {
      await muteSayBot(false);
    }
  });
});

describe('/stop and /skip', () => {
  it("changes nothing for a plain member outside SayBot's voice channel", async () => {
    const text = 'Alice keeps talking.';
    const said = await say(ALICE.id, text);
    await reply(said.handle, 'Speaking');
    for (const name of ['stop', 'skip']) {
      const refused = await runCommand(h, { guildId: GUILD, userId: BOB.id, name });
      expect(refused.content).toBe(t('en-US', 'player.notInChannel', { channel: `<#${VOICE}>` }));
      expect(isPrivate(refused.handle)).toBe(true);
    }
    await reply(said.handle, 'Spoke');
  });

  it("lets a plain member in the channel stop their own request only, and a moderator (Mute Members) stop everyone's", async () => {
    // Long enough (about 12 s) to be still playing when the moderator stops it, however busy the machine.
    const alice = await say(
      ALICE.id,
      'Alice speaks first, and at some length: a reply that lasts a good while, long enough that it is still playing ' +
        'when the others ask their questions and the moderator stops everything.',
    );
    await reply(alice.handle, 'Speaking');
    const carol = await say(CAROL.id, 'Carol waits her turn.');
    const aliceAgain = await say(ALICE.id, 'Alice again, later.');
    expect((await runCommand(h, { guildId: GUILD, userId: CAROL.id, name: 'skip' })).content).toBe(
      t('en-US', 'skip.notYours'),
    );
    expect((await runCommand(h, { guildId: GUILD, userId: CAROL.id, name: 'stop' })).content).toBe(
      t('en-US', 'stop.own', { count: 1 }),
    );
    await reply(carol.handle, 'Stopped');
    // The moderator stops the rest from outside voice.
    expect((await runCommand(h, { guildId: GUILD, userId: MOD.id, name: 'stop' })).content).toBe(
      t('en-US', 'stop.stopped', { count: 1 }),
    );
    await reply(alice.handle, 'Stopped');
    await reply(aliceAgain.handle, 'Stopped');
  });

  it("keeps auto-read's unread messages when a plain member uses /stop", async () => {
    const start = await runCommand(h, { guildId: GUILD, userId: MANAGER.id, name: 'autoread', subcommand: 'start' });
    expect(start.content).toContain(`aloud in <#${VOICE}>`);
    const from = h.sandbox.requests.length;
    const texts = ['The first message of three.', 'The second one.', 'And the third.'];
    for (const content of texts) await postChat(h, { guildId: GUILD, channelId: TEXT }, ALICE, content);
    await h.discord.waitForPacket(GUILD, (p) => !p.silence);
    expect((await runCommand(h, { guildId: GUILD, userId: CAROL.id, name: 'stop' })).content).toBe(
      t('en-US', 'stop.nothingOwn'),
    );
    const spoken = () =>
      h.sandbox.requests
        .slice(from)
        .filter((r) => r.endpoint === 'tts')
        .map((r) => r.text ?? '');
    await expect.poll(() => spoken().length, { timeout: 15_000 }).toBe(texts.length);
    // The first names its author; each is read in full, in order.
    expect(spoken().map((text, index) => text.endsWith(texts[index] ?? '?'))).toEqual([true, true, true]);
  });
});

describe('with SayBot in no voice channel', () => {
  it("tells each member that nothing changed, and another member's file being made goes on (issue 56)", async () => {
    // Alice's file is being made: its request charged, its answer held at the service, SayBot in no voice channel.
    h.sandbox.injectFault({ kind: 'hold-after-charge', endpoint: 'tts' });
    const from = h.sandbox.requests.length;
    const file = await h.discord.command({
      guildId: GUILD,
      userId: ALICE.id,
      name: 'say',
      options: [
        { name: 'text', value: 'Alice wants this as a file, made while others stop.' },
        { name: 'output', value: 'file' },
      ],
    });
    await expect.poll(() => h.sandbox.requests.slice(from).some((r) => r.outcome === 'held')).toBe(true);
    expect(h.discord.botVoiceChannel(GUILD)).toBeNull();
    // A plain member, in voice or not: nothing of theirs plays or waits, so nothing was stopped.
    for (const member of [CAROL, BOB]) {
      const stop = await runCommand(h, { guildId: GUILD, userId: member.id, name: 'stop' });
      expect(stop.content).toBe(t('en-US', 'stop.nothingOwn'));
      expect(isPrivate(stop.handle)).toBe(true);
    }
    // A moderator is not told of rights they hold: nothing plays or waits at all.
    for (const member of [MOD, MANAGER]) {
      const stop = await runCommand(h, { guildId: GUILD, userId: member.id, name: 'stop' });
      expect(stop.content).toBe(t('en-US', 'stop.nothing'));
    }
    expect((await runCommand(h, { guildId: GUILD, userId: CAROL.id, name: 'skip' })).content).toBe(
      t('en-US', 'skip.nothing'),
    );
    expect((await runCommand(h, { guildId: GUILD, userId: CAROL.id, name: 'leave' })).content).toBe(
      t('en-US', 'error.voice.notConnected'),
    );
    h.sandbox.resumePaused();
    const posted = await file.waitFor((r) => (r.files ?? []).length > 0, 60_000);
    expect(posted.files).toHaveLength(1);
  });
});

describe('/leave and /join elsewhere', () => {
  const text = 'Alice tells a story that goes on for a good few seconds.';

  it("cuts nothing of another member's reply: a plain member's /leave is refused privately, and /join elsewhere too", async () => {
    h.discord.clearAudio(GUILD);
    const said = await say(ALICE.id, text);
    await reply(said.handle, 'Speaking');
    for (const userId of [BOB.id, CAROL.id]) {
      const refused = await runCommand(h, { guildId: GUILD, userId, name: 'leave' });
      expect(refused.content).toBe(t('en-US', 'leave.othersQueued', { channel: `<#${VOICE}>` }));
      expect(isPrivate(refused.handle)).toBe(true);
    }
    const moved = await runCommand(h, { guildId: GUILD, userId: ELSEWHERE.id, name: 'join' });
    // /join has no `output` option: the refusal offers none.
    expect(moved.content).toBe(t('en-US', 'error.voice.busyElsewhere.voiceOnly', { channel: `<#${VOICE}>` }));
    expect(isPrivate(moved.handle)).toBe(true);
    await reply(said.handle, 'Spoke');
    expect(h.discord.botVoiceChannel(GUILD)).toBe(VOICE);
    // Heard in full: the whole clip, less a frame or two of rounding.
    const heard = await h.discord.waitForAudio(GUILD);
    // Seen once short (0.08 s) in a whole run: the listener's counts say whether audio was lost on its way.
    const { decryptFailures, decodeFailures, dave } = heard;
    const counts = JSON.stringify({ packets: heard.packets.length, decryptFailures, decodeFailures, dave });
    expect(heard.seconds, counts).toBeGreaterThan(h.sandbox.expectedDurationSeconds(text) - 0.1);
  });

  it("lets a member with Move Members make SayBot leave during another member's reply", async () => {
    const said = await say(ALICE.id, text);
    await reply(said.handle, 'Speaking');
    const left = await runCommand(h, { guildId: GUILD, userId: MOVER.id, name: 'leave' });
    expect(left.content).toBe(t('en-US', 'leave.left', { channel: `<#${VOICE}>` }));
    await reply(said.handle, 'Stopped');
    await expect.poll(() => h.discord.botVoiceChannel(GUILD), { timeout: 10_000 }).toBeNull();
  });

  it('says a reply whole when it is asked for again at once after a /leave stopped it, its audio still arriving', async () => {
    // Its own text: a part cached by another case would come whole from the cache, with no fetch to join.
    const story = 'Alice starts her story again, and this time it is heard from its start to its very end.';
    // The service's body pauses part of the way through until resumePaused(): the second /say joins that fetch.
    h.sandbox.injectFault({ kind: 'pause-after', bytes: 24_000, endpoint: 'tts' });
    let again: Awaited<ReturnType<typeof say>>;
    try {
      const first = await say(ALICE.id, story);
      await reply(first.handle, 'Speaking');
      await expect.poll(() => h.sandbox.requests.some((r) => r.text === story && r.outcome === 'paused')).toBe(true);
      const left = await runCommand(h, { guildId: GUILD, userId: MOVER.id, name: 'leave' });
      expect(left.content).toBe(t('en-US', 'leave.left', { channel: `<#${VOICE}>` }));
      await reply(first.handle, 'Stopped');
      await expect.poll(() => h.discord.botVoiceChannel(GUILD), { timeout: 10_000 }).toBeNull();
      h.discord.clearAudio(GUILD);
      again = await say(ALICE.id, story);
      await reply(again.handle, 'Speaking');
    } finally {
      h.sandbox.clearFaults();
      h.sandbox.resumePaused();
    }
    // Seen once in a whole run: the second heard what the first had encoded (0.4 s), then nothing for 15 s.
    await reply(again.handle, 'Spoke');
    expect(h.sandbox.requests.filter((r) => r.text === story)).toHaveLength(1);
    const heard = await h.discord.waitForAudio(GUILD);
    expect(heard.seconds).toBeGreaterThan(h.sandbox.expectedDurationSeconds(story) - 0.1);
  });

  it('lets a plain member make SayBot leave when only their own clip plays', async () => {
    const said = await say(CAROL.id, text);
    await reply(said.handle, 'Speaking');
    const left = await runCommand(h, { guildId: GUILD, userId: CAROL.id, name: 'leave' });
    expect(left.content).toBe(t('en-US', 'leave.left', { channel: `<#${VOICE}>` }));
    await reply(said.handle, 'Stopped');
    await expect.poll(() => h.discord.botVoiceChannel(GUILD), { timeout: 10_000 }).toBeNull();
  });
});
