// The voice channel's status while auto-read reads there, end to end: the real bot against the local Discord,
// which keeps the status (PUT /channels/{id}/voice-status) and checks Set Voice Channel Status as Discord does.
import { PermissionFlagsBits } from 'discord.js';
import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_PERMISSIONS } from '@saybot/local-discord';
import type { FakeGuildSpec } from '@saybot/local-discord/types.ts';
import { useHarnessPerTest } from '../support/file-harness.ts';
import { runCommand, type Harness } from '../support/harness.ts';
import { postChat } from '../support/chat.ts';

const GUILD = '200000000000000072';
const TEXT = '210000000000000072';
const VOICE = '220000000000000073';
const ALICE = { id: '300000000000000071', username: 'alice' }; // Manage Server, in voice
const CAROL = { id: '300000000000000073', username: 'carol' }; // in voice

function guilds(botPermissions: bigint, preferredLocale = 'en-US'): FakeGuildSpec[] {
  return [
    {
      id: GUILD,
      name: 'Status',
      preferredLocale,
      textChannelId: TEXT,
      botPermissions,
      voiceChannels: [{ id: VOICE, name: 'lounge' }],
      members: [
        { ...ALICE, voiceChannelId: VOICE, locale: 'en-US', permissions: PermissionFlagsBits.ManageGuild },
        { ...CAROL, voiceChannelId: VOICE, locale: 'en-US' },
      ],
    },
  ];
}

const WITH_STATUS = DEFAULT_PERMISSIONS | PermissionFlagsBits.SetVoiceChannelStatus;

const openHarness = useHarnessPerTest();

async function start(botPermissions: bigint, locale?: string): Promise<Harness> {
  const harness = await openHarness({ guilds: guilds(botPermissions, locale), config: { voiceIdleTimeoutMs: 60_000 } });
  const { content } = await runCommand(harness, {
    guildId: GUILD,
    userId: ALICE.id,
    name: 'autoread',
    subcommand: 'start',
  });
  expect(content).toContain(`<#${VOICE}>`);
  return harness;
}

const statusPuts = (h: Harness) =>
  h.discord.restLog.filter((e) => e.method === 'PUT' && e.path.endsWith(`/channels/${VOICE}/voice-status`));

describe('voice channel status while reading', () => {
  it('shows "Reading #general aloud" while reading and clears it on /autoread stop', async () => {
    const h = await start(WITH_STATUS);
    await vi.waitFor(() => expect(h.discord.voiceChannelStatus(GUILD, VOICE)).toBe('Reading #general aloud'), {
      timeout: 5_000,
    });
    await runCommand(h, { guildId: GUILD, userId: ALICE.id, name: 'autoread', subcommand: 'stop' });
    // Cleared before the reply: the status is gone as soon as the member reads "Stopped".
    expect(h.discord.voiceChannelStatus(GUILD, VOICE)).toBeUndefined();
    expect(statusPuts(h).map((e) => e.status)).toEqual([204, 204]);
  });

  it("is in the server's language, cleared while a manager's /leave pauses reading, and shown again on /join", async () => {
    const h = await start(WITH_STATUS, 'ko');
    await vi.waitFor(() => expect(h.discord.voiceChannelStatus(GUILD, VOICE)).toBe('#general 읽는 중'), {
      timeout: 5_000,
    });
    await runCommand(h, { guildId: GUILD, userId: ALICE.id, name: 'leave' });
    expect(h.discord.botVoiceChannel(GUILD)).toBeNull();
    // Cleared while the bot was still there (Discord takes it only from a connected member), not by the channel emptying:
    // Alice and Carol are still in it.
    expect(h.discord.voiceChannelStatus(GUILD, VOICE)).toBeUndefined();
    expect(statusPuts(h).map((e) => e.status)).toEqual([204, 204]);
    await runCommand(h, { guildId: GUILD, userId: ALICE.id, name: 'join' });
    await vi.waitFor(() => expect(h.discord.voiceChannelStatus(GUILD, VOICE)).toBe('#general 읽는 중'), {
      timeout: 5_000,
    });
  });

  it('is cleared when SayBot shuts down while reading', async () => {
    const h = await start(WITH_STATUS);
    await vi.waitFor(() => expect(h.discord.voiceChannelStatus(GUILD, VOICE)).toBe('Reading #general aloud'), {
      timeout: 5_000,
    });
    await h.bot.stop();
    // Alice and Carol are still there: cleared by SayBot, not by the channel emptying.
    expect(h.discord.voiceChannelOf(GUILD, ALICE.id)).toBe(VOICE);
    expect(h.discord.voiceChannelStatus(GUILD, VOICE)).toBeUndefined();
  });

  it('is skipped with one log line when SayBot lacks Set Voice Channel Status, and reading goes on', async () => {
    const h = await start(DEFAULT_PERMISSIONS);
    await vi.waitFor(() => expect(h.logs()).toContain('"voice-status-skipped"'), { timeout: 30_000 });
    expect(h.discord.voiceChannelStatus(GUILD, VOICE)).toBeUndefined();
    // Checked before asking: no request Discord would refuse.
    expect(statusPuts(h)).toEqual([]);
    const from = h.sandbox.requests.length;
    await postChat(h, { guildId: GUILD, channelId: TEXT }, CAROL, 'still read');
    await vi.waitFor(
      () => expect(h.sandbox.requests.slice(from).some((r) => r.text?.includes('still read'))).toBe(true),
      { timeout: 10_000 },
    );
    await runCommand(h, { guildId: GUILD, userId: ALICE.id, name: 'autoread', subcommand: 'stop' });
    expect(h.logs().split('"voice-status-skipped"').length - 1).toBe(1);
  });
});
