// A scene the studio plays in voice on a helper's seat is held to that helper's own voice state before each part, as
// /say is: a helper server-muted mid-scene is heard by nobody (and named), so nothing more of the scene is asked for.
import { PermissionFlagsBits } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDashboardHarness, type DashboardHarness } from '../../support/dashboard.ts';
import { runCommand } from '../../support/harness.ts';

const GUILD = '200000000000000951';
const TEXT = '210000000000000951';
const [LOUNGE, STUDY] = ['220000000000000951', '220000000000000952'];
const [ANN, BEN] = ['300000000000000951', '300000000000000952'];
const LINES = ['The first line of the studio scene is spoken.', 'The second line must never be asked for.'];
const SCRIPT = `cast: Ann = voice-b-en-f-01\nAnn: ${LINES[0]}\nAnn: ${LINES[1]}`;

let h: DashboardHarness;

beforeAll(async () => {
  h = await startDashboardHarness({
    helpers: 1,
    config: { voiceIdleTimeoutMs: 60_000 },
    guilds: [
      {
        id: GUILD,
        name: 'Rooms',
        textChannelId: TEXT,
        voiceChannels: [
          { id: LOUNGE, name: 'lounge' },
          { id: STUDY, name: 'study' },
        ],
        members: [
          { id: ANN, username: 'ann', voiceChannelId: LOUNGE, locale: 'en-US' },
          {
            id: BEN,
            username: 'ben',
            voiceChannelId: STUDY,
            locale: 'en-US',
            permissions: PermissionFlagsBits.ViewChannel,
          },
        ],
      },
    ],
  });
}, 60_000);

afterAll(async () => {
  await h?.close();
});

describe('a studio scene on a helper seat', () => {
  it('stops once the helper is server-muted: the next line is never asked for', async () => {
    // The main bot sits with Ann in the lounge (she listens there), so Ben's scene plays on the helper in the study.
    await runCommand(h, { guildId: GUILD, userId: ANN, name: 'join' });
    await expect.poll(() => h.discord.botVoiceChannel(GUILD)).toBe(LOUNGE);
    const helper = h.helpers[0]!;
    h.sandbox.injectFault({ kind: 'hold-after-charge', endpoint: 'tts' });
    const client = h.client();
    await client.login(BEN);
    await client.get(`/servers/${GUILD}/scenes`);
    const played = client.postJson(`/servers/${GUILD}/scenes/play`, { script: SCRIPT, quoted: 1000 });
    await expect.poll(() => h.sandbox.requests.some((r) => r.text === LINES[0] && r.outcome === 'held')).toBe(true);
    expect(h.discord.botVoiceChannel(GUILD, helper.userId)).toBe(STUDY);
    h.discord.setVoiceState(GUILD, helper.userId, STUDY, { mute: true });
    h.sandbox.resumePaused();
    const answer = await played;
    // Told as /say tells it: nobody hears the helper there, and what was asked of the service counts as spent.
    expect(answer.status).toBe(400);
    const { error } = JSON.parse(answer.body) as { error: string };
    // The helper named, as /say names it, but as its name: a browser does not render a mention.
    expect(error).toMatch(/^Nobody can hear @SayBot 2 in #study any more/);
    expect(error).toContain('counts as spent');
    expect(h.sandbox.requests.some((r) => r.text === LINES[1])).toBe(false);
  });
});
