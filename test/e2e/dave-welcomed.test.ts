import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { APP_ID, defaultGuilds, pitchOf, runCommand, startHarness, type Harness } from '../support/harness.ts';
import { ALICE, BOB, GENERAL } from '../support/world.ts';

// Listeners who were talking before the bot came already have a DAVE group: the bot is welcomed into it (op 30)
// instead of committing, over the XChaCha20-Poly1305 transport that real Discord may offer alone.
const [, london] = defaultGuilds() as [ReturnType<typeof defaultGuilds>[0], ReturnType<typeof defaultGuilds>[0]];
const FRAME_SECONDS = 0.02;
const XCHACHA = 'aead_xchacha20_poly1305_rtpsize';

let h: Harness;

beforeAll(async () => {
  h = await startHarness({
    encryptionModes: [XCHACHA],
    dave: { dave: 'required', daveCommitter: 'listener', daveHandshakeDelayMs: 60 },
    config: { voiceIdleTimeoutMs: 60_000 },
  });
});
afterEach(() => {
  expect(h.discord.problems).toEqual([]);
});
afterAll(async () => {
  await h?.close();
});

describe("/say when the bot is welcomed into the listeners' DAVE group (XChaCha transport)", () => {
  it("is heard from the first syllable, at the voice's pitch, by both listeners, with every frame end-to-end encrypted", async () => {
    h.discord.setVoiceState(london.id, BOB, GENERAL);
    h.discord.clearAudio(london.id);
    const text = 'Welcomed into a group that already existed.';
    const voice = 'voice-b-en-f-01';
    const { handle } = await runCommand(h, {
      guildId: london.id,
      userId: ALICE,
      name: 'say',
      options: { text, voice },
    });
    await handle.waitFor((r) => (r.content ?? '').startsWith('Spoke'), 60_000);
    const heard = await h.discord.waitForAudio(london.id, { minSeconds: 0.5 });

    expect(heard.encryptionMode).toBe(XCHACHA);
    expect(heard.dave?.plaintextFrames).toBe(0);
    expect(heard.dave?.decryptFailures).toBe(0);
    expect(Math.abs(heard.seconds - h.sandbox.expectedDurationSeconds(text))).toBeLessThanOrEqual(FRAME_SECONDS + 1e-9);
    expect(Math.abs((pitchOf(heard) ?? 0) - (h.sandbox.voicePitchHz(voice) ?? 0))).toBeLessThan(4);
    const state = h.discord.daveState(london.id);
    expect(state?.members.sort()).toEqual([APP_ID, ALICE, BOB].sort());
    for (const listener of state?.listeners ?? []) {
      expect(listener.decrypted).toBeGreaterThanOrEqual(heard.dave?.e2eeFrames ?? Infinity);
      expect(listener.failures).toBe(0);
    }
  });
});
