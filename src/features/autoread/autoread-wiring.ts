// Auto-read in the running bot: the AutoReader fed by Discord's events; its bindings kept and resumed at start-up.
import { refreshDictionary } from './dictionary-changes.ts';
import { describeFailure, fallbackReason, helperOf, seatWords } from '../speaking/index-words.ts';
import { handOver, missingReadingRight, noSeatError, noticeChannel } from '../speaking/index.ts';
import { Events, type Client, type Guild, type GuildMember, type VoiceState } from 'discord.js';
import type { Logger } from '../../core/log.ts';
import { dayOf } from '../../core/calendar.ts';
import { Refusal } from '../../core/refusal.ts';
import { AutoReader, type ReaderNotice } from './reading/reader.ts';
import type { Revocation } from '../../core/order/rights.ts';
import { autoreadSpeechRequest } from './reading/voice.ts';
import type { Saving } from '../../core/sourcing/voice-choice.ts';
import type { SpeechPipeline } from '../../core/order/pipeline.ts';
import type {
  AutoReadBinding,
  AutoReadSettings,
  AutoReadStopReason,
  NewBinding,
  StartResult,
} from './store/auto-read-store.ts';
import { AUTO_READ_BINDINGS_MAX } from './store/auto-read-store.ts';
import type { Store } from '../../core/store/types.ts';
import type { DictionaryEntry } from './dictionary/dictionary.ts';
import type { GuildPlayer } from '../../core/voice/guild-player.ts';
import type { Seat, Seats } from '../../core/voice/seats.ts';
import { MEMBER_AUDIENCE } from '../../core/interactions/failures.ts';
import { t } from './strings.ts';
import { NO_MENTIONS } from '../../core/interactions/replies.ts';
import type { ChannelReading } from '../../core/interactions/command.ts';
import { VoiceChannelStatus } from './voice-channel-status.ts';

export interface AutoreadWiringOptions {
  store: Store;
  speech: SpeechPipeline;
  /** Every bot's seats: auto-read reads through the one that sits in (or is chosen for) its voice channel. */
  seats: Seats;
  logger: Logger;
  /** Whether Discord gave auto-read's intents (known once logged in). */
  available: () => boolean;
  /** The backlog's bound per guild (the server's voice queue bound, config.queue); 0 = no limit. */
  backlog?: { messages: number; seconds: number };
  /** Whether SayBot serves this server (ALLOWED_GUILDS); absent: every server. Nothing is read aloud elsewhere. */
  serves?: (guildId: string) => boolean;
  /** The rule a pool voice was saved by, kept as it is picked; voices:distinct's default pool is its `listed` presets. */
  saving: Saving;
}

declare module '../../core/interactions/command.ts' {
  interface CommandContext {
    /** Auto-read in this bot; absent where a test runs commands without a bot. */
    autoread?: AutoreadWiring;
  }
}

/** Tells a process its reader should reload a guild's settings, ignore list and dictionary: a change from another shard. */
export const AUTOREAD_CHANGED_EVENT = 'saybotAutoreadChanged';

/** Auto-read in the running bot: what the commands, the dashboard and the app do with it. */
export class AutoreadWiring {
  readonly #options: AutoreadWiringOptions;
  readonly #log: Logger;
  readonly #reader: AutoReader;
  /** "Reading #general aloud" on the voice channel while reading there. */
  readonly #status: VoiceChannelStatus;
  #client: Client | undefined;
  /** Bindings ("guild:voice channel") an auto-join is under way for: a burst of members joining makes one join. */
  readonly #autojoining = new Set<string>();
  #closed = false;

  constructor(options: AutoreadWiringOptions) {
    this.#options = options;
    this.#log = options.logger;
    const { store, speech } = options;
    this.#status = new VoiceChannelStatus({
      seatGuild: (guildId, voiceChannelId) => options.seats.inChannel(guildId, voiceChannelId)?.guild,
      logger: options.logger,
    });
    this.#reader = new AutoReader({
      handOver: (order) => handOver(speech, order),
      seatFor: (guild, voiceChannelId) => seatFor(options.seats, guild, voiceChannelId),
      isOwnBot: (userId) => options.seats.bots.some((bot) => bot.userId() === userId),
      requestFor: (guildId, userId, text, distinct) => {
        const preferredLocale = this.#client?.guilds.cache.get(guildId)?.preferredLocale ?? null;
        return autoreadSpeechRequest(store, { id: guildId, preferredLocale }, options.saving, userId, text, distinct);
      },
      freeVersion: (request) => speech.freeVersion(request),
      memberFor: async (guildId, userId) => (await store.memberDefaults.get(guildId, userId)) ?? {},
      memberMaySpeak: (guildId, userId, voiceChannelId) => {
        const member = this.#client?.guilds.cache.get(guildId)?.members.cache.get(userId);
        // Not cached: judged when the message arrived (its member came with it).
        return member && this.#rights(member, voiceChannelId);
      },
      // The member as the message brought them (not cached yet, maybe), asked of the port as the order will be.
      memberBarredAt: (member, voiceChannelId) => {
        const revoked = this.#rights(member, voiceChannelId);
        return revoked !== undefined && 'channelId' in revoked;
      },
      notify: (notice) => this.#notify(notice),
      ...(options.backlog === undefined
        ? {}
        : { maxPending: options.backlog.messages, maxPendingSeconds: options.backlog.seconds }),
      onStopped: (guildId, voiceChannelId) => {
        // The bot already left: Discord clears a status when its channel empties; else this may be refused (logged).
        void this.#status.clear(guildId, voiceChannelId);
        void this.#recordStop(guildId, voiceChannelId, 'left-voice', 'auto-read stopped, but its stop was not stored');
      },
      logger: options.logger,
    });
  }

  /** Discord gave the Message Content intent: without it no chat reaches the bot. */
  get available(): boolean {
    return this.#options.available();
  }

  /** Listens to this client (made again when Discord refuses auto-read's intents: the last one attached is used). */
  attach(client: Client): void {
    this.#client = client;
    client.on(Events.MessageCreate, (message) => {
      if (message.guildId !== null && this.#serves(message.guildId)) this.#reader.onMessage(message);
    });
    client.on(Events.VoiceStateUpdate, (before, after) => {
      this.#reader.onVoiceState(before, after);
      if (after.channelId !== null && after.channelId !== before.channelId) void this.#autojoin(after);
    });
    // Settings, the ignore list or the dictionary changed in another process (the dashboard's shard): reloaded here.
    client.on(AUTOREAD_CHANGED_EVENT, (guildId: unknown) => {
      if (typeof guildId !== 'string') return;
      this.refresh(guildId).catch((error: unknown) =>
        this.#options.logger.warn({ err: error, guildId }, "auto-read's changes were not reloaded"),
      );
    });
  }

  /** The member's voice rights where auto-read speaks (the gate's answer). */
  #rights(member: GuildMember, voiceChannelId: string): Revocation | undefined {
    return this.#options.speech.rights.stillAllows({
      does: ['member-words'],
      at: { guild: member.guild, memberId: member.id, member, voiceChannelId },
    });
  }

  #serves(guildId: string): boolean {
    return this.#options.serves?.(guildId) ?? true;
  }

  /** Whether the guild reads now: into this voice channel, or (without it) into any. */
  isReading(guildId: string, voiceChannelId?: string): boolean {
    const readings = this.#reader.channels.get(guildId);
    return voiceChannelId === undefined ? readings !== undefined : readings?.has(voiceChannelId) === true;
  }

  /** What a command choosing its target reads of auto-read: the channels each guild reads. */
  get channels(): ChannelReading {
    return this.#reader.channels;
  }

  /** The player a binding plays through: the one place auto-read asks for one, the seat the rule chooses. */
  #playerFor(guild: Guild, voiceChannelId: string): GuildPlayer {
    const choice = this.#options.seats.seatFor(guild, voiceChannelId);
    if (choice.kind !== 'seat') throw noSeatError(choice, false);
    return choice.seat.player();
  }

  /** Stops a binding's reading, binding kept (a manager's /leave); resolves once its status is cleared. */
  async pause(guildId: string, voiceChannelId: string): Promise<boolean> {
    // Out of the reader before the bot leaves voice, so its leaving is not "stopped by itself" (dropping the binding).
    const wasReading = this.#reader.stop(guildId, voiceChannelId);
    await this.#status.clear(guildId, voiceChannelId);
    return wasReading;
  }

  /** Reads again a binding kept for this voice channel (the bot already there); its text channel, else undefined. */
  async resume(guildId: string, voiceChannelId: string): Promise<string | undefined> {
    if (this.isReading(guildId, voiceChannelId)) return undefined;
    const state = await this.#options.store.autoRead.get(guildId);
    const binding = state.bindings.find((kept) => kept.voiceChannelId === voiceChannelId);
    if (!binding) return undefined;
    const guild = this.#client?.guilds.cache.get(guildId);
    const seat = this.#options.seats.inChannel(guildId, voiceChannelId);
    if (guild && (await this.#pausedForRights(guild, binding, seat?.guild))) return undefined;
    // Its text channel read into another voice channel since: not resumed.
    if ((await this.#options.store.autoRead.start(guildId, binding)).kind !== 'started') return undefined;
    await this.#read(guildId, state.settings, binding);
    return binding.textChannelId;
  }

  /**
   * Joins the binding's voice channel and reads its text channel into it; a failed join throws and nothing is stored.
   * Refused first, nothing joined: the server holds its most bindings, all reading, or the text channel is read elsewhere.
   */
  async start(guild: Guild, binding: NewBinding): Promise<Exclude<StartResult, { kind: 'started' }> | undefined> {
    const kept = await this.#options.store.autoRead.get(guild.id);
    const refused = startRefusal(kept.bindings, binding);
    if (refused) return refused;
    await this.#playerFor(guild, binding.voiceChannelId).connect(binding.voiceChannelId);
    const started = await this.#options.store.autoRead.start(guild.id, binding);
    if (started.kind !== 'started') return started;
    await this.#read(guild.id, kept.settings, started.binding);
    return undefined;
  }

  /** Stops a binding (every one of the guild's without `voiceChannelId`): store and reader; false when none read. */
  async stop(guildId: string, voiceChannelId?: string): Promise<boolean> {
    const wasReading = this.#reader.stop(guildId, voiceChannelId);
    const [stored] = await Promise.all([
      this.#options.store.autoRead.stop(guildId, voiceChannelId),
      this.#status.clear(guildId, voiceChannelId),
    ]);
    return wasReading || stored;
  }

  configure(guildId: string, settings: AutoReadSettings): void {
    this.#reader.configure(guildId, settings);
  }

  setDictionary(guildId: string, entries: readonly DictionaryEntry[]): void {
    this.#reader.setDictionary(guildId, entries);
  }

  /**
   * After a change elsewhere (the dashboard, another shard): what is stored (settings, ignore list, dictionary), and a
   * binding stopped there stops here.
   */
  async refresh(guildId: string): Promise<void> {
    const { store } = this.#options;
    const [state, ignored] = await Promise.all([store.autoRead.get(guildId), store.autoReadMembers.ignored(guildId)]);
    for (const binding of state.bindings)
      if (!binding.reading && this.#reader.stop(guildId, binding.voiceChannelId))
        await this.#status.clear(guildId, binding.voiceChannelId);
    this.configure(guildId, state.settings);
    this.setIgnored(guildId, ignored);
    await refreshDictionary(store, this, guildId);
  }

  setIgnored(guildId: string, userIds: readonly string[]): void {
    this.#reader.setIgnored(guildId, userIds);
    // A member ignored now is not heard to the end of what plays for them: it stops at once.
    this.#options.speech.rightsChanged(guildId);
  }

  membersHeld(guildId?: string): Iterable<string> {
    return this.#reader.membersHeld(guildId);
  }

  forgetMember(userId: string, guildId?: string, by?: 'member' | 'operator'): void {
    this.#reader.forgetMember(userId, guildId, by);
  }

  /**
   * After login: each stored binding is read again once back in its voice channel; nobody there (or a failed join)
   * drops it, since a bot alone would only leave. Without Message Content the bindings wait for a start with it.
   */
  async restore(): Promise<void> {
    const client = this.#client;
    if (!client) return;
    let kept: Array<{ guildId: string; binding: AutoReadBinding }>;
    try {
      kept = await this.#options.store.autoRead.listReading();
    } catch (error) {
      // The bot still starts: /autoread start binds again.
      this.#log.error(
        { code: 'autoread-not-resumed', reason: 'store-failed', err: error },
        'auto-read bindings could not be read: none resumed',
      );
      return;
    }
    if (kept.length === 0) return;
    if (!this.available) {
      this.#log.warn(
        { code: 'autoread-not-resumed', bindings: kept.length, reason: 'intent-missing' },
        'auto-read bindings kept but not resumed: Message Content is not enabled',
      );
      return;
    }
    // Servers side by side; a server's bindings one after another, each taking its seat by the same rule as a start.
    const byGuild = Map.groupBy(kept, (one) => one.guildId);
    await Promise.all(
      [...byGuild].map(async ([guildId, bindings]) => {
        for (const { binding } of bindings) await this.#resume(client, guildId, binding);
      }),
    );
  }

  /** A helper's client is about to be destroyed: the statuses it set are cleared through it first. */
  async releaseClient(client: Client): Promise<void> {
    await this.#status.clearSetBy(client);
  }

  /** Shutting down: bindings kept for the next start; resolves once SayBot's statuses are cleared. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#reader.close();
    await this.#status.clearAll();
  }

  /**
   * A member joined an `autojoin` binding's channel that SayBot left by itself, and a seat is available for it (the seat
   * rule): that seat joins and reads again (not after /autoread stop or a manager's /leave). Never throws.
   */
  async #autojoin(state: VoiceState): Promise<void> {
    const { guild, member } = state;
    const voiceChannelId = state.channelId;
    if (
      this.#closed ||
      !this.available ||
      !member ||
      member.user.bot ||
      voiceChannelId === null ||
      !this.#serves(guild.id)
    )
      return;
    // A seat of SayBot's already there stays as it is; none free (the seat rule): nothing to join with.
    const { seats } = this.#options;
    const joining = `${guild.id}:${voiceChannelId}`;
    if (
      this.isReading(guild.id, voiceChannelId) ||
      seats.inChannel(guild.id, voiceChannelId) !== undefined ||
      this.#autojoining.has(joining)
    )
      return;
    const seat = seatFor(seats, guild, voiceChannelId);
    if (seat === undefined) return;
    this.#autojoining.add(joining);
    try {
      const stored = await this.#options.store.autoRead.get(guild.id);
      const binding = stored.bindings.find((kept) => kept.voiceChannelId === voiceChannelId);
      if (!stored.settings.autojoin || !binding || binding.reading || binding.stoppedWhy !== 'left-voice') return;
      if (await this.#pausedForRights(guild, binding, seat.guild)) return;
      const refused = await this.start(guild, { ...binding, voiceChannelId });
      if (refused) throw new Error(`auto-join refused: ${refused.kind}`);
      this.#log.info(
        { code: 'autoread-autojoined', guildId: guild.id, channelId: binding.textChannelId, voiceChannelId },
        'auto-read joined the voice channel a member entered',
      );
    } catch (error) {
      this.#log.warn(
        { code: 'autoread-autojoin-failed', guildId: guild.id, voiceChannelId, err: error },
        'auto-read could not join the voice channel a member entered',
      );
    } finally {
      this.#autojoining.delete(joining);
    }
  }

  async #resume(client: Client, guildId: string, binding: AutoReadBinding): Promise<void> {
    const { voiceChannelId } = binding;
    // Nobody there is as if SayBot had been left alone: auto-join may bring it back when someone comes.
    const drop = async (reason: string, error?: unknown, why: AutoReadStopReason = 'asked') => {
      this.#log.warn(
        {
          code: 'autoread-not-resumed',
          guildId,
          voiceChannelId,
          reason,
          ...(error === undefined ? {} : { err: error }),
        },
        'auto-read not resumed after the restart: its binding is dropped',
      );
      await this.#recordStop(guildId, voiceChannelId, why, 'could not drop an auto-read binding');
    };
    const guild = client.guilds.cache.get(guildId);
    if (!guild || !this.#serves(guildId)) return drop('no-guild');
    const voice = guild.channels.cache.get(voiceChannelId);
    if (!voice?.isVoiceBased()) return drop('no-channel');
    if (voice.members.filter((member) => !member.user.bot).size === 0)
      return drop('channel-empty', undefined, 'left-voice');
    // Its helper not back yet (or every seat taken): kept as if SayBot had left, for an autojoin once a seat is available.
    const seat = seatFor(this.#options.seats, guild, voiceChannelId);
    if (seat === undefined) return drop('no-seat', undefined, 'left-voice');
    if (await this.#pausedForRights(guild, binding, seat.guild)) return;
    try {
      const { settings } = await this.#options.store.autoRead.get(guildId);
      await this.#playerFor(guild, voiceChannelId).connect(voiceChannelId);
      await this.#read(guildId, settings, binding);
    } catch (error) {
      return drop('join-failed', error);
    }
    this.#log.info(
      { code: 'autoread-resumed', guildId, channelId: binding.textChannelId, voiceChannelId },
      'auto-read resumed',
    );
  }

  /**
   * Reading back by itself checks the rights first, the voice channel's as the seat's own bot (`seatGuild`) has them;
   * one gone pauses it (binding kept, one notice). True: paused.
   */
  async #pausedForRights(
    guild: Guild,
    binding: { textChannelId: string; voiceChannelId: string },
    seatGuild?: Guild,
  ): Promise<boolean> {
    const missing = missingReadingRight(guild, binding, seatGuild);
    if (missing === undefined) return false;
    const { textChannelId, voiceChannelId } = binding;
    this.#log.warn(
      { code: 'autoread-paused-rights', guildId: guild.id, missing, channelId: textChannelId, voiceChannelId },
      'auto-read paused: SayBot may no longer read or speak where it is bound',
    );
    await this.#recordStop(guild.id, voiceChannelId, 'asked', 'auto-read paused, but the store could not record it');
    const where = noticeChannel(guild, binding);
    const params = { channel: `<#${textChannelId}>`, voice: `<#${voiceChannelId}>` };
    const words =
      missing === 'text'
        ? { key: 'autoread.pausedRights.text' as const, params }
        : seatWords('autoread.pausedRights.voice', params, helperOf(seatGuild, guild));
    const content = t(guild.preferredLocale, words.key, words.params);
    await where
      ?.send({ content, allowedMentions: NO_MENTIONS })
      .catch((error: unknown) =>
        this.#log.warn(
          { code: 'autoread-notice-failed', guildId: guild.id, channelId: where.id, err: error },
          'auto-read could not post its notice',
        ),
      );
    return true;
  }

  /** Reading stopped or paused here: the store records it, and a failure to is logged (`failed`), never thrown. */
  async #recordStop(guildId: string, voiceChannelId: string, why: AutoReadStopReason, failed: string): Promise<void> {
    await this.#options.store.autoRead
      .stop(guildId, voiceChannelId, why)
      .catch((error: unknown) => this.#log.error({ code: 'autoread-stop-not-stored', guildId, err: error }, failed));
  }

  async #read(guildId: string, settings: AutoReadSettings, binding: AutoReadBinding): Promise<void> {
    const { textChannelId: channelId, voiceChannelId } = binding;
    const [entries, ignored] = await Promise.all([
      this.#options.store.dictionary.list(guildId),
      this.#options.store.autoReadMembers.ignored(guildId),
    ]);
    this.#reader.start({ guildId, channelId, voiceChannelId, settings, ignored: new Set(ignored) }, entries);
    // Not awaited: a slow or refused status never delays reading.
    void this.#status.reading(guildId, voiceChannelId, channelId);
  }

  /** A notice in the channel read, in the server's language; it pings nobody. */
  async #notify(notice: ReaderNotice): Promise<void> {
    const { language } = notice;
    const content =
      notice.kind === 'refused' || notice.kind === 'charged'
        ? t(language, 'autoread.paused', {
            member: `<@${notice.userId}>`,
            reason: publicReason(language, notice.kind === 'refused' ? notice.refusal : notice.error),
          })
        : notice.kind === 'fallback'
          ? t(language, 'autoread.fallback', { voice: `\`${notice.voice}\``, reason: fallbackReason(notice.cause) })
          : notice.kind === 'skipped-to-newest'
            ? t(language, 'autoread.skippedToNewest', { count: notice.count })
            : t(language, 'autoread.behind');
    const channel = this.#client?.channels.cache.get(notice.channelId);
    if (!channel?.isSendable()) throw new Error(`cannot post in channel ${notice.channelId}`);
    await channel.send({ content, allowedMentions: NO_MENTIONS });
  }
}

/** A refusal's reason as the whole channel may read it: a member's own figures and the month's stay private. */
function publicReason(language: string | undefined, refusal: unknown): string {
  if (refusal instanceof Refusal && refusal.reason.code === 'budget-member-day')
    return t(language, 'autoread.refused.memberDay', { reset: `${dayOf(refusal.reason.resetAt)} 00:00 UTC` });
  const { message } = describeFailure(refusal, MEMBER_AUDIENCE);
  return t(language, message.key, message.params);
}

/** The seat reading into `voiceChannelId` (src/core/voice/seats.ts `seatFor`); undefined when none is available. */
function seatFor(seats: Seats, guild: Guild, voiceChannelId: string): Seat | undefined {
  const choice = seats.seatFor(guild, voiceChannelId);
  return choice.kind === 'seat' ? choice.seat : undefined;
}

/** Why a start is refused before anything is joined: the text channel read elsewhere, or no binding left to take. */
export function startRefusal(
  kept: readonly AutoReadBinding[],
  binding: NewBinding,
  max = AUTO_READ_BINDINGS_MAX,
): Exclude<StartResult, { kind: 'started' }> | undefined {
  const others = kept.filter((one) => one.voiceChannelId !== binding.voiceChannelId);
  const taken = others.find((one) => one.reading && one.textChannelId === binding.textChannelId);
  if (taken) return { kind: 'text-taken', voiceChannelId: taken.voiceChannelId };
  if (others.length >= max && others.every((one) => one.reading)) return { kind: 'full' };
  return undefined;
}
