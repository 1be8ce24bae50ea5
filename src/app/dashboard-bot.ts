// The running bot as the dashboard sees it (src/features/dashboard/dashboard-types.ts' DashboardBot): SayBot's own
// view of a server and its members (discord.js's caches, or Discord asked by the bot), never the browser's or the
// member's guild list. Manage Server is the server's owner, or a role of the member's (or @everyone's) granting it or
// Administrator.
//
// With SHARDS, one process serves the dashboard (shard 0: src/app/start-saybot.ts). A server of its own shard is
// read from its caches; another shard's server is asked of Discord by the bot (the server and the member, over
// REST; which servers the bot is in at all, from its own guild list), and a dictionary changed there is announced to
// every shard (broadcastEval), whose auto-read reloads it from the shared store: what a page shows and changes is the
// store's, never a shard's memory.
import {
  DiscordAPIError,
  PermissionFlagsBits,
  RESTJSONErrorCodes,
  Routes,
  ShardClientUtil,
  type APIGuild,
  type APIGuildMember,
  type Client,
} from 'discord.js';
import type { Config } from '../core/config.ts';
import { freeVoiceInstalled } from '../core/free-voice/free-voice-engine.ts';
import type { Logger } from '../core/log.ts';
import { catalogueVoices } from '../core/voice-catalogue/preset-voices.ts';
import {
  AUTOREAD_CHANGED_EVENT,
  DICTIONARY_CHANGED_EVENT,
  refreshAutoread,
  refreshDictionary,
} from '../features/autoread/index.ts';
import type { DashboardBot, Membership } from '../features/dashboard/index.ts';
import { memberStillSpeaks, memberVoiceChannel, soundRemover, type MemberPlace } from '../features/speaking/index.ts';
import { UserError } from '../core/interactions/failures.ts';
import type { SayBot, SayBotCore } from './saybot.ts';

/** Discord's answers that mean "not there" (no such member, or SayBot not in that server) rather than a failure. */
const NOT_THERE = new Set<number | string>([
  RESTJSONErrorCodes.UnknownMember,
  RESTJSONErrorCodes.UnknownUser,
  RESTJSONErrorCodes.UnknownGuild,
  RESTJSONErrorCodes.MissingAccess,
]);

const MANAGES = PermissionFlagsBits.ManageGuild | PermissionFlagsBits.Administrator;

/** Discord's CDN, where server icons and avatars are (DISCORD_CDN_BASE_URL: the local Discord's in tests). */
export const discordCdnOf = (config: Config): string =>
  (config.discord.cdnBaseUrl ?? 'https://cdn.discordapp.com').replace(/\/+$/, '');

/** The pictures of a member in a server, on Discord's CDN (undefined where Discord has none: initials show). */
function pictures(
  cdn: string,
  guild: { id: string; icon: string | null },
  user: { id: string; avatar: string | null | undefined },
  serverAvatar: string | null | undefined,
): { iconUrl: string | undefined; avatarUrl: string | undefined } {
  const picture = (path: string) => `${cdn}/${path}.png?size=96`;
  return {
    iconUrl: guild.icon ? picture(`icons/${guild.id}/${guild.icon}`) : undefined,
    avatarUrl: serverAvatar
      ? picture(`guilds/${guild.id}/users/${user.id}/avatars/${serverAvatar}`)
      : user.avatar
        ? picture(`avatars/${user.id}/${user.avatar}`)
        : undefined,
  };
}

/** Undefined for Discord's "not there"; any other failure is thrown. */
async function unlessNotThere<T>(work: Promise<T>): Promise<T | undefined> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof DiscordAPIError && NOT_THERE.has(error.code)) return undefined;
    throw error;
  }
}

/** Another shard's server, asked of Discord: the server with its roles, then the member. */
async function memberOverRest(
  client: Client,
  cdn: string,
  guildId: string,
  userId: string,
): Promise<Membership | undefined> {
  const guild = (await unlessNotThere(client.rest.get(Routes.guild(guildId)))) as APIGuild | undefined;
  if (guild === undefined) return undefined;
  const member = (await unlessNotThere(client.rest.get(Routes.guildMember(guildId, userId)))) as
    APIGuildMember | undefined;
  if (member === undefined) return undefined;
  const held = new Set([guildId, ...member.roles]);
  const bits = guild.roles
    .filter((role) => held.has(role.id))
    .reduce((sum, role) => sum | BigInt(role.permissions), 0n);
  return {
    guildId,
    guildName: guild.name,
    guildLanguage: guild.preferred_locale,
    manager: guild.owner_id === userId || (bits & MANAGES) !== 0n,
    ...pictures(cdn, guild, { id: userId, avatar: member.user?.avatar }, member.avatar),
  };
}

/** The most of the bot's servers read at a login (Discord pages them 200 at a time). */
const MAX_BOT_GUILDS = 10_000;

/**
 * The servers the bot is in, whatever shard holds them: its own guild list over REST. (Not broadcastEval: a shard
 * that fell back without Message Content made a second client, and the first, destroyed, still answers for it.)
 */
async function botGuildIds(client: Client): Promise<Set<string>> {
  const ids = new Set<string>();
  let after = '0';
  while (ids.size < MAX_BOT_GUILDS) {
    const page = (await client.rest.get(Routes.userGuilds(), {
      query: new URLSearchParams({ limit: '200', after }),
    })) as Array<{ id: string }>;
    for (const guild of page) ids.add(guild.id);
    const last = page.at(-1);
    if (page.length < 200 || last === undefined) break;
    after = last.id;
  }
  return ids;
}

export function dashboardBot(bot: SayBot, core: SayBotCore, config: Config, logger: Logger): DashboardBot {
  const shard = config.shard;
  const cdn = discordCdnOf(config);
  /** Whether this process's shard holds the server (always, without shards). */
  const ours = (guildId: string) =>
    shard === undefined || ShardClientUtil.shardIdForGuildId(guildId, shard.count) === shard.id;
  const cached = (guildId: string) => (bot.serves(guildId) ? bot.client.guilds.cache.get(guildId) : undefined);
  /** Served by SayBot: this shard's server in its cache, another shard's chosen (whether SayBot is there is asked). */
  const served = (guildId: string) => (ours(guildId) ? bot.serves(guildId) : bot.chosen(guildId));
  return {
    // Another shard's server: whether SayBot is in it is asked with the member (membership).
    serves: served,
    async servedAmong(guildIds) {
      const candidates = guildIds.filter(served);
      const elsewhere = candidates.some((guildId) => !ours(guildId));
      const present = elsewhere ? await botGuildIds(bot.client) : new Set<string>();
      return candidates.filter((guildId) => ours(guildId) || present.has(guildId));
    },
    async membership(guildId, userId, fresh): Promise<Membership | undefined> {
      if (!served(guildId)) return undefined;
      if (!ours(guildId)) return memberOverRest(bot.client, cdn, guildId, userId);
      const guild = cached(guildId);
      if (guild === undefined) return undefined;
      const member = await unlessNotThere(guild.members.fetch({ user: userId, force: fresh, cache: true }));
      if (member === undefined) return undefined;
      return {
        guildId,
        guildName: guild.name,
        guildLanguage: guild.preferredLocale,
        manager: guild.ownerId === userId || member.permissions.has(PermissionFlagsBits.ManageGuild),
        ...pictures(cdn, guild, member.user, member.avatar),
      };
    },
    displayName: (guildId, userId) => cached(guildId)?.members.cache.get(userId)?.displayName,
    channelName: (guildId, channelId) => cached(guildId)?.channels.cache.get(channelId)?.name,
    async dictionaryChanged(guildId) {
      if (ours(guildId)) return refreshDictionary(core.store, bot.autoread, guildId);
      await bot.client.shard?.broadcastEval(
        (client, context) => {
          client.emit(context.event, context.guildId);
        },
        { context: { event: DICTIONARY_CHANGED_EVENT, guildId } },
      );
    },
    async autoreadChanged(guildId) {
      if (ours(guildId)) return refreshAutoread(core.store, bot.autoread, guildId);
      await bot.client.shard?.broadcastEval(
        (client, context) => {
          client.emit(context.event, context.guildId);
        },
        { context: { event: AUTOREAD_CHANGED_EVENT, guildId } },
      );
    },
    autoread: bot.autoread,
    // Offered where it can speak: chosen in FREE_VOICE and its package installed (as the commands offer it).
    voices: {
      presets: catalogueVoices(config.extraVoices),
      free: config.freeVoice.chosen && freeVoiceInstalled(),
    },
    speech: core.speech,
    accounting: core.accounting,
    isOperator: (userId) => bot.isOperator(userId),
    forgetting: {
      store: core.store,
      purgeVoice: (voiceId) => core.speech.purgeVoice(voiceId),
      removeSounds: soundRemover(bot.client, logger),
      anonymiseRequests: (guildId, userId) => core.accounting.anonymiseRequests(guildId, userId),
    },
    scenes: {
      report: (guildId, userId) => core.accounting.report(guildId, userId),
      voiceSeconds: config.queue.guildSeconds,
      async memberVoice(guildId, userId) {
        // Voice is played by the shard that holds the server: from another shard's, the member uses /scene.
        const guild = ours(guildId) ? cached(guildId) : undefined;
        if (guild === undefined) throw new UserError('studio.scenes.otherShard');
        const member = await guild.members.fetch({ user: userId, cache: true });
        // Where the member asks, all SayBot's own view (the member fetched afresh above).
        const place: MemberPlace = { guildId, guild, member, user: member.user, memberPermissions: member.permissions };
        const target = memberVoiceChannel(place, bot.players, bot.autoread);
        return { target, stillAllowed: memberStillSpeaks(place, target.channelId) };
      },
      channelName: (guildId, channelId) => cached(guildId)?.channels.cache.get(channelId)?.name,
    },
  };
}
