// The auto-reader: per binding (server, voice channel), reads its text channel aloud through the pipeline, in order (decisions: decide.ts).
// A message is handed over only once the one before plays, so dropping the oldest past the bound costs nothing.
import { leftBarred, type DeclaredOrder } from '../../speaking/index.ts';
import type { FallbackCause } from '../../speaking/index-words.ts';
import type { Guild, GuildMember, Message, VoiceState } from 'discord.js';
import type { Logger } from '../../../core/log.ts';
import type { Seat } from '../../../core/voice/seats.ts';
import { Refusal } from '../../../core/refusal.ts';
import { VoiceApiError } from '../../../core/api/errors.ts';
import { UnmetError } from '../../../core/interactions/preconditions.ts';
import type { ChannelReading } from '../../../core/interactions/command.ts';
import { RightsRevokedError, type Revocation } from '../../../core/order/rights.ts';
import type { OrderEvents, RequestPolicy, SpeechOutcome, SpeechRequest } from '../../../core/order/pipeline.ts';
import type { MemberReading } from './member-reading.ts';
import { estimateSpeechSeconds } from '../../../core/characters.ts';
import type { DictionaryEntry } from '../dictionary/dictionary.ts';
import { dictionaries, type ServerDictionary } from '../dictionary/dictionary-cache.ts';
import {
  catchUpSpeed,
  messageText,
  nameDue,
  NoticeGate,
  shouldRead,
  spokenName,
  type LastSpeaker,
  type MessageFacts,
} from './decide.ts';
import { messageFacts } from './message-facts.ts';
import type { AutoReadSettings } from '../store/auto-read-store.ts';
import type { ReadingBinding } from './binding.ts';
import { voiceChangeText, withName } from './spoken.ts';
import type { DistinctVoices } from './voice.ts';
import { RecentSpeakers } from './voice-pool.ts';

/** The order the reader gives the pipeline: a voice target, recorded as command 'autoread'. */
export type ReaderOrder = DeclaredOrder & {
  request: SpeechRequest;
  requester: { command: 'autoread' };
  target: { kind: 'voice' };
};

/**
 * No member cooldown (two lines in a row are both heard), no queue bound or free-request rate (the reader bounds its
 * own backlog), no member /stop (it would empty the channel's reading; /skip their own).
 */
export const CHANNEL_READING: Readonly<RequestPolicy> = {
  memberCooldown: false,
  queueBounded: false,
  requesterMayStop: false,
};
/** Acceptance (a Refusal rejects it), the first frame (the next message is handed over then) and how it ended. */
export type ReaderEvents = Pick<OrderEvents, 'accepted' | 'outcome'> & Partial<Pick<OrderEvents, 'firstAudio'>>;

/**
 * A notice in the read channel: a refusal (one, then silence until a message is accepted), a line that may have been
 * charged and went unheard (one until a line is read), reading going on in the free voice `voice` because the paid
 * voice may not speak (one until it speaks again), or messages that came faster than they can be read (the oldest
 * unread dropped, or all but the newest skipped; `count` at the backlog's first drop).
 */
export type ReaderNotice = { guildId: string; channelId: string; language: string | undefined } & (
  | { kind: 'refused'; userId: string; refusal: Refusal }
  | { kind: 'charged'; userId: string; error: VoiceApiError }
  | { kind: 'fallback'; voice: string; cause: FallbackCause }
  | { kind: 'dropped-oldest' | 'skipped-to-newest'; count: number }
);

export interface AutoReaderOptions {
  /** The speaking feature's hand-over to the pipeline (src/features/speaking/speaking-command.ts). */
  handOver: (order: ReaderOrder) => ReaderEvents;
  /** The seat that reads into the voice channel (src/core/voice/seats.ts `seatFor`); undefined: none is available. */
  seatFor: (guild: Guild, voiceChannelId: string) => Seat | undefined;
  /** Whether the user is one of SayBot's bots (the main bot or a helper): its leaving stops the binding it read. */
  isOwnBot?: (userId: string) => boolean;
  /** The request for `text` (userId null: the server's voice); `distinct`: the voices of the others speaking now. */
  requestFor: (
    guildId: string,
    userId: string | null,
    text: string,
    distinct?: DistinctVoices,
  ) => Promise<SpeechRequest>;
  /** The free voice's version of a request (free_voice on), never the paid voice. Absent: as asked. */
  freeVersion?: (request: SpeechRequest) => SpeechRequest;
  /** A member's /myvoice name and read_me, read at hand-over. Absent: everyone is read, by display name. */
  memberFor?: (guildId: string, userId: string) => Promise<MemberReading>;
  /** Why the member may no longer speak in the voice channel (asked at hand-over and before each part). */
  memberMaySpeak?: (guildId: string, userId: string, voiceChannelId: string) => Revocation | undefined;
  /** Whether a member may not have their words spoken there, judged at the message's arrival. */
  memberBarredAt?: (member: GuildMember, voiceChannelId: string) => boolean;
  /** Posts the notice in the read channel; its failure is logged. */
  notify: (notice: ReaderNotice) => Promise<void>;
  /** Reading stopped by itself (the bot left the binding's voice channel): the store records it. */
  onStopped?: (guildId: string, voiceChannelId: string) => void;
  logger: Logger;
  /** Messages pending per binding beyond which the oldest unread are dropped; default 20, 0 = no limit. */
  maxPending?: number;
  /** The same in estimated seconds of speech; default 0 = no limit. */
  maxPendingSeconds?: number;
}

interface GuildReading {
  binding: ReadingBinding;
  /** Applied when a message is handed over, not when it arrives. */
  dictionary: ServerDictionary;
  /** The last member whose words were handed over: the name rule's memory. */
  last: LastSpeaker | undefined;
  gate: NoticeGate;
  /** The one notice that reading goes on in the free voice, re-armed when the paid voice speaks again. */
  fallbackGate: NoticeGate;
  chargedGate: NoticeGate;
  /** Not handed to the pipeline yet, oldest first: nothing is held or requested for them. */
  unread: Utterance[];
  /** Handed to the pipeline and not yet played, skipped or failed. */
  handed: Set<Utterance>;
  handing: Promise<void> | undefined;
  /** A failure streak is logged once, at its start. */
  failing: boolean;
  /** Messages dropped in the backlog under way: the first drop gives the one notice, catching up re-arms it. */
  dropped: number;
  recent: RecentSpeakers;
}

interface Utterance {
  /** A message's words after clean-up, before the dictionary; '' for a join/leave line. */
  body: string;
  /** The words handed over, from the body and the name as the dictionary says them (undefined: no name said). */
  line: (body: string, name: string | undefined) => string;
  named: boolean;
  /** The name is said every time (join/leave lines), not only when due. */
  nameAlways?: boolean;
  displayName: string;
  /** Estimated seconds of speech: the backlog's bound. */
  seconds: number;
  /** Whose /myvoice speaks it; null: the server's voice. */
  voiceOf: string | null;
  userId: string;
  /** The author for their message; the server's ID for join/leave lines, so joining spends nobody's budget. */
  payer: string;
  id: string;
  /** When it was sent (ms since epoch): the name rule and the time-to-first-audio metric. */
  askedAt?: number;
  language: string | undefined;
  guild: Guild;
}

/** The request at a backlog's catch-up speed, never slower than the member's own; nothing more is paid. */
function faster(request: SpeechRequest, speed: number): SpeechRequest {
  if (speed <= 1 || request.kind === 'ready') return request;
  const own = request.effects ?? { speed: 1, volumeDb: 0 };
  return own.speed >= speed ? request : { ...request, effects: { ...own, speed } };
}

export class AutoReader {
  readonly #options: AutoReaderOptions;
  readonly #log: Logger;
  /** Each guild's readings by voice channel. */
  readonly #guilds = new Map<string, Map<string, GuildReading>>();
  /** The channels each guild reads, while it reads (ChannelReading): kept beside #guilds, entry for entry. */
  readonly #channels = new Map<string, Map<string, { textChannelId: string; voiceChannelId: string }>>();
  #closed = false;

  constructor(options: AutoReaderOptions) {
    this.#options = options;
    this.#log = options.logger;
  }

  /** Starts (or restarts, with new settings) a binding's reading. The dictionary's entries may follow later. */
  start(binding: ReadingBinding, dictionary: readonly DictionaryEntry[] = []): void {
    const { guildId, voiceChannelId } = binding;
    const channels =
      this.#channels.get(guildId) ?? new Map<string, { textChannelId: string; voiceChannelId: string }>();
    this.#channels.set(guildId, channels.set(voiceChannelId, { textChannelId: binding.channelId, voiceChannelId }));
    const readings = this.#guilds.get(guildId) ?? new Map<string, GuildReading>();
    this.#guilds.set(guildId, readings);
    readings.set(voiceChannelId, {
      binding: { ...binding, settings: { ...binding.settings }, ignored: new Set(binding.ignored) },
      dictionary: dictionaries.compiled(binding.guildId, dictionary),
      last: undefined,
      gate: new NoticeGate(),
      fallbackGate: new NoticeGate(),
      chargedGate: new NoticeGate(),
      unread: [],
      handed: new Set(),
      handing: undefined,
      failing: false,
      dropped: 0,
      recent: new RecentSpeakers(),
    });
    this.#log.info(
      {
        code: 'autoread-started',
        guildId: binding.guildId,
        channelId: binding.channelId,
        voiceChannelId: binding.voiceChannelId,
      },
      'auto-read started',
    );
  }

  /** Stops a binding's reading (every one of the guild's without `voiceChannelId`); false when none was reading. */
  stop(guildId: string, voiceChannelId?: string): boolean {
    const readings = this.#guilds.get(guildId);
    const stopped = [...(readings?.keys() ?? [])].filter((id) => voiceChannelId === undefined || id === voiceChannelId);
    for (const id of stopped) {
      this.#forget(guildId, id);
      this.#log.info({ code: 'autoread-stopped', guildId, voiceChannelId: id, why: 'asked' }, 'auto-read stopped');
    }
    return stopped.length > 0;
  }

  #forget(guildId: string, voiceChannelId: string): void {
    this.#guilds.get(guildId)?.delete(voiceChannelId);
    this.#channels.get(guildId)?.delete(voiceChannelId);
    if (this.#guilds.get(guildId)?.size === 0) {
      this.#guilds.delete(guildId);
      this.#channels.delete(guildId);
    }
  }

  /** The guild's readings (each binding reading now). */
  #readings(guildId: string): Iterable<GuildReading> {
    return this.#guilds.get(guildId)?.values() ?? [];
  }

  /** Whether this reading is still its binding's (not stopped, nor replaced by a new start). */
  #live(reading: GuildReading): boolean {
    return this.#guilds.get(reading.binding.guildId)?.get(reading.binding.voiceChannelId) === reading;
  }

  /** Changes a reading guild's settings (from the next message on); false when it is not reading. */
  configure(guildId: string, settings: Partial<AutoReadSettings>): boolean {
    let reads = false;
    for (const reading of this.#readings(guildId)) {
      reading.binding.settings = { ...reading.binding.settings, ...settings };
      reads = true;
    }
    return reads;
  }

  /** Replaces a reading guild's dictionary (compiled once per change, not per message). */
  setDictionary(guildId: string, entries: readonly DictionaryEntry[]): void {
    const readings = [...this.#readings(guildId)];
    if (readings.length === 0) return;
    const compiled = dictionaries.compiled(guildId, entries);
    for (const reading of readings) reading.dictionary = compiled;
  }

  /** Replaces a reading guild's ignored members (/autoread ignore and unignore), from the next message on. */
  setIgnored(guildId: string, userIds: Iterable<string>): void {
    const ignored = new Set(userIds);
    for (const reading of this.#readings(guildId)) reading.binding.ignored = ignored;
  }

  /** Every reading, or one guild's. */
  *#each(guildId?: string): Generator<GuildReading> {
    if (guildId !== undefined) yield* this.#readings(guildId);
    else for (const readings of this.#guilds.values()) yield* readings.values();
  }

  /** Forgets a member in one guild or all; their ignore (the managers' record) only by the operator's erasure. */
  forgetMember(userId: string, guildId?: string, by: 'member' | 'operator' = 'member'): void {
    for (const reading of this.#each(guildId)) {
      const { ignored } = reading.binding;
      if (by === 'operator' && ignored?.has(userId) === true)
        reading.binding.ignored = new Set([...ignored].filter((id) => id !== userId));
      reading.recent.forget(userId);
      if (reading.last?.userId === userId) reading.last = undefined;
    }
  }

  /** The members the reader remembers anything of (ignored, read lately), in one guild or (undefined) every one. */
  *membersHeld(guildId?: string): Generator<string> {
    for (const reading of this.#each(guildId)) {
      yield* reading.binding.ignored ?? [];
      yield* reading.recent.members();
      if (reading.last) yield reading.last.userId;
    }
  }

  binding(guildId: string, voiceChannelId: string): Readonly<ReadingBinding> | undefined {
    return this.#guilds.get(guildId)?.get(voiceChannelId)?.binding;
  }

  /** The channels each guild reads, while it reads: what a command choosing its target respects. */
  get channels(): ChannelReading {
    return this.#channels;
  }

  /** Resolves once every message taken in this guild is handed to the pipeline (or refused, failed, dropped). */
  async settled(guildId: string): Promise<void> {
    for (const reading of [...this.#readings(guildId)]) while (reading.handing) await reading.handing;
  }

  /** Messages pending in a guild's readings: unread, or handed over and not yet played, skipped or failed. */
  pending(guildId: string): number {
    let pending = 0;
    for (const reading of this.#readings(guildId)) pending += reading.unread.length + reading.handed.size;
    return pending;
  }

  /** Shutting down: no more reading, and the bot leaving voice now is not "stopped by itself" (bindings are kept). */
  close(): void {
    this.#closed = true;
    this.#guilds.clear();
    this.#channels.clear();
  }

  onMessage(message: Message): void {
    if (this.#closed || !message.inGuild()) return;
    // One binding reads a text channel (the store refuses a second): the one whose channel this is.
    const reading = [...this.#readings(message.guildId)].find((r) => r.binding.channelId === message.channelId);
    if (!reading) return;
    let facts: MessageFacts;
    try {
      facts = messageFacts(message, reading.binding.voiceChannelId, this.#options.memberBarredAt);
    } catch (error) {
      this.#log.warn(
        { code: 'autoread-message-unreadable', guildId: message.guildId, messageId: message.id, err: error },
        'auto-read could not read a message',
      );
      return;
    }
    const verdict = shouldRead(facts, reading.binding);
    if (!verdict.read) {
      if (verdict.why !== 'other-channel')
        this.#log.debug(
          { guildId: facts.guildId, messageId: message.id, skipped: verdict.why },
          'auto-read skipped a message',
        );
      return;
    }
    const binding = this.#withLanguage(reading.binding, message.guild);
    const body = messageText(facts, binding, { sayName: false });
    if (body === '') return;
    // The name, and the dictionary, are decided at hand-over: the message before may yet be dropped.
    const { language } = binding;
    const named = binding.settings.sayAuthorName;
    const line = (words: string, name: string | undefined) =>
      name === undefined ? words : withName(name, words, language);
    this.#enqueue(reading, {
      body,
      line,
      named,
      displayName: facts.authorName,
      seconds: estimateSpeechSeconds(line(body, named ? facts.authorName : undefined)),
      voiceOf: facts.authorId,
      userId: facts.authorId,
      payer: facts.authorId,
      id: `autoread-${message.id}`,
      askedAt: facts.at,
      language,
      guild: message.guild,
    });
  }

  /** Discord's voiceStateUpdate: the bot leaving a binding's voice channel stops it; members announced. */
  onVoiceState(before: VoiceState, after: VoiceState): void {
    if (this.#closed) return;
    const guild = after.guild;
    if (this.#options.isOwnBot?.(after.id) ?? after.id === guild.client.user.id) {
      // Left, or moved away: a binding reads into its own voice channel only (auto-join may bring it back).
      const left = before.channelId === null ? undefined : this.#guilds.get(guild.id)?.get(before.channelId);
      if (left && after.channelId !== before.channelId) {
        const { voiceChannelId } = left.binding;
        this.#forget(guild.id, voiceChannelId);
        this.#log.info(
          { code: 'autoread-stopped', guildId: guild.id, voiceChannelId, why: 'left-voice' },
          'auto-read stopped: the bot left voice',
        );
        this.#options.onStopped?.(guild.id, voiceChannelId);
      }
      return;
    }
    if (before.channelId === after.channelId) return;
    for (const reading of this.#readings(guild.id)) this.#announce(reading, before, after);
  }

  /** A member joining or leaving the reading's voice channel, said when the settings ask. */
  #announce(reading: GuildReading, before: VoiceState, after: VoiceState): void {
    const guild = after.guild;
    const { voiceChannelId } = reading.binding;
    if (!reading.binding.settings.announceJoinLeave) return;
    const member = after.member ?? before.member;
    if (!member || member.user.bot || reading.binding.ignored?.has(member.id) === true) return;
    const change =
      after.channelId === voiceChannelId ? 'joined' : before.channelId === voiceChannelId ? 'left' : undefined;
    if (change === undefined) return;
    // A member muted where they were is not announced leaving, even if the leave says otherwise.
    if (change === 'left' && leftBarred(before)) return;
    const language = this.#withLanguage(reading.binding, guild).language;
    const name = spokenName(member.displayName, language);
    if (name === '') return;
    this.#enqueue(reading, {
      body: '',
      line: (_, spoken) => voiceChangeText(change, spoken ?? name, language),
      named: true,
      nameAlways: true,
      displayName: member.displayName,
      seconds: estimateSpeechSeconds(voiceChangeText(change, name, language)),
      voiceOf: null,
      userId: member.id,
      payer: guild.id,
      id: `autoread-${change}-${member.id}-${Date.now()}`,
      language,
      guild,
    });
  }

  #withLanguage(binding: ReadingBinding, guild: Guild): ReadingBinding {
    return binding.language === undefined ? { ...binding, language: guild.preferredLocale } : binding;
  }

  /** Takes a message into the backlog; past the bound the oldest unread ones go (never one already handed over). */
  #enqueue(reading: GuildReading, utterance: Utterance): void {
    reading.unread.push(utterance);
    const { skipAfter } = reading.binding.settings;
    if (skipAfter > 0 && reading.unread.length > skipAfter) {
      // Too far behind to catch up by speed: what is said next is what was just written.
      const skipped = reading.unread.splice(0, reading.unread.length - 1).length;
      this.#dropped(reading, utterance, skipped, 'skipped-to-newest');
      this.#handOver(reading);
      return;
    }
    const maxCount = this.#options.maxPending ?? 20;
    const maxSeconds = this.#options.maxPendingSeconds ?? 0;
    let seconds = 0;
    for (const pending of [...reading.handed, ...reading.unread]) seconds += pending.seconds;
    let dropped = 0;
    while (
      reading.unread.length > 0 &&
      ((maxCount > 0 && reading.unread.length + reading.handed.size > maxCount) ||
        (maxSeconds > 0 && seconds > maxSeconds))
    ) {
      seconds -= reading.unread.shift()?.seconds ?? 0;
      dropped++;
    }
    if (dropped > 0) this.#dropped(reading, utterance, dropped, 'dropped-oldest');
    this.#handOver(reading);
  }

  /** The one notice and one log line of a backlog that overflowed; later drops in it are counted, not announced. */
  #dropped(
    reading: GuildReading,
    utterance: Utterance,
    count: number,
    kind: 'dropped-oldest' | 'skipped-to-newest',
  ): void {
    const first = reading.dropped === 0;
    reading.dropped += count;
    if (!first) return;
    const { guildId, channelId } = reading.binding;
    this.#log.warn(
      { code: 'autoread-behind', guildId, pending: this.pending(guildId), kind, count },
      'auto-read is behind: unread messages are dropped until it catches up',
    );
    void this.#post({ kind, count, guildId, channelId, language: utterance.language });
  }

  async #post(notice: ReaderNotice): Promise<void> {
    try {
      await this.#options.notify(notice);
    } catch (error) {
      const { guildId, channelId } = notice;
      this.#log.warn(
        { code: 'autoread-notice-failed', guildId, channelId, err: error },
        'auto-read could not post its notice',
      );
    }
  }

  /** Nothing pending any more: a later overflow is announced again. */
  #caughtUp(reading: GuildReading): void {
    if (reading.dropped === 0 || reading.unread.length + reading.handed.size > 0) return;
    this.#log.info(
      { code: 'autoread-caught-up', guildId: reading.binding.guildId, dropped: reading.dropped },
      'auto-read caught up',
    );
    reading.dropped = 0;
  }

  /** Hands unread messages over one by one, each once the one before started playing: at most one waits queued. */
  #handOver(reading: GuildReading): void {
    if (reading.handing) return;
    reading.handing = (async () => {
      while (this.#live(reading)) {
        const utterance = reading.unread.shift();
        if (!utterance) break;
        reading.handed.add(utterance);
        await this.#speak(reading, utterance);
      }
    })().finally(() => {
      reading.handing = undefined;
      this.#caughtUp(reading);
    });
  }

  /** Hands one text to the pipeline; resolves once it started playing or ended (the next may follow). Never throws. */
  async #speak(reading: GuildReading, utterance: Utterance): Promise<void> {
    const { guildId } = reading.binding;
    // The backlog as it stands now, not after the awaits below.
    const speed = catchUpSpeed(reading.binding.settings, reading.unread.length);
    const done = (outcome?: SpeechOutcome) => {
      reading.handed.delete(utterance);
      // /stop empties the queue, and a lost connection ends it: what was still unread goes with it, as it did there.
      if (outcome?.kind === 'stopped' || outcome?.kind === 'cut-off') reading.unread.length = 0;
      this.#caughtUp(reading);
    };
    try {
      const revoked = this.#standing(reading, utterance);
      if (revoked !== undefined) {
        // Rights taken away while it waited: dropped unrequested and quietly (a moderator or manager acted).
        this.#log.debug({ guildId, id: utterance.id, skipped: revoked.code }, 'auto-read dropped a waiting message');
        return done();
      }
      const member = (await this.#options.memberFor?.(guildId, utterance.userId)) ?? {};
      if (member.readMe === false) {
        // Their own choice (/myvoice read_me): nothing is requested or said for them, their name neither.
        this.#log.debug({ guildId, id: utterance.id, skipped: 'opted-out' }, 'auto-read skipped a message');
        return done();
      }
      if (!this.#live(reading)) return done();
      const words = await this.#words(reading, utterance, member);
      // The dictionary may leave nothing of a message: nothing is said, not even the name.
      if (!this.#live(reading) || words === '') return done();
      const { voiceOf } = utterance;
      const now = Date.now();
      const distinct =
        voiceOf !== null && reading.binding.settings.voices === 'distinct'
          ? { speakingNow: reading.recent.voicesBesides(voiceOf, now) }
          : undefined;
      const voiced = await this.#options.requestFor(guildId, voiceOf, words, distinct);
      const asked = reading.binding.settings.freeVoice ? (this.#options.freeVersion?.(voiced) ?? voiced) : voiced;
      if (!this.#live(reading)) return done();
      if (voiceOf !== null && asked.kind !== 'ready') reading.recent.heard(voiceOf, asked.voice, now);
      if (speed > 1)
        this.#log.debug(
          { code: 'autoread-faster', guildId, id: utterance.id, speed },
          'auto-read reads faster to catch up',
        );
      const seat = this.#options.seatFor(utterance.guild, reading.binding.voiceChannelId);
      if (seat === undefined) {
        this.#log.warn(
          { code: 'autoread-no-seat', guildId, voiceChannelId: reading.binding.voiceChannelId },
          'no seat is free to read into the voice channel: the message is not read',
        );
        return done();
      }
      const handed = this.#options.handOver({
        request: faster(asked, speed),
        requester: {
          guildId,
          userId: utterance.payer,
          command: 'autoread',
          id: utterance.id,
          askedAt: utterance.askedAt,
          policy: CHANNEL_READING,
        },
        stillAllowed: () => this.#standing(reading, utterance),
        target: {
          kind: 'voice',
          channelId: reading.binding.voiceChannelId,
          seat,
        },
        // A member's words (also their join/leave name): the gate asks their voice rights now and before each part.
        effects: {
          does: ['member-words'],
          at: {
            guild: utterance.guild,
            memberId: utterance.userId,
            voiceChannelId: reading.binding.voiceChannelId,
            seatGuild: seat.guild,
          },
        },
      });
      // Whether the free voice stood in at acceptance: set before the outcome is known.
      let paidAtAcceptance = false;
      const ended = handed.outcome.then(
        (outcome) => {
          done(outcome);
          if (outcome.kind !== 'failed') reading.chargedGate.accepted();
          // The paid voice spoke again: the next fallback is announced once more.
          if (paidAtAcceptance && outcome.standIn === undefined && outcome.kind !== 'failed')
            reading.fallbackGate.accepted();
          if (outcome.standIn !== undefined)
            void this.#fellBack(reading, utterance, outcome.standIn.voice, outcome.standIn.cause);
          if (
            outcome.kind === 'failed' &&
            !(outcome.error instanceof Refusal) &&
            !(outcome.error instanceof RightsRevokedError)
          )
            this.#failed(reading, utterance, outcome.error);
        },
        () => done(),
      );
      const accepted = await handed.accepted;
      reading.gate.accepted();
      reading.failing = false;
      const fallback = accepted.fallback;
      if (fallback === undefined) paidAtAcceptance = true;
      else if (fallback.request.kind !== 'ready')
        void this.#fellBack(reading, utterance, fallback.request.voice, fallback.refusal);
      await Promise.race([handed.firstAudio ?? ended, ended]);
    } catch (error) {
      done();
      if (error instanceof Refusal) await this.#refused(reading, utterance, error);
      // The gate: the member may not be heard there: dropped quietly, as at their message's arrival.
      else if (error instanceof UnmetError)
        this.#log.debug({ guildId, id: utterance.id, skipped: error.unmet.code }, 'auto-read dropped a line');
      else this.#failed(reading, utterance, error);
    }
  }

  /** Whether a waiting line may still be read: its member not ignored since and still allowed to speak there. */
  #standing(reading: GuildReading, utterance: Utterance): Revocation | undefined {
    const { guildId, voiceChannelId } = reading.binding;
    if (reading.binding.ignored?.has(utterance.userId) === true) return { code: 'ignored' };
    return this.#options.memberMaySpeak?.(guildId, utterance.userId, voiceChannelId);
  }

  /** The words handed over, the dictionary applied, with the author's name when due; '' when nothing is left. */
  async #words(reading: GuildReading, utterance: Utterance, member: MemberReading): Promise<string> {
    const sayName =
      utterance.named &&
      (utterance.nameAlways === true || nameDue(reading.last, utterance.userId, utterance.askedAt ?? Date.now()));
    let name = sayName ? spokenName(member.spokenName ?? utterance.displayName, utterance.language) : '';
    // A join/leave line is its name: the display name when the member's own cleans to nothing.
    if (name === '' && utterance.body === '') name = spokenName(utterance.displayName, utterance.language);
    const [body = '', said] = await reading.dictionary.say(name === '' ? [utterance.body] : [utterance.body, name]);
    if (body === '' && utterance.body !== '') return '';
    if (utterance.voiceOf !== null) reading.last = { userId: utterance.userId, at: utterance.askedAt ?? Date.now() };
    return utterance.line(body, said);
  }

  /** Read in the free voice instead: one notice until the paid voice is back. */
  async #fellBack(reading: GuildReading, utterance: Utterance, voice: string, cause: FallbackCause): Promise<void> {
    if (!reading.fallbackGate.refused()) return;
    const { guildId, channelId } = reading.binding;
    const reason = typeof cause === 'string' ? cause : cause.reason.code;
    this.#log.info(
      { code: 'autoread-free-voice', guildId, id: utterance.id, reason },
      'auto-read goes on in the free voice: one notice until the paid voice speaks again',
    );
    await this.#post({ kind: 'fallback', guildId, channelId, language: utterance.language, voice, cause });
  }

  async #refused(reading: GuildReading, utterance: Utterance, refusal: Refusal): Promise<void> {
    const { guildId, channelId } = reading.binding;
    const { language } = utterance;
    // The listeners did not hear this one: the next message says its author's name again.
    reading.last = undefined;
    if (!reading.gate.refused()) return;
    this.#log[refusal.level](
      { code: 'autoread-refused', guildId, id: utterance.id, reason: refusal.reason.code },
      'auto-read refused: one notice, then silence until a message is accepted',
    );
    await this.#post({ kind: 'refused', guildId, channelId, language, userId: utterance.userId, refusal });
  }

  #failed(reading: GuildReading, utterance: Utterance, error: unknown): void {
    const [{ guildId, channelId }, { language, userId }] = [reading.binding, utterance];
    if (error instanceof VoiceApiError && error.charge === 'maybe-charged' && reading.chargedGate.refused())
      void this.#post({ kind: 'charged', guildId, channelId, language, userId, error });
    if (reading.failing) {
      this.#log.debug({ guildId, id: utterance.id, err: error }, 'auto-read failed again');
      return;
    }
    reading.failing = true;
    this.#log.warn(
      { code: 'autoread-failed', guildId, id: utterance.id, err: error },
      'auto-read could not speak a message (further failures in a row are not logged)',
    );
  }
}
