// A moderator drags a speaking seat (a helper, or the main bot without helpers) into an empty voice channel: its line
// ends cut off, told with what was heard, and the channel it left gets a seat again (issue 93).
import { describe, expect, it } from 'vitest';
import { APP_ID, runCommand, startHarness, type Harness } from '../support/harness.ts';
import type { FakeGuildSpec } from '@saybot/local-discord';

const GUILD = '200000000000009901';
const TEXT = '210000000000009901';
const [LOUNGE, STUDY, QUIET] = ['220000000000009901', '220000000000009902', '220000000000009903'];
const [ANN, BEN] = ['300000000000009901', '300000000000009902'];
function guilds(): FakeGuildSpec[] {
  return [
    {
      id: GUILD,
      name: 'Rooms',
      textChannelId: TEXT,
      voiceChannels: [
        { id: LOUNGE, name: 'lounge' },
        { id: STUDY, name: 'study' },
        { id: QUIET, name: 'quiet' },
      ],
      members: [
        { id: ANN, username: 'ann', voiceChannelId: LOUNGE, locale: 'en-US' },
        { id: BEN, username: 'ben', voiceChannelId: STUDY, locale: 'en-US' },
      ],
    },
  ];
}
const seating = (h: Harness) => [
  h.discord.botVoiceChannel(GUILD, APP_ID),
  ...h.helpers.map((helper) => h.discord.botVoiceChannel(GUILD, helper.userId)),
];
const ended = (r: { kind: string; content?: string }) =>
  r.kind !== 'delete' && r.content !== undefined && !r.content.includes('Speaking');
const LONG = 'A long line the helper is still saying to the study when a moderator drags it into the empty quiet room.';

const LONG_VOICE = 'voice-b-en-f-01';

/** Ben's long line starts in the study on `seat` (a bot's user ID); a moderator drags that bot into the empty quiet room. */
async function draggedMidLine(h: Harness, seat: string) {
  h.sandbox.setPacing({ realtimeFactor: 1 });
  const first = await runCommand(h, {
    guildId: GUILD,
    userId: BEN,
    name: 'say',
    options: { text: LONG, voice: LONG_VOICE },
  });
  await first.handle.waitFor((r) => (r.content ?? '').includes('Speaking'), 30_000);
  await h.discord.waitForPacket({ guildId: GUILD, channelId: STUDY }, (p) => !p.silence, 20_000);
  h.discord.setVoiceState(GUILD, seat, QUIET);
  // Ends soon after the drag (nobody hears it in the quiet room); before the fix it said "Speaking…" for good.
  await expect.poll(() => first.handle.responses.some(ended), { timeout: 15_000 }).toBe(true);
  const end = first.handle.responses.find(ended)!;
  expect(end.content).toMatch(/^The reply was cut off after \d+(\.\d+)? s/);
  expect(end.content).toContain(`<#${STUDY}>`);
  // Out of the quiet room, nobody kept there; the study has a seat again and hears the next line.
  await expect.poll(() => h.discord.botVoiceChannel(GUILD, seat)).toBeNull();
  h.sandbox.setPacing({ realtimeFactor: 0 });
  h.discord.clearAudio({ guildId: GUILD, channelId: STUDY });
  const again = await runCommand(h, {
    guildId: GUILD,
    userId: BEN,
    name: 'say',
    options: { text: 'Back to the study.' },
  });
  const done = await again.handle.waitFor(ended, 60_000);
  expect(done.content).toMatch(/^Spoke/);
  await h.discord.waitForAudio({ guildId: GUILD, channelId: STUDY }, { minSeconds: 0.3 });
  expect(h.discord.heard({ guildId: GUILD, channelId: QUIET }).seconds).toBe(0);
}

describe('a speaking seat dragged by a moderator', () => {
  it('into an empty channel, a helper: its line ends cut off with what was heard, and the study is served again', async () => {
    const h = await startHarness({ guilds: guilds(), helpers: 1, config: { voiceIdleTimeoutMs: 60_000 } });
    try {
      await runCommand(h, { guildId: GUILD, userId: ANN, name: 'join' });
      await draggedMidLine(h, h.helpers[0]!.userId);
      expect(seating(h)[0]).toBe(LOUNGE);
    } finally {
      await h.close();
    }
  });

  it('into an empty channel, the main bot without helpers: the same', async () => {
    const h = await startHarness({ guilds: guilds(), config: { voiceIdleTimeoutMs: 60_000 } });
    try {
      await draggedMidLine(h, APP_ID);
    } finally {
      await h.close();
    }
  });

  it('into a channel where a member listens: the line goes on there, and the bot stays with them', async () => {
    const h = await startHarness({ guilds: guilds(), config: { voiceIdleTimeoutMs: 60_000 } });
    try {
      h.sandbox.setPacing({ realtimeFactor: 1 });
      h.discord.setVoiceState(GUILD, ANN, QUIET);
      const said = await runCommand(h, {
        guildId: GUILD,
        userId: BEN,
        name: 'say',
        options: { text: LONG, voice: LONG_VOICE },
      });
      await said.handle.waitFor((r) => (r.content ?? '').includes('Speaking'), 30_000);
      await h.discord.waitForPacket({ guildId: GUILD, channelId: STUDY }, (p) => !p.silence, 20_000);
      h.discord.setVoiceState(GUILD, APP_ID, QUIET);
      const end = await said.handle.waitFor(ended, 60_000);
      expect(end.content).toMatch(/^Spoke/);
      // The reply names where it was heard: the quiet room it ended in, and the study it began in.
      expect(end.content).toContain(`<#${QUIET}>`);
      expect(end.content).toContain(`<#${STUDY}>`);
      expect(h.discord.heard({ guildId: GUILD, channelId: QUIET }).seconds).toBeGreaterThan(0.5);
      expect(h.discord.botVoiceChannel(GUILD, APP_ID)).toBe(QUIET);
      // The seat is where Discord put it: the study, listened to by ben alone, is no longer its channel.
      expect(h.bot.players.find(GUILD)?.channelId).toBe(QUIET);
    } finally {
      await h.close();
    }
  });
});
