import { getGroups, type VoiceConnection } from '@discordjs/voice';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { APP_ID, defaultGuilds, pitchOf, runCommand, startHarness, type Harness } from '../support/harness.ts';
import { ALICE, BOB, GENERAL, MINJI } from '../support/world.ts';

// The local Discord requires DAVE here, as Discord does since March 2026, with a network-like delay on every DAVE
// message: a bot that started sending at VoiceConnectionStatus.Ready would lose the start of its first reply.
const [seoul, london] = defaultGuilds() as [ReturnType<typeof defaultGuilds>[0], ReturnType<typeof defaultGuilds>[0]];
const FRAME_SECONDS = 0.02;

let h: Harness;

beforeAll(async () => {
  h = await startHarness({
    dave: { dave: 'required', daveCommitter: 'bot', daveHandshakeDelayMs: 60 },
    config: { voiceIdleTimeoutMs: 60_000, maxCharsPerRequest: 200 },
  });
});
afterEach(() => {
  if (h.discord.voiceChannelOf(london.id, BOB) !== null) h.discord.setVoiceState(london.id, BOB, null);
  expect(h.discord.problems).toEqual([]);
});
afterAll(async () => {
  await h?.close();
});

/** Leaves the guild's channel (as an idle timeout would) so that the next /say is a first join. */
async function leaveVoice(guildId: string): Promise<void> {
  h.bot.players.find(guildId)?.leave('test');
  await expect.poll(() => h.discord.botVoiceChannel(guildId)).toBeNull();
}

/**
 * Puts the bot in London's voice channel with its DAVE group formed, whatever an earlier test (in any order) left:
 * the tests that speak "in the channel already" start from here.
 */
async function inChannel(): Promise<void> {
  if (h.discord.botVoiceChannel(london.id) !== GENERAL)
    await runCommand(h, { guildId: london.id, userId: ALICE, name: 'join' });
  await h.discord.waitForDave(london.id, (s) => s.members.includes(APP_ID) && s.botEpoch === s.epoch);
}

/** The bot's voice connection in a guild (@discordjs/voice keeps one a guild in each bot's group). */
function botConnection(guildId: string): VoiceConnection {
  const found = [...getGroups().values()].flatMap((group) => {
    const connection = group.get(guildId);
    return connection ? [connection] : [];
  });
  expect(found).toHaveLength(1);
  return found[0] as VoiceConnection;
}

async function say(guildId: string, userId: string, text: string, voice: string) {
  h.discord.clearAudio(guildId);
  const { handle } = await runCommand(h, { guildId, userId, name: 'say', options: { text, voice } });
  return handle;
}

describe('/say with DAVE required', () => {
  it('a first join is heard from the first syllable: every frame end-to-end encrypted, full duration, right pitch', async () => {
    await leaveVoice(london.id);
    const text = 'First words after joining.';
    const voice = 'voice-b-en-m-01';
    const handle = await say(london.id, ALICE, text, voice);
    await handle.waitFor((r) => (r.content ?? '').startsWith('Spoke'), 60_000);
    const heard = await h.discord.waitForAudio(london.id, { minSeconds: 0.5 });

    expect(heard.dave).toBeDefined();
    expect(heard.dave?.plaintextFrames).toBe(0);
    expect(heard.dave?.plaintextAfterTransition).toBe(0);
    expect(heard.dave?.decryptFailures).toBe(0);
    // No lost start: what the listener heard is what the sandbox sent, to within one 20 ms frame.
    const sent = h.sandbox.expectedDurationSeconds(text);
    expect(Math.abs(heard.seconds - sent)).toBeLessThanOrEqual(FRAME_SECONDS + 1e-9);
    expect(Math.abs((pitchOf(heard) ?? 0) - (h.sandbox.voicePitchHz(voice) ?? 0))).toBeLessThan(4);
    const state = h.discord.daveState(london.id);
    expect(state?.members.sort()).toEqual([APP_ID, ALICE].sort());
  });

  it('in the channel already, a second reply is heard in full, encrypted', async () => {
    await inChannel();
    const text = 'Second reply.';
    const handle = await say(london.id, ALICE, text, 'voice-b-en-f-01');
    await handle.waitFor((r) => (r.content ?? '').startsWith('Spoke'), 60_000);
    const heard = await h.discord.waitForAudio(london.id, { minSeconds: 0.5 });
    expect(heard.dave?.plaintextFrames).toBe(0);
    expect(Math.abs(heard.seconds - h.sandbox.expectedDurationSeconds(text))).toBeLessThanOrEqual(FRAME_SECONDS + 1e-9);
  });

  it('two listeners both decrypt the whole reply', async () => {
    await inChannel();
    h.discord.setVoiceState(london.id, BOB, GENERAL);
    // Until the bot executes the transition it still sends with the previous epoch's keys (as every DAVE client does).
    await h.discord.waitForDave(london.id, (s) => s.members.includes(BOB) && s.botEpoch === s.epoch);
    const text = 'Both hear this.';
    const handle = await say(london.id, ALICE, text, 'voice-b-en-m-01');
    await handle.waitFor((r) => (r.content ?? '').startsWith('Spoke'), 60_000);
    const heard = await h.discord.waitForAudio(london.id, { minSeconds: 0.5 });
    expect(heard.dave?.plaintextFrames).toBe(0);
    const listeners = h.discord.daveState(london.id)?.listeners ?? [];
    const byId = new Map(listeners.map((l) => [l.userId, l]));
    for (const id of [ALICE, BOB]) {
      expect(byId.get(id)?.decrypted).toBeGreaterThanOrEqual(heard.dave?.e2eeFrames ?? Infinity);
      expect(byId.get(id)?.failures).toBe(0);
    }
  });

  it('a listener who joins mid-reply hears the rest after the new epoch, and nobody hears a glitch', async () => {
    await inChannel();
    const text = 'A reply long enough for someone to walk in to.';
    const handle = await say(london.id, ALICE, text, 'voice-b-en-f-01');
    await h.discord.waitForPacket(london.id, (p) => !p.silence);
    const before = h.discord.daveState(london.id)?.botEpoch ?? 0n;
    h.discord.setVoiceState(london.id, BOB, GENERAL);
    await h.discord.waitForDave(london.id, (s) => s.botEpoch > before && s.members.includes(BOB));
    await handle.waitFor((r) => (r.content ?? '').startsWith('Spoke'), 30_000);
    const heard = await h.discord.waitForAudio(london.id, { minSeconds: 1 });
    const bob = h.discord.daveState(london.id)?.listeners.find((l) => l.userId === BOB);
    expect(bob?.decrypted).toBeGreaterThan(0);
    expect(bob?.failures).toBe(0);
    expect(heard.dave?.plaintextAfterTransition).toBe(0);
    expect(heard.dave?.decryptFailures).toBe(0);
    expect(Math.abs(heard.seconds - h.sandbox.expectedDurationSeconds(text))).toBeLessThanOrEqual(FRAME_SECONDS + 1e-9);
  });

  it('a listener who joins mid-reply decrypts every frame sent after the bot executed the transition, even with its main thread held up right after it', async () => {
    await inChannel();
    const text = 'Half a second is sealed ahead as someone walks in.';
    const handle = await say(london.id, ALICE, text, 'voice-b-en-f-01');
    await h.discord.waitForPacket(london.id, (p) => !p.silence);
    const before = h.discord.daveState(london.id)?.botEpoch ?? 0n;
    // Keyed to the bot's own execute (after the sender's listener, added as the clip started): the local Discord marks
    // that moment in the order it receives frames, then the main thread is held up (a collection, a long task) before
    // it can hand the frames sealed again over. The frames sealed ahead with the old keys are still queued then.
    // The transition that welcomes Bob: on a busy host an earlier one (the bot's own group) may execute after this
    // listener is added, and is passed over.
    const atExecute = new Promise<Awaited<ReturnType<typeof h.discord.markVoice>>>((resolve) => {
      const connection = botConnection(london.id);
      const transitioned = () => {
        if (h.discord.daveState(london.id)?.members.includes(BOB) !== true) return;
        connection.off('transitioned', transitioned);
        resolve(h.discord.markVoice(london.id));
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 150);
      };
      connection.on('transitioned', transitioned);
    });
    h.discord.setVoiceState(london.id, BOB, GENERAL);
    const mark = await atExecute;
    await h.discord.waitForDave(london.id, (s) => s.botEpoch > before && s.members.includes(BOB));
    await handle.waitFor((r) => (r.content ?? '').startsWith('Spoke'), 30_000);
    const heard = await h.discord.waitForAudio(london.id, { minSeconds: 1 });
    const bobAtMark = mark?.listeners.find((l) => l.userId === BOB);
    const bob = h.discord.daveState(london.id)?.listeners.find((l) => l.userId === BOB);
    // Welcomed before the bot executed; every frame after that moment Bob (who never had the old keys) decrypted.
    expect(bobAtMark?.member).toBe(true);
    expect(bob?.decrypted).toBeGreaterThan(bobAtMark?.decrypted ?? Infinity);
    expect(bob?.beforeJoined).toBe(bobAtMark?.beforeJoined);
    expect(bob?.failures).toBe(0);
    expect(heard.dave?.decryptFailures).toBe(0);
    expect(Math.abs(heard.seconds - h.sandbox.expectedDurationSeconds(text))).toBeLessThanOrEqual(FRAME_SECONDS + 1e-9);
  });

  it('a listener who leaves mid-reply causes no decrypt failure for the one who stays', async () => {
    await inChannel();
    h.discord.setVoiceState(london.id, BOB, GENERAL);
    await h.discord.waitForDave(london.id, (s) => s.members.includes(BOB));
    const text = 'Someone leaves the room while this is being read.';
    const handle = await say(london.id, ALICE, text, 'voice-b-en-m-01');
    await h.discord.waitForPacket(london.id, (p) => !p.silence);
    h.discord.setVoiceState(london.id, BOB, null);
    await h.discord.waitForDave(london.id, (s) => !s.members.includes(BOB));
    await handle.waitFor((r) => (r.content ?? '').startsWith('Spoke'), 30_000);
    const heard = await h.discord.waitForAudio(london.id, { minSeconds: 1 });
    const alice = h.discord.daveState(london.id)?.listeners.find((l) => l.userId === ALICE);
    expect(alice?.failures).toBe(0);
    expect(heard.dave?.decryptFailures).toBe(0);
    expect(heard.dave?.plaintextAfterTransition).toBe(0);
    expect(Math.abs(heard.seconds - h.sandbox.expectedDurationSeconds(text))).toBeLessThanOrEqual(FRAME_SECONDS + 1e-9);
  });

  it('a cached reply replays encrypted and in full, without a request to the Voice API', async () => {
    const text = 'Twice, please.';
    const first = await say(london.id, ALICE, text, 'voice-b-en-f-01');
    await first.waitFor((r) => (r.content ?? '').startsWith('Spoke'), 60_000);
    await h.discord.waitForAudio(london.id, { minSeconds: 0.5 });
    const requests = h.sandbox.requests.length;
    await leaveVoice(london.id);
    const second = await say(london.id, ALICE, text, 'voice-b-en-f-01');
    await second.waitFor((r) => (r.content ?? '').startsWith('Spoke'), 60_000);
    const heard = await h.discord.waitForAudio(london.id, { minSeconds: 0.5 });
    expect(h.sandbox.requests.length).toBe(requests);
    expect(heard.dave?.plaintextFrames).toBe(0);
    expect(Math.abs(heard.seconds - h.sandbox.expectedDurationSeconds(text))).toBeLessThanOrEqual(FRAME_SECONDS + 1e-9);
  });
});

describe('voice failures with DAVE required', () => {
  it('proposals before clients-connect (@discordjs/voice throws on them) do not end the process: other guilds keep speaking, the guild is told once, and it speaks again after', async () => {
    await leaveVoice(london.id);
    h.discord.setDaveProposalsBeforeClientsConnect(london.id);
    try {
      const hit = await say(london.id, ALICE, 'Bad ordering in this guild.', 'voice-b-en-m-01');
      const other = await say(seoul.id, MINJI, '다른 서버는 계속 말합니다.', 'voice-b-ko-f-01');
      await other.waitFor((r) => (r.content ?? '').includes('말했습니다'), 60_000);
      const heardOther = await h.discord.waitForAudio(seoul.id, { minSeconds: 0.3 });
      expect(heardOther.dave?.plaintextFrames).toBe(0);
      // The guild's voice session is given up at once (no rejoin loop) and the requester is told.
      // After the characters its first part cost where the service counted them (it left beside the join).
      const final = await hit.waitFor(
        (r) => /^(The voice service counted \d+ characters[^.]*\. )?I could not join/.test(r.content ?? ''),
        30_000,
      );
      expect(final.content).toContain('<#220000000000000003>');
      expect(h.logs().split('"code":"voice-handler-error"')).toHaveLength(2);
    } finally {
      h.discord.setDaveProposalsBeforeClientsConnect(london.id, false);
    }
    const again = await say(london.id, ALICE, 'Fine again.', 'voice-b-en-m-01');
    await again.waitFor((r) => (r.content ?? '').startsWith('Spoke'), 60_000);
    const heard = await h.discord.waitForAudio(london.id, { minSeconds: 0.3 });
    expect(heard.dave?.plaintextFrames).toBe(0);
  });

  it('kicked mid-reply: the requester learns it was cut off and how much was heard; the next /say rejoins and is heard', async () => {
    const text = 'This reply will be interrupted by a moderator who removes the bot from the channel.';
    const handle = await say(london.id, ALICE, text, 'voice-b-en-f-01');
    // Half a second heard (25 frames), then a moderator removes the bot.
    await h.discord.waitForPacket(
      london.id,
      () => h.discord.heardPackets(london.id).filter((p) => !p.silence).length >= 25,
    );
    h.discord.setVoiceState(london.id, APP_ID, null);
    const cut = await handle.waitFor((r) => (r.content ?? '').startsWith('The reply was cut off'), 60_000);
    expect(cut.content).toMatch(/cut off after \d+\.\d s .*<#220000000000000003>/);
    expect(cut.content).not.toMatch(/Stopped/);
    const heardSeconds = Number(/after (\d+\.\d) s/.exec(cut.content ?? '')?.[1]);
    expect(heardSeconds).toBeGreaterThanOrEqual(0.5);
    expect(heardSeconds).toBeLessThan(h.sandbox.expectedDurationSeconds(text));
    expect(h.logs()).toContain('"code":"voice-connection-lost"');

    const again = await say(london.id, ALICE, 'Back again.', 'voice-b-en-m-01');
    await again.waitFor((r) => (r.content ?? '').startsWith('Spoke'), 60_000);
    const heard = await h.discord.waitForAudio(london.id, { minSeconds: 0.3 });
    expect(heard.dave?.plaintextFrames).toBe(0);
    expect(h.discord.botVoiceChannel(london.id)).toBe(GENERAL);
  });

  it('the voice server goes away mid-reply: the requester learns it was cut off and how much was heard; the next /say is heard', async () => {
    const text = 'This reply loses its voice server part of the way through, while the bot is still in the channel.';
    const handle = await say(london.id, ALICE, text, 'voice-b-en-m-01');
    await h.discord.waitForPacket(
      london.id,
      () => h.discord.heardPackets(london.id).filter((p) => !p.silence).length >= 25,
    );
    h.discord.dropVoiceServer(london.id);
    const cut = await handle.waitFor((r) => (r.content ?? '').startsWith('The reply was cut off'), 60_000);
    const heardSeconds = Number(/after (\d+\.\d) s/.exec(cut.content ?? '')?.[1]);
    expect(heardSeconds).toBeGreaterThanOrEqual(0.5);
    expect(heardSeconds).toBeLessThan(h.sandbox.expectedDurationSeconds(text));

    const again = await say(london.id, ALICE, 'And back.', 'voice-b-en-f-01');
    await again.waitFor((r) => (r.content ?? '').startsWith('Spoke'), 60_000);
    const heard = await h.discord.waitForAudio(london.id, { minSeconds: 0.3 });
    expect(heard.dave?.plaintextFrames).toBe(0);
  });
});
