import type { EventEmitter } from 'node:events';
import type { Networking, NetworkingState, VoiceConnection, VoiceConnectionState } from '@discordjs/voice';
import { keepTransportKey } from './transport-key.ts';

export interface NetworkingWatchHandlers {
  /** The voice gateway closed the socket with this code (4006, 4014, 4017 ...), before the library reacts to it. */
  onClose(code: number): void;
  /** A voice gateway message handler of the library threw; it was contained, the connection goes on. */
  onHandlerError(error: unknown, event: 'packet' | 'binary'): void;
}

type Listener = (...args: unknown[]) => void;

/**
 * Follows every Networking (and every voice websocket it opens) of one VoiceConnection: reports close codes, and
 * contains exceptions thrown by the library's own websocket message handlers.
 *
 * Why here and not a process-level 'uncaughtException' handler: @discordjs/voice 0.19 calls its handlers straight
 * from the websocket's onmessage, so a throw there (an MLS proposals message before clients-connect, for one)
 * escapes to the process. Wrapping exactly those listeners of exactly our sockets contains it to the guild concerned,
 * keeps the stack trace, and leaves every other uncaught exception fatal as it should be.
 */
export function watchNetworking(connection: VoiceConnection, handlers: NetworkingWatchHandlers): void {
  const seen = new WeakSet<object>();
  const guarded = new WeakSet<object>();

  const guardSocket = (ws: EventEmitter) => {
    if (guarded.has(ws)) return;
    guarded.add(ws);
    for (const event of ['packet', 'binary'] as const) {
      for (const listener of ws.listeners(event) as Listener[]) {
        ws.off(event, listener);
        ws.on(event, (...args: unknown[]) => {
          try {
            listener(...args);
          } catch (error) {
            handlers.onHandlerError(error, event);
          }
        });
      }
    }
  };

  const follow = (networking: Networking) => {
    if (seen.has(networking)) return;
    seen.add(networking);
    // First in line: a close the player ends the connection for (4017, 4021, 4022) must be handled before the
    // library's own listener, which would otherwise send a rejoin first.
    networking.prependListener('close', (code: number) => handlers.onClose(code));
    // The socket is made in the constructor and again on every resume; messages arrive only after this tick.
    const socketOf = (state: NetworkingState) => ('ws' in state ? (state.ws as unknown as EventEmitter) : undefined);
    const first = socketOf(networking.state);
    if (first) guardSocket(first);
    networking.on('stateChange', (_old: NetworkingState, next: NetworkingState) => {
      const ws = socketOf(next);
      if (ws) guardSocket(ws);
      keepTransportKey(next);
    });
  };

  const networkingOf = (state: VoiceConnectionState) => ('networking' in state ? state.networking : undefined);
  const current = networkingOf(connection.state);
  if (current) follow(current);
  connection.on('stateChange', (_old, next) => {
    const networking = networkingOf(next);
    if (networking) follow(networking);
  });
}
