// The benchmark's guilds, made the same way on both sides of the process boundary (the fake Discord in the
// child, the driver in the parent) so that only a count crosses it.
import { PermissionFlagsBits } from 'discord.js';
import type { FakeGuildSpec } from '@saybot/local-discord/types.ts';

export interface BenchGuild {
  guildId: string;
  textChannelId: string;
  voiceChannelId: string;
  /** A member who sits in the voice channel and runs the commands. */
  userId: string;
}

/** An 18-digit snowflake: a 3-digit kind prefix, then the index. */
const id = (prefix: number, index: number): string => `${prefix}${String(index).padStart(15, '0')}`;

export function benchGuild(index: number): BenchGuild {
  return {
    guildId: id(200, index),
    textChannelId: id(210, index),
    voiceChannelId: id(220, index),
    userId: id(300, index),
  };
}

/**
 * The guilds whose voice the fake Discord decrypts (transport and DAVE, by every listener) and decodes: one in
 * `HEARD_IN_FULL_EVERY`, and the first two (figures 1, 2 and 5 time what a listener could play there). The others'
 * datagrams are only timed. Decrypting and decoding every one of hundreds of voices made the fake's process take as
 * much CPU as the bot on the same two cores: the benchmark measured the machine, not the bot.
 */
export const HEARD_IN_FULL_EVERY = 10;

export function heardInFull(guildId: string): boolean {
  const index = Number(guildId.slice(3));
  return index < 2 || index % HEARD_IN_FULL_EVERY === 0;
}

export function benchGuilds(count: number): BenchGuild[] {
  return Array.from({ length: count }, (_, i) => benchGuild(i));
}

/** The seats figure's guild (bench/seats.ts): `channels` voice channels, a listener in each, one server for all. */
export interface SeatsGuild {
  guildId: string;
  textChannelId: string;
  /** Channel `i` and its listener `members[i]`. */
  voiceChannelIds: string[];
  members: string[];
}

export function seatsGuild(channels: number): SeatsGuild {
  return {
    guildId: id(230, 0),
    textChannelId: id(231, 0),
    voiceChannelIds: Array.from({ length: channels }, (_, i) => id(232, i)),
    members: Array.from({ length: channels }, (_, i) => id(330, i)),
  };
}

export function seatsGuildSpec(channels: number): FakeGuildSpec {
  const g = seatsGuild(channels);
  return {
    id: g.guildId,
    name: 'bench-seats',
    preferredLocale: 'en-US',
    textChannelId: g.textChannelId,
    voiceChannels: g.voiceChannelIds.map((channelId, i) => ({ id: channelId, name: `room-${i}` })),
    members: g.members.map((userId, i) => ({
      id: userId,
      username: `seated-${i}`,
      voiceChannelId: g.voiceChannelIds[i],
      locale: 'en-US',
    })),
  };
}

/**
 * Figure 20's flooding guild (bench/flood.ts): one whose voice the fake only times (not heard in full), so that its
 * decrypting a flood's voice for every flooder does not load the process that stamps the other guild's packets.
 */
export const FLOOD_GUILD = 3;

/** The `k`th member of FLOOD_GUILD who floods it: in its voice channel, no role. */
export function floodMember(k: number): string {
  return id(310, k);
}

/**
 * The benchmark guilds as the fake Discord holds them. With `floodMembers`, FLOOD_GUILD also has that many members in
 * its voice channel (floodMember), and its first member may manage it (Manage Server: /autoread start).
 */
export function guildSpecs(count: number, floodMembers = 0): FakeGuildSpec[] {
  return benchGuilds(count).map((g, i) => {
    const flood = i === FLOOD_GUILD && floodMembers > 0;
    return {
      id: g.guildId,
      name: `bench-${i}`,
      preferredLocale: 'en-US',
      textChannelId: g.textChannelId,
      voiceChannels: [{ id: g.voiceChannelId, name: 'voice' }],
      members: [
        {
          id: g.userId,
          username: `listener-${i}`,
          voiceChannelId: g.voiceChannelId,
          locale: 'en-US',
          ...(flood ? { permissions: PermissionFlagsBits.ManageGuild } : {}),
        },
        ...(flood
          ? Array.from({ length: floodMembers }, (_, k) => ({
              id: floodMember(k),
              username: `flooder-${k}`,
              voiceChannelId: g.voiceChannelId,
              locale: 'en-US',
            }))
          : []),
      ],
    };
  });
}
