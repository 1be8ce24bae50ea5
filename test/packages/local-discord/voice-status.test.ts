// The local Discord's voice channel status as Discord documents it (discord-api-docs #6400): 0-500 characters, Set
// Voice Channel Status and being connected there (or Manage Channels), cleared when the channel empties.
import { PermissionFlagsBits as P } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PERMISSIONS, GuildRecord } from '@saybot/local-discord/state.ts';
import { setVoiceStatus } from '@saybot/local-discord/voice-status.ts';

const GUILD = '400000000000000011';
const TEXT = '410000000000000011';
const VOICE = '420000000000000011';
const MEMBER = '430000000000000011';
const bot = { id: '100000000000000011', username: 'SayBot', bot: true };

function guild(botPermissions: bigint): GuildRecord {
  return new GuildRecord(
    {
      id: GUILD,
      name: 'g',
      textChannelId: TEXT,
      voiceChannels: [{ id: VOICE, name: 'v' }],
      botPermissions,
      members: [{ id: MEMBER, username: 'm', voiceChannelId: VOICE }],
    },
    bot,
  );
}

describe('voice channel status (the local Discord)', () => {
  it('is set by a connected sender with Set Voice Channel Status, up to 500 characters, and cleared by an empty one', () => {
    const g = guild(DEFAULT_PERMISSIONS | P.SetVoiceChannelStatus);
    g.setVoiceState(bot.id, VOICE);
    expect(setVoiceStatus(g, VOICE, bot.id, { status: 'x'.repeat(500) }).status).toBe(204);
    expect(g.voiceStatuses.get(VOICE)).toHaveLength(500);
    const tooLong = setVoiceStatus(g, VOICE, bot.id, { status: 'x'.repeat(501) });
    expect(tooLong).toMatchObject({ status: 400, json: { code: 50035 } });
    expect(JSON.stringify(tooLong.json)).toContain('BASE_TYPE_MAX_LENGTH');
    expect(setVoiceStatus(g, VOICE, bot.id, { status: '' }).status).toBe(204);
    expect(g.voiceStatuses.has(VOICE)).toBe(false);
  });

  it('is refused without the permission, or when the sender is not connected there (unless it may manage the channel)', () => {
    const without = guild(DEFAULT_PERMISSIONS);
    without.setVoiceState(bot.id, VOICE);
    expect(setVoiceStatus(without, VOICE, bot.id, { status: 'hi' })).toMatchObject({
      status: 403,
      json: { code: 50013 },
    });
    const away = guild(DEFAULT_PERMISSIONS | P.SetVoiceChannelStatus);
    expect(setVoiceStatus(away, VOICE, bot.id, { status: 'hi' })).toMatchObject({ status: 403, json: { code: 50013 } });
    const manager = guild(DEFAULT_PERMISSIONS | P.ManageChannels);
    expect(setVoiceStatus(manager, VOICE, bot.id, { status: 'hi' }).status).toBe(204);
    expect(setVoiceStatus(manager, TEXT, bot.id, { status: 'hi' })).toMatchObject({
      status: 400,
      json: { code: 50024 },
    });
  });

  it('is cleared when the last member leaves the channel', () => {
    const g = guild(DEFAULT_PERMISSIONS | P.SetVoiceChannelStatus);
    g.setVoiceState(bot.id, VOICE);
    setVoiceStatus(g, VOICE, bot.id, { status: 'Reading' });
    g.setVoiceState(bot.id, null);
    expect(g.voiceStatuses.get(VOICE)).toBe('Reading');
    g.setVoiceState(MEMBER, null);
    expect(g.voiceStatuses.has(VOICE)).toBe(false);
  });
});
