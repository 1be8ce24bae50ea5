// A moderator drags SayBot from the channel a member's /say was accepted in into one where that member may not be:
// what waits of theirs is checked against the channel the bot is in now, so nothing more of it is requested or heard
// there; another member who may speak there goes on (the owner's boundary).
import { PermissionFlagsBits as P } from 'discord.js';
import { describe, expect, it } from 'vitest';
import type { FakeGuildSpec } from '@saybot/local-discord';
import { APP_ID, runCommand, startHarness, voiceStateSeen } from '../support/harness.ts';
import { spoken } from '../support/chat.ts';

const GUILD = '200000000000009911';
const TEXT = '210000000000009911';
const [LOUNGE, QUIET] = ['220000000000009911', '220000000000009912'];
const [ANN, CAL, DEB] = ['300000000000009911', '300000000000009912', '300000000000009913'];
function guilds(): FakeGuildSpec[] {
  const denied = P.ViewChannel | P.Connect | P.Speak;
  return [
    {
      id: GUILD,
      name: 'Drag',
      textChannelId: TEXT,
      voiceChannels: [
        { id: LOUNGE, name: 'lounge' },
        { id: QUIET, name: 'quiet', overwrites: [{ id: CAL, type: 1, deny: denied }] },
      ],
      members: [
        { id: ANN, username: 'ann', voiceChannelId: LOUNGE, locale: 'en-US' },
        { id: CAL, username: 'cal', voiceChannelId: LOUNGE, locale: 'en-US' },
        { id: DEB, username: 'deb', voiceChannelId: QUIET, locale: 'en-US' },
      ],
    },
  ];
}
/** Three parts (at most 120 characters each): Cal's is fetched only once her last one plays, after the drag. */
const ANN_LINE = [
  'A long line of ann that is still playing in the lounge when a moderator drags the bot to the quiet room.',
  'Her second sentence is heard in the quiet room, where deb listens, since ann may speak there too.',
  'Her third and last sentence is also heard in the quiet room, and only then is the next order fetched.',
].join(' ');
const CAL_LINE = 'Cal waits behind ann in the lounge, and may not view, join or speak in the quiet room at all, ever.';
/**
 * The sandbox speaking at twice its default rate (every length here is its own, expectedDurationSeconds): Ann's line
 * is some 9 s, the drag seen by SayBot (awaited) within its first part.
 */
const harnessOptions = {
  guilds: guilds(),
  config: { voiceIdleTimeoutMs: 60_000, maxCharsPerRequest: 120 },
  sandbox: { secondsPerCharacter: 0.03 },
};
const ended = (r: { kind: string; content?: string }) =>
  r.kind !== 'delete' && r.content !== undefined && !/Speaking|Queued|queue/.test(r.content);

describe('SayBot dragged by a moderator into a channel where a member whose order it holds may not be', () => {
  it("ends that member's order unrequested and unheard there with the lost right's words; another member's goes on", async () => {
    const h = await startHarness(harnessOptions);
    try {
      h.sandbox.setPacing({ realtimeFactor: 1 });
      const ann = await runCommand(h, { guildId: GUILD, userId: ANN, name: 'say', options: { text: ANN_LINE } });
      await ann.handle.waitFor((r) => (r.content ?? '').includes('Speaking'), 30_000);
      const cal = await runCommand(h, { guildId: GUILD, userId: CAL, name: 'say', options: { text: CAL_LINE } });
      await h.discord.waitForPacket({ guildId: GUILD, channelId: LOUNGE }, (p) => !p.silence, 20_000);
      await voiceStateSeen(h, APP_ID, () => h.discord.setVoiceState(GUILD, APP_ID, QUIET));
      const fromDrag = h.sandbox.requests.length;
      const annEnd = await ann.handle.waitFor(ended, 60_000);
      expect(annEnd.content).toMatch(/^Spoke/);
      expect(annEnd.content).toContain(`<#${QUIET}>`);
      const calEnd = await cal.handle.waitFor(ended, 60_000);
      expect(calEnd.content).not.toMatch(/^Spoke|paid|spent/);
      expect(calEnd.content).toContain('You may no longer view');
      expect(calEnd.content).toContain(`<#${QUIET}>`);
      expect(spoken(h, fromDrag)).not.toContain(CAL_LINE);
      // Only ann's rest reached the quiet room: less than her whole line.
      const heard = await h.discord.waitForAudio(
        { guildId: GUILD, channelId: QUIET },
        { minSeconds: 0.3, quietMs: 1_500 },
      );
      expect(heard.seconds).toBeLessThan(h.sandbox.expectedDurationSeconds(ANN_LINE));
    } finally {
      await h.close();
    }
  });

  it("cuts that member's part playing at the drag at once, told with the lost right's words; the rest never requested", async () => {
    const h = await startHarness(harnessOptions);
    try {
      h.sandbox.setPacing({ realtimeFactor: 1 });
      const cal = await runCommand(h, { guildId: GUILD, userId: CAL, name: 'say', options: { text: ANN_LINE } });
      await cal.handle.waitFor((r) => (r.content ?? '').includes('Speaking'), 30_000);
      await h.discord.waitForPacket({ guildId: GUILD, channelId: LOUNGE }, (p) => !p.silence, 20_000);
      await voiceStateSeen(h, APP_ID, () => h.discord.setVoiceState(GUILD, APP_ID, QUIET));
      const calEnd = await cal.handle.waitFor(ended, 60_000);
      expect(calEnd.content).not.toMatch(/^Spoke/);
      expect(calEnd.content).toContain(`You may no longer view <#${QUIET}>, so I stopped speaking for you there`);
      const [first, , third] = ANN_LINE.split(/(?<=\.) /);
      expect(spoken(h)).not.toContain(third);
      expect(h.discord.heard({ guildId: GUILD, channelId: QUIET }).seconds).toBeLessThan(
        h.sandbox.expectedDurationSeconds(first ?? '') - 1,
      );
    } finally {
      await h.close();
    }
  });
});
