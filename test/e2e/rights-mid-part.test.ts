// A right taken away while a part plays silences it at once, end to end against the local Discord and the sandbox: a
// moderator's server mute, a Stage speaker moved to the audience, Speak denied by the channel's overwrite or taken
// from a role, auto-read told to ignore the member, SayBot kicked from the server. Parts are long (about 15 s), so a
// part heard to its end is told apart from one cut. "At once" is checked by the order of events, never by a clock: once the bot has handled
// the event that took the right away, the channel hears at most the packets already on their way (one wakeup of the
// voice clock), and the parts after it are never requested.
import { Events, MessageFlags, PermissionFlagsBits as P, type ClientEvents } from 'discord.js';
import { describe, expect, it } from 'vitest';
import type { FakeGuildSpec, InteractionHandle } from '@saybot/local-discord/types.ts';
import { t, type MessageKey, type MessageParams } from '../../src/core/i18n/catalogue.ts';
import { countCharacters } from '../../src/core/characters.ts';
import { MAX_CATCH_UP_MS, PERIOD_MS } from '../../bench/senders/voice-clock.ts';
import { useHarnessPerTest } from '../support/file-harness.ts';
import { APP_ID, runCommand, type Harness } from '../support/harness.ts';
import { DEFAULT_PERMISSIONS } from '@saybot/local-discord/state.ts';
import { ignoreForAutoRead, postChat, spoken, startAutoRead } from '../support/chat.ts';

const GUILD = '200000000000000048';
const TEXT = '210000000000000048';
const VOICE = '220000000000000048';
/** A Stage where SayBot has Mute Members, so it makes itself a speaker there. */
const STAGE = '220000000000000049';
const ALICE = { id: '300000000000000481', username: 'alice' }; // Manage Server, in voice
const CAROL = { id: '300000000000000482', username: 'carol' }; // plain member, in voice
const SPEAKER = { id: '300000000000000483', username: 'speaker' }; // on the Stage, made a speaker by each test

function guilds(): FakeGuildSpec[] {
  return [
    {
      id: GUILD,
      name: 'Mid-part',
      textChannelId: TEXT,
      voiceChannels: [{ id: VOICE, name: 'v' }],
      stageChannels: [{ id: STAGE, name: 'stage', overwrites: [{ id: APP_ID, type: 1, allow: P.MuteMembers }] }],
      members: [
        { ...ALICE, voiceChannelId: VOICE, locale: 'en-US', permissions: P.ManageGuild },
        { ...CAROL, voiceChannelId: VOICE, locale: 'en-US' },
        { ...SPEAKER, voiceChannelId: STAGE, locale: 'en-US' },
      ],
    },
  ];
}

const openHarness = useHarnessPerTest();
/** Parts of up to 250 characters (15 s of the sandbox's audio), so a /say of three sentences is three long parts. */
const open = () => openHarness({ guilds: guilds(), config: { voiceIdleTimeoutMs: 60_000, maxCharsPerRequest: 250 } });

/** Three sentences of about 240 characters: three parts, each heard for about 14 s when nothing cuts it. */
const PARTS = ['first', 'second', 'third'].map(
  (which) =>
    `This ${which} sentence is long enough to be a part of its own, and it goes on and on for quite a while, ` +
    'with clause after clause added to it so that its audio lasts many seconds, far longer than the moment it ' +
    'takes a moderator to act on what they hear.',
);

/**
 * What may still reach the channel after the bot handled the event: the packets of the voice clock's wakeup that
 * was already sent, at most its catch-up after a stalled event loop (MAX_CATCH_UP_MS) and the packet then due. The
 * sender itself keeps none back: a clip stopped sends nothing more.
 */
const IN_FLIGHT_PACKETS = MAX_CATCH_UP_MS / PERIOD_MS + 1;

/**
 * Packets the channel has heard once the bot has handled `event` (for which `match` holds): the test's listener
 * runs after SayBot's own, and the count is taken once the work they started without waiting on anything is done,
 * with every packet sent before then (the local Discord shares this busy thread: it may not have read them yet).
 */
function heardOnceBotSees<E extends keyof ClientEvents>(
  h: Harness,
  event: E,
  match: (...args: ClientEvents[E]) => boolean,
): Promise<number> {
  return new Promise((resolve) => {
    const listener = (...args: ClientEvents[E]) => {
      if (!match(...args)) return;
      h.bot.client.off(event, listener);
      setImmediate(() => void heardNow(h).then(resolve));
    };
    h.bot.client.on(event, listener);
  });
}

/** Packets heard of all sent until now, read or not yet by the local Discord. */
async function heardNow(h: Harness): Promise<number> {
  await h.discord.markVoice(GUILD);
  return h.discord.heardPackets(GUILD).length;
}

/** `userId`'s /say of the three long parts, once its first part is heard. */
async function sayLong(h: Harness, userId: string): Promise<{ handle: InteractionHandle; from: number }> {
  const from = h.sandbox.requests.length;
  h.discord.clearAudio(GUILD);
  const said = await runCommand(h, { guildId: GUILD, userId, name: 'say', options: { text: PARTS.join(' ') } });
  expect(said.content).toContain('Speaking');
  await h.discord.waitForPacket(GUILD, (packet) => !packet.silence);
  return { handle: said.handle, from };
}

/**
 * What a right taken away mid-part must leave: nothing but packets in flight heard after the bot saw it, the part cut
 * (less of it heard than it lasts), the third part never requested, one operator line.
 */
async function expectSilencedMidPart(h: Harness, heardAtEvent: number, from: number): Promise<void> {
  const heard = await h.discord.waitForAudio(GUILD, { minSeconds: 0.02, quietMs: 1_500 });
  expect(heard.packets.length - heardAtEvent).toBeLessThanOrEqual(IN_FLIGHT_PACKETS);
  expect(heard.seconds).toBeLessThan(h.sandbox.expectedDurationSeconds(PARTS[0] ?? '') - 1);
  // The second part may have been asked for as the first started; the third never is.
  expect(spoken(h, from)).not.toContain(PARTS[2]);
  expect(h.logs().match(/"code":"speech-rights-revoked"/g)?.length).toBe(1);
}

const isPrivate = (response: InteractionHandle['responses'][number] | undefined) =>
  ((response?.flags ?? 0) & MessageFlags.Ephemeral) === MessageFlags.Ephemeral;

/**
 * A revocation's words after paid parts left: the characters the books confirmed count as spent, heard or not; the
 * first part's, or the second's too where it was fetched ahead and came back before the right was taken away.
 */
const spent = (key: MessageKey, params: MessageParams = {}) =>
  [1, 2].map((parts) => {
    const paid = PARTS.slice(0, parts).reduce((sum, part) => sum + countCharacters(part), 0);
    return t('en-US', 'error.revoked.spent', { reason: { key, params }, paid });
  });

/** The member is told once, privately, with the words for what was taken away. */
async function expectToldOnce(handle: InteractionHandle, texts: string[]): Promise<void> {
  await handle.waitFor((r) => texts.includes(r.content ?? ''), 60_000);
  const told = handle.responses.filter((r) => texts.includes(r.content ?? ''));
  expect(told).toHaveLength(1);
  expect(isPrivate(told[0])).toBe(true);
}

describe('a right taken away while a part plays', () => {
  it('server-muted: the part playing stops at once, the rest is never requested, the member is told privately once', async () => {
    const h = await open();
    const { handle, from } = await sayLong(h, CAROL.id);
    const heardAtMute = heardOnceBotSees(h, Events.VoiceStateUpdate, (_b, after) => after.id === CAROL.id);
    h.discord.setVoiceState(GUILD, CAROL.id, VOICE, { mute: true });
    await expectSilencedMidPart(h, await heardAtMute, from);
    await expectToldOnce(handle, spent('error.revoked.muted', { channel: `<#${VOICE}>` }));
    // The channel heard some of it: the public reply that says whose words they were stays.
    expect(handle.responses.filter((r) => r.kind === 'delete')).toEqual([]);
    expect(handle.responses.find((r) => r.kind === 'edit-original' && r.content?.includes('Speaking'))).toBeDefined();
  });

  it("moved to a Stage's audience: the speaker's part stops at once", async () => {
    const h = await open();
    h.discord.setVoiceState(GUILD, SPEAKER.id, STAGE, { suppress: false });
    const { handle, from } = await sayLong(h, SPEAKER.id);
    expect(h.discord.botVoiceChannel(GUILD)).toBe(STAGE);
    const heardAtAudience = heardOnceBotSees(h, Events.VoiceStateUpdate, (_b, after) => after.id === SPEAKER.id);
    h.discord.setVoiceState(GUILD, SPEAKER.id, STAGE, { suppress: true });
    await expectSilencedMidPart(h, await heardAtAudience, from);
    await expectToldOnce(handle, spent('error.revoked.suppressed', { channel: `<#${STAGE}>` }));
  });

  it("denied Speak by the channel's overwrite: the member's part stops at once", async () => {
    const h = await open();
    const { handle, from } = await sayLong(h, CAROL.id);
    const heardAtDenial = heardOnceBotSees(h, Events.ChannelUpdate, (_b, after) => after.id === VOICE);
    h.discord.setChannelOverwrites(GUILD, VOICE, [{ id: CAROL.id, type: 1, deny: P.Speak }]);
    await expectSilencedMidPart(h, await heardAtDenial, from);
    await expectToldOnce(handle, spent('error.revoked.may-not-speak', { channel: `<#${VOICE}>` }));
  });

  it("Speak taken from @everyone (the role's permissions): a plain member's part stops at once", async () => {
    const h = await open();
    const { handle, from } = await sayLong(h, CAROL.id);
    const heardAtChange = heardOnceBotSees(h, Events.GuildRoleUpdate, (_b, after) => after.id === GUILD);
    h.discord.setRolePermissions(GUILD, GUILD, DEFAULT_PERMISSIONS & ~P.Speak);
    await expectSilencedMidPart(h, await heardAtChange, from);
    await expectToldOnce(handle, spent('error.revoked.may-not-speak', { channel: `<#${VOICE}>` }));
  });

  it('SayBot kicked from the server: what plays there stops at once, the rest is never requested, the member is told why', async () => {
    const h = await open();
    const { handle, from } = await sayLong(h, CAROL.id);
    const heardAtRemoval = heardOnceBotSees(h, Events.GuildDelete, (guild) => guild.id === GUILD);
    h.discord.removeBot(GUILD);
    const heardAtEvent = await heardAtRemoval;
    const heard = await h.discord.waitForAudio(GUILD, { minSeconds: 0.02, quietMs: 1_500 });
    expect(heard.packets.length - heardAtEvent).toBeLessThanOrEqual(IN_FLIGHT_PACKETS);
    expect(heard.seconds).toBeLessThan(h.sandbox.expectedDurationSeconds(PARTS[0] ?? '') - 1);
    expect(spoken(h, from)).not.toContain(PARTS[2]);
    // As Discord does for a kick: the bot's voice connection closed with 4014 ("you were kicked").
    expect(h.discord.voiceCloses(GUILD).map((close) => close.code)).toContain(4014);
    // Told that, not that the connection was lost and a new /say would rejoin.
    await expectToldOnce(handle, spent('error.revoked.not-served'));
  });
});

describe('a member auto-read is told to ignore while their message is read', () => {
  it('is silenced at once: nothing of it heard after the ignore is answered, no notice in the channel', async () => {
    const h = await open();
    await startAutoRead(h, GUILD, ALICE.id, { text: TEXT, voice: VOICE });
    // Under auto-read's 200 characters: one part of about 11 s.
    const line =
      'This message is long enough to be read for many seconds, clause after clause, so that a manager has ' +
      'all the time needed to have auto-read ignore me while it plays.';
    const notices = h.discord.channelMessages(TEXT).length;
    h.discord.clearAudio(GUILD);
    expect(await postChat(h, { guildId: GUILD, channelId: TEXT }, CAROL, line)).toBe(true);
    await h.discord.waitForPacket(GUILD, (packet) => !packet.silence);
    await ignoreForAutoRead(h, GUILD, ALICE.id, CAROL.id);
    // The answer goes out after the ignore list changed: counted from when the test has it.
    const heardAtAnswer = await heardNow(h);
    const heard = await h.discord.waitForAudio(GUILD, { minSeconds: 0.02, quietMs: 1_500 });
    expect(heard.packets.length - heardAtAnswer).toBeLessThanOrEqual(IN_FLIGHT_PACKETS);
    expect(heard.seconds).toBeLessThan(h.sandbox.expectedDurationSeconds(`carol said, ${line}`) - 1);
    expect(h.discord.channelMessages(TEXT).length).toBe(notices);
  });
});
