// The seat choice, written once: which bot speaks for a member in a voice channel. A seat is one bot in one server:
// the main bot or a helper (HELPER_BOT_TOKENS), each with its own players (PlayerRegistry, its own voice group): one
// GuildPlayer per guild (src/core/voice/guild-player.ts), held while it is in use and let go when it is not.
import type { Guild } from 'discord.js';
import type { DiscordGatewayAdapterCreator } from '@discordjs/voice';
import type { Logger } from '../log.ts';
import { GuildPlayer } from './guild-player.ts';
import type { PacketSender } from './packet-sender.ts';

/** One bot as a seat in every server it is in: 0 the main bot, then the helpers in HELPER_BOT_TOKENS' order. */
export interface SeatBot {
  readonly index: number;
  /** Its players: one per server, in a voice group of its own. */
  readonly players: PlayerRegistry;
  /** Its user ID; undefined before it is logged in. */
  userId(): string | undefined;
  /** The server as this bot's own client holds it (its adapter, its rights); undefined: not there, or offline. */
  guild(guildId: string): Guild | undefined;
}

/** One bot in one server: where an order in voice plays. */
export interface Seat {
  readonly guildId: string;
  readonly bot: SeatBot;
  /** The bot's user ID (a mention names it to members). */
  readonly userId: string;
  /** The server as the seat's bot holds it: the gate reads that bot's rights there. */
  readonly guild: Guild;
  /** The seat's player, made on first use. */
  player(): GuildPlayer;
}

/** What the rule reads of one seat; `index` 0 is the main bot. */
export interface SeatView {
  readonly index: number;
  /** Logged in and in the server. */
  readonly present: boolean;
  /** The voice channel it sits in (or is joining, or holds orders for); undefined: none. */
  readonly channelId: string | undefined;
  /** Speaking, or holding orders that will. */
  readonly speaking: boolean;
  /** Members other than bots in its channel. */
  readonly listeners: number;
  /** Kept where it is (auto-read reads into its channel). */
  readonly kept: boolean;
  /** It may view, connect to and speak in the channel asked for. */
  readonly mayJoin: boolean;
}

type SeatRuling = { kind: 'seat'; index: number } | { kind: 'busy'; channels: string[] };

/** Available: in no voice channel, or in one nobody but bots is left in; and never while it speaks or is kept. */
export function seatIsAvailable(seat: SeatView): boolean {
  return seat.present && !seat.speaking && !seat.kept && (seat.channelId === undefined || seat.listeners === 0);
}

/**
 * The seat rule, for a member in voice channel `channelId`: the seat already there; else the main bot if available and it
 * may connect and speak there; else the first available helper that may; else (none may) the main bot if available, so the
 * gate refuses in its usual words; else busy, with the channels the seats are in.
 */
export function chooseSeat(seats: readonly SeatView[], channelId: string): SeatRuling {
  const there = seats.find((seat) => seat.present && seat.channelId === channelId);
  if (there !== undefined) return { kind: 'seat', index: there.index };
  // The main bot first, then the helpers in order: `seats` is in that order.
  const allowed = seats.find((seat) => seatIsAvailable(seat) && seat.mayJoin);
  if (allowed !== undefined) return { kind: 'seat', index: allowed.index };
  const main = seats.find((seat) => seat.index === 0);
  if (main !== undefined && seatIsAvailable(main)) return { kind: 'seat', index: 0 };
  const channels = seats.filter((seat) => seat.present && seat.channelId !== undefined).map((seat) => seat.channelId!);
  return { kind: 'busy', channels: [...new Set(channels)] };
}

/** Where auto-read reads in a guild: each voice channel it reads into (by ID), with the text channel it reads. */
type ReadAt = { readonly textChannelId: string; readonly voiceChannelId: string };
export type GuildReading = ReadonlyMap<string, ReadAt>;

/** Why no seat (its caller words it): no voice channel; auto-read keeps one elsewhere (`move`: /join's, a manager
 * passes); every seat busy (`speaking`: the only seat, and it speaks there). */
export type NoSeat =
  | { kind: 'not-in-voice' }
  | (ReadAt & { kind: 'read'; move: boolean })
  | { kind: 'busy'; channels: string[]; speaking: boolean };

/** What the choice is given besides the channel, for a member's order. */
interface SeatAsk {
  /** Auto-read's readings in this server: it keeps its seats in the channels it reads into. */
  readonly reading?: GuildReading | undefined;
  /** /join's: whether the member manages the server (then it moves the seat auto-read keeps); undefined: not /join. */
  readonly manager?: boolean | undefined;
  /** The gate, asked of the seat chosen (undefined: none) in `channelId`: throws its refusal. */
  readonly allowed?: ((seat: Seat | undefined, channelId: string) => void) | undefined;
}

interface SeatsOptions {
  /** Whether the bot whose server this is may connect and speak in the channel: the gate's answer. */
  mayJoin: (seatGuild: Guild, channelId: string) => boolean;
  /** A voice channel its seat stays in (auto-read reads into it): that seat is never available. */
  kept?: ((guildId: string, channelId: string) => boolean) | undefined;
}

/** Every bot's seats: where an order plays (`seatFor`), the seat in a channel, and the gauges over all of them. */
export class Seats {
  readonly #bots: readonly SeatBot[];
  readonly #options: SeatsOptions;

  constructor(bots: readonly SeatBot[], options: SeatsOptions) {
    this.#bots = bots;
    this.#options = options;
  }

  /** The main bot: the one with commands, and the seat when no helper is set. */
  get main(): SeatBot {
    return this.#bots[0]!;
  }

  get bots(): readonly SeatBot[] {
    return this.#bots;
  }

  /**
   * Where an order in voice plays, decided here alone: in `channelId` (the member's voice channel; none: not in voice),
   * the seat the rule gives (chooseSeat, over every bot as `guild`'s main-bot view shows them), unless auto-read keeps
   * one in another channel (`reading`; a manager's /join moves that seat); the gate asked of the seat (`allowed`)
   * before "busy", so what the member (or no seat) may not do there is said first.
   */
  seatFor(
    guild: Guild,
    channelId: string | null | undefined,
    ask: SeatAsk = {},
  ): { kind: 'seat'; seat: Seat; channelId: string } | NoSeat {
    if (!channelId) return { kind: 'not-in-voice' };
    const views = this.#bots.map((bot) => this.#view(bot, guild, channelId));
    const ruling = chooseSeat(views, channelId);
    const chosen = ruling.kind === 'seat' ? this.#seat(this.#bots[ruling.index]!, guild.id) : undefined;
    const readings = chosen === undefined ? ask.reading : undefined;
    const read = readings?.has(channelId) === false ? readings.values().next().value : undefined;
    if (read !== undefined && ask.manager !== true) return { kind: 'read', ...read, move: ask.manager === false };
    // A manager's /join moves the seat auto-read keeps (its reading paused there by /join).
    const seat = chosen ?? (read === undefined ? undefined : this.inChannel(guild.id, read.voiceChannelId));
    ask.allowed?.(seat, channelId);
    if (seat !== undefined) return { kind: 'seat', seat, channelId };
    const speaking = views.filter((view) => view.present).length === 1 && views.some((view) => view.speaking);
    return { kind: 'busy', channels: ruling.kind === 'busy' ? ruling.channels : [], speaking };
  }

  /** The seat sitting in (or joining, or holding orders for) `channelId`: what /leave, /stop and /skip act on. */
  inChannel(guildId: string, channelId: string): Seat | undefined {
    for (const bot of this.#bots) {
      const seat = this.#seat(bot, guildId);
      if (seat !== undefined && this.#sitsIn(seat) === channelId) return seat;
    }
    return undefined;
  }

  /** Every seat of the server in a voice channel now (or holding orders for one). */
  inVoice(guildId: string): { seat: Seat; channelId: string }[] {
    const seats = this.#bots.map((bot) => this.#seat(bot, guildId)).filter((seat) => seat !== undefined);
    return seats.flatMap((seat) => {
      const channelId = this.#sitsIn(seat);
      return channelId === undefined ? [] : [{ seat, channelId }];
    });
  }

  /** Voice connections open now, over every bot (the operator's gauge). */
  get connectedCount(): number {
    return this.#bots.reduce((sum, bot) => sum + bot.players.connectedCount, 0);
  }

  /** Clips waiting in every seat's queue (the operator's gauge). */
  get queuedCount(): number {
    return this.#bots.reduce((sum, bot) => sum + bot.players.queuedCount, 0);
  }

  /** Leaves every channel, every bot: at shutdown. */
  destroyAll(): void {
    for (const bot of this.#bots) bot.players.destroyAll();
  }

  #seat(bot: SeatBot, guildId: string): Seat | undefined {
    const userId = bot.userId();
    const guild = bot.guild(guildId);
    if (userId === undefined || guild === undefined) return undefined;
    return { guildId, bot, userId, guild, player: () => bot.players.get(guildId, guild.voiceAdapterCreator) };
  }

  /** Where its player is, else where Discord says the bot sits (moved by a moderator, or left there by a restart). */
  #sitsIn(seat: Seat): string | undefined {
    return seat.bot.players.find(seat.guildId)?.channelId ?? seat.guild.members.me?.voice.channelId ?? undefined;
  }

  #view(bot: SeatBot, guild: Guild, channelId: string): SeatView {
    const seat = this.#seat(bot, guild.id);
    const absent = { present: false, channelId: undefined, speaking: false, listeners: 0, kept: false, mayJoin: false };
    if (seat === undefined) return { index: bot.index, ...absent };
    const sits = this.#sitsIn(seat);
    const channel = sits === undefined ? undefined : guild.channels.cache.get(sits);
    const listeners = channel?.isVoiceBased() === true ? channel.members.filter((m) => !m.user.bot).size : 0;
    return {
      index: bot.index,
      present: true,
      channelId: sits,
      speaking: seat.bot.players.find(guild.id)?.busy === true,
      listeners,
      kept: sits !== undefined && this.#options.kept?.(guild.id, sits) === true,
      mayJoin: this.#options.mayJoin(seat.guild, channelId),
    };
  }
}

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
  /** A helper bot's players (GuildPlayerOptions.helper). */
  helper?: boolean;
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
      helper: this.#options.helper,
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
