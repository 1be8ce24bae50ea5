import { describe, expect, it } from 'vitest';
import { XCHACHA_MODE } from '@saybot/local-discord';
import { dominantHz, guildSpec, joinReady, playOpus, sineOpusPackets, useLoggedInClient } from './helpers.ts';

const g = guildSpec(6);

describe('FakeDiscord voice offering only aead_xchacha20_poly1305_rtpsize (as real Discord may)', () => {
  // The transport layer alone (DAVE off); XChaCha + DAVE: dave-variants.test.ts.
  const rig = useLoggedInClient({ guilds: [g], encryptionModes: [XCHACHA_MODE], dave: 'off' });

  it('the client selects xchacha (through @noble/ciphers) and a 330 Hz sine is heard', async () => {
    const connection = await joinReady(rig.client, g.id, g.voiceChannels[0]!.id);
    try {
      await playOpus(connection, sineOpusPackets(330, 0.5));
      const heard = await rig.fake.waitForAudio(g.id, { minSeconds: 0.45 });
      expect(heard.encryptionMode).toBe(XCHACHA_MODE);
      expect(heard.decryptFailures).toBe(0);
      expect(heard.seconds).toBeCloseTo(0.5, 1);
      expect(Math.abs(dominantHz(heard.pcm) - 330)).toBeLessThan(5);
    } finally {
      connection.destroy();
    }
    expect(rig.fake.problems).toEqual([]);
  });
});
