// A voice connection's sockets handed to the sender thread: what the seam's IP discovery routing (watchNetworking's
// `udpOwner`) calls for each of the connection's voice sessions.
import { VoiceConnectionStatus, type VoiceConnection } from '@discordjs/voice';
import type { UdpOwner } from '../discordjs-voice-types.ts';
import { senderThread } from './sender-thread.ts';

/**
 * Asks the library for a new voice session on the same channel: a new Identify, a new socket (from the sender thread
 * then alive) and a new key, so the transport nonce starts afresh with a key it was never used with.
 */
function renew(connection: VoiceConnection): void {
  if (connection.state.status === VoiceConnectionStatus.Destroyed) return;
  connection.configureNetworking();
}

export function senderUdpOwner(connection: VoiceConnection): UdpOwner {
  return {
    claim: (udp, remote, ssrc) => senderThread.open(udp, remote, ssrc, () => renew(connection)).discovered,
    released: (udp) => {
      const voice = senderThread.voiceOf(udp);
      if (voice !== undefined) senderThread.close(voice);
    },
  };
}
