// The voice metrics carry the bot against the local Discord with a helper bot: a line spoken by the helper counts
// under its seat index, its connection under it too; no token in the scrape.
import { freePort } from '@saybot/local-discord';
import type { FakeGuildSpec } from '@saybot/local-discord';
import { describe, expect, it } from 'vitest';
import { runCommand, startHarness } from '../support/harness.ts';
import { sample } from '../support/prometheus.ts';

const GUILD = '200000000000000941';
const [LOUNGE, STUDY] = ['220000000000000941', '220000000000000942'];
const [ANN, BEN] = ['300000000000000941', '300000000000000942'];

const guild: FakeGuildSpec = {
  id: GUILD,
  name: 'Rooms',
  textChannelId: '210000000000000941',
  voiceChannels: [
    { id: LOUNGE, name: 'lounge' },
    { id: STUDY, name: 'study' },
  ],
  members: [
    { id: ANN, username: 'ann', voiceChannelId: LOUNGE, locale: 'en-US' },
    { id: BEN, username: 'ben', voiceChannelId: STUDY, locale: 'en-US' },
  ],
};

describe('metrics by bot', () => {
  it("counts a helper's line and connection under its seat index, the main bot's under 0; no token", async () => {
    const port = await freePort();
    const h = await startHarness({
      guilds: [guild],
      helpers: 1,
      config: { metricsPort: port, voiceIdleTimeoutMs: 60_000 },
    });
    try {
      const scrape = async () => (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
      await runCommand(h, { guildId: GUILD, userId: ANN, name: 'join' });
      const said = await runCommand(h, {
        guildId: GUILD,
        userId: BEN,
        name: 'say',
        options: { text: 'From the study.' },
      });
      await said.handle.waitFor((r) => (r.content ?? '').startsWith('Spoke'), 30_000);
      expect(h.discord.botVoiceChannel(GUILD, h.helpers[0]?.userId)).toBe(STUDY);
      const text = await scrape();
      expect(sample(text, 'saybot_time_to_first_audio_by_bot_seconds_count', { bot: '1' })).toBe(1);
      expect(sample(text, 'saybot_time_to_first_audio_by_bot_seconds_count', { bot: '0' })).toBeUndefined();
      expect(sample(text, 'saybot_voice_connections_by_bot', { bot: '0' })).toBe(1);
      expect(sample(text, 'saybot_voice_connections_by_bot', { bot: '1' })).toBe(1);
      expect(sample(text, 'saybot_voice_connections')).toBe(2);
      for (const token of [h.token, ...h.helpers.map((helper) => helper.token)]) expect(text).not.toContain(token);
    } finally {
      await h.close();
    }
  });
});
