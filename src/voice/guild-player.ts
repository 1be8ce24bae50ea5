import type { Readable } from 'node:stream';
import {
  AudioPlayerStatus,
  NoSubscriberBehavior,
  StreamType,
  VoiceConnectionStatus,
  createAudioPlayer,
  createAudioResource,
  entersState,
  joinVoiceChannel,
  type AudioPlayer,
  type AudioResource,
  type DiscordGatewayAdapterCreator,
  type VoiceConnection,
} from '@discordjs/voice';
import type { Logger } from '../log.ts';

/** One clip waiting to be played. Its audio is opened only when its turn comes (or just before). */
export interface PlaybackItem {
  /** For logs only. */
  readonly label: string;
  /** Opens the audio: an object-mode stream of 20 ms Opus packets. */
  open(signal: AbortSignal): Promise<Readable>;
  /** Called when the item before it starts playing, so that a multi-part reply plays without gaps. */
  prepare?(): void;
  /** Called when the item leaves the queue without being opened (stop, leave), to release what prepare() began. */
  dispose?(): void;
}

export type PlaybackStatus = 'played' | 'skipped' | 'stopped' | 'failed';

export interface PlaybackResult {
  status: PlaybackStatus;
  /** Audio actually sent to Discord. */
  seconds: number;
  error?: unknown;
}

/** Where the connection is; each state names what the player may do next. */
export type ConnectionState =
  | { kind: 'disconnected' }
  | { kind: 'connecting'; channelId: string }
  | { kind: 'connected'; channelId: string; connection: VoiceConnection }
  | { kind: 'destroyed' };

export class VoiceJoinError extends Error {
  readonly channelId: string;
  constructor(channelId: string, cause: unknown) {
    super(`could not join voice channel ${channelId}`, { cause });
    this.name = 'VoiceJoinError';
    this.channelId = channelId;
  }
}

export interface GuildPlayerOptions {
  guildId: string;
  adapterCreator: DiscordGatewayAdapterCreator;
  /** Keeps voice connections of separate bot instances in one process apart (tests, benchmarks). */
  group: string;
  logger: Logger;
  idleTimeoutMs: number;
  readyTimeoutMs?: number;
  /** Told when the player has left its channel for good (idle, alone, error, or asked to). */
  onLeave?: (reason: string) => void;
}

interface QueueEntry {
  item: PlaybackItem;
  settle: (result: PlaybackResult) => void;
}

interface CurrentClip {
  entry: QueueEntry;
  abort: AbortController;
  /** Set once the audio player has it; its Idle transition ends the clip. */
  resource?: AudioResource;
  /** Why it is ending early, when it is. */
  ending?: 'skipped' | 'stopped';
  error?: unknown;
}

/**
 * One guild's voice: its connection, its queue and its audio player. Every error of the connection or the
 * player is caught here and ends in a result for the clip concerned; nothing escapes to the process.
 */
export class GuildPlayer {
  readonly guildId: string;
  #state: ConnectionState = { kind: 'disconnected' };
  readonly #options: GuildPlayerOptions;
  readonly #log: Logger;
  readonly #audio: AudioPlayer;
  readonly #queue: QueueEntry[] = [];
  #current: CurrentClip | undefined;
  #idleTimer: NodeJS.Timeout | undefined;
  #connecting: Promise<void> | undefined;

  constructor(options: GuildPlayerOptions) {
    this.guildId = options.guildId;
    this.#options = options;
    this.#log = options.logger.child({ guildId: options.guildId });
    this.#audio = createAudioPlayer({ behaviors: { noSubscriber: NoSubscriberBehavior.Pause } });
    // The player reports a stream error and then goes Idle; the clip ends on Idle, matched by its resource,
    // so that a late event can never end the clip that follows.
    this.#audio.on('error', (error) => {
      const current = this.#current;
      if (current && error.resource === current.resource && !current.ending) {
        this.#log.warn({ err: current.error ?? error }, 'audio stream failed');
        // AudioPlayerError keeps only the message; the stream's own typed error was captured below.
        current.error ??= error;
      }
    });
    this.#audio.on('stateChange', (oldState, newState) => {
      const current = this.#current;
      if (
        current?.resource &&
        newState.status === AudioPlayerStatus.Idle &&
        oldState.status !== AudioPlayerStatus.Idle &&
        oldState.resource === current.resource
      ) {
        this.#finishCurrent(current);
      }
    });
  }

  get state(): ConnectionState {
    return this.#state;
  }

  get channelId(): string | undefined {
    return this.#state.kind === 'connected' || this.#state.kind === 'connecting' ? this.#state.channelId : undefined;
  }

  /** Playing, or holding clips that will play. */
  get busy(): boolean {
    return this.#current !== undefined || this.#queue.length > 0;
  }

  get queueLength(): number {
    return this.#queue.length;
  }

  /** Joins (or moves to) a channel and waits until audio can flow. */
  async connect(channelId: string): Promise<void> {
    if (this.#state.kind === 'destroyed') throw new Error('player was destroyed');
    if (this.#state.kind === 'connected' && this.#state.channelId === channelId) return;
    if (this.#state.kind === 'connecting' && this.#state.channelId === channelId && this.#connecting) {
      return this.#connecting;
    }
    this.#connecting = this.#join(channelId);
    try {
      await this.#connecting;
    } finally {
      this.#connecting = undefined;
    }
  }

  async #join(channelId: string): Promise<void> {
    const previous = this.#state.kind === 'connected' ? this.#state.connection : undefined;
    this.#state = { kind: 'connecting', channelId };
    // Moving channels re-uses the connection: joinVoiceChannel rejoins when one exists for the guild.
    const connection = joinVoiceChannel({
      channelId,
      guildId: this.guildId,
      adapterCreator: this.#options.adapterCreator,
      group: this.#options.group,
      selfDeaf: true,
      selfMute: false,
    });
    if (connection !== previous) this.#watch(connection);
    try {
      await entersState(connection, VoiceConnectionStatus.Ready, this.#options.readyTimeoutMs ?? 15_000);
    } catch (error) {
      this.#log.warn({ err: error, channelId }, 'voice connection did not become ready');
      connection.destroy();
      this.#state = { kind: 'disconnected' };
      throw new VoiceJoinError(channelId, error);
    }
    connection.subscribe(this.#audio);
    this.#state = { kind: 'connected', channelId, connection };
    this.#log.info({ channelId }, 'joined voice channel');
    this.#armIdleTimer();
  }

  #watch(connection: VoiceConnection): void {
    connection.on('error', (error) => this.#log.warn({ err: error }, 'voice connection error'));
    connection.on('stateChange', (_old, next) => {
      if (next.status === VoiceConnectionStatus.Disconnected) {
        // Either a move between channels (it reconnects by itself) or a real disconnect (kick, outage).
        void Promise.race([
          entersState(connection, VoiceConnectionStatus.Signalling, 5_000),
          entersState(connection, VoiceConnectionStatus.Connecting, 5_000),
        ]).catch(() => {
          if (connection.state.status !== VoiceConnectionStatus.Destroyed) connection.destroy();
        });
      } else if (next.status === VoiceConnectionStatus.Destroyed) {
        const wasOurs = this.#state.kind === 'connected' && this.#state.connection === connection;
        if (wasOurs) this.#lost('connection destroyed');
      }
    });
  }

  /** Adds a clip to the queue; resolves when it has played, was skipped or stopped, or failed. */
  enqueue(item: PlaybackItem): Promise<PlaybackResult> {
    return new Promise((settle) => {
      this.#queue.push({ item, settle });
      this.#clearIdleTimer();
      if (!this.#current) void this.#playNext();
    });
  }

  /** Ends the current clip; the queue goes on. */
  skip(): boolean {
    if (!this.#current) return false;
    this.#endEarly(this.#current, 'skipped');
    return true;
  }

  /** Ends the current clip and empties the queue; returns how many queued clips were dropped. */
  stop(): number {
    const dropped = this.#queue.splice(0);
    for (const entry of dropped) this.#drop(entry);
    if (this.#current) this.#endEarly(this.#current, 'stopped');
    return dropped.length;
  }

  /** Takes these items out of the queue if they are still waiting (the rest of a reply that was skipped). */
  dropQueued(items: readonly PlaybackItem[]): void {
    for (let i = this.#queue.length - 1; i >= 0; i--) {
      const entry = this.#queue[i];
      if (entry && items.includes(entry.item)) {
        this.#queue.splice(i, 1);
        this.#drop(entry);
      }
    }
    if (!this.busy) this.#armIdleTimer();
  }

  #drop(entry: QueueEntry): void {
    entry.item.dispose?.();
    entry.settle({ status: 'stopped', seconds: 0 });
  }

  #endEarly(current: CurrentClip, ending: 'skipped' | 'stopped'): void {
    current.ending = ending;
    // Without a resource the clip is still opening: the abort makes open() settle, which ends it.
    current.abort.abort();
    if (current.resource && !this.#audio.stop(true)) this.#finishCurrent(current);
  }

  /** Stops everything and leaves the channel. */
  leave(reason: string): void {
    this.stop();
    this.#clearIdleTimer();
    const state = this.#state;
    if (state.kind === 'connected') {
      this.#state = { kind: 'disconnected' };
      if (state.connection.state.status !== VoiceConnectionStatus.Destroyed) state.connection.destroy();
      this.#log.info({ channelId: state.channelId, reason }, 'left voice channel');
      this.#options.onLeave?.(reason);
    }
  }

  /** Leaves and refuses further use. */
  destroy(): void {
    this.leave('shutdown');
    this.#audio.stop(true);
    this.#state = { kind: 'destroyed' };
  }

  #lost(reason: string): void {
    this.#state = { kind: 'disconnected' };
    this.stop();
    this.#clearIdleTimer();
    this.#log.info({ reason }, 'voice connection lost');
    this.#options.onLeave?.(reason);
  }

  async #playNext(): Promise<void> {
    const entry = this.#queue.shift();
    if (!entry) {
      this.#armIdleTimer();
      return;
    }
    const current: CurrentClip = { entry, abort: new AbortController() };
    this.#current = current;
    this.#queue[0]?.item.prepare?.();
    try {
      if (this.#state.kind !== 'connected') throw new Error('not connected to a voice channel');
      const stream = await entry.item.open(current.abort.signal);
      if (current.ending) {
        stream.destroy();
        this.#finishCurrent(current);
        return;
      }
      stream.once('error', (error: unknown) => {
        if (!current.ending) current.error ??= error;
      });
      const resource = createAudioResource(stream, { inputType: StreamType.Opus });
      current.resource = resource;
      this.#audio.play(resource);
    } catch (error) {
      current.error = error;
      this.#finishCurrent(current);
    }
  }

  #finishCurrent(current: CurrentClip): void {
    if (this.#current !== current) return;
    this.#current = undefined;
    current.abort.abort();
    const seconds = (current.resource?.playbackDuration ?? 0) / 1000;
    const status: PlaybackStatus = current.ending ?? (current.error === undefined ? 'played' : 'failed');
    const result: PlaybackResult =
      status === 'failed' ? { status, seconds, error: current.error } : { status, seconds };
    this.#log.debug({ label: current.entry.item.label, status, seconds }, 'clip finished');
    current.entry.settle(result);
    void this.#playNext();
  }

  #armIdleTimer(): void {
    this.#clearIdleTimer();
    if (this.#state.kind !== 'connected' || this.busy) return;
    this.#idleTimer = setTimeout(() => this.leave('idle'), this.#options.idleTimeoutMs);
    this.#idleTimer.unref();
  }

  #clearIdleTimer(): void {
    if (this.#idleTimer) clearTimeout(this.#idleTimer);
    this.#idleTimer = undefined;
  }
}
