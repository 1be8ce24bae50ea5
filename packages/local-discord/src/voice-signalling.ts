// Voice states as Discord keeps them, per (server, user) for every user, bots included: a bot's op 4 (join, move,
// leave) answered with VOICE_STATE_UPDATE to every bot in the server and VOICE_SERVER_UPDATE to that bot alone;
// members and moderators moving people; who is told what. Each bot's voice session is its own (voice-gateway.ts).
import type { Gateway, GatewaySession, VoiceStateRequest } from './gateway.ts';
import { GatewayIntent, voiceStatePayload, type VoiceModeration } from './state.ts';
import type { VoiceGateway } from './voice-gateway.ts';
import type { BotApplication, World } from './world.ts';

export class VoiceSignalling {
  readonly #world: World;
  readonly #gateway: Gateway;
  readonly #voice: VoiceGateway;
  /** Per guild, the bots' voice state requests held unanswered (hold), in the order they came. */
  readonly #held = new Map<string, Array<() => void>>();

  constructor(world: World, gateway: Gateway, voice: VoiceGateway) {
    this.#world = world;
    this.#gateway = gateway;
    this.#voice = voice;
  }

  /** A bot's op 4: answered now, or held while hold() holds the guild's. */
  requested(session: GatewaySession | undefined, request: VoiceStateRequest): void {
    const application = session?.application ?? this.#world.main;
    const held = this.#held.get(request.guildId);
    if (held) held.push(() => this.#applyBot(application, session, request));
    else this.#applyBot(application, session, request);
  }

  /** From now on the guild's op 4 requests wait until the returned release (FakeDiscord.holdVoiceRequests). */
  hold(guildId: string): () => void {
    const held: Array<() => void> = [];
    this.#held.set(guildId, held);
    return () => {
      if (this.#held.get(guildId) === held) this.#held.delete(guildId);
      for (const answer of held.splice(0)) answer();
    };
  }

  heldCount(guildId: string): number {
    return this.#held.get(guildId)?.length ?? 0;
  }

  /** A user's voice state as it is now, to every bot in the server with the Guild Voice States intent. */
  changed(guildId: string, userId: string): void {
    const guild = this.#world.anyGuild(guildId);
    if (!guild) return;
    this.#gateway.dispatchToGuild(
      guildId,
      'VOICE_STATE_UPDATE',
      voiceStatePayload(guild, userId, guild.voiceStates.get(userId)),
      GatewayIntent.GuildVoiceStates,
    );
  }

  /**
   * A member joins, moves or leaves, or a moderator changes their state (FakeDiscord.setVoiceState); for a bot of
   * ours, a server-side move or kick of that bot.
   */
  set(guildId: string, userId: string, channelId: string | null, moderation: VoiceModeration): void {
    const guild = this.#world.anyGuild(guildId);
    if (!guild) throw new Error(`FakeDiscord: unknown guild ${guildId}`);
    if (!guild.members.has(userId)) throw new Error(`FakeDiscord: ${userId} is not a member of guild ${guildId}`);
    const application = this.#world.applications.get(userId);
    if (application) {
      const current = guild.voiceStates.get(userId);
      // A moderator's change to the bot where it is: server-muted, or sent to a Stage's audience or made a speaker.
      if (current !== undefined && current.channelId === channelId && Object.keys(moderation).length > 0) {
        guild.setVoiceState(userId, channelId, undefined, moderation);
        this.changed(guildId, userId);
        return;
      }
      this.#applyBot(application, this.#gateway.sessionFor(guildId, application), {
        guildId,
        channelId,
        selfMute: current?.selfMute ?? false,
        selfDeaf: current?.selfDeaf ?? false,
      });
      return;
    }
    const previous = guild.voiceStates.get(userId)?.channelId ?? null;
    // "Won't be able to ... join voice channels ... while in time out" (Discord's Time Out FAQ).
    if (channelId !== null && channelId !== previous && guild.isTimedOut(userId))
      throw new Error(`FakeDiscord: ${userId} is timed out in guild ${guildId} and cannot join a voice channel`);
    guild.setVoiceState(userId, channelId, undefined, moderation);
    this.changed(guildId, userId);
    this.#moved(guildId, userId, previous, channelId);
  }

  /**
   * A bot is out of the server's voice (removed from the server): its voice connection closed with 4014, and every
   * other bot there told that its state is gone. Call after its state was cleared.
   */
  botGone(guildId: string, userId: string, previous: string | null): void {
    if (previous === null) return;
    this.#voice.disconnectGuild(guildId, userId);
    this.changed(guildId, userId);
  }

  /**
   * The bots' voice sessions in the channels a member left and entered hear of it (op 11/13, their DAVE groups).
   * Bots are not told of each other: each bot's DAVE group holds the channel's people and itself (two bots in one
   * channel, which SayBot avoids, are not in each other's group here).
   */
  #moved(guildId: string, userId: string, previous: string | null, channelId: string | null): void {
    if (previous !== null && previous !== channelId) this.#voice.clientConnected(guildId, previous, userId, false);
    if (channelId !== null && channelId !== previous) this.#voice.clientConnected(guildId, channelId, userId, true);
  }

  /** VOICE_STATE_UPDATE for the bot, THEN VOICE_SERVER_UPDATE (the other order leaves @discordjs/voice signalling). */
  #applyBot(application: BotApplication, session: GatewaySession | undefined, request: VoiceStateRequest): void {
    const guild = this.#world.guildOf(application, request.guildId);
    if (!guild) return;
    const botId = application.user.id;
    const sessionId = session?.sessionId ?? 'no-gateway-session';
    const previous = guild.voiceStates.get(botId)?.channelId ?? null;
    const state = guild.setVoiceState(botId, request.channelId, {
      selfMute: request.selfMute,
      selfDeaf: request.selfDeaf,
      sessionId,
    });
    this.#gateway.dispatchToGuild(
      guild.id,
      'VOICE_STATE_UPDATE',
      voiceStatePayload(guild, botId, state, sessionId),
      GatewayIntent.GuildVoiceStates,
    );
    if (request.channelId === null) {
      if (previous !== null) this.#voice.disconnectGuild(guild.id, botId);
      return;
    }
    const token = this.#voice.allocate(guild.id, botId, sessionId, request.channelId);
    this.#gateway.dispatchTo(application, guild.id, 'VOICE_SERVER_UPDATE', {
      token,
      guild_id: guild.id,
      endpoint: this.#voice.endpoint,
    });
  }
}
