// The auto-reader: per guild, reads the bound channel's messages aloud in the bot's voice channel, through the one
// speech pipeline (budgets, quota, cache, the guild's queue), in the order they arrived. Decisions are decide.ts's;
// this wires them to Discord's events and to the pipeline, and keeps each guild's small state.
import type { DiscordGatewayAdapterCreator } from '@discordjs/voice';
import type { Guild, Message, VoiceState } from 'discord.js';
import type { Logger } from '../log.ts';
import { Refusal } from '../refusal.ts';
import type { SpeechRequest } from '../speech/pipeline.ts';
import { compileDictionary, type DictionaryEntry } from '../text/dictionary.ts';
import { messageText, nameDue, NoticeGate, shouldRead, spokenName, type LastSpeaker, type MessageFacts } from './decide.ts';
import { messageFacts } from './message-facts.ts';
import type { AutoreadSettings, ReadingBinding } from './settings.ts';
import { voiceChangeText } from './spoken.ts';

// The slice of the speech pipeline's contract (src/speech/pipeline.ts, issue 13) the reader codes against; the
// real SpeechPipeline's speak() fits it.
export interface ReaderRequester {
  guildId: string;
  userId: string;
  source: 'autoread';
  id: string;
  askedAt?: number;
}
export interface ReaderOrder {
  request: SpeechRequest;
  requester: ReaderRequester;
  target: { kind: 'voice'; channelId: string; adapterCreator: DiscordGatewayAdapterCreator };
}
export interface ReaderJob {
  /** Settles once the characters are held and the clip is queued; rejects with a Refusal (or another error). */
  accepted: Promise<unknown>;
  /** How it ended; never rejects. */
  outcome: Promise<{ kind: string; error?: unknown }>;
}

/** The one notice a refusal earns (then silence until a message is accepted again). */
export interface RefusalNotice {
  guildId: string;
  /** The channel read: where the notice is posted. */
  channelId: string;
  /** The server's language. */
  language: string | undefined;
  refusal: Refusal;
}

export type StopReason = 'left-voice';

export interface AutoReaderOptions {
  /** The pipeline's speak(). */
  speak: (order: ReaderOrder) => ReaderJob;
  /**
   * The speech request for `text`: the member's /myvoice, else the server's default (userId null: the server's
   * voice, for join/leave lines). Its rejection is a failure of that message, logged.
   */
  requestFor: (guildId: string, userId: string | null, text: string) => Promise<SpeechRequest>;
  /** Posts the notice in the read channel; its failure is logged. */
  notify: (notice: RefusalNotice) => Promise<void>;
  /** Reading stopped by itself (the bot left voice): forget the binding in the store. */
  onStopped?: (guildId: string, why: StopReason) => void;
  logger: Logger;
  /** Messages waiting for the pipeline per guild beyond which new ones are dropped (a flood); default 20. */
  maxPending?: number;
}

interface GuildReading {
  binding: ReadingBinding;
  dictionary: (text: string) => string;
  last: LastSpeaker | undefined;
  gate: NoticeGate;
  /** The guild's messages in arrival order: each waits until the one before it is queued in the player. */
  queue: Promise<void>;
  pending: number;
  /** A failure streak is logged once, at its start; a flood once too. */
  failing: boolean;
  flooded: boolean;
}

interface Utterance {
  text: string;
  /** Whose /myvoice speaks it; null: the server's voice. */
  voiceOf: string | null;
  /** Who it is recorded against. */
  userId: string;
  id: string;
  askedAt?: number;
  /** The server's language, for the notice. */
  language: string | undefined;
  adapterCreator: DiscordGatewayAdapterCreator;
}

export class AutoReader {
  readonly #options: AutoReaderOptions;
  readonly #log: Logger;
  readonly #guilds = new Map<string, GuildReading>();
  #closed = false;

  constructor(options: AutoReaderOptions) {
    this.#options = options;
    this.#log = options.logger;
  }

  /** Starts (or restarts, with new settings) reading in a guild. The dictionary's entries may follow later. */
  start(binding: ReadingBinding, dictionary: readonly DictionaryEntry[] = []): void {
    this.#guilds.set(binding.guildId, {
      binding: { ...binding, settings: { ...binding.settings } },
      dictionary: compileDictionary(dictionary),
      last: undefined,
      gate: new NoticeGate(),
      queue: Promise.resolve(),
      pending: 0,
      failing: false,
      flooded: false,
    });
    this.#log.info({ code: 'autoread-started', guildId: binding.guildId, channelId: binding.channelId, voiceChannelId: binding.voiceChannelId }, 'auto-read started');
  }

  /** Stops reading in a guild: messages not yet handed to the pipeline are dropped. False when it was not reading. */
  stop(guildId: string): boolean {
    const stopped = this.#guilds.delete(guildId);
    if (stopped) this.#log.info({ code: 'autoread-stopped', guildId, why: 'asked' }, 'auto-read stopped');
    return stopped;
  }

  /** Changes a reading guild's settings (from the next message on); false when it is not reading. */
  configure(guildId: string, settings: Partial<AutoreadSettings>): boolean {
    const reading = this.#guilds.get(guildId);
    if (!reading) return false;
    reading.binding.settings = { ...reading.binding.settings, ...settings };
    return true;
  }

  /** Replaces a reading guild's dictionary (compiled once here, not per message). */
  setDictionary(guildId: string, entries: readonly DictionaryEntry[]): void {
    const reading = this.#guilds.get(guildId);
    if (reading) reading.dictionary = compileDictionary(entries);
  }

  /** What a guild reads, if it reads. */
  binding(guildId: string): Readonly<ReadingBinding> | undefined {
    return this.#guilds.get(guildId)?.binding;
  }

  /** Resolves once every message already taken in this guild is queued in the pipeline, refused or failed. */
  async settled(guildId: string): Promise<void> {
    await this.#guilds.get(guildId)?.queue;
  }

  /** Shutting down: no more reading, and the bot leaving voice now is not "stopped by itself" (bindings are kept). */
  close(): void {
    this.#closed = true;
    this.#guilds.clear();
  }

  /** Discord's MESSAGE_CREATE. */
  onMessage(message: Message): void {
    if (this.#closed || !message.inGuild()) return;
    const reading = this.#guilds.get(message.guildId);
    if (!reading) return;
    let facts: MessageFacts;
    try {
      facts = messageFacts(message);
    } catch (error) {
      this.#log.warn({ code: 'autoread-message-unreadable', guildId: message.guildId, messageId: message.id, err: error }, 'auto-read could not read a message');
      return;
    }
    const verdict = shouldRead(facts, reading.binding);
    if (!verdict.read) {
      if (verdict.why !== 'other-channel') this.#log.debug({ guildId: facts.guildId, messageId: message.id, skipped: verdict.why }, 'auto-read skipped a message');
      return;
    }
    const binding = this.#withLanguage(reading.binding, message.guild);
    const sayName = binding.settings.sayName && nameDue(reading.last, facts.authorId, facts.at);
    const text = messageText(facts, binding, { sayName, dictionary: reading.dictionary });
    if (text === '') return;
    reading.last = { userId: facts.authorId, at: facts.at };
    this.#enqueue(reading, {
      text, voiceOf: facts.authorId, userId: facts.authorId, id: `autoread-${message.id}`, askedAt: facts.at,
      language: binding.language, adapterCreator: message.guild.voiceAdapterCreator,
    });
  }

  /** Discord's voiceStateUpdate: the bot leaving voice stops reading, the bot moved is followed, members announced. */
  onVoiceState(before: VoiceState, after: VoiceState): void {
    if (this.#closed) return;
    const guild = after.guild;
    const reading = this.#guilds.get(guild.id);
    if (!reading) return;
    const voiceChannelId = reading.binding.voiceChannelId;
    if (after.id === guild.client.user.id) {
      if (after.channelId === null && before.channelId !== null) {
        this.#guilds.delete(guild.id);
        this.#log.info({ code: 'autoread-stopped', guildId: guild.id, why: 'left-voice' }, 'auto-read stopped: the bot left voice');
        this.#options.onStopped?.(guild.id, 'left-voice');
      } else if (after.channelId !== null && after.channelId !== voiceChannelId) {
        reading.binding.voiceChannelId = after.channelId;
      }
      return;
    }
    if (!reading.binding.settings.announceVoice || before.channelId === after.channelId) return;
    const member = after.member ?? before.member;
    if (!member || member.user.bot) return;
    const change = after.channelId === voiceChannelId ? 'joined' : before.channelId === voiceChannelId ? 'left' : undefined;
    if (change === undefined) return;
    const language = this.#withLanguage(reading.binding, guild).language;
    const name = spokenName(member.displayName, language);
    if (name === '') return;
    this.#enqueue(reading, {
      text: voiceChangeText(change, reading.dictionary(name), language),
      voiceOf: null, userId: member.id, id: `autoread-${change}-${member.id}-${Date.now()}`,
      language, adapterCreator: guild.voiceAdapterCreator,
    });
  }

  #withLanguage(binding: ReadingBinding, guild: Guild): ReadingBinding {
    return binding.language === undefined ? { ...binding, language: guild.preferredLocale } : binding;
  }

  #enqueue(reading: GuildReading, utterance: Utterance): void {
    const guildId = reading.binding.guildId;
    const max = this.#options.maxPending ?? 20;
    if (reading.pending >= max) {
      if (!reading.flooded) this.#log.warn({ code: 'autoread-flood', guildId, pending: reading.pending }, 'auto-read is behind: messages dropped until it catches up');
      reading.flooded = true;
      return;
    }
    reading.pending++;
    reading.queue = reading.queue
      .then(() => this.#speak(reading, utterance))
      .finally(() => {
        reading.pending--;
        if (reading.pending === 0) reading.flooded = false;
      });
  }

  /** Hands one text to the pipeline and waits until it is queued (so the next is queued behind it). Never throws. */
  async #speak(reading: GuildReading, utterance: Utterance): Promise<void> {
    const { guildId } = reading.binding;
    if (this.#guilds.get(guildId) !== reading) return; // stopped, or started again, meanwhile
    try {
      const request = await this.#options.requestFor(guildId, utterance.voiceOf, utterance.text);
      if (this.#guilds.get(guildId) !== reading) return;
      const job = this.#options.speak({
        request,
        requester: {
          guildId, userId: utterance.userId, source: 'autoread', id: utterance.id,
          ...(utterance.askedAt === undefined ? {} : { askedAt: utterance.askedAt }),
        },
        target: { kind: 'voice', channelId: reading.binding.voiceChannelId, adapterCreator: utterance.adapterCreator },
      });
      void job.outcome.then((outcome) => {
        if (outcome.kind === 'failed') this.#failed(reading, utterance, outcome.error);
      }, () => undefined);
      await job.accepted;
      reading.gate.accepted();
      reading.failing = false;
    } catch (error) {
      if (error instanceof Refusal) await this.#refused(reading, utterance, error);
      else this.#failed(reading, utterance, error);
    }
  }

  async #refused(reading: GuildReading, utterance: Utterance, refusal: Refusal): Promise<void> {
    const { guildId, channelId } = reading.binding;
    const { language } = utterance;
    // The listeners did not hear this one: the next message says its author's name again.
    reading.last = undefined;
    if (!reading.gate.refused()) return;
    this.#log[refusal.level]({ code: 'autoread-refused', guildId, id: utterance.id, reason: refusal.reason.code }, 'auto-read refused: one notice, then silence until a message is accepted');
    try {
      await this.#options.notify({ guildId, channelId, language, refusal });
    } catch (error) {
      this.#log.warn({ code: 'autoread-notice-failed', guildId, channelId, err: error }, 'auto-read could not post its notice');
    }
  }

  #failed(reading: GuildReading, utterance: Utterance, error: unknown): void {
    const guildId = reading.binding.guildId;
    if (reading.failing) {
      this.#log.debug({ guildId, id: utterance.id, err: error }, 'auto-read failed again');
      return;
    }
    reading.failing = true;
    this.#log.warn({ code: 'autoread-failed', guildId, id: utterance.id, err: error }, 'auto-read could not speak a message (further failures in a row are not logged)');
  }
}
