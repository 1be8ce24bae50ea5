// A voice connection's sockets handed to the sender thread: what the seam's IP discovery routing (watchNetworking's
// `udpOwner`) calls for each of the connection's voice sessions.
import { VoiceConnectionStatus, type VoiceConnection } from '@discordjs/voice';
import type { UdpOwner } from '../discordjs-voice-types.ts';
import { senderThread } from './sender-thread.ts';

/** Asks the library for a new voice session (new socket, new key), so the nonce never restarts under an old key. */
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
