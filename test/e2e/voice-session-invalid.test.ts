// Voice close 4006 (session no longer valid) mid-reply, against the local Discord. Discord's close code table: 4006
// "Your session is no longer valid", answered by a fresh IDENTIFY (a rejoin); 4015 "The server crashed. Try
// resuming", and a resume the crashed server cannot honour is answered with 4006. A 4006 after the last rejoin was
// ready is a new incident and is rejoined; a 4006 before it was ready, or one more than the bound of rejoins in a
// window, gives up with one log line. No times are asserted.
import { describe, expect, it } from 'vitest';
import { SESSION_INVALID_REJOINS } from '../../src/core/voice/connection-session.ts';
import { defaultGuilds } from '../support/harness.ts';
import { useFileHarness } from '../support/file-harness.ts';
import { ALICE } from '../support/world.ts';

const london = defaultGuilds()[1] as ReturnType<typeof defaultGuilds>[0];
const FRAME_SECONDS = 0.02;
/** What a voice server that closes may drop of what was sent to it: the packets of one report interval (40 ms). */
const DROPPED_AT_A_CLOSE_SECONDS = 2 * FRAME_SECONDS;

const h = useFileHarness({ dave: { dave: 'required', daveCommitter: 'bot' } });

/**
 * Says `text` on a voice connection of its own: the rejoins a connection made are counted against its bound, and the
 * previous test (whichever order they run in) may have left SayBot in the channel after rejoins of its own.
 */
async function say(text: string) {
  if (h.discord.botVoiceChannel(london.id) !== null) {
    const left = await h.discord.command({ guildId: london.id, userId: ALICE, name: 'leave', locale: 'en-US' });
    await left.waitForFinal(60_000);
    await expect.poll(() => h.discord.botVoiceChannel(london.id)).toBeNull();
  }
  h.discord.clearAudio(london.id);
  return h.discord.command({
    guildId: london.id,
    userId: ALICE,
    name: 'say',
    locale: 'en-US',
    options: [{ name: 'text', value: text }],
  });
}

/** The first word packet (not silence) heard from a voice session other than those seen so far. */
async function wordsFromANewSession(seen: Set<number>): Promise<number> {
  const packet = await h.discord.waitForPacket(london.id, (p) => !p.silence && !seen.has(p.ssrc), 30_000);
  seen.add(packet.ssrc);
  return packet.ssrc;
}

/** Log lines written since `from` (a length of h.logs()) that contain `needle`. */
function linesSince(from: number, needle: string): string[] {
  return h
    .logs()
    .slice(from)
    .split('\n')
    .filter((line) => line.includes(needle));
}

/** Voice sockets the local Discord closed with `code` in this guild so far. */
const closes = (code: number) => h.discord.voiceCloses(london.id).filter((c) => c.code === code).length;

describe('voice session no longer valid (4006) mid-reply', () => {
  it('4015, then once the rejoin is ready and heard, an independent 4006: rejoined both times, the reply ends whole, asked for and billed once', async () => {
    const text =
      'This reply goes on while the voice server crashes under it, comes back on a new session, and then loses that ' +
      'session too, for a reason of its own, a little later; every word of it is still heard, once, to the end.';
    const channelId = london.voiceChannels[0]?.id ?? '';
    const requestsBefore = h.sandbox.requests.length;
    const billedBefore = h.sandbox.charactersBilled();
    const logsBefore = h.logs().length;
    const crashesBefore = closes(4015);
    const invalidBefore = closes(4006);
    const seen = new Set<number>();

    const handle = await say(text);
    await wordsFromANewSession(seen);
    const identifiesBefore = h.discord.voiceIdentifies(london.id);
    h.discord.closeVoiceSession(london.id, 4015);
    // The library resumes; the crashed server lost the session and answers 4006: a rejoin, heard on a new session.
    await wordsFromANewSession(seen);
    h.discord.closeVoiceSession(london.id, 4006);
    const reply = await handle.waitFor((r) => /^(Spoke|The reply was cut off)/.test(r.content ?? ''), 60_000);
    expect(reply.content).toMatch(/^Spoke/);
    const heard = await h.discord.waitForAudio(london.id, { minSeconds: 1 });
    // Words from three voice sessions: the first, the one after the crash, the one after the 4006.
    const sessions = new Set(
      h.discord
        .heardPackets(london.id)
        .filter((p) => !p.silence)
        .map((p) => p.ssrc),
    );
    expect(sessions.size).toBe(3);
    expect(h.discord.botVoiceChannel(london.id)).toBe(channelId);
    expect(closes(4015) - crashesBefore).toBe(1);
    expect(closes(4006) - invalidBefore).toBe(2);
    // Two rejoins, each a fresh IDENTIFY; no loop.
    expect(h.discord.voiceIdentifies(london.id) - identifiesBefore).toBe(2);
    // From the first packet not reported sent on each session, nothing sent twice under one nonce; lost at most what
    // each closing server dropped as it closed (sent and reported between two reports, 40 ms: two frames a close).
    expect(heard.seconds).toBeGreaterThanOrEqual(
      h.sandbox.expectedDurationSeconds(text) - 2 * DROPPED_AT_A_CLOSE_SECONDS - 1e-9,
    );
    expect(heard.nonceRepeats).toBe(0);
    expect(heard.dave?.plaintextFrames).toBe(0);
    // Asked for once, billed once.
    expect(h.sandbox.requests.length - requestsBefore).toBe(1);
    expect(h.sandbox.charactersBilled() - billedBefore).toBe(h.sandbox.requests.at(-1)?.charactersBilled);
    // One line per rejoin, none giving up.
    const lines = linesSince(logsBefore, '"code":"voice-session-invalid"');
    expect(lines).toHaveLength(2);
    expect(lines.filter((line) => line.includes('giving up'))).toEqual([]);
    expect(linesSince(logsBefore, 'voice-connection-lost')).toEqual([]);
    expect(h.discord.problems).toEqual([]);
  });

  it('a 4006 at the rejoin, before it was ready: gives up with one line, no rejoin loop, the reply cut off', async () => {
    const text =
      'This reply loses its voice session, and the session its rejoin makes is refused as well, so it stops there.';
    const logsBefore = h.logs().length;
    const seen = new Set<number>();
    const handle = await say(text);
    await wordsFromANewSession(seen);
    const identifiesBefore = h.discord.voiceIdentifies(london.id);
    // Refused more than once, so that a client that kept rejoining would be seen doing so.
    h.discord.refuseNextVoiceIdentify(london.id, 4006, 3);
    h.discord.closeVoiceSession(london.id, 4006);
    const cut = await handle.waitFor((r) => (r.content ?? '').startsWith('The reply was cut off'), 60_000);
    await expect.poll(() => h.discord.botVoiceChannel(london.id)).toBeNull();
    h.discord.refuseNextVoiceIdentify(london.id, 4006, 0);

    expect(cut.content).toMatch(/^The reply was cut off/);
    expect(h.discord.voiceIdentifies(london.id) - identifiesBefore).toBe(1);
    const givingUp = linesSince(logsBefore, 'giving up');
    expect(givingUp).toHaveLength(1);
    expect(givingUp[0]).toContain('"code":"voice-session-invalid"');
    expect(h.discord.problems).toEqual([]);
  });

  it('independent 4006s, each once the rejoin before was heard: rejoined up to the bound (3 in 60 s), the one after it gives up with one line', async () => {
    const text =
      'This reply loses its voice session again and again, each time after the new one was ready and heard, which is ' +
      'no longer an incident but a loop, so the player stops rejoining after a few and tells the member it was cut.';
    const logsBefore = h.logs().length;
    const seen = new Set<number>();
    const handle = await say(text);
    await wordsFromANewSession(seen);
    for (let rejoin = 1; rejoin <= SESSION_INVALID_REJOINS; rejoin++) {
      h.discord.closeVoiceSession(london.id, 4006);
      await wordsFromANewSession(seen);
    }
    const identifiesBefore = h.discord.voiceIdentifies(london.id);
    h.discord.closeVoiceSession(london.id, 4006);
    const reply = await handle.waitFor((r) => /^(Spoke|The reply was cut off)/.test(r.content ?? ''), 60_000);
    await expect.poll(() => h.discord.botVoiceChannel(london.id)).toBeNull();

    expect(reply.content).toMatch(/^The reply was cut off/);
    expect(h.discord.voiceIdentifies(london.id) - identifiesBefore).toBe(0);
    const lines = linesSince(logsBefore, '"code":"voice-session-invalid"');
    expect(lines).toHaveLength(SESSION_INVALID_REJOINS + 1);
    expect(lines.filter((line) => line.includes('giving up'))).toHaveLength(1);
    expect(lines.at(-1)).toContain('giving up');
    expect(h.discord.problems).toEqual([]);
  });
});
