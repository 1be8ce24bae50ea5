// A UDP voice server on 127.0.0.1 for the sender's tests: it answers IP discovery as Discord's does (the address and
// port it saw) and keeps every other datagram of more than 8 bytes (RTP, not keep-alives) in arrival order. A test can
// put a mark in that order (mark()): on 127.0.0.1 a datagram is in the receiving socket's queue when its send returns,
// so everything sent before the mark, from any thread, is received before it.
import { createSocket, type Socket } from 'node:dgram';

const MARK = Buffer.from('saybot-test-mark');

export interface VoiceUdpServer {
  readonly socket: Socket;
  readonly port: number;
  /** The datagrams received, in order (IP discovery and keep-alives left out). */
  readonly received: Buffer[];
  /** For each mark(), in order: how many datagrams of `received` had arrived before it. */
  readonly marks: number[];
  /** Sends a mark now (synchronously: a connected socket sends in the call). */
  mark(): void;
  close(): void;
}

export async function voiceUdpServer(): Promise<VoiceUdpServer> {
  const received: Buffer[] = [];
  const marks: number[] = [];
  const socket = createSocket('udp4');
  socket.on('message', (message, from) => {
    if (message.equals(MARK)) marks.push(received.length);
    else if (message.length === 74 && message.readUInt16BE(0) === 1) {
      const reply = Buffer.alloc(74);
      reply.writeUInt16BE(2, 0);
      reply.write(from.address, 8, 'ascii');
      reply.writeUInt16BE(from.port, 72);
      socket.send(reply, from.port, from.address);
    } else if (message.length > 8) received.push(message);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const port = socket.address().port;
  const marker = createSocket('udp4');
  await new Promise<void>((resolve) => marker.connect(port, '127.0.0.1', resolve));
  return {
    socket,
    port,
    received,
    marks,
    mark: () => marker.send(MARK),
    close: () => {
      socket.close();
      marker.close();
    },
  };
}
