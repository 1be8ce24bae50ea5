// The sender thread's loop (sender-loop.ts) on a clock of the test's own, two voices against a UDP server on 127.0.0.1:
// what its reports carry.
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { AES_GCM_MODE } from '@saybot/local-discord/rtp-decrypt.ts';
import { voiceUdpServer, type VoiceUdpServer } from '../../../support/voice-udp-server.ts';
import { createRing, RingWriter } from '../../../../src/core/voice/sender/packet-ring.ts';
import { ConnectionBarrier, type FromSender } from '../../../../src/core/voice/sender/sender-messages.ts';
import { PERIOD_MS } from '../../../../src/core/voice/sender/sender-connection.ts';
import { SenderLoop } from '../../../../src/core/voice/sender/sender-loop.ts';

let server: VoiceUdpServer;
beforeEach(async () => {
  server = await voiceUdpServer();
});
afterEach(() => server.close());

const clipsOf = (messages: FromSender[]) =>
  messages.flatMap((m) => (m.type === 'report' ? [m.clips.map((p) => p.clip)] : []));

it("a clip's start is reported at once alone: the other clips' progress waits for the next report", async () => {
  const posted: FromSender[] = [];
  let now = 0;
  const loop = new SenderLoop((m) => posted.push(m), { now: () => now, set: () => 0, clear: () => undefined }, 1);
  const writers = [1, 2].map((connection) => {
    const ring = createRing();
    const barrier = new Int32Array(new SharedArrayBuffer(ConnectionBarrier.length * 4));
    loop.handle({ type: 'open', connection, ip: '127.0.0.1', port: server.port, ssrc: connection, barrier, ring });
    return new RingWriter(ring);
  });
  while (posted.filter((m) => m.type === 'discovered').length < 2) await new Promise((r) => setImmediate(r));
  for (const connection of [1, 2])
    loop.handle({ type: 'keys', connection, mode: AES_GCM_MODE, key: randomBytes(32), sequence: 0, timestamp: 0 });
  const frame = Buffer.from([0xf8, 0xff, 0xfe]);
  // Clip 1 plays on connection 1; its first packet's report is read, then it sends its next.
  for (let n = 0; n < 5; n++) writers[0]?.push(1, n, 0, frame);
  if (writers[0]?.wakeNeeded()) loop.handle({ type: 'wake', connection: 1 });
  now += PERIOD_MS;
  loop.wake();
  posted.length = 0;
  // Clip 2 starts on connection 2.
  writers[1]?.push(2, 0, 0, frame);
  expect(writers[1]?.wakeNeeded()).toBe(true);
  loop.handle({ type: 'wake', connection: 2 });
  expect(clipsOf(posted)).toEqual([[2]]);
  loop.report();
  expect(clipsOf(posted)).toEqual([[2], [1]]);
  loop.handle({ type: 'close', connection: 1 });
  loop.handle({ type: 'close', connection: 2 });
});
