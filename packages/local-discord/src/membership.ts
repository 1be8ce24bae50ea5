// Which bots are in which server, as Discord changes it: a bot invited (GUILD_CREATE to it, GUILD_MEMBER_ADD to the
// others), removed or leaving (out of voice, its voice connection closed 4014, GUILD_DELETE to it), a server added
// or out for a while. The main bot's servers are World.guilds; a server it left goes on in guildsWithoutBot.
import type { Gateway } from './gateway.ts';
import { GatewayIntent, GuildRecord, guildCreatePayload, memberPayload, userPayload } from './state.ts';
import type { FakeGuildSpec } from './types.ts';
import type { VoiceSignalling } from './voice-signalling.ts';
import type { BotApplication, World } from './world.ts';

export class Membership {
  readonly #world: World;
  readonly #gateway: Gateway;
  readonly #signalling: VoiceSignalling;

  constructor(world: World, gateway: Gateway, signalling: VoiceSignalling) {
    this.#world = world;
    this.#gateway = gateway;
    this.#signalling = signalling;
  }

  /**
   * The bot leaves (DELETE /users/@me/guilds/{id}) or is removed: out of its voice channel (its connection closed
   * 4014, the others told), its member and role gone, then GUILD_DELETE without `unavailable` to it. False when it
   * is not in that server.
   */
  left(guildId: string, application: BotApplication): boolean {
    const world = this.#world;
    const guild = world.guildOf(application, guildId);
    if (!guild) return false;
    const botId = application.user.id;
    const previous = guild.voiceStates.get(botId)?.channelId ?? null;
    guild.removeBotMember(botId);
    if (application.main) {
      world.guilds.delete(guildId);
      world.guildsWithoutBot.set(guildId, guild);
    }
    this.#signalling.botGone(guildId, botId, previous);
    this.#gateway.dispatchTo(application, guildId, 'GUILD_DELETE', { id: guildId });
    this.#gateway.dispatchToGuild(
      guildId,
      'GUILD_MEMBER_REMOVE',
      { guild_id: guildId, user: userPayload(application.user) },
      GatewayIntent.GuildMembers,
    );
    return true;
  }

  /**
   * The bot is added to a server (again), with a role of its own (`permissions`, default the server's bot
   * permissions): GUILD_CREATE to its session, as on a join, and GUILD_MEMBER_ADD to the other bots there.
   */
  joined(guildId: string, application: BotApplication, permissions?: bigint): void {
    const world = this.#world;
    const guild = world.anyGuild(guildId);
    if (!guild) throw new Error(`FakeDiscord: unknown guild ${guildId}`);
    const botId = application.user.id;
    if (guild.members.has(botId)) throw new Error(`FakeDiscord: bot ${botId} is in guild ${guildId} already`);
    guild.addBotMember(application.user, permissions);
    if (application.main) {
      world.guildsWithoutBot.delete(guildId);
      world.guilds.set(guildId, guild);
    }
    const session = this.#gateway.sessionFor(guildId, application);
    session?.dispatch('GUILD_CREATE', guildCreatePayload(guild, botId, session.intents));
    const member = guild.members.get(botId);
    if (!member) return;
    this.#gateway.dispatchToGuild(
      guildId,
      'GUILD_MEMBER_ADD',
      (other) =>
        other.application === application ? undefined : { guild_id: guildId, ...memberPayload(guild, member) },
      GatewayIntent.GuildMembers,
    );
  }

  /** The main bot is added to a server it was never in (GUILD_CREATE). */
  addGuild(spec: FakeGuildSpec): void {
    const world = this.#world;
    if (world.anyGuild(spec.id)) throw new Error(`FakeDiscord: guild ${spec.id} exists already`);
    const guild = new GuildRecord(spec, world.bot);
    world.guilds.set(spec.id, guild);
    const session = this.#gateway.sessionFor(spec.id);
    session?.dispatch('GUILD_CREATE', guildCreatePayload(guild, world.bot.id, session.intents));
  }

  /** A guild outage: GUILD_DELETE with `unavailable: true` to every bot in it, then GUILD_CREATE when it is back. */
  outage(guildId: string): { end(): void } {
    const guild = this.#world.anyGuild(guildId);
    if (!guild) throw new Error(`FakeDiscord: unknown guild ${guildId}`);
    this.#gateway.dispatchToGuild(guildId, 'GUILD_DELETE', { id: guildId, unavailable: true });
    return {
      end: () => {
        this.#gateway.dispatchToGuild(guildId, 'GUILD_CREATE', (session) =>
          guildCreatePayload(guild, session.application.user.id, session.intents),
        );
      },
    };
  }
}
