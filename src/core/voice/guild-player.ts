import type { Readable } from 'node:stream';
import {
  VoiceConnectionStatus,
  joinVoiceChannel,
  type DiscordGatewayAdapterCreator,
  type VoiceConnection,
} from '@discordjs/voice';
import type { Logger } from '../log.ts';
import { AudioStalledError } from './audio-stalled.ts';
import { ClockSender } from './clock-sender.ts';
import { LibrarySender } from './library-sender.ts';
import { canSendAudio, transportReady, untilCanSendAudio, usesDave, watchNetworking } from './discordjs-voice-seam.ts';
import type { PlayingClip, PacketSender, VoiceSenderKind } from './packet-sender.ts';
import { senderUdpOwner } from './sender/sender-udp.ts';
import { senderThread } from './sender/sender-thread.ts';
import { WorkerSender } from './sender/worker-clip.ts';

/** One clip waiting to be played. Its audio is opened only when its turn comes (or just before). */
export interface PlaybackItem {
  /** For logs only. */
  readonly label: string;
  /** Who asked for it (member ID), and whether they may /stop it: /stop and /skip leave others' alone. */
  requestedBy?: { userId: string; requesterMayStop: boolean };
  /** Opens the audio: an object-mode stream of 20 ms Opus packets. */
  open(signal: AbortSignal): Promise<Readable>;
  /** Called when the item before it starts playing, so that a multi-part reply plays without gaps. */
  prepare?(): void;
  /** Called when the item leaves the queue without being opened (stop, leave), to release what prepare() began. */
  dispose?(): void;
  /** Called once, when its first frame goes out. */
  started?(): void;
}

/** Whose a clip is, as /stop, /skip and /leave judge it: all they read of a clip, queued or still held. */
export type ClipOwner = Pick<PlaybackItem, 'label' | 'requestedBy'>;

/** An accepted order whose clips are not queued yet (waiting for acceptance, the join, or earlier orders). */
export interface HeldOrder {
  /** Resolves if /stop, /skip or /leave ended it while it was held; then it is never queued. */
  readonly ended: Promise<'stopped' | 'skipped'>;
  /** How it ended while held, once it has. */
  readonly endedAs: 'stopped' | 'skipped' | undefined;
  /** Queues its clips in place of the order held, and returns their results; undefined when it ended while held. */
  queue(items: readonly PlaybackItem[]): Array<Promise<PlaybackResult>> | undefined;
  /** Lets it go unqueued (refused at acceptance, its join failed). */
  release(): void;
}

/** 'cut-off': the voice connection was lost (kicked, channel deleted, voice server gone) before the clip ended. */
export type PlaybackStatus = 'played' | 'skipped' | 'stopped' | 'cut-off' | 'failed';

export interface PlaybackResult {
  status: PlaybackStatus;
  /** Audio actually sent to Discord. */
  seconds: number;
  error?: unknown;
}

/** Voice gateway close codes the player acts on (Discord's voice close event codes). */
export const VoiceCloseCode = {
  /** "Session no longer valid": the library rejoins; also the answer to a RESUME it cannot honour (after 4015). */
  SessionInvalid: 4006,
  /** Kicked, channel deleted, or the main gateway session dropped: do not reconnect. */
  Disconnected: 4014,
  /** The voice server requires DAVE end-to-end encryption and the client did not offer it: fatal for this join. */
  DaveRequired: 4017,
  /** Disconnected: rate limited. Discord: should not reconnect. */
  RateLimited: 4021,
  /** Disconnected: call terminated (e.g. the channel was deleted). Discord: should not reconnect. */
  CallTerminated: 4022,
} as const;

/** Closes after which the connection is over (@discordjs/voice 0.19.2 rejoins on them; fixed in discord.js #11567). */
const FINAL_CLOSES: ReadonlyMap<number, { failure: VoiceJoinFailure; logCode: string }> = new Map([
  [VoiceCloseCode.RateLimited, { failure: 'rate-limited', logCode: 'voice-rate-limited' }],
  [VoiceCloseCode.CallTerminated, { failure: 'call-terminated', logCode: 'voice-call-terminated' }],
]);

/**
 * 4006 rejoins allowed per window, each after the previous reached Ready: each is an audible gap, and three a minute
 * covers a crash plus incidents while a 4006 that keeps coming (another process on the same session) stops.
 */
export const SESSION_INVALID_REJOINS = 3;
export const SESSION_INVALID_WINDOW_MS = 60_000;

/** Where the connection is; each state names what the player may do next. */
export type ConnectionState =
  | { kind: 'disconnected' }
  | { kind: 'connecting'; channelId: string }
  | { kind: 'connected'; channelId: string; connection: VoiceConnection }
  | { kind: 'destroyed' };

/** Why a join failed: 4017 'dave-required', 4021/4022 must not be retried, 'left' is a /leave while joining. */
export type VoiceJoinFailure =
  'timeout' | 'dave-required' | 'rate-limited' | 'call-terminated' | 'lost' | 'handler-error' | 'left';

export class VoiceJoinError extends Error {
  readonly channelId: string;
  readonly reason: VoiceJoinFailure;
  constructor(channelId: string, cause: unknown, reason: VoiceJoinFailure = 'timeout') {
    super(`could not join voice channel ${channelId} (${reason})`, { cause });
    this.name = 'VoiceJoinError';
    this.channelId = channelId;
    this.reason = reason;
  }
}

export interface GuildPlayerOptions {
  guildId: string;
  adapterCreator: DiscordGatewayAdapterCreator;
  /** Keeps voice connections of separate bot instances in one process apart (tests, benchmarks). */
  group: string;
  logger: Logger;
  idleTimeoutMs: number;
  readyTimeoutMs?: number | undefined;
  /** How long a connection out of Ready (a move, a server change, a 4014) may take to return. Default 5 s. */
  reconnectGraceMs?: number;
  /** True while the guild is auto-read: the idle timeout then does not leave (asked when it fires). */
  stayConnected?: () => boolean;
  /** Offer DAVE end-to-end encryption (default true, as Discord requires); false only to test Discord's refusal. */
  daveEncryption?: boolean;
  /** What sends the clips (packet-sender.ts; default 'worker'; 'clock' and 'library' are the benchmark's others). */
  sender?: VoiceSenderKind | undefined;
  /** The sender thread's start lead (sender/worker-clip.ts; default on); off only for the benchmark's comparison. */
  startLead?: boolean | undefined;
  /** Runs once the join is accepted, before any audio (on a Stage, become a speaker). A failure is logged only. */
  beforeAudio?: ((channelId: string) => Promise<void>) | undefined;
  /** Called each time the player is out of voice with no clip playing or queued: its registry may let it go. */
  onIdle?: () => void;
  /** Called when the player is put to use (joining, a clip queued): its registry holds it again. */
  onUse?: () => void;
}

interface QueueEntry {
  item: PlaybackItem;
  settle: (result: PlaybackResult) => void;
}

/** An order held (HeldOrder), as the player keeps it. */
interface HeldEntry {
  readonly owner: ClipOwner;
  readonly clips: number;
  readonly channelId: string;
  /** Ends it as held (it leaves the list): it will not be queued. */
  end(status: 'stopped' | 'skipped'): void;
}

interface CurrentClip {
  entry: QueueEntry;
  abort: AbortController;
  /** Set once the voice output plays it; the output's `ended` ends the clip. */
  playing?: PlayingClip;
  /** Why it is ending early, when it is: 'failed' with `error` when it was ended with one (`end`). */
  ending?: 'skipped' | 'stopped' | 'cut-off' | 'failed';
  /** Its item was told it started playing. */
  started?: boolean;
  error?: unknown;
}

/** What the player knows of one voice connection, dropped with it so nothing carries over to the next. */
interface ConnectionSession {
  readonly connection: VoiceConnection;
  /** Aborted when this connection fails for good (4017, 4021, 4022, lost, a library handler error). */
  readonly failed: AbortController;
  /** Why it failed for good, once it has. */
  failure?: VoiceJoinFailure;
  /** A 4006 rejoin is under way: the connection has not been Ready since. Another 4006 meanwhile gives up. */
  rejoiningAfterInvalid: boolean;
  /** When (performance.now()) each 4006 rejoin of the last SESSION_INVALID_WINDOW_MS began. */
  readonly sessionInvalidRejoins: number[];
  lastCloseCode?: number;
  /** Gives the connection up when it stays away from Ready longer than the reconnect grace period. */
  graceTimer?: NodeJS.Timeout;
}

/** One guild's voice: connection, queue, player; every error ends in the clip's result, never escapes. */
export class GuildPlayer {
  readonly guildId: string;
  #state: ConnectionState = { kind: 'disconnected' };
  readonly #options: GuildPlayerOptions;
  readonly #log: Logger;
  /** What plays this guild's clips (packet-sender.ts), made on first use. */
  #packetSender: PacketSender | undefined;
  readonly #queue: QueueEntry[] = [];
  /** Orders accepted for this player, in the order they were held, whose clips are not queued yet. */
  readonly #held: HeldEntry[] = [];
  #current: CurrentClip | undefined;
  #idleTimer: NodeJS.Timeout | undefined;
  #connecting: Promise<void> | undefined;
  /** The connection this player made and still follows (also while connecting). */
  #session: ConnectionSession | undefined;

  constructor(options: GuildPlayerOptions) {
    this.guildId = options.guildId;
    this.#options = options;
    this.#log = options.logger.child({ guildId: options.guildId });
  }

  #output(): PacketSender {
    const kind = this.#options.sender ?? 'worker';
    this.#packetSender ??=
      kind === 'library'
        ? new LibrarySender()
        : kind === 'clock'
          ? new ClockSender()
          : new WorkerSender({ startLead: this.#options.startLead ?? true });
    return this.#packetSender;
  }

  get state(): ConnectionState {
    return this.#state;
  }

  /** The channel it is in or joining; out of voice, the one the first order held is for (it joins it next). */
  get channelId(): string | undefined {
    if (this.#state.kind === 'connected' || this.#state.kind === 'connecting') return this.#state.channelId;
    return this.#held[0]?.channelId;
  }

  /** Playing, or holding clips that will play (queued, or of an order held until it is queued). */
  get busy(): boolean {
    return this.#current !== undefined || this.#queue.length > 0 || this.#held.length > 0;
  }

  get queueLength(): number {
    return this.#queue.length;
  }

  /** The clip playing (or opening) and those queued behind it; not those of orders held. */
  get inQueue(): number {
    return (this.#current === undefined ? 0 : 1) + this.#queue.length;
  }

  /** Holds an accepted order until its clips are queued; /stop, /skip and /leave end it as if queued. */
  hold(order: { owner: ClipOwner; clips: number; channelId: string }): HeldOrder {
    this.#options.onUse?.();
    this.#clearIdleTimer();
    const ended = Promise.withResolvers<'stopped' | 'skipped'>();
    let endedAs: 'stopped' | 'skipped' | undefined;
    let held = true;
    const letGo = (): boolean => {
      if (!held) return false;
      held = false;
      this.#held.splice(this.#held.indexOf(entry), 1);
      return true;
    };
    const entry: HeldEntry = {
      owner: order.owner,
      clips: order.clips,
      channelId: order.channelId,
      end: (status) => {
        if (!letGo()) return;
        endedAs = status;
        ended.resolve(status);
      },
    };
    this.#held.push(entry);
    return {
      ended: ended.promise,
      get endedAs() {
        return endedAs;
      },
      queue: (items) => {
        if (!letGo()) return undefined;
        return items.map((item) => this.enqueue(item));
      },
      release: () => {
        if (letGo()) this.#settledIfIdle();
      },
    };
  }

  /** Joins (or moves) and waits for the transport; each clip awaits the DAVE group beside its audio request. */
  async connect(channelId: string): Promise<void> {
    if (this.#state.kind === 'destroyed') throw new Error('player was destroyed');
    this.#options.onUse?.();
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
    const previous = this.#session;
    this.#state = { kind: 'connecting', channelId };
    // Moving channels re-uses the connection: joinVoiceChannel rejoins when one exists for the guild.
    const connection = joinVoiceChannel({
      channelId,
      guildId: this.guildId,
      adapterCreator: this.#options.adapterCreator,
      group: this.#options.group,
      selfDeaf: true,
      selfMute: false,
      ...(this.#options.daveEncryption === false ? { daveEncryption: false } : {}),
    });
    let session = previous;
    if (connection !== previous?.connection) {
      session = { connection, failed: new AbortController(), rejoiningAfterInvalid: false, sessionInvalidRejoins: [] };
      this.#session = session;
      this.#watch(session);
    }
    const failed = (session as ConnectionSession).failed.signal;
    try {
      await untilCanSendAudio(
        connection,
        AbortSignal.any([AbortSignal.timeout(this.#options.readyTimeoutMs ?? 15_000), failed]),
        transportReady,
      );
    } catch (error) {
      const reason = failed.aborted ? (session?.failure ?? 'lost') : 'timeout';
      // A 4017, 4021 or 4022 already has its one operator line (#onVoiceClose); a /leave while joining, leave().
      if (
        reason !== 'dave-required' &&
        reason !== 'rate-limited' &&
        reason !== 'call-terminated' &&
        reason !== 'left'
      ) {
        this.#log.warn(
          {
            code: `voice-join-${reason}`,
            err: error,
            channelId,
            closeCode: session?.lastCloseCode,
            status: connection.state.status,
          },
          'voice connection did not become ready',
        );
      }
      this.#dropSession(session);
      if (connection.state.status !== VoiceConnectionStatus.Destroyed) connection.destroy();
      this.#joinFailed();
      throw new VoiceJoinError(channelId, error, reason);
    }
    await this.#options.beforeAudio?.(channelId).catch((error: unknown) => {
      this.#log.warn({ code: 'voice-speaker-failed', err: error, channelId }, 'could not become a speaker there');
    });
    if (failed.aborted) {
      // Given up meanwhile (a /leave while it became a speaker, a close): the connection is gone already.
      this.#dropSession(session);
      this.#joinFailed();
      throw new VoiceJoinError(channelId, failed.reason, session?.failure ?? 'lost');
    }
    this.#state = { kind: 'connected', channelId, connection };
    this.#log.info({ channelId, dave: usesDave(connection) }, 'joined voice channel');
    this.#armIdleTimer();
  }

  /** A join failed or was given up: out of voice (unless the player was destroyed meanwhile, at shutdown). */
  #joinFailed(): void {
    if (this.#state.kind !== 'destroyed') this.#state = { kind: 'disconnected' };
    this.#idleOutOfVoice();
  }

  #watch(session: ConnectionSession): void {
    const { connection } = session;
    connection.on('error', (error) => this.#log.warn({ err: error }, 'voice connection error'));
    const byThread = (this.#options.sender ?? 'worker') === 'worker';
    if (byThread) senderThread.useLogger(this.#options.logger);
    watchNetworking(connection, {
      onClose: (code) => this.#onVoiceClose(session, code),
      onHandlerError: (error, event) => this.#onHandlerError(session, error, event),
      // The sender thread owns this connection's sockets from IP discovery on.
      udpOwner: byThread ? senderUdpOwner(connection) : undefined,
    });
    connection.on('stateChange', (old, next) => {
      if (this.#session !== session) return;
      if (next.status === VoiceConnectionStatus.Destroyed) {
        const wasOurs = this.#state.kind === 'connected' && this.#state.connection === connection;
        this.#dropSession(session);
        if (wasOurs) this.#lost('connection destroyed', session);
        return;
      }
      if (next.status === VoiceConnectionStatus.Ready) {
        clearGraceTimer(session);
        session.rejoiningAfterInvalid = false;
        if (old.status !== VoiceConnectionStatus.Ready && this.#state.kind === 'connected') {
          this.#log.info({ closeCode: session.lastCloseCode }, 'voice connection ready again');
        }
      } else if (this.#state.kind === 'connected') {
        // A move or a server change comes back by itself, a kick (4014) does not: a grace period, then cut off.
        session.graceTimer ??= setTimeout(() => {
          session.graceTimer = undefined;
          if (this.#session === session && connection.state.status !== VoiceConnectionStatus.Ready) {
            this.#fail(session, 'lost');
          }
        }, this.#options.reconnectGraceMs ?? 5_000);
      }
    });
  }

  /** The session is over: its grace timer stops and nothing of it is kept for the next connection. */
  #dropSession(session: ConnectionSession | undefined): void {
    if (!session) return;
    clearGraceTimer(session);
    if (this.#session === session) this.#session = undefined;
  }

  #onVoiceClose(session: ConnectionSession, code: number): void {
    if (this.#session !== session) return;
    session.lastCloseCode = code;
    if (code === VoiceCloseCode.DaveRequired) {
      // The library would rejoin and be refused again, forever: this join is over.
      this.#log.error(
        { code: 'voice-dave-required', closeCode: code },
        'the voice server requires DAVE end-to-end encryption (close 4017) and this connection did not offer it; ' +
          'check that @snazzah/davey is installed and that daveEncryption is not turned off',
      );
      this.#fail(session, 'dave-required');
    } else if (FINAL_CLOSES.has(code)) {
      const { failure, logCode } = FINAL_CLOSES.get(code) ?? { failure: 'lost', logCode: 'voice-closed' };
      // Destroyed before the library's own close handler runs (watchNetworking listens first), so it never rejoins.
      // While connected, #lost writes the one line (with what was cut off); while joining, this is it.
      if (this.#state.kind !== 'connected') {
        this.#log.warn(
          { code: logCode, closeCode: code },
          `the voice gateway closed with ${code}, which must not be retried: this voice connection is over`,
        );
      }
      this.#fail(session, failure);
    } else if (code === VoiceCloseCode.SessionInvalid) {
      this.#onSessionInvalid(session, code);
    } else {
      this.#log.info({ code: 'voice-socket-closed', closeCode: code }, 'voice gateway closed the connection');
    }
  }

  /** A 4006 before the last rejoin reached Ready, or past the bound in the window, is a loop: give up. */
  #onSessionInvalid(session: ConnectionSession, code: number): void {
    const now = performance.now();
    const rejoins = session.sessionInvalidRejoins;
    while (rejoins.length > 0 && now - (rejoins[0] as number) >= SESSION_INVALID_WINDOW_MS) rejoins.shift();
    if (session.rejoiningAfterInvalid || rejoins.length >= SESSION_INVALID_REJOINS) {
      this.#log.warn(
        { code: 'voice-session-invalid', closeCode: code, rejoins: rejoins.length },
        session.rejoiningAfterInvalid
          ? 'voice session invalid again after a rejoin, before it was ready; giving up'
          : `voice session invalid after ${rejoins.length} rejoins within ${SESSION_INVALID_WINDOW_MS / 1000} s; giving up`,
      );
      this.#fail(session, 'lost');
      return;
    }
    rejoins.push(now);
    session.rejoiningAfterInvalid = true;
    this.#log.info(
      { code: 'voice-session-invalid', closeCode: code, rejoin: rejoins.length },
      'voice session invalid; rejoining',
    );
  }

  /** A library handler threw: its DAVE state may be wrong unnoticed, so give the session up; the next /say rejoins. */
  #onHandlerError(session: ConnectionSession, error: unknown, event: string): void {
    this.#log.error(
      { code: 'voice-handler-error', err: error, event },
      '@discordjs/voice failed on a voice gateway message; contained to this guild, giving this voice session up',
    );
    this.#fail(session, 'handler-error');
  }

  /** Gives the connection up: a join in progress fails with this reason, a connected player loses its channel. */
  #fail(session: ConnectionSession, failure: VoiceJoinFailure): void {
    session.failure ??= failure;
    session.failed.abort();
    if (session.connection.state.status !== VoiceConnectionStatus.Destroyed) session.connection.destroy();
  }

  /** Adds a clip to the queue; resolves when it has played, was skipped or stopped, or failed. */
  enqueue(item: PlaybackItem): Promise<PlaybackResult> {
    this.#options.onUse?.();
    return new Promise((settle) => {
      this.#queue.push({ item, settle });
      // Next in line behind a clip already under way: its audio is wanted now, as #playNext asks of the next clip.
      if (this.#current && this.#queue.length === 1) item.prepare?.();
      this.#clearIdleTimer();
      if (!this.#current) void this.#playNext();
    });
  }

  /** Whose every clip is: the one playing (or opening) now, the queued ones in order, then those of orders held. */
  get clips(): ClipOwner[] {
    const queued = this.#queue.map((entry) => entry.item);
    const held = this.#held.flatMap((order) => Array<ClipOwner>(order.clips).fill(order.owner));
    return [...(this.#current ? [this.#current.entry.item] : []), ...queued, ...held];
  }

  /** The clip under way, which /skip ends: the one playing or opening, else the first held order's first clip. */
  get playing(): ClipOwner | undefined {
    return this.#current?.entry.item ?? this.#firstHeld()?.owner;
  }

  /** The first order held, when nothing plays nor is queued before it: its first clip is the one under way. */
  #firstHeld(): HeldEntry | undefined {
    return this.#current === undefined && this.#queue.length === 0 ? this.#held[0] : undefined;
  }

  /** Ends the clip under way (if `which` picks it); the queue goes on. */
  skip(which?: (item: ClipOwner) => boolean): boolean {
    const held = this.#firstHeld();
    if (held !== undefined && (!which || which(held.owner))) {
      held.end('skipped');
      this.#settledIfIdle();
      return true;
    }
    if (!this.#current || (which && !which(this.#current.entry.item))) return false;
    this.#endEarly(this.#current, 'skipped');
    return true;
  }

  /** Ends the clip under way and empties the queue and held orders (only what `which` picks); returns clips dropped besides it. */
  stop(which?: (item: ClipOwner) => boolean): number {
    const underWay = this.#firstHeld();
    const dropped = which ? this.#queue.filter((entry) => which(entry.item)) : this.#queue.splice(0);
    if (which) for (const entry of dropped) this.#queue.splice(this.#queue.indexOf(entry), 1);
    for (const entry of dropped) this.#drop(entry);
    const held = this.#held.filter((order) => !which || which(order.owner));
    for (const order of held) order.end('stopped');
    if (this.#current && (!which || which(this.#current.entry.item))) this.#endEarly(this.#current, 'stopped');
    this.#settledIfIdle();
    const heldClips = held.reduce((sum, order) => sum + order.clips, 0);
    return dropped.length + heldClips - (underWay !== undefined && held.includes(underWay) ? 1 : 0);
  }

  /** Nothing left to play or hold: the idle timer runs (in voice), the registry may let the player go (out of it). */
  #settledIfIdle(): void {
    if (this.busy) return;
    this.#armIdleTimer();
    this.#idleOutOfVoice();
  }

  /**
   * Ends the clips `which` picks as failed: the playing one at its next packet, without closing silence, so a right
   * taken away (src/core/order/rights.ts) silences it. Returns how many it ended.
   */
  end(which: (item: PlaybackItem) => boolean, error: unknown): number {
    const dropped = this.#queue.filter((entry) => which(entry.item));
    for (const entry of dropped) {
      this.#queue.splice(this.#queue.indexOf(entry), 1);
      entry.item.dispose?.();
      entry.settle({ status: 'failed', seconds: 0, error });
    }
    const current = this.#current;
    const playing = current !== undefined && current.ending === undefined && which(current.entry.item);
    if (playing) {
      current.error = error;
      this.#endEarly(current, 'failed');
    }
    if (!this.busy) this.#armIdleTimer();
    return dropped.length + (playing ? 1 : 0);
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

  #drop(entry: QueueEntry, status: 'stopped' | 'cut-off' = 'stopped'): void {
    entry.item.dispose?.();
    entry.settle({ status, seconds: 0 });
  }

  #endEarly(current: CurrentClip, ending: NonNullable<CurrentClip['ending']>): void {
    current.ending = ending;
    // Not playing yet, the clip is still opening: the abort makes open() settle, which ends it.
    current.abort.abort();
    if (current.playing && !current.playing.stop()) this.#finishCurrent(current);
  }

  /** Stops everything and leaves the channel; a join under way is given up (it fails as 'left'). */
  leave(reason: string): void {
    this.stop();
    this.#clearIdleTimer();
    const state = this.#state;
    if (state.kind === 'connecting' && this.#session) {
      this.#log.info({ channelId: state.channelId, reason }, 'left voice channel while joining it');
      this.#fail(this.#session, 'left');
    }
    if (state.kind === 'connected') {
      this.#state = { kind: 'disconnected' };
      this.#dropSession(this.#session);
      if (state.connection.state.status !== VoiceConnectionStatus.Destroyed) state.connection.destroy();
      this.#log.info({ channelId: state.channelId, reason }, 'left voice channel');
    }
    this.#idleOutOfVoice();
  }

  /** Tells the registry when nothing here needs the player: out of voice, no clip playing or queued. */
  #idleOutOfVoice(): void {
    if (this.#state.kind === 'disconnected' && !this.busy) this.#options.onIdle?.();
  }

  /** Leaves and refuses further use. */
  destroy(): void {
    this.leave('shutdown');
    this.#packetSender?.destroy();
    this.#state = { kind: 'destroyed' };
  }

  /** The connection went away by itself: what was playing is cut off, what was waiting ends too. */
  #lost(reason: string, session: ConnectionSession): void {
    this.#state = { kind: 'disconnected' };
    this.#clearIdleTimer();
    const heardSeconds = (this.#current?.playing?.playedMs ?? 0) / 1000;
    const dropped = this.#queue.splice(0);
    this.#log.warn(
      {
        code: 'voice-connection-lost',
        reason,
        closeCode: session.lastCloseCode,
        heardSeconds,
        droppedClips: dropped.length,
      },
      'voice connection lost; the current reply was cut off',
    );
    for (const entry of dropped) this.#drop(entry, 'cut-off');
    const current = this.#current;
    if (current && !current.playing && session.failure !== undefined && session.failure !== 'lost') {
      // Nothing heard and the session never usable (DAVE failed): a failed join, reported by #untilE2ee.
      current.abort.abort();
      return;
    }
    if (current) this.#endEarly(current, 'cut-off');
    else this.#idleOutOfVoice();
  }

  async #playNext(): Promise<void> {
    const entry = this.#queue.shift();
    if (!entry) {
      this.#armIdleTimer();
      this.#idleOutOfVoice();
      return;
    }
    const current: CurrentClip = { entry, abort: new AbortController() };
    this.#current = current;
    this.#queue[0]?.item.prepare?.();
    try {
      const state = this.#state;
      if (state.kind !== 'connected') throw new Error('not connected to a voice channel');
      // The audio request and the wait for the DAVE group (first join, a group being rebuilt) run side by side.
      const [opened, e2ee] = await Promise.allSettled([
        entry.item.open(current.abort.signal),
        this.#untilE2ee(state.connection, state.channelId, current),
      ]);
      if (e2ee.status === 'rejected') {
        if (opened.status === 'fulfilled') opened.value.destroy();
        throw e2ee.reason;
      }
      if (opened.status === 'rejected') throw opened.reason;
      const stream = opened.value;
      if (current.ending) {
        stream.destroy();
        this.#finishCurrent(current);
        return;
      }
      stream.once('error', (error: unknown) => {
        if (!current.ending) current.error ??= error;
      });
      current.playing = this.#output().play(state.connection, stream, {
        started: () => {
          if (this.#current !== current || current.started) return;
          current.started = true;
          current.entry.item.started?.();
        },
        ended: (error) => {
          if (this.#current !== current) return;
          if (error !== undefined && !current.ending) {
            this.#log.warn({ err: current.error ?? error }, 'audio stream failed');
            // The library's AudioPlayerError keeps only the message; the stream's own typed error was captured above.
            current.error ??= error;
          }
          // Ended without error before its stream did: audio stopped coming, or the stream closed early; not all spoken.
          if (error === undefined && !current.ending && !stream.readableEnded)
            current.error ??= new AudioStalledError((current.playing?.playedMs ?? 0) / 1000);
          this.#finishCurrent(current);
        },
      });
    } catch (error) {
      // Ended with an error of its own (`end`) while it opened: that error, not the abort it caused.
      if (current.ending !== 'failed') current.error = error;
      this.#finishCurrent(current);
    }
  }

  /** Resolves once audio sent now is end-to-end encrypted (or DAVE is not in use); a VoiceJoinError if it never is. */
  async #untilE2ee(connection: VoiceConnection, channelId: string, current: CurrentClip): Promise<void> {
    if (canSendAudio(connection)) return;
    const session = this.#session;
    // No session of this connection: it is over already (the abort that ended it reaches this clip next).
    const failed = session?.connection === connection ? session.failed.signal : AbortSignal.abort();
    try {
      await untilCanSendAudio(
        connection,
        AbortSignal.any([AbortSignal.timeout(this.#options.readyTimeoutMs ?? 15_000), current.abort.signal, failed]),
      );
    } catch (error) {
      if (current.ending) throw error;
      const reason: VoiceJoinFailure = failed.aborted ? (session?.failure ?? 'lost') : 'timeout';
      this.#log.warn({ code: `voice-join-${reason}`, err: error, channelId }, 'the DAVE group did not become ready');
      throw new VoiceJoinError(channelId, error, reason);
    }
  }

  #finishCurrent(current: CurrentClip): void {
    if (this.#current !== current) return;
    this.#current = undefined;
    current.abort.abort();
    const seconds = (current.playing?.playedMs ?? 0) / 1000;
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
    this.#idleTimer = setTimeout(() => {
      if (this.#options.stayConnected?.() === true) this.#armIdleTimer();
      else this.leave('idle');
    }, this.#options.idleTimeoutMs);
    this.#idleTimer.unref();
  }

  #clearIdleTimer(): void {
    if (this.#idleTimer) clearTimeout(this.#idleTimer);
    this.#idleTimer = undefined;
  }
}

function clearGraceTimer(session: ConnectionSession): void {
  if (session.graceTimer) clearTimeout(session.graceTimer);
  session.graceTimer = undefined;
}
