// A UDP voice server on 127.0.0.1 for the sender's tests: it answers IP discovery as Discord's does (the address and
// port it saw) and keeps every other datagram of more than 8 bytes (RTP, not keep-alives) in arrival order.
import { createSocket, type Socket } from 'node:dgram';

export interface VoiceUdpServer {
  readonly socket: Socket;
  readonly port: number;
  /** The datagrams received, in order (IP discovery and keep-alives left out). */
  readonly received: Buffer[];
  close(): void;
}

export async function voiceUdpServer(): Promise<VoiceUdpServer> {
  const received: Buffer[] = [];
  const socket = createSocket('udp4');
  socket.on('message', (message, from) => {
    if (message.length === 74 && message.readUInt16BE(0) === 1) {
      const reply = Buffer.alloc(74);
      reply.writeUInt16BE(2, 0);
      reply.write(from.address, 8, 'ascii');
      reply.writeUInt16BE(from.port, 72);
      socket.send(reply, from.port, from.address);
    } else if (message.length > 8) received.push(message);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return { socket, port: socket.address().port, received, close: () => socket.close() };
}
