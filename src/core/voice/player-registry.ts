// One GuildPlayer per guild (src/core/voice/guild-player.ts), held while it is in use and let go when it is not.
import type { Guild } from 'discord.js';
import type { DiscordGatewayAdapterCreator } from '@discordjs/voice';
import type { Logger } from '../log.ts';
import { GuildPlayer } from './guild-player.ts';
import type { PacketSender } from './packet-sender.ts';

interface PlayerRegistryOptions {
  logger: Logger;
  idleTimeoutMs: number;
  /** Keeps this bot's voice connections apart from another instance's in the same process. */
  group: string;
  readyTimeoutMs?: number;
  /** A guild whose player must not leave on the idle timeout now (GuildPlayerOptions.stayConnected). */
  stayConnected?: (guildId: string) => boolean;
  /** What sends every player's clips (GuildPlayerOptions.sender). */
  sender?: (() => PacketSender) | undefined;
  /** The sender thread's start lead (GuildPlayerOptions.startLead). */
  startLead?: boolean | undefined;
  /** A guild as the Discord client holds it now (GuildPlayerOptions.guild). */
  guild?: ((guildId: string) => Guild | undefined) | undefined;
}

/** One GuildPlayer per guild, held while busy; one let go is kept weakly so a holder gets the same one back. */
export class PlayerRegistry {
  readonly #players = new Map<string, GuildPlayer>();
  /** Players let go, by guild, while something may still hold them (entries end when they are collected). */
  readonly #letGo = new Map<string, WeakRef<GuildPlayer>>();
  readonly #collected = new FinalizationRegistry<string>((guildId) => {
    if (this.#letGo.get(guildId)?.deref() === undefined) this.#letGo.delete(guildId);
  });
  readonly #options: PlayerRegistryOptions;

  constructor(options: PlayerRegistryOptions) {
    this.#options = options;
  }

  get(guildId: string, adapterCreator: DiscordGatewayAdapterCreator): GuildPlayer {
    const held = this.#players.get(guildId);
    if (held) return held;
    const player = this.#letGo.get(guildId)?.deref() ?? this.#make(guildId, adapterCreator);
    this.#letGo.delete(guildId);
    this.#players.set(guildId, player);
    return player;
  }

  #make(guildId: string, adapterCreator: DiscordGatewayAdapterCreator): GuildPlayer {
    // One asked for but never used (its request failed before it joined) had no transition to be let go at: now.
    for (const held of this.#players.values())
      if (held.state.kind === 'disconnected' && !held.busy) this.#letGoOf(held);
    const player: GuildPlayer = new GuildPlayer({
      guildId,
      adapterCreator,
      group: this.#options.group,
      logger: this.#options.logger,
      idleTimeoutMs: this.#options.idleTimeoutMs,
      sender: this.#options.sender,
      startLead: this.#options.startLead,
      readyTimeoutMs: this.#options.readyTimeoutMs,
      stayConnected: () => this.#options.stayConnected?.(guildId) === true,
      guild: () => this.#options.guild?.(guildId),
      onIdle: () => this.#letGoOf(player),
      onUse: () => this.#hold(player),
    });
    this.#collected.register(player, guildId);
    return player;
  }

  /** The player is out of voice with nothing to play: no longer held. */
  #letGoOf(player: GuildPlayer): void {
    if (this.#players.get(player.guildId) !== player) return;
    this.#players.delete(player.guildId);
    this.#letGo.set(player.guildId, new WeakRef(player));
  }

  /** A player let go is used again by whoever kept it: held again (it is the guild's only live player). */
  #hold(player: GuildPlayer): void {
    if (this.#players.get(player.guildId) === player) return;
    this.#letGo.delete(player.guildId);
    this.#players.set(player.guildId, player);
  }

  /** The guild's player if it has one, without making one. */
  find(guildId: string): GuildPlayer | undefined {
    return this.#players.get(guildId) ?? this.#letGo.get(guildId)?.deref();
  }

  /** Players held now: those in voice, joining or with clips (and the last one asked for, until another is made). */
  get size(): number {
    return this.#players.size;
  }

  /** Every player that may still be in use: held, or let go but not yet collected. */
  *#all(): Generator<GuildPlayer> {
    yield* this.#players.values();
    for (const ref of this.#letGo.values()) {
      const player = ref.deref();
      if (player) yield player;
    }
  }

  /** Voice connections open now (the operator's gauge). */
  get connectedCount(): number {
    let count = 0;
    for (const player of this.#all()) if (player.state.kind === 'connected') count += 1;
    return count;
  }

  /** Clips waiting in every guild's queue (the operator's gauge). */
  get queuedCount(): number {
    let count = 0;
    for (const player of this.#all()) count += player.queueLength;
    return count;
  }

  /** Leaves every channel: used at shutdown. */
  destroyAll(): void {
    for (const player of [...this.#all()]) player.destroy();
    this.#players.clear();
    this.#letGo.clear();
  }
}
