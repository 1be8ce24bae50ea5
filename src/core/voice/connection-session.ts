// One voice connection as the guild's player follows it (ConnectionSession), and what the voice gateway's closes mean
// for it: which are over for good (4017, 4021, 4022), which the library rejoins (4006, bounded), and why a join failed
// (VoiceJoinError). Dropped with its connection, so that nothing carries over to the next
// (src/core/voice/guild-player.ts).
import { VoiceConnectionStatus, type VoiceConnection } from '@discordjs/voice';
import type { Logger } from '../log.ts';

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

/** Why a join failed: 4017 'dave-required', 4021/4022 must not be retried, 'left' is a /leave while joining. */
export type VoiceJoinFailure =
  | 'timeout'
  | 'dave-required'
  | 'rate-limited'
  | 'call-terminated'
  | 'lost'
  | 'handler-error'
  | 'left'
  | 'stage-audience';

export class VoiceJoinError extends Error {
  readonly channelId: string;
  readonly reason: VoiceJoinFailure;
  /** The helper bot that could not join, whose words name it; undefined: the main bot. */
  readonly helperId: string | undefined;
  constructor(channelId: string, cause: unknown, reason: VoiceJoinFailure = 'timeout', helperId?: string) {
    super(`could not join voice channel ${channelId} (${reason})`, { cause });
    this.name = 'VoiceJoinError';
    this.channelId = channelId;
    this.reason = reason;
    this.helperId = helperId;
  }
}

/** What the player knows of one voice connection, dropped with it so nothing carries over to the next. */
export class ConnectionSession {
  readonly connection: VoiceConnection;
  /** Aborted when this connection fails for good (4017, 4021, 4022, lost, a library handler error). */
  readonly failed = new AbortController();
  /** Why it failed for good, once it has. */
  failure?: VoiceJoinFailure;
  /** A 4006 rejoin is under way: the connection has not been Ready since. Another 4006 meanwhile gives up. */
  rejoiningAfterInvalid = false;
  /** When (performance.now()) each 4006 rejoin of the last SESSION_INVALID_WINDOW_MS began. */
  readonly sessionInvalidRejoins: number[] = [];
  lastCloseCode?: number;
  /** Gives the connection up when it stays away from Ready longer than the reconnect grace period. */
  graceTimer?: NodeJS.Timeout;
  readonly #log: Logger;

  constructor(connection: VoiceConnection, log: Logger) {
    this.connection = connection;
    this.#log = log;
  }

  /** The voice gateway closed with `code` (`connected`: the player was in the channel, not joining it). */
  closed(code: number, connected: boolean): void {
    this.lastCloseCode = code;
    if (code === VoiceCloseCode.DaveRequired) {
      // The library would rejoin and be refused again, forever: this join is over.
      this.#log.error(
        { code: 'voice-dave-required', closeCode: code },
        'the voice server requires DAVE end-to-end encryption (close 4017) and this connection did not offer it; ' +
          'check that @snazzah/davey is installed and that daveEncryption is not turned off',
      );
      this.fail('dave-required');
    } else if (FINAL_CLOSES.has(code)) {
      const { failure, logCode } = FINAL_CLOSES.get(code) ?? { failure: 'lost', logCode: 'voice-closed' };
      // Destroyed before the library's own close handler runs (watchNetworking listens first), so it never rejoins.
      // While connected, the player's line for a lost connection (with what was cut off) is the one; joining, this is.
      if (!connected)
        this.#log.warn(
          { code: logCode, closeCode: code },
          `the voice gateway closed with ${code}, which must not be retried: this voice connection is over`,
        );
      this.fail(failure);
    } else if (code === VoiceCloseCode.SessionInvalid) {
      this.#invalid(code);
    } else {
      this.#log.info({ code: 'voice-socket-closed', closeCode: code }, 'voice gateway closed the connection');
    }
  }

  /** A 4006 before the last rejoin reached Ready, or past the bound in the window, is a loop: give up. */
  #invalid(code: number): void {
    const now = performance.now();
    const rejoins = this.sessionInvalidRejoins;
    while (rejoins.length > 0 && now - (rejoins[0] as number) >= SESSION_INVALID_WINDOW_MS) rejoins.shift();
    if (this.rejoiningAfterInvalid || rejoins.length >= SESSION_INVALID_REJOINS) {
      this.#log.warn(
        { code: 'voice-session-invalid', closeCode: code, rejoins: rejoins.length },
        this.rejoiningAfterInvalid
          ? 'voice session invalid again after a rejoin, before it was ready; giving up'
          : `voice session invalid after ${rejoins.length} rejoins within ${SESSION_INVALID_WINDOW_MS / 1000} s; giving up`,
      );
      this.fail('lost');
      return;
    }
    rejoins.push(now);
    this.rejoiningAfterInvalid = true;
    this.#log.info(
      { code: 'voice-session-invalid', closeCode: code, rejoin: rejoins.length },
      'voice session invalid; rejoining',
    );
  }

  /** A library handler threw: its DAVE state may be wrong unnoticed, so give the session up; the next /say rejoins. */
  handlerFailed(error: unknown, event: string): void {
    this.#log.error(
      { code: 'voice-handler-error', err: error, event },
      '@discordjs/voice failed on a voice gateway message; contained to this guild, giving this voice session up',
    );
    this.fail('handler-error');
  }

  /** Gives the connection up: a join in progress fails with this reason, a connected player loses its channel. */
  fail(failure: VoiceJoinFailure): void {
    this.failure ??= failure;
    this.failed.abort();
    if (this.connection.state.status !== VoiceConnectionStatus.Destroyed) this.connection.destroy();
  }

  clearGraceTimer(): void {
    if (this.graceTimer) clearTimeout(this.graceTimer);
    this.graceTimer = undefined;
  }
}
