// Auto-read in the running bot: the AutoReader (src/autoread/reader.ts) fed by Discord's MESSAGE_CREATE and
// VOICE_STATE_UPDATE, speaking through the one speech pipeline, its bindings kept in the store and resumed at
// start-up, its one notice per refusal posted in the read channel. /autoread and /dictionary reach it through
// AutoreadControl (CommandContext.autoread).
import { Events, type Client, type Guild } from 'discord.js';
import type { Logger } from '../log.ts';
import { AutoReader, type BehindNotice, type RefusalNotice } from '../autoread/reader.ts';
import { readerSettings } from '../autoread/settings.ts';
import { autoreadSpeechRequest } from '../autoread/voice.ts';
import type { SpeechPipeline } from '../speech/pipeline.ts';
import type { AutoReadSettings, AutoReadState } from '../store/auto-read-store.ts';
import type { Store } from '../store/types.ts';
import type { DictionaryEntry } from '../text/dictionary.ts';
import type { PlayerRegistry } from '../voice/player-registry.ts';
import { describeFailure } from './failures.ts';
import { t } from './i18n.ts';
import { NO_MENTIONS } from './replies.ts';
import { VoiceChannelStatus } from './voice-channel-status.ts';

/** What the commands may do with auto-read. */
export interface AutoreadControl {
  /** Discord gave the Message Content intent: without it no chat reaches the bot. */
  readonly available: boolean;
  isReading(guildId: string): boolean;
  /** The channels a guild reads (its text channel, the voice channel it speaks in), while it reads. */
  readingIn(guildId: string): { textChannelId: string; voiceChannelId: string } | undefined;
  /**
   * Stops reading and keeps the binding in the store (a manager's /leave): /autoread start, a manager's /join in
   * its voice channel or a restart resume it; /autoread stop ends it. False when the guild was not reading.
   * Resolves once the voice channel's status is cleared, which Discord allows only while the bot is still there.
   */
  pause(guildId: string): Promise<boolean>;
  /** Reads again a binding kept for this voice channel (the bot already there); its text channel, else undefined. */
  resume(guildId: string, voiceChannelId: string): Promise<string | undefined>;
  /**
   * Joins `voiceChannelId` (or stays there), binds the channels in the store and starts reading, with the
   * guild's settings and dictionary. A failed join throws (VoiceJoinError) and nothing is stored.
   */
  start(guild: Guild, binding: { textChannelId: string; voiceChannelId: string; startedBy: string }): Promise<void>;
  /** Stops reading (store and reader); false when the guild was not reading. */
  stop(guildId: string): Promise<boolean>;
  /** New settings from the next message on. */
  configure(guildId: string, settings: AutoReadSettings): void;
  /** A changed dictionary, from the next message on. */
  setDictionary(guildId: string, entries: readonly DictionaryEntry[]): void;
}

export interface AutoreadWiringOptions {
  store: Store;
  speech: SpeechPipeline;
  players: PlayerRegistry;
  logger: Logger;
  /** Whether Discord gave auto-read's intents (known once logged in). */
  available: () => boolean;
  /** The backlog's bound per guild (the server's voice queue bound, config.queue); 0 = no limit. */
  backlog?: { messages: number; seconds: number };
}

export class AutoreadWiring implements AutoreadControl {
  readonly #options: AutoreadWiringOptions;
  readonly #log: Logger;
  readonly #reader: AutoReader;
  /** "Reading #general aloud" on the voice channel while reading there. */
  readonly #status: VoiceChannelStatus;
  #client: Client | undefined;

  constructor(options: AutoreadWiringOptions) {
    this.#options = options;
    this.#log = options.logger;
    const { store, speech } = options;
    this.#status = new VoiceChannelStatus({ client: () => this.#client, logger: options.logger });
    this.#reader = new AutoReader({
      speak: (order) => speech.speak(order),
      requestFor: (guildId, userId, text) => {
        const guild = this.#client?.guilds.cache.get(guildId);
        return autoreadSpeechRequest(store, { id: guildId, preferredLocale: guild?.preferredLocale ?? null }, userId, text);
      },
      notify: (notice) => this.#notify(notice),
      notifyBehind: (notice) => this.#notifyBehind(notice),
      ...(options.backlog === undefined ? {} : { maxPending: options.backlog.messages, maxPendingSeconds: options.backlog.seconds }),
      onStopped: (guildId) => {
        // The bot already left: Discord clears a status when its channel empties; otherwise this may be refused (logged).
        void this.#status.clear(guildId);
        store.autoRead.stop(guildId).catch((error: unknown) =>
          this.#log.error({ code: 'autoread-stop-not-stored', guildId, err: error }, 'auto-read stopped, but the store could not record it'));
      },
      logger: options.logger,
    });
  }

  get available(): boolean {
    return this.#options.available();
  }

  /** Listens to this client (made again when Discord refuses auto-read's intents: the last one attached is used). */
  attach(client: Client): void {
    this.#client = client;
    client.on(Events.MessageCreate, (message) => this.#reader.onMessage(message));
    client.on(Events.VoiceStateUpdate, (before, after) => this.#reader.onVoiceState(before, after));
  }

  isReading(guildId: string): boolean {
    return this.#reader.binding(guildId) !== undefined;
  }

  readingIn(guildId: string): { textChannelId: string; voiceChannelId: string } | undefined {
    const binding = this.#reader.binding(guildId);
    return binding ? { textChannelId: binding.channelId, voiceChannelId: binding.voiceChannelId } : undefined;
  }

  async pause(guildId: string): Promise<boolean> {
    // Out of the reader before the bot leaves voice, so its leaving is not "stopped by itself" (which drops the binding).
    const wasReading = this.#reader.stop(guildId);
    await this.#status.clear(guildId);
    return wasReading;
  }

  async resume(guildId: string, voiceChannelId: string): Promise<string | undefined> {
    if (this.isReading(guildId)) return undefined;
    const state = await this.#options.store.autoRead.get(guildId);
    const binding = state.binding;
    if (!binding || binding.voiceChannelId !== voiceChannelId) return undefined;
    await this.#read(state, binding.textChannelId, binding.voiceChannelId);
    return binding.textChannelId;
  }

  async start(guild: Guild, binding: { textChannelId: string; voiceChannelId: string; startedBy: string }): Promise<void> {
    await this.#options.players.get(guild.id, guild.voiceAdapterCreator).connect(binding.voiceChannelId);
    const state = await this.#options.store.autoRead.start(guild.id, binding);
    await this.#read(state, binding.textChannelId, binding.voiceChannelId);
  }

  async stop(guildId: string): Promise<boolean> {
    const wasReading = this.#reader.stop(guildId);
    const [stored] = await Promise.all([this.#options.store.autoRead.stop(guildId), this.#status.clear(guildId)]);
    return wasReading || stored;
  }

  configure(guildId: string, settings: AutoReadSettings): void {
    this.#reader.configure(guildId, readerSettings(settings));
  }

  setDictionary(guildId: string, entries: readonly DictionaryEntry[]): void {
    this.#reader.setDictionary(guildId, entries);
  }

  /**
   * After login: every guild the store says is reading is read again, once the bot is back in the voice channel
   * recorded with its binding. Nobody there (or the channel or guild gone, or the join failing) drops the binding
   * (reading off, one log line): a bot alone in a channel would only leave again. Without Message Content the
   * bindings are kept for a start that has it.
   */
  async restore(): Promise<void> {
    const client = this.#client;
    if (!client) return;
    let states: AutoReadState[];
    try {
      states = await this.#options.store.autoRead.listReading();
    } catch (error) {
      // The bot still starts: /autoread start binds again.
      this.#log.error({ code: 'autoread-not-resumed', reason: 'store-failed', err: error }, 'auto-read bindings could not be read: none resumed');
      return;
    }
    if (states.length === 0) return;
    if (!this.available) {
      this.#log.warn({ code: 'autoread-not-resumed', guilds: states.length, reason: 'intent-missing' }, 'auto-read bindings kept but not resumed: Message Content is not enabled');
      return;
    }
    await Promise.all(states.map((state) => this.#resume(client, state)));
  }

  /**
   * Shutting down: nothing more is read, and leaving voice now keeps the bindings for the next start. Resolves once
   * the statuses SayBot set are cleared (each request bounded), before the bot leaves the channels.
   */
  async close(): Promise<void> {
    this.#reader.close();
    await this.#status.clearAll();
  }

  async #resume(client: Client, state: AutoReadState): Promise<void> {
    const { guildId, binding } = state;
    const drop = async (reason: string, error?: unknown) => {
      this.#log.warn({ code: 'autoread-not-resumed', guildId, voiceChannelId: binding?.voiceChannelId, reason, ...(error === undefined ? {} : { err: error }) },
        'auto-read not resumed after the restart: its binding is dropped');
      await this.#options.store.autoRead.stop(guildId).catch((e: unknown) => this.#log.error({ guildId, err: e }, 'could not drop an auto-read binding'));
    };
    const guild = client.guilds.cache.get(guildId);
    if (!binding || !guild) return drop('no-guild');
    const voice = guild.channels.cache.get(binding.voiceChannelId);
    if (!voice?.isVoiceBased()) return drop('no-channel');
    if (voice.members.filter((member) => !member.user.bot).size === 0) return drop('channel-empty');
    try {
      await this.#options.players.get(guild.id, guild.voiceAdapterCreator).connect(binding.voiceChannelId);
      await this.#read(state, binding.textChannelId, binding.voiceChannelId);
    } catch (error) {
      return drop('join-failed', error);
    }
    this.#log.info({ code: 'autoread-resumed', guildId, channelId: binding.textChannelId, voiceChannelId: binding.voiceChannelId }, 'auto-read resumed');
  }

  async #read(state: AutoReadState, channelId: string, voiceChannelId: string): Promise<void> {
    const entries = await this.#options.store.dictionary.list(state.guildId);
    this.#reader.start({ guildId: state.guildId, channelId, voiceChannelId, settings: readerSettings(state.settings) }, entries);
    // Not awaited: a slow or refused status never delays reading.
    void this.#status.reading(state.guildId, voiceChannelId, channelId);
  }

  /** The one notice of a refusal, in the server's language, in the channel read; it pings nobody. */
  async #notify(notice: RefusalNotice): Promise<void> {
    const channel = this.#client?.channels.cache.get(notice.channelId);
    if (!channel?.isSendable()) throw new Error(`cannot post in channel ${notice.channelId}`);
    const { message } = describeFailure(notice.refusal);
    const reason = t(notice.language, message.key, message.params);
    const member = `<@${notice.userId}>`;
    await channel.send({ content: t(notice.language, 'autoread.paused', { member, reason }), allowedMentions: NO_MENTIONS });
  }

  /** The one notice of a backlog dropping its oldest unread messages, in the server's language; it pings nobody. */
  async #notifyBehind(notice: BehindNotice): Promise<void> {
    const channel = this.#client?.channels.cache.get(notice.channelId);
    if (!channel?.isSendable()) throw new Error(`cannot post in channel ${notice.channelId}`);
    await channel.send({ content: t(notice.language, 'autoread.behind'), allowedMentions: NO_MENTIONS });
  }
}
