// The Scenes page's endpoints over HTTP against the real bot: a change without the member's session, Origin or CSRF
// token is refused before anything is read or spoken; a server's scenes are its members' alone; a scene played in
// voice needs the member there; a saved scene is replaced only by whoever saved it (or a manager), as /scene save.
import { PermissionFlagsBits } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seoulWith, startDashboardHarness, type DashboardHarness } from '../../support/dashboard.ts';
import { LONDON, LONDON_TEXT, GENERAL, LOUNGE, SEOUL } from '../../support/world.ts';
import { Events } from 'discord.js';
import { t } from '../../../src/core/i18n/catalogue.ts';

const MANAGER = '320000000000000001';
const MEMBER = '320000000000000002';
const OTHER = '320000000000000003';
const MUTED = '320000000000000004';
const STRANGER = '320000000000000011';

const SCRIPT = 'cast: Ann = voice-b-en-f-01, Ben = voice-b-en-m-01\nAnn: Hello there.\nBen: Hello to you.';
const scenes = (guildId: string) => `/servers/${guildId}/scenes`;

let h: DashboardHarness;

beforeAll(async () => {
  h = await startDashboardHarness({
    guilds: [
      seoulWith(
        [
          { id: MANAGER, username: 'manager', permissions: PermissionFlagsBits.ManageGuild },
          { id: MEMBER, username: 'member' },
          { id: OTHER, username: 'other' },
          { id: MUTED, username: 'muted', voiceChannelId: LOUNGE },
        ],
        'en-US',
      ),
      {
        id: LONDON,
        name: 'London',
        textChannelId: LONDON_TEXT,
        voiceChannels: [{ id: GENERAL, name: 'general' }],
        members: [{ id: STRANGER, username: 'stranger' }],
      },
    ],
  });
}, 60_000);

afterAll(async () => {
  await h?.close();
});

const ttsRequests = () => h.sandbox.requests.filter((r) => r.endpoint === 'tts' || r.endpoint === 'emotion-tts').length;

describe('the scene endpoints', () => {
  it('check a script with the same parser as /scene: the error on its line, in the member language', async () => {
    const client = h.client();
    await client.login(MEMBER);
    await client.get(scenes(SEOUL));
    const bad = await client.postJson(`${scenes(SEOUL)}/check`, { script: 'Ann: Hi.\n[pause 99s]\nBen: Bye.' });
    expect(bad.status).toBe(200);
    const answer = JSON.parse(bad.body) as { ok: boolean; line: number; error: string };
    expect(answer.ok).toBe(false);
    expect(answer.line).toBe(2);
    const good = JSON.parse((await client.postJson(`${scenes(SEOUL)}/check`, { script: SCRIPT })).body) as unknown;
    expect(good).toEqual({
      ok: true,
      lines: 2,
      speakers: 2,
      read: [
        { line: 1, kind: 'cast' },
        { line: 2, kind: 'turn', speaker: 'Ann' },
        { line: 3, kind: 'turn', speaker: 'Ben' },
      ],
    });
  });

  it('refuses a change without the CSRF token, from another Origin, or without a session; nothing is spoken', async () => {
    const client = h.client();
    await client.login(MEMBER);
    await client.get(scenes(SEOUL));
    const before = ttsRequests();
    const make = `${scenes(SEOUL)}/make`;
    const order = { script: SCRIPT, quoted: 1000 };
    expect((await client.postJson(make, order, { csrf: null })).status).toBe(403);
    expect((await client.postJson(make, order, { csrf: 'x'.repeat(43) })).status).toBe(403);
    expect((await client.postJson(make, order, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await client.postJson(`${scenes(SEOUL)}/save`, { script: SCRIPT, name: 'x' }, { csrf: null })).status).toBe(
      403,
    );
    const anonymous = h.client();
    expect((await anonymous.postJson(make, order, { csrf: client.csrf })).status).toBe(403);
    expect(ttsRequests()).toBe(before);
  });

  it("a server's scenes are its members' alone: another server's member is answered 'no such page'", async () => {
    const client = h.client();
    await client.login(STRANGER);
    await client.get('/');
    expect((await client.get(scenes(SEOUL))).status).toBe(404);
    const before = ttsRequests();
    expect((await client.postJson(`${scenes(SEOUL)}/make`, { script: SCRIPT, quoted: 1000 })).status).toBe(404);
    expect((await client.postJson(`${scenes(SEOUL)}/quote`, { script: SCRIPT })).status).toBe(404);
    expect(ttsRequests()).toBe(before);
  });

  it('plays in voice only for a member sitting in a voice channel, before anything is paid', async () => {
    const client = h.client();
    await client.login(OTHER);
    await client.get(scenes(SEOUL));
    const before = ttsRequests();
    const played = await client.postJson(`${scenes(SEOUL)}/play`, { script: SCRIPT, quoted: 1000 });
    expect(played.status).toBe(400);
    expect((JSON.parse(played.body) as { error: string }).error).toMatch(/voice channel/i);
    expect(ttsRequests()).toBe(before);
  });

  it('refuses a server-muted member in voice as /scene does, before anything is paid', async () => {
    const seen = new Promise<void>((resolve) => {
      const listener = (_before: unknown, after: { id: string }) => {
        if (after.id !== MUTED) return;
        h.bot.client.off(Events.VoiceStateUpdate, listener);
        resolve();
      };
      h.bot.client.on(Events.VoiceStateUpdate, listener);
    });
    h.discord.setVoiceState(SEOUL, MUTED, LOUNGE, { mute: true });
    await seen;
    const client = h.client();
    await client.login(MUTED);
    await client.get(scenes(SEOUL));
    const before = ttsRequests();
    const played = await client.postJson(`${scenes(SEOUL)}/play`, { script: SCRIPT, quoted: 1000 });
    expect(played.status).toBe(400);
    expect((JSON.parse(played.body) as { error: string }).error).toBe(
      t('en-US', 'error.voice.memberMuted', { channel: '#lounge' }),
    );
    expect(ttsRequests()).toBe(before);
  });

  it('never pays more than the price pressed: a lower quote is answered with the new price, nothing spoken', async () => {
    const client = h.client();
    await client.login(MEMBER);
    await client.get(scenes(SEOUL));
    const before = ttsRequests();
    const script = 'cast: Ann = voice-b-en-f-01\nAnn: A line that nobody has made before, priced first.';
    const answer = await client.postJson(`${scenes(SEOUL)}/make`, { script, quoted: 3 });
    const shown = JSON.parse(answer.body) as { priceChanged?: boolean; quote?: { characters: number } };
    expect(shown.priceChanged).toBe(true);
    expect(shown.quote?.characters).toBe('A line that nobody has made before, priced first.'.length);
    expect(ttsRequests()).toBe(before);
  });

  it('saves as /scene save: only whoever saved a scene, or a manager, replaces it', async () => {
    const member = h.client();
    await member.login(MEMBER);
    await member.get(scenes(SEOUL));
    const saved = await member.post(`${scenes(SEOUL)}/save`, { name: 'Morning', script: SCRIPT });
    expect(saved.status).toBe(200);
    expect(saved.body).toContain('Saved the scene &quot;Morning&quot; (2 lines).');
    const other = h.client();
    await other.login(OTHER);
    await other.get(scenes(SEOUL));
    const refused = await other.post(`${scenes(SEOUL)}/save`, { name: 'morning', script: 'Ann: Mine now.' });
    expect(refused.status).toBe(400);
    const manager = h.client();
    await manager.login(MANAGER);
    await manager.get(scenes(SEOUL));
    const replaced = await manager.post(`${scenes(SEOUL)}/save`, { name: 'Morning', script: 'Ann: Replaced.' });
    expect(replaced.body).toContain('Replaced the scene &quot;Morning&quot; (1 line).');
    const opened = await other.get(`${scenes(SEOUL)}?open=morning`);
    expect(opened.body).toContain('Ann: Replaced.');
  });
});
