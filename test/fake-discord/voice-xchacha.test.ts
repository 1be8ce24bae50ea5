import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from 'discord.js';
import { FakeDiscord, XCHACHA_MODE } from '@saybot/local-discord';
import { APP_ID, TOKEN, dominantHz, guildSpec, joinReady, loginClient, playOpus, sineOpusPackets, trustCertificate } from './helpers.ts';

const g = guildSpec(6);

describe('FakeDiscord voice offering only aead_xchacha20_poly1305_rtpsize (as real Discord may)', () => {
  let fake: FakeDiscord;
  let client: Client;

  beforeAll(async () => {
    // The transport layer alone (DAVE off); XChaCha + DAVE: dave-variants.test.ts.
    fake = await FakeDiscord.start({ token: TOKEN, applicationId: APP_ID, guilds: [g], encryptionModes: [XCHACHA_MODE], dave: 'off' });
    trustCertificate(fake.caCertificatePem);
    client = await loginClient(fake);
  });

  afterAll(async () => {
    await client?.destroy();
    await fake?.close();
  });

  it('the client selects xchacha (through @noble/ciphers) and a 330 Hz sine is heard', async () => {
    const connection = await joinReady(client, g.id, g.voiceChannels[0]!.id);
    try {
      await playOpus(connection, sineOpusPackets(330, 0.5));
      const heard = await fake.waitForAudio(g.id, { minSeconds: 0.45 });
      expect(heard.encryptionMode).toBe(XCHACHA_MODE);
      expect(heard.decryptFailures).toBe(0);
      expect(heard.seconds).toBeCloseTo(0.5, 1);
      expect(Math.abs(dominantHz(heard.pcm) - 330)).toBeLessThan(5);
    } finally {
      connection.destroy();
    }
    expect(fake.problems).toEqual([]);
  });
});
