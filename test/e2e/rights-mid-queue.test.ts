// Rights that change while speech waits, end to end against the local Discord and the sandbox: a moderator's
// server mute or a manager's ignore reaches the member's auto-read backlog accepted before it. The message playing
// is cut short (test/e2e/rights-mid-part.test.ts checks how soon, and a /say's parts), nothing queued behind it is
// heard, and what was not yet requested never is. Checked by what the channel HEARD (its decrypted audio, in
// seconds), what the Voice API was asked, and what the channel was told.
import { PermissionFlagsBits } from 'discord.js';
import { describe, expect, it } from 'vitest';
import type { FakeGuildSpec } from '@saybot/local-discord/types.ts';
import { useHarnessPerTest } from '../support/file-harness.ts';
import { voiceStateSeen, type Harness } from '../support/harness.ts';
import { ignoreForAutoRead, postChat, spoken, startAutoRead } from '../support/chat.ts';
import {
  ALICE as ALICE_ID,
  GENERAL as VOICE,
  LONDON as GUILD,
  LONDON_TEXT as TEXT,
  londonWith,
} from '../support/world.ts';

const ALICE = { id: ALICE_ID, username: 'alice' }; // Manage Server, in voice
const CAROL = { id: '300000000000000613', username: 'carol' }; // plain member, in voice

function guilds(): FakeGuildSpec[] {
  return [
    londonWith([
      { ...ALICE, voiceChannelId: VOICE, locale: 'en-US', permissions: PermissionFlagsBits.ManageGuild },
      { ...CAROL, voiceChannelId: VOICE, locale: 'en-US' },
    ]),
  ];
}

const openHarness = useHarnessPerTest();

/** Parts of at most 120 characters (7.2 s of the sandbox's audio): a chat line with its author's name is one. */
const open = () => openHarness({ guilds: guilds(), config: { voiceIdleTimeoutMs: 60_000, maxCharsPerRequest: 120 } });

const mute = (h: Harness, userId: string) =>
  voiceStateSeen(h, userId, () => h.discord.setVoiceState(GUILD, userId, VOICE, { mute: true }));

/** Seconds of audio the channel heard since it was last cleared, once it has been quiet for a while. */
async function heardSeconds(h: Harness): Promise<number> {
  return (await h.discord.waitForAudio(GUILD, { minSeconds: 0.3, quietMs: 1_500 })).seconds;
}

/**
 * What a backlog dropped mid-message leaves heard: Alice's line whole, and of Carol's first message only what played
 * before the bot saw the change (at least a second short of it: it started just before).
 */
function expectCutThenAlice(seconds: number, first: number, alice: number): void {
  expect(seconds).toBeGreaterThan(alice - 0.1);
  expect(seconds).toBeLessThan(first + alice - 1);
}

describe('a member muted mid-queue', () => {
  it("cuts the member's auto-read message short and drops the backlog: none of it heard, the unread part never requested, no notice", async () => {
    const h = await open();
    await startAutoRead(h, GUILD, ALICE.id, { text: TEXT, voice: VOICE });
    const lines = [
      'My first message is cut short by the change, however long it would have gone on for.',
      'My second one waits in the queue.',
      'My third is unread when I am muted.',
      'My fourth is unread, and never sent.',
    ];
    const from = h.sandbox.requests.length;
    const notices = h.discord.channelMessages(TEXT).length;
    h.discord.clearAudio(GUILD);
    for (const line of lines) expect(await postChat(h, { guildId: GUILD, channelId: TEXT }, CAROL, line)).toBe(true);
    await h.discord.waitForPacket(GUILD, (packet) => !packet.silence);
    await mute(h, CAROL.id);
    // Alice, not muted, is read after the backlog: once she is heard, Carol's backlog is over.
    expect(await postChat(h, { guildId: GUILD, channelId: TEXT }, ALICE, 'Alice is still read.')).toBe(true);
    const first = h.sandbox.expectedDurationSeconds(`carol said, ${lines[0] ?? ''}`);
    const alice = h.sandbox.expectedDurationSeconds('alice said, Alice is still read.');
    await expect
      .poll(() => spoken(h, from).includes('alice said, Alice is still read.'), { timeout: 20_000 })
      .toBe(true);
    expectCutThenAlice(await heardSeconds(h), first, alice);
    const asked = spoken(h, from);
    for (const line of lines.slice(2)) expect(asked.some((text) => text.endsWith(line))).toBe(false);
    // Nothing posted in the channel about it: a mute is the moderator's, auto-read says nothing.
    expect(h.discord.channelMessages(TEXT).length).toBe(notices);
  });
});

describe('a member ignored mid-queue', () => {
  it("cuts the member's auto-read message short and drops the rest: none heard after the ignore, the unread never requested", async () => {
    const h = await open();
    await startAutoRead(h, GUILD, ALICE.id, { text: TEXT, voice: VOICE });
    const lines = [
      'My first message is cut short by the change, however long it would have gone on for.',
      'My second one waits in the queue.',
      'My third is unread when I am ignored.',
      'My fourth is unread, and never sent.',
    ];
    const from = h.sandbox.requests.length;
    h.discord.clearAudio(GUILD);
    for (const line of lines) expect(await postChat(h, { guildId: GUILD, channelId: TEXT }, CAROL, line)).toBe(true);
    await h.discord.waitForPacket(GUILD, (packet) => !packet.silence);
    await ignoreForAutoRead(h, GUILD, ALICE.id, CAROL.id);
    expect(await postChat(h, { guildId: GUILD, channelId: TEXT }, ALICE, 'Alice is still read.')).toBe(true);
    await expect
      .poll(() => spoken(h, from).includes('alice said, Alice is still read.'), { timeout: 20_000 })
      .toBe(true);
    const first = h.sandbox.expectedDurationSeconds(`carol said, ${lines[0] ?? ''}`);
    const alice = h.sandbox.expectedDurationSeconds('alice said, Alice is still read.');
    expectCutThenAlice(await heardSeconds(h), first, alice);
    const asked = spoken(h, from);
    for (const line of lines.slice(2)) expect(asked.some((text) => text.endsWith(line))).toBe(false);
  });
});
