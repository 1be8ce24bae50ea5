// SayBot's sender thread (src/core/voice/sender/) against the local Discord: which thread sends, and what happens
// when that thread dies mid-reply. No times are asserted here; the benchmark measures them (bench/, figure 3).
import dgram from 'node:dgram';
import { threadId } from 'node:worker_threads';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { senderThread } from '../../src/core/voice/sender/sender-thread.ts';
import { APP_ID, defaultGuilds, runCommand, startHarness, type Harness } from '../support/harness.ts';
import { ALICE, BOB, GENERAL } from '../support/world.ts';

const london = defaultGuilds()[1] as ReturnType<typeof defaultGuilds>[0];
const FRAME_SECONDS = 0.02;

let h: Harness;

beforeAll(async () => {
  h = await startHarness({
    dave: { dave: 'required', daveCommitter: 'bot' },
    config: { voiceIdleTimeoutMs: 60_000, maxCharsPerRequest: 300 },
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  if (h.discord.voiceChannelOf(london.id, BOB) !== null) h.discord.setVoiceState(london.id, BOB, null);
  expect(h.discord.problems).toEqual([]);
});
afterAll(async () => {
  await h?.close();
});

async function say(text: string) {
  h.discord.clearAudio(london.id);
  const { handle } = await runCommand(h, {
    guildId: london.id,
    userId: ALICE,
    name: 'say',
    options: { text, voice: 'voice-b-en-f-01' },
  });
  return handle;
}

/** Datagrams this (the main) thread sends to the local Discord's voice port. */
function countMainThreadVoiceSends(): { count: number } {
  const counted = { count: 0 };
  const send = dgram.Socket.prototype.send;
  vi.spyOn(dgram.Socket.prototype, 'send').mockImplementation(function (this: dgram.Socket, ...args: unknown[]) {
    let port: unknown = args.find((arg, i) => i > 0 && typeof arg === 'number' && arg > 1023);
    try {
      port ??= this.remoteAddress().port;
    } catch {
      // Not connected: the port was in the arguments, if anywhere.
    }
    if (port === h.discord.voiceUdpPort) counted.count += 1;
    return (send as (...a: unknown[]) => void).apply(this, args);
  });
  return counted;
}

describe('the sender thread', () => {
  it('sends every packet of a reply from its own thread, none from the main thread, IP discovery included', async () => {
    // Out of voice first: the next join's IP discovery and keep-alives are counted too.
    h.bot.players.find(london.id)?.leave('test');
    await expect.poll(() => h.discord.botVoiceChannel(london.id)).toBeNull();
    const main = countMainThreadVoiceSends();
    await senderThread.stats(true);
    const before = { ...senderThread.counts.messages };
    const text = 'Every packet from the sender thread.';
    const handle = await say(text);
    await handle.waitFor((r) => (r.content ?? '').startsWith('Spoke'), 60_000);
    const heard = await h.discord.waitForAudio(london.id, { minSeconds: 0.5 });
    const stats = await senderThread.stats();

    expect(main.count).toBe(0);
    expect(stats.threadId).toBe(senderThread.threadId);
    expect(stats.threadId).not.toBe(threadId);
    const words = heard.packets.filter((p) => !p.silence).length;
    expect(words).toBeGreaterThan(0);
    expect(stats.packets).toBe(words);
    expect(heard.dave?.plaintextFrames).toBe(0);
    expect(heard.nonceRepeats).toBe(0);
    // Through the ring: nothing lost or overrun (RTP sequence numbers contiguous), and no message a packet (the port
    // carried the session's control and a wake or two, far fewer than the packets).
    const sequences = heard.packets.map((p) => p.sequence);
    expect(sequences).toEqual(sequences.map((_, n) => ((sequences[0] as number) + n) & 0xffff));
    const posted = Object.entries(senderThread.counts.messages).filter(([type, count]) => count !== before[type]);
    expect(posted.map(([type]) => type).filter((type) => !['open', 'keys', 'wake', 'stats'].includes(type))).toEqual(
      [],
    );
    const messages = posted.reduce((sum, [type, count]) => sum + count - (before[type] ?? 0), 0);
    expect(messages).toBeLessThan(words / 5);
  });

  it('killed mid-reply: the voice reconnects with a new session, the reply goes on to its end, no nonce twice, one log line', async () => {
    const text =
      'A long reply, so that the thread that sends it can be ended while it is still being read out loud to everyone.';
    const before = h.sandbox.requests.length;
    const logsBefore = h.logs().length;
    const failovers = senderThread.failovers;
    const handle = await say(text);
    await h.discord.waitForPacket(london.id, (p) => !p.silence);
    const killed = senderThread.threadId;
    await senderThread.kill();
    const reply = await handle.waitFor((r) => (r.content ?? '').startsWith('Spoke'), 60_000);
    const heard = await h.discord.waitForAudio(london.id, { minSeconds: 1 });

    expect(senderThread.failovers).toBe(failovers + 1);
    expect(senderThread.threadId).not.toBe(killed);
    // From the first packet not reported sent: nothing lost; at most the packets sent between two reports again.
    const expected = h.sandbox.expectedDurationSeconds(text);
    expect(heard.seconds).toBeGreaterThanOrEqual(expected - FRAME_SECONDS - 1e-9);
    expect(heard.nonceRepeats).toBe(0);
    expect(heard.dave?.plaintextFrames).toBe(0);
    expect(heard.dave?.decryptFailures).toBe(0);
    // Asked for once (charged once), and the one line that says what happened.
    expect(h.sandbox.requests.length - before).toBe(1);
    const lines = h
      .logs()
      .slice(logsBefore)
      .split('\n')
      .filter((line) => line.includes('voice-sender-failover'));
    expect(lines).toHaveLength(1);
    expect(reply.content).toMatch(/^Spoke/);
  });

  it('a member joining and then leaving mid-reply: the one who stays decrypts every frame, none is plain, the reply is heard in full', async () => {
    const text =
      'Someone walks in while this is being read, and walks out again before it ends, and nobody hears a glitch at all.';
    const handle = await say(text);
    await h.discord.waitForPacket(london.id, (p) => !p.silence);
    const before = h.discord.daveState(london.id)?.botEpoch ?? 0n;
    h.discord.setVoiceState(london.id, BOB, GENERAL);
    await h.discord.waitForDave(london.id, (s) => s.botEpoch > before && s.members.includes(BOB));
    const joined = h.discord.daveState(london.id)?.botEpoch ?? 0n;
    h.discord.setVoiceState(london.id, BOB, null);
    await h.discord.waitForDave(london.id, (s) => s.botEpoch > joined && !s.members.includes(BOB));
    await handle.waitFor((r) => (r.content ?? '').startsWith('Spoke'), 60_000);
    const heard = await h.discord.waitForAudio(london.id, { minSeconds: 1 });
    const state = h.discord.daveState(london.id);
    const alice = state?.listeners.find((l) => l.userId === ALICE);
    expect(state?.members).toContain(APP_ID);
    expect(alice?.failures).toBe(0);
    expect(heard.dave?.decryptFailures).toBe(0);
    expect(heard.dave?.plaintextFrames).toBe(0);
    expect(heard.nonceRepeats).toBe(0);
    expect(Math.abs(heard.seconds - h.sandbox.expectedDurationSeconds(text))).toBeLessThanOrEqual(FRAME_SECONDS + 1e-9);
  });
});
