// The default world of the e2e harness (defaultGuilds() in test/support/harness.ts), named once: which server
// each member is in, whether they are in voice, their client's language. In this world nobody has Manage Server
// (only what @everyone has); a test that needs an admin adds one of its own.
import type { FakeDiscord } from '@saybot/local-discord';
import type { FakeGuildSpec, FakeMemberSpec } from '@saybot/local-discord/types.ts';

// Seoul: a Korean server (preferred locale ko), its text channel, and two voice channels: "lounge" and one
// named "stage" (a plain voice channel, not a Stage).
export const SEOUL = '200000000000000001';
export const SEOUL_TEXT = '210000000000000001';
export const LOUNGE = '220000000000000001';
export const SEOUL_STAGE = '220000000000000002';
export const MINJI = '300000000000000001'; // in voice "lounge", Korean client
export const OUTSIDE = '300000000000000002'; // not in voice, Korean client
export const OTHER_ROOM = '300000000000000003'; // in voice "stage", English client

// London: an English server (preferred locale en-US), its text channel, and one voice channel, "general".
export const LONDON = '200000000000000002';
export const LONDON_TEXT = '210000000000000002';
export const GENERAL = '220000000000000003';
export const ALICE = '300000000000000011'; // in voice "general", English client
export const BOB = '300000000000000012'; // not in voice, Japanese client

/** Not in the default world: the London admin (Manage Server, not in voice, English client) tests add. */
export const LONDON_ADMIN = '300000000000000013';

/**
 * London with members of a test file's own in place of the default world's: its IDs, name, English locale, text
 * channel and voice channel "general"; `more` adds channels or replaces any of these.
 */
export function londonWith(members: FakeMemberSpec[], more: Partial<FakeGuildSpec> = {}): FakeGuildSpec {
  return {
    id: LONDON,
    name: 'London',
    preferredLocale: 'en-US',
    textChannelId: LONDON_TEXT,
    voiceChannels: [{ id: GENERAL, name: 'general' }],
    members,
    ...more,
  };
}

/**
 * A server of a test file's own beside the default world: its text channel, one voice channel (named "room"
 * unless said) and these members.
 */
export function oneRoomGuild(
  id: string,
  name: string,
  channels: { text: string; voice: string; voiceName?: string },
  members: FakeMemberSpec[],
): FakeGuildSpec {
  return {
    id,
    name,
    textChannelId: channels.text,
    voiceChannels: [{ id: channels.voice, name: channels.voiceName ?? 'room' }],
    members,
  };
}

/**
 * A moderator (the server's owner) times `userId` out in `guildId` for `minutes` (GUILD_MEMBER_UPDATE; their member
 * object carries the time, their permissions are View Channel and Read Message History); returns what lifts it.
 */
export function timeOut(discord: FakeDiscord, guildId: string, userId: string, minutes = 10): () => void {
  discord.setMemberTimeout(guildId, userId, new Date(Date.now() + minutes * 60_000));
  return () => discord.setMemberTimeout(guildId, userId, null);
}
