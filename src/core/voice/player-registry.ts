import type { DiscordGatewayAdapterCreator } from '@discordjs/voice';
import type { Logger } from '../log.ts';
import { GuildPlayer } from './guild-player.ts';
import type { VoiceSenderKind } from './voice-output.ts';

export interface PlayerRegistryOptions {
  logger: Logger;
  idleTimeoutMs: number;
  /** Keeps this bot's voice connections apart from another instance's in the same process. */
  group: string;
  readyTimeoutMs?: number;
  /** A guild whose player must not leave on the idle timeout now (GuildPlayerOptions.stayConnected). */
  stayConnected?: (guildId: string) => boolean;
  /** What sends every player's clips (default 'clock'). */
  sender?: VoiceSenderKind | undefined;
  /** What each join needs before audio (GuildPlayerOptions.beforeAudio): on a Stage, becoming a speaker. */
  beforeAudio?: (guildId: string, channelId: string) => Promise<void>;
}

/** One GuildPlayer per guild, made on first use. */
export class PlayerRegistry {
  readonly #players = new Map<string, GuildPlayer>();
  readonly #options: PlayerRegistryOptions;

  constructor(options: PlayerRegistryOptions) {
    this.#options = options;
  }

  get(guildId: string, adapterCreator: DiscordGatewayAdapterCreator): GuildPlayer {
    let player = this.#players.get(guildId);
    if (!player) {
      player = new GuildPlayer({
        guildId,
        adapterCreator,
        group: this.#options.group,
        logger: this.#options.logger,
        idleTimeoutMs: this.#options.idleTimeoutMs,
        sender: this.#options.sender,
        readyTimeoutMs: this.#options.readyTimeoutMs,
        stayConnected: () => this.#options.stayConnected?.(guildId) === true,
        beforeAudio: async (channelId) => this.#options.beforeAudio?.(guildId, channelId),
      });
      this.#players.set(guildId, player);
    }
    return player;
  }

  /** The guild's player if it has one, without making one. */
  find(guildId: string): GuildPlayer | undefined {
    return this.#players.get(guildId);
  }

  /** Voice connections open now (the operator's gauge). */
  get connectedCount(): number {
    let count = 0;
    for (const player of this.#players.values()) if (player.state.kind === 'connected') count += 1;
    return count;
  }

  /** Clips waiting in every guild's queue (the operator's gauge). */
  get queuedCount(): number {
    let count = 0;
    for (const player of this.#players.values()) count += player.queueLength;
    return count;
  }

  /** Leaves every channel: used at shutdown. */
  destroyAll(): void {
    for (const player of this.#players.values()) player.destroy();
    this.#players.clear();
  }
}
