import type { Readable } from 'node:stream';
import { abortable } from '../abortable.ts';
import { ChannelType, Events, PermissionFlagsBits, type Guild, type VoiceState } from 'discord.js';
import {
  VoiceConnectionStatus,
  joinVoiceChannel,
  type DiscordGatewayAdapterCreator,
  type VoiceConnection,
} from '@discordjs/voice';
import type { Logger } from '../log.ts';
import { AudioStalledError } from './audio-stalled.ts';
import { ConnectionSession, VoiceJoinError, type VoiceJoinFailure } from './connection-session.ts';
import { DiscordjsVoiceShapeError, untilSendable, usesDave, watchNetworking } from './discordjs-voice-seam.ts';
import type { PlayingClip, PacketSender } from './packet-sender.ts';
import { senderThread } from './sender/sender-thread.ts';
import { WorkerSender } from './sender/worker-clip.ts';

/** Whose an order in voice is, as /stop, /skip and /leave judge it. */
export interface ClipOwner {
  /** For logs only. */
  readonly label: string;
  /** Who asked for it (member ID), and whether they may /stop it: /stop and /skip leave others' alone. */
  readonly requestedBy?: { userId: string; requesterMayStop: boolean } | undefined;
}

/** 'cut-off': the voice connection was lost (kicked, channel deleted, voice server gone) before the clip ended. */
type PlaybackStatus = 'played' | 'skipped' | 'stopped' | 'cut-off' | 'failed';

export interface PlaybackResult {
  status: PlaybackStatus;
  /** Audio actually sent to Discord. */
  seconds: number;
  error?: unknown;
}

/** How an order in voice ended before its end: /stop, /skip, /leave, a lost connection, or an error (`end`). */
export interface TurnEnd {
  status: Exclude<PlaybackStatus, 'played'>;
  error?: unknown;
}

/**
 * An order's place in the guild's queue, from its acceptance (`place`): orders take their turn in the order placed, and
 * play their clips one at a time. /stop, /skip, /leave and a right taken away end it wherever it is.
 */
export interface Turn {
  readonly owner: ClipOwner;
  /** Clips ahead of it now: those of the orders placed before it. */
  readonly ahead: number;
  /** Aborted when it ends early: its fetches let go. */
  readonly signal: AbortSignal;
  /** Resolves when it ends early. */
  readonly ended: Promise<void>;
  /** How it ended early, once it has. */
  readonly endedAs: TurnEnd | undefined;
  /** Resolves once the order before it plays its last clip (at once with nothing ahead), or when it ended. */
  readonly near: Promise<void>;
  /** Joined: a lost connection now cuts it off. Resolves at its turn (the orders before it are over) or its end. */
  take(): Promise<void>;
  /** Plays one of its clips in its turn (`label` for logs): `started` at its first frame out, `result` at its end. */
  play(packets: Readable, label?: string): { started: Promise<void>; result: Promise<PlaybackResult> };
  /** It is over (played, refused, failed, ended): the next order's turn. */
  done(): void;
}

/** Where the connection is; each state names what the player may do next. */
type ConnectionState =
  | { kind: 'disconnected' }
  | { kind: 'connecting'; channelId: string }
  | { kind: 'connected'; channelId: string; connection: VoiceConnection }
  | { kind: 'destroyed' };

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
  /** What sends the clips: SayBot's sender thread unless a benchmark gives its own (bench/senders/). */
  sender?: (() => PacketSender) | undefined;
  /** The sender thread's start lead (sender/worker-clip.ts WorkerClip; default on); off only for the benchmark's comparison. */
  startLead?: boolean | undefined;
  /** The guild as the Discord client holds it now: on a Stage, the player makes itself a speaker there. */
  guild?: (() => Guild | undefined) | undefined;
  /** A helper bot's player: a failed join names that bot (VoiceJoinError.helperId). */
  helper?: boolean | undefined;
  /** Called each time the player is out of voice with no clip playing or queued: its registry may let it go. */
  onIdle?: () => void;
  /** Called when the player is put to use (joining, a clip queued): its registry holds it again. */
  onUse?: () => void;
}

/** An order placed (Turn), as the player keeps it. */
interface QueuedOrder {
  readonly owner: ClipOwner;
  readonly channelId: string;
  /** Its clips not yet over (the one playing counts). */
  clipsLeft: number;
  /** Joined and waiting for or in its turn: a lost connection cuts it off. */
  queued: boolean;
  readonly stop: AbortController;
  endedAs?: TurnEnd;
  readonly ended: PromiseWithResolvers<void>;
  readonly near: PromiseWithResolvers<void>;
  readonly turn: PromiseWithResolvers<void>;
}

interface CurrentClip {
  readonly order: QueuedOrder;
  readonly label: string;
  readonly settle: (result: PlaybackResult) => void;
  readonly started: PromiseWithResolvers<void>;
  readonly abort: AbortController;
  /** Set once the voice output plays it; the output's `ended` ends the clip. */
  playing?: PlayingClip;
  /** Why it is ending early, when it is: 'failed' with `error` when it was ended with one (`end`). */
  ending?: TurnEnd['status'];
  error?: unknown;
}

/** One guild's voice: connection, queue, player; every error ends in the clip's result, never escapes. */
export class GuildPlayer {
  readonly guildId: string;
  #state: ConnectionState = { kind: 'disconnected' };
  readonly #options: GuildPlayerOptions;
  readonly #log: Logger;
  /** What plays this guild's clips (packet-sender.ts), made on first use. */
  #packetSender: PacketSender | undefined;
  /** Orders accepted for this player, in the order they were placed; the first one's turn it is. */
  readonly #orders: QueuedOrder[] = [];
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
    this.#packetSender ??= this.#options.sender?.() ?? new WorkerSender({ startLead: this.#options.startLead ?? true });
    return this.#packetSender;
  }

  get state(): ConnectionState {
    return this.#state;
  }

  /** The channel it is in or joining; out of voice, the one the first order placed is for (it joins it next). */
  get channelId(): string | undefined {
    if (this.#state.kind === 'connected' || this.#state.kind === 'connecting') return this.#state.channelId;
    return this.#orders[0]?.channelId;
  }

  /** Playing, or holding orders whose clips will play. */
  get busy(): boolean {
    return this.#current !== undefined || this.#orders.length > 0;
  }

  /** Clips waiting behind the one playing. */
  get queueLength(): number {
    return this.clips.length - (this.#current === undefined ? 0 : 1);
  }

  /** Places an accepted order in the queue until it is over (Turn.done); /stop, /skip and /leave end it wherever it is. */
  place(placed: { owner: ClipOwner; clips: number; channelId: string }): Turn {
    this.#options.onUse?.();
    this.#clearIdleTimer();
    const order: QueuedOrder = {
      owner: placed.owner,
      channelId: placed.channelId,
      clipsLeft: placed.clips,
      queued: false,
      stop: new AbortController(),
      ended: Promise.withResolvers(),
      near: Promise.withResolvers(),
      turn: Promise.withResolvers(),
    };
    this.#orders.push(order);
    this.#advance();
    const orders = this.#orders;
    return {
      owner: placed.owner,
      get ahead() {
        const index = orders.indexOf(order);
        return orders.slice(0, index === -1 ? 0 : index).reduce((sum, before) => sum + before.clipsLeft, 0);
      },
      signal: order.stop.signal,
      ended: order.ended.promise,
      get endedAs() {
        return order.endedAs;
      },
      near: order.near.promise,
      take: () => {
        order.queued = true;
        return order.turn.promise;
      },
      play: (packets, label) => this.#play(order, packets, label ?? placed.owner.label),
      done: () => this.#leaveQueue(order),
    };
  }

  /** The first order's turn once no clip plays; the one behind it may fetch once the first plays its last clip. */
  #advance(): void {
    const [first, second] = this.#orders;
    if (first === undefined) return;
    const playing = this.#current?.order === first ? 1 : 0;
    if (this.#current === undefined) {
      first.near.resolve();
      first.turn.resolve();
    }
    if (second !== undefined && first.clipsLeft - playing <= 0) second.near.resolve();
  }

  /** Ends an order early: the clip it plays stops at its next packet, its fetches let go, the next order's turn. */
  #end(order: QueuedOrder, end: TurnEnd): void {
    if (order.endedAs !== undefined || !this.#orders.includes(order)) return;
    order.endedAs = end;
    const current = this.#current;
    if (current?.order === order) {
      if (end.status === 'failed') current.error = end.error;
      this.#endEarly(current, end.status);
    }
    order.stop.abort(end.error ?? new Error(`the order was ${end.status}`));
    order.ended.resolve();
    this.#leaveQueue(order);
  }

  #leaveQueue(order: QueuedOrder): void {
    const index = this.#orders.indexOf(order);
    if (index === -1) return;
    this.#orders.splice(index, 1);
    order.near.resolve();
    order.turn.resolve();
    this.#advance();
    this.#settledIfIdle();
  }

  /** Joins (or moves) and waits for the transport; each clip awaits the DAVE group beside its audio request. */
  async connect(channelId: string): Promise<void> {
    if (this.#state.kind === 'destroyed') throw new Error('player was destroyed');
    this.#options.onUse?.();
    if (this.#state.kind === 'connected' && this.#state.channelId === channelId) return;
    if (this.#state.kind === 'connecting' && this.#state.channelId === channelId && this.#connecting)
      return this.#connecting;
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
      adapterCreator: this.#adapterCreator,
      group: this.#options.group,
      selfDeaf: true,
      selfMute: false,
      ...(this.#options.daveEncryption === false ? { daveEncryption: false } : {}),
    });
    let session = previous;
    if (connection !== previous?.connection) {
      session = new ConnectionSession(connection, this.#log);
      this.#session = session;
      this.#watch(session);
    }
    const failed = (session as ConnectionSession).failed.signal;
    try {
      const signal = AbortSignal.any([AbortSignal.timeout(this.#options.readyTimeoutMs ?? 15_000), failed]);
      await untilSendable(connection, signal, true);
    } catch (error) {
      const reason = failed.aborted ? (session?.failure ?? 'lost') : 'timeout';
      // 4017, 4021 and 4022 have their one operator line (ConnectionSession.closed); a /leave while joining, leave().
      if (!['dave-required', 'rate-limited', 'call-terminated', 'left'].includes(reason)) {
        const fields = { err: error, channelId, closeCode: session?.lastCloseCode, status: connection.state.status };
        this.#log.warn({ code: `voice-join-${reason}`, ...fields }, 'voice connection did not become ready');
      }
      this.#dropSession(session);
      if (connection.state.status !== VoiceConnectionStatus.Destroyed) connection.destroy();
      this.#joinFailed();
      throw this.#joinError(channelId, error, reason);
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
    const byThread = this.#options.sender === undefined;
    if (byThread) senderThread.useLogger(this.#options.logger);
    watchNetworking(connection, {
      onClose: (code) => {
        if (this.#session === session) session.closed(code, this.#state.kind === 'connected');
      },
      onHandlerError: (error, event) => session.handlerFailed(error, event),
      // The sender thread owns this connection's sockets from IP discovery on.
      udpOwner: byThread ? senderThread.udpOwner(connection) : undefined,
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
        session.clearGraceTimer();
        session.rejoiningAfterInvalid = false;
        if (old.status !== VoiceConnectionStatus.Ready && this.#state.kind === 'connected')
          this.#log.info({ closeCode: session.lastCloseCode }, 'voice connection ready again');
      } else if (this.#state.kind === 'connected') {
        // A move or a server change comes back by itself, a kick (4014) does not: a grace period, then cut off.
        session.graceTimer ??= setTimeout(() => {
          session.graceTimer = undefined;
          if (this.#session === session && connection.state.status !== VoiceConnectionStatus.Ready)
            session.fail('lost');
        }, this.#options.reconnectGraceMs ?? 5_000);
      }
    });
  }

  /**
   * The guild's adapter, seeing Discord's word on the bot's own voice state: in no channel is a kick (or the channel
   * gone), over at once; a move names its new channel and keeps the reconnect grace.
   */
  readonly #adapterCreator: DiscordGatewayAdapterCreator = (methods) =>
    this.#options.adapterCreator({
      ...methods,
      onVoiceStateUpdate: (data) => {
        methods.onVoiceStateUpdate(data);
        const session = this.#session;
        if (data.channel_id === null && this.#state.kind === 'connected' && session) session.fail('lost');
      },
    });

  /** The session is over: its grace timer stops and nothing of it is kept for the next connection. */
  #dropSession(session: ConnectionSession | undefined): void {
    if (!session) return;
    session.clearGraceTimer();
    if (this.#session === session) this.#session = undefined;
  }
  get clips(): ClipOwner[] {
    return this.#orders.flatMap((order) => Array<ClipOwner>(order.clipsLeft).fill(order.owner));
  }

  /** Whose the clip under way is, which /skip ends: the first order's. */
  get playing(): ClipOwner | undefined {
    return this.#orders[0]?.owner;
  }

  /** Ends the order under way (if `which` picks it) as skipped; the queue goes on. */
  skip(which?: (owner: ClipOwner) => boolean): boolean {
    const first = this.#orders[0];
    if (first === undefined || (which && !which(first.owner))) return false;
    this.#end(first, { status: 'skipped' });
    return true;
  }

  /** Ends the orders `which` picks (all by default) as stopped; returns their clips dropped besides the one under way. */
  stop(which?: (owner: ClipOwner) => boolean): number {
    const picked = this.#orders.filter((order) => !which || which(order.owner));
    const underWay = picked[0] !== undefined && picked[0] === this.#orders[0] ? 1 : 0;
    const clips = picked.reduce((sum, order) => sum + order.clipsLeft, 0);
    for (const order of picked) this.#end(order, { status: 'stopped' });
    this.#settledIfIdle();
    return clips - underWay;
  }

  /** Nothing left to play or hold: the idle timer runs (in voice), the registry may let the player go (out of it). */
  #settledIfIdle(): void {
    if (this.busy) return;
    this.#armIdleTimer();
    this.#idleOutOfVoice();
  }

  /**
   * Ends the orders `which` picks as failed with `error`: the clip playing at its next packet, without closing
   * silence, so a right taken away (src/core/order/rights.ts) silences it. Returns how many clips it ended.
   */
  end(which: (owner: ClipOwner) => boolean, error: unknown): number {
    const picked = this.#orders.filter((order) => which(order.owner));
    const clips = picked.reduce((sum, order) => sum + order.clipsLeft, 0);
    for (const order of picked) this.#end(order, { status: 'failed', error });
    return clips;
  }

  #endEarly(current: CurrentClip, ending: TurnEnd['status']): void {
    current.ending = ending;
    // Not playing yet, the clip still waits for the DAVE group: the abort ends that wait, which ends it.
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
      this.#session.fail('left');
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

  /** The connection went away by itself: what was playing is cut off, the orders that joined end too. */
  #lost(reason: string, session: ConnectionSession): void {
    this.#state = { kind: 'disconnected' };
    this.#clearIdleTimer();
    const current = this.#current;
    const queued = this.#orders.filter((order) => order.queued);
    this.#log.warn(
      {
        code: 'voice-connection-lost',
        reason,
        closeCode: session.lastCloseCode,
        heardSeconds: (current?.playing?.playedMs ?? 0) / 1000,
        droppedClips: queued.reduce((sum, order) => sum + order.clipsLeft, 0) - (current ? 1 : 0),
      },
      'voice connection lost; the current reply was cut off',
    );
    // Nothing heard and the session never usable (DAVE failed): a failed join, reported by #untilE2ee.
    const neverUsable = current && !current.playing && session.failure !== undefined && session.failure !== 'lost';
    if (neverUsable) current.abort.abort();
    for (const order of queued) if (!neverUsable || order !== current.order) this.#end(order, { status: 'cut-off' });
    if (!current) this.#idleOutOfVoice();
  }

  /**
   * Discord says a moderator moved the bot into `channelId`: it sits there now. With someone to hear it there, what
   * plays goes on; with nobody, what plays and waits is cut off (told with what was heard) and it leaves.
   */
  movedTo(channelId: string, listened: boolean): void {
    const state = this.#state;
    if (state.kind !== 'connected' || state.channelId === channelId) return;
    this.#state = { ...state, channelId };
    if (listened) return;
    for (const order of [...this.#orders]) this.#end(order, { status: 'cut-off' });
    this.leave('moved-alone');
  }

  /** SayBot was sent back to a Stage's audience (Discord said so): while a clip plays there, a speaker again at once. */
  sentToAudience(): void {
    const current = this.#current;
    const state = this.#state;
    if (current?.playing === undefined || state.kind !== 'connected') return;
    this.#speakOnStage(state.channelId, current).catch(() => undefined);
  }

  /** Plays one clip of the first order, once audio sent is end-to-end encrypted. */
  #play(
    order: QueuedOrder,
    stream: Readable,
    label: string,
  ): { started: Promise<void>; result: Promise<PlaybackResult> } {
    const started = Promise.withResolvers<void>();
    const result = new Promise<PlaybackResult>((settle) => {
      if (order.endedAs !== undefined || this.#current !== undefined || this.#orders[0] !== order) {
        stream.destroy();
        const { status, error } = order.endedAs ?? { status: 'failed', error: new Error('not its turn to play') };
        settle(status === 'failed' ? { status, seconds: 0, error } : { status, seconds: 0 });
        return;
      }
      const current: CurrentClip = { order, label, settle, started, abort: new AbortController() };
      this.#current = current;
      this.#advance();
      void this.#send(current, stream);
    });
    return { started: started.promise, result };
  }

  async #send(current: CurrentClip, stream: Readable): Promise<void> {
    stream.once('error', (error: unknown) => {
      if (!current.ending) current.error ??= error;
    });
    try {
      const state = this.#state;
      if (state.kind !== 'connected') throw new Error('not connected to a voice channel');
      await this.#untilE2ee(state.connection, state.channelId, current);
      if (!current.ending) await this.#speakOnStage(state.channelId, current);
      if (current.ending) {
        stream.destroy();
        this.#finishCurrent(current);
        return;
      }
      current.playing = this.#output().play(state.connection, stream, {
        started: () => {
          if (this.#current === current) current.started.resolve();
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
      stream.destroy();
      // Ended with an error of its own (`end`) while it waited: that error, not the abort it caused.
      if (current.ending !== 'failed') current.error = error;
      this.#finishCurrent(current);
    }
  }

  /**
   * On a Stage SayBot joins in the audience, so before each clip there it makes itself a speaker if it is not one (a
   * moderator may have sent it back): only audio the gate let through does so, never a bare /join. A move re-uses a
   * ready connection before Discord has the bot in the new channel: the step waits for that, bounded as a join is.
   * Where it cannot become a speaker (Mute Members taken away meanwhile), the clip fails: nobody would hear it.
   */
  async #speakOnStage(channelId: string, current: CurrentClip): Promise<void> {
    const guild = this.#options.guild?.();
    if (guild?.channels.cache.get(channelId)?.type !== ChannelType.GuildStageVoice) return;
    const failed = this.#session?.failed.signal ?? AbortSignal.abort();
    const timeout = AbortSignal.timeout(this.#options.readyTimeoutMs ?? 15_000);
    try {
      await speakOnStage(guild, channelId, AbortSignal.any([timeout, current.abort.signal, failed]));
    } catch (error) {
      if (current.ending || failed.aborted) throw error;
      this.#log.warn({ code: 'voice-stage-audience', err: error, channelId }, 'could not become a speaker there');
      throw this.#joinError(channelId, error, 'stage-audience');
    }
  }

  /** Resolves once a clip's packets may leave (the seam's sendableSession); a VoiceJoinError if they never may. */
  async #untilE2ee(connection: VoiceConnection, channelId: string, current: CurrentClip): Promise<void> {
    const session = this.#session;
    // No session of this connection: it is over already (the abort that ended it reaches this clip next).
    const failed = session?.connection === connection ? session.failed.signal : AbortSignal.abort();
    const timeout = AbortSignal.timeout(this.#options.readyTimeoutMs ?? 15_000);
    try {
      await untilSendable(connection, AbortSignal.any([timeout, current.abort.signal, failed]));
    } catch (error) {
      if (current.ending || error instanceof DiscordjsVoiceShapeError) throw error;
      const reason: VoiceJoinFailure = failed.aborted ? (session?.failure ?? 'lost') : 'timeout';
      this.#log.warn({ code: `voice-join-${reason}`, err: error, channelId }, 'the DAVE group did not become ready');
      throw this.#joinError(channelId, error, reason);
    }
  }

  #joinError(channelId: string, cause: unknown, reason: VoiceJoinFailure): VoiceJoinError {
    const helperId = this.#options.helper === true ? this.#options.guild?.()?.client.user?.id : undefined;
    return new VoiceJoinError(channelId, cause, reason, helperId);
  }

  #finishCurrent(current: CurrentClip): void {
    if (this.#current !== current) return;
    this.#current = undefined;
    current.abort.abort();
    const seconds = (current.playing?.playedMs ?? 0) / 1000;
    const status: PlaybackStatus = current.ending ?? (current.error === undefined ? 'played' : 'failed');
    const result: PlaybackResult =
      status === 'failed' ? { status, seconds, error: current.error } : { status, seconds };
    current.order.clipsLeft -= 1;
    this.#log.debug({ label: current.label, status, seconds }, 'clip finished');
    current.settle(result);
    this.#advance();
    this.#settledIfIdle();
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

/** SayBot on the Stage `channelId` makes itself a speaker (Mute Members there), once Discord has it there. */
async function speakOnStage(guild: Guild, channelId: string, signal: AbortSignal): Promise<void> {
  await untilMine(guild, (voice) => voice?.channelId === channelId, signal);
  const me = guild.members.me;
  const stage = me?.voice.channel;
  if (!me || stage?.id !== channelId || stage.type !== ChannelType.GuildStageVoice) throw new Error('not on the Stage');
  if (me.voice.suppress === false) return;
  if (!stage.permissionsFor(me).has(PermissionFlagsBits.MuteMembers)) throw new Error('no Mute Members on the Stage');
  await abortable(me.voice.setSuppressed(false), signal);
  // Heard once Discord has it a speaker: its own voice state says so.
  await untilMine(guild, (voice) => voice?.channelId === channelId && voice.suppress === false, signal);
}

/** Until SayBot's own voice state in `guild` passes `test`; the signal's reason once it gives up first. */
function untilMine(guild: Guild, test: (voice: VoiceState | undefined) => boolean, signal: AbortSignal): Promise<void> {
  const { client } = guild;
  if (test(guild.members.me?.voice)) return Promise.resolve();
  let changed: ((before: VoiceState, after: VoiceState) => void) | undefined;
  const there = new Promise<void>((resolve) => {
    changed = (_before, after) => {
      if (after.guild.id === guild.id && after.id === client.user.id && test(after)) resolve();
    };
    client.on(Events.VoiceStateUpdate, changed);
  });
  return abortable(there, signal).finally(() => client.off(Events.VoiceStateUpdate, changed!));
}
