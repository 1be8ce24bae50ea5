// The benchmarks' baseline (bufferResponses: download the whole response, then decode) must be the same bot
// path playing the same audio, or comparing time to first audio against it would mean nothing.
import { describe, expect, it } from 'vitest';
import { useFileHarness } from '../support/file-harness.ts';
import { defaultGuilds, pitchOf, runCommand } from '../support/harness.ts';
import { ALICE } from '../support/world.ts';

const london = defaultGuilds()[1]!;

// Paced, so that the body really arrives in pieces that the buffered path has to gather.
const h = useFileHarness({
  bufferResponses: true,
  config: { voiceIdleTimeoutMs: 60_000 },
  sandbox: { pacing: { realtimeFactor: 0.25, chunkBytes: 2048 } },
});

describe('/say with responses buffered before decoding', () => {
  for (const format of ['wav', 'mp3'] as const) {
    it(`plays a ${format} response in full, at the voice's pitch`, async () => {
      const text = `Buffered ${format} audio, played whole.`;
      const voice = 'voice-b-en-m-01';
      h.discord.clearAudio(london.id);
      const { handle } = await runCommand(h, {
        guildId: london.id,
        userId: ALICE,
        name: 'say',
        options: { text, voice, format },
      });
      await handle.waitFor((r) => (r.content ?? '').startsWith('Spoke'), 15_000);
      const heard = await h.discord.waitForAudio(london.id, { minSeconds: 0.5 });
      const expected = h.sandbox.expectedDurationSeconds(text);
      expect(heard.seconds).toBeGreaterThan(expected - 0.1);
      expect(heard.seconds).toBeLessThan(expected + 0.15);
      expect(heard.decodeFailures).toBe(0);
      expect(Math.abs((pitchOf(heard) ?? 0) - (h.sandbox.voicePitchHz(voice) ?? 0))).toBeLessThan(4);
    });
  }
});
