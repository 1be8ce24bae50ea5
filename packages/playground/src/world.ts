// The playground's server: who is in it and what it holds. Three people to be (a member, a manager, the owner), two
// text channels (#general, and #read-aloud for auto-read) and two voice channels, where SayBot and its helper bot
// ("SayBot 2", HELPER_BOT_TOKENS) each take a seat; nobody is in voice until they join.
import { PermissionFlagsBits } from 'discord.js';
import { DEFAULT_PERMISSIONS, type FakeGuildSpec } from '@saybot/local-discord';

export const GUILD_ID = '400000000000000001';
export const GENERAL = '410000000000000001';
export const READ_ALOUD = '410000000000000002';
export const LOUNGE = '420000000000000001';
export const STUDY = '420000000000000002';
/** The helper bot's name: a second seat, so two voice channels speak at once. */
export const HELPER_NAME = 'SayBot 2';

export interface Person {
  id: string;
  username: string;
  /** What they are in the server, as the page names them. */
  role: 'member' | 'manager' | 'owner';
}

export const PEOPLE: readonly Person[] = [
  { id: '500000000000000001', username: 'alice', role: 'member' },
  { id: '500000000000000002', username: 'dana', role: 'manager' },
  { id: '500000000000000003', username: 'olivia', role: 'owner' },
];
export const OWNER = PEOPLE[2]!;

export const GUILD: FakeGuildSpec = {
  id: GUILD_ID,
  name: 'Playground',
  preferredLocale: 'en-US',
  textChannelId: GENERAL,
  textChannels: [{ id: READ_ALOUD, name: 'read-aloud' }],
  voiceChannels: [
    { id: LOUNGE, name: 'Lounge' },
    { id: STUDY, name: 'Study' },
  ],
  ownerId: OWNER.id,
  members: PEOPLE.map((p) => ({
    id: p.id,
    username: p.username,
    locale: 'en-US',
    ...(p.role === 'manager' ? { permissions: PermissionFlagsBits.ManageGuild } : {}),
  })),
  // As a Discord server by default: members (and SayBot) may send voice messages.
  everyonePermissions: DEFAULT_PERMISSIONS | PermissionFlagsBits.SendVoiceMessages,
  botPermissions: DEFAULT_PERMISSIONS | PermissionFlagsBits.SendVoiceMessages,
};

export const TEXT_CHANNELS = [
  { id: GENERAL, name: 'general' },
  { id: READ_ALOUD, name: 'read-aloud' },
] as const;
export const VOICE_CHANNELS = [
  { id: LOUNGE, name: 'Lounge' },
  { id: STUDY, name: 'Study' },
] as const;

export const personById = (id: string): Person | undefined => PEOPLE.find((p) => p.id === id);
