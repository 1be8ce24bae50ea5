import { NetworkingStatusCode, VoiceConnectionStatus, type VoiceConnection } from '@discordjs/voice';

/**
 * Whether audio sent now would reach listeners: the connection is Ready and either the session negotiated no DAVE
 * (protocol version 0, or DAVE turned off) or its MLS group exists and a transition has been executed.
 *
 * VoiceConnectionStatus.Ready alone is not enough: it fires at the session description, before the group exists,
 * and until then @discordjs/voice sends frames without end-to-end encryption, which every listener's client drops
 * (the start of the first reply would be lost). `DAVESession.encrypt` encrypts exactly when `session.ready` is true
 * and the protocol version is not 0; `lastTransitionId` is set once the first transition (commit, welcome or
 * execute) has been applied, which is when listeners switch to the new keys too.
 */
export function canSendAudio(connection: VoiceConnection): boolean {
  const state = connection.state;
  if (state.status !== VoiceConnectionStatus.Ready) return false;
  const networking = state.networking.state;
  if (networking.code !== NetworkingStatusCode.Ready) return false;
  const dave = networking.dave;
  if (!dave || dave.protocolVersion === 0) return true;
  return dave.session?.ready === true && dave.lastTransitionId !== undefined && !dave.reinitializing;
}

/**
 * Whether the transport is up (session description received): Discord accepted the join, which is all a join
 * must wait for. The DAVE group can still be forming; the first clip's request runs meanwhile.
 */
export function transportReady(connection: VoiceConnection): boolean {
  const state = connection.state;
  return state.status === VoiceConnectionStatus.Ready && state.networking.state.code === NetworkingStatusCode.Ready;
}

/** Whether this connection's session uses DAVE (for logs). */
export function usesDave(connection: VoiceConnection): boolean {
  const state = connection.state;
  if (state.status !== VoiceConnectionStatus.Ready) return false;
  const networking = state.networking.state;
  return networking.code === NetworkingStatusCode.Ready && (networking.dave?.protocolVersion ?? 0) > 0;
}

/**
 * Resolves once `ready` holds (default: audio can flow, see canSendAudio); rejects when the signal aborts. Re-checks on
 * every connection state change and every DAVE transition, the two things that change the answer.
 */
export function untilCanSendAudio(
  connection: VoiceConnection,
  signal: AbortSignal,
  ready: (connection: VoiceConnection) => boolean = canSendAudio,
): Promise<void> {
  if (ready(connection)) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const check = () => {
      if (!ready(connection)) return;
      cleanup();
      resolve();
    };
    const abort = () => {
      cleanup();
      reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    };
    const cleanup = () => {
      connection.off('stateChange', check);
      connection.off('transitioned', check);
      signal.removeEventListener('abort', abort);
    };
    if (signal.aborted) return abort();
    connection.on('stateChange', check);
    connection.on('transitioned', check);
    signal.addEventListener('abort', abort, { once: true });
  });
}
