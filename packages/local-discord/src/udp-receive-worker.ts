// The voice media socket in a thread of its own (voice-udp.ts, `receiveThread`): each datagram is stamped here as
// it arrives, off the fake's main event loop (decrypting, decoding, DAVE, the gateway), so a benchmark's arrival
// times are the network's, not that loop's. Datagrams go to the main thread in one message per turn.
import { createSocket } from 'node:dgram';
import { parentPort, workerData } from 'node:worker_threads';

export interface ReceivedBatch {
  datagrams: Array<{ packet: Uint8Array; address: string; port: number; atEpochMs: number }>;
}
export type ReceiveThreadCommand =
  { type: 'send'; packet: Uint8Array; port: number; address: string } | { type: 'close' };

const port = parentPort;
if (!port) throw new Error('udp-receive-worker.ts runs as a worker thread (voice-udp.ts)');
const { host, receiveBufferBytes } = workerData as { host: string; receiveBufferBytes: number };
const socket = createSocket('udp4');
let batch: ReceivedBatch['datagrams'] = [];
socket.on('message', (packet, from) => {
  // Epoch milliseconds at sub-millisecond resolution: the main thread's performance clock has another origin.
  batch.push({ packet, address: from.address, port: from.port, atEpochMs: performance.timeOrigin + performance.now() });
  if (batch.length === 1)
    setImmediate(() => {
      const datagrams = batch;
      batch = [];
      port.postMessage({ datagrams } satisfies ReceivedBatch);
    });
});
socket.on('error', (error) => port.postMessage({ error: String(error) }));
socket.bind(0, host, () => {
  try {
    socket.setRecvBufferSize(receiveBufferBytes);
  } catch {
    // Keep the default where the system refuses.
  }
  port.postMessage({ bound: socket.address().port });
});
port.on('message', (command: ReceiveThreadCommand) => {
  if (command.type === 'send') socket.send(command.packet, command.port, command.address);
  else socket.close(() => process.exit(0));
});
