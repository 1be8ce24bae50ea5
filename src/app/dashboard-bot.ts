// The bot as the dashboard sees it: a member asked of Discord and trusted about a minute (no Guild Members intent
// tells of kicks or lost roles). With SHARDS, shard 0 asks other shards' servers over REST and announces changes.
import { catalogueVoices } from '../core/voice-catalogue/voices.ts';
import { fetchOneMember } from '../core/interactions/discord-ids.ts';
import {
  DiscordAPIError,
  Events,
  PermissionFlagsBits,
  RESTJSONErrorCodes,
  Routes,
  ShardClientUtil,
  type APIGuild,
  type APIGuildMember,
  type Client,
  type Guild,
} from 'discord.js';
import type { Config } from '../core/config.ts';
import type { KeyStateSnapshot } from '../core/api/response.ts';
import { freeVoiceState } from '../core/free-voice/free-voice-engine.ts';
import type { Logger } from '../core/log.ts';
import { AUTOREAD_CHANGED_EVENT } from '../features/autoread/index.ts';
import {
  MemberViews,
  type DashboardBot,
  type Membership,
  type OwnerConsole,
  type SeatNow,
} from '../features/dashboard/index.ts';
import type { SeatBot } from '../core/voice/seats.ts';
import { memberStillSpeaks, memberVoiceChannel, type MemberPlace } from '../features/speaking/index-targets.ts';
import { soundRemover } from '../features/speaking/index.ts';
import { UserError } from '../core/interactions/failures.ts';
import type { SayBot, SayBotCore } from './saybot.ts';
import { botGuilds } from './bot-guilds.ts';
import { runConfiguredChecks } from './doctor/checks.ts';
import { finalCloseWords } from './helper-bots.ts';

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
    owner: guild.owner_id === userId,
    ...pictures(cdn, guild, { id: userId, avatar: member.user?.avatar }, member.avatar),
  };
}

/** What the owner console needs of start-up beyond the bot and its core: the shared Voice API client's record. */
export interface ConsoleSources {
  keyState: () => KeyStateSnapshot;
  /** No Voice API configured: the built-in sandbox answers. */
  sandbox: boolean;
}

/** The owner console's view of the running bot (src/features/dashboard/console-routes.ts). */
function ownerConsole(bot: SayBot, core: SayBotCore, config: Config, sources: ConsoleSources): OwnerConsole {
  return {
    servers: () => botGuilds(bot.client.rest),
    keyState: sources.keyState,
    freeVoice: freeVoiceState,
    freeVoiceSetting: config.freeVoice,
    cache: () => ({ ...core.cache.size, maxBytes: core.cache.maxBytes, ...core.cache.lookups }),
    // A helper Discord closed for good fails its check, whatever its token says now.
    doctor: async () => {
      const closed = new Map(core.helpers.status().map((helper) => [`Helper bot ${helper.index}`, helper.closeCode]));
      return (await runConfiguredChecks(config)).map((check) => {
        const code = closed.get(check.name);
        return code === undefined ? check : { name: check.name, ok: false, detail: finalCloseWords(code) };
      });
    },
    publicBot: () => bot.publicBot(),
    allowedGuilds: { list: config.allowedGuilds, leaveAtStart: config.allowedGuildsLeave },
    plan: { name: config.plan, sandbox: sources.sandbox },
    helpers: () => core.helpers.status(),
    async leave(guildId) {
      // Whatever shard holds it; GUILD_DELETE then starts its removal clock as any removal does.
      const left = await unlessNotThere(bot.client.rest.delete(Routes.userGuild(guildId)));
      return left !== undefined;
    },
  };
}

/** One bot's seat in the server, as a member sees it (SayBot's own cache, no request); undefined: not in voice. */
function seatNow(seatBot: SeatBot, guildId: string, guild: Guild | undefined, userId: string): SeatNow | undefined {
  const player = seatBot.players.find(guildId);
  const state = player?.state;
  if (player === undefined || state === undefined || (state.kind !== 'connected' && state.kind !== 'connecting'))
    return undefined;
  const channel = guild?.channels.cache.get(state.channelId);
  // Its name is the member's to read only where they may see the channel (the main bot's cache of the server).
  const seen =
    channel !== undefined && 'permissionsFor' in channel
      ? channel.permissionsFor(userId)?.has(PermissionFlagsBits.ViewChannel) === true
      : false;
  const me = seatBot.guild(guildId)?.members.me;
  return {
    kind: state.kind === 'connected' ? 'in' : 'joining',
    bot: me?.displayName ?? me?.user.username ?? `SayBot ${seatBot.index + 1}`,
    main: seatBot.index === 0,
    channelId: seen ? state.channelId : '',
    channelName: seen ? channel?.name : undefined,
    ...(seen ? {} : { hidden: true as const }),
    // The clip under way (playing, or the first of an order waiting for the join), then those behind it.
    speaking: player.playing !== undefined,
    waiting: player.clips.length - (player.playing === undefined ? 0 : 1),
  };
}

/** Forgets the dashboard's views of members as the bot's events tell of changes (whichever intents it has). */
function forgetOnEvents(client: Client, views: MemberViews): void {
  client.on(Events.GuildMemberRemove, (member) => views.forget(member.guild.id, member.id));
  client.on(Events.GuildMemberUpdate, (_, member) => views.forget(member.guild.id, member.id));
  client.on(Events.GuildBanAdd, (ban) => views.forget(ban.guild.id, ban.user.id));
  client.on(Events.GuildRoleUpdate, (_, role) => views.forgetServer(role.guild.id));
  client.on(Events.GuildRoleDelete, (role) => views.forgetServer(role.guild.id));
  client.on(Events.GuildUpdate, (_, guild) => views.forgetServer(guild.id));
  client.on(Events.GuildDelete, (guild) => views.forgetServer(guild.id));
}

/** `now`: the dashboard's clock, by which a member's view is trusted (tests move it). */
export function dashboardBot(
  bot: SayBot,
  core: SayBotCore,
  config: Config,
  logger: Logger,
  now: () => number = Date.now,
  consoleSources?: ConsoleSources,
): DashboardBot {
  const shard = config.shard;
  const cdn = discordCdnOf(config);
  /** Whether this process's shard holds the server (always, without shards). */
  const ours = (guildId: string) =>
    shard === undefined || ShardClientUtil.shardIdForGuildId(guildId, shard.count) === shard.id;
  const cached = (guildId: string) => (bot.serves(guildId) ? bot.client.guilds.cache.get(guildId) : undefined);
  /** Served by SayBot: this shard's server in its cache, another shard's chosen (whether SayBot is there is asked). */
  const served = (guildId: string) => (ours(guildId) ? bot.serves(guildId) : bot.chosen(guildId));
  /** The member asked of Discord now. */
  async function lookUpMember(guildId: string, userId: string): Promise<Membership | undefined> {
    if (!served(guildId)) return undefined;
    if (!ours(guildId)) return memberOverRest(bot.client, cdn, guildId, userId);
    const guild = cached(guildId);
    if (guild === undefined) return undefined;
    const member = await unlessNotThere(fetchOneMember(guild, userId, 'session user', { force: true, cache: true }));
    if (member === undefined) {
      // discord.js keeps a member it was told of until an event it may never get: Discord's answer is the truth.
      guild.members.cache.delete(userId);
      return undefined;
    }
    return {
      guildId,
      guildName: guild.name,
      guildLanguage: guild.preferredLocale,
      manager: guild.ownerId === userId || member.permissions.has(PermissionFlagsBits.ManageGuild),
      owner: guild.ownerId === userId,
      ...pictures(cdn, guild, member.user, member.avatar),
    };
  }
  const views = new MemberViews(lookUpMember, now);
  forgetOnEvents(bot.client, views);
  return {
    // Another shard's server: whether SayBot is in it is asked with the member (membership).
    serves: served,
    // The bot's own guild list over REST, not broadcastEval: a shard's destroyed first client would still answer.
    async servedAmong(guildIds) {
      const candidates = guildIds.filter(served);
      const elsewhere = candidates.some((guildId) => !ours(guildId));
      const present = new Set(elsewhere ? (await botGuilds(bot.client.rest)).guilds.map((guild) => guild.id) : []);
      return candidates.filter((guildId) => ours(guildId) || present.has(guildId));
    },
    membership: (guildId, userId, fresh) => views.view(guildId, userId, fresh),
    forgetMember: (userId) => views.forgetMember(userId),
    displayName: (guildId, userId) => cached(guildId)?.members.cache.get(userId)?.displayName,
    channelName: (guildId, channelId) => cached(guildId)?.channels.cache.get(channelId)?.name,
    voiceNow(guildId, userId) {
      // Voice is played by the shard that holds the server: another's players are not in this process.
      if (!ours(guildId)) return { kind: 'elsewhere' };
      const seen = cached(guildId);
      const seats = bot.seats.bots.flatMap((seatBot) => {
        const now = seatNow(seatBot, guildId, seen, userId);
        return now === undefined ? [] : [now];
      });
      return seats.length === 0 ? { kind: 'out' } : { kind: 'seats', seats };
    },
    async autoreadChanged(guildId) {
      if (ours(guildId)) return bot.autoread.refresh(guildId);
      // Told to every shard; the one that reads the guild reloads it from the store.
      await bot.client.shard?.broadcastEval((client, context) => void client.emit(context.event, context.guildId), {
        context: { event: AUTOREAD_CHANGED_EVENT, guildId },
      });
    },
    autoread: bot.autoread,
    voices: {
      presets: catalogueVoices(config.extraVoices),
      free: core.freeVoice.chosen,
      engines: () => core.engines?.port.voices() ?? [],
      saving: { engines: core.engines?.port, freeVoice: core.freeVoice, listed: catalogueVoices(config.extraVoices) },
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
        const member = await fetchOneMember(guild, userId, 'session user', { cache: true });
        // Where the member asks, all SayBot's own view (the member fetched afresh above).
        const place: MemberPlace = { guildId, guild, member, user: member.user, memberPermissions: member.permissions };
        const target = memberVoiceChannel(place, { seats: bot.seats, speech: core.speech }, bot.autoread?.channels);
        return { target, stillAllowed: memberStillSpeaks(core.speech, place, target) };
      },
    },
    ...(consoleSources === undefined ? {} : { console: ownerConsole(bot, core, config, consoleSources) }),
  };
}
