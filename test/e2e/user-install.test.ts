// The user-installable app end to end: commands registered as the operator's USER_INSTALL says, and /say used in a
// DM (no guild, no member, app_permissions of a private channel) answered with a file, against the local Discord
// and the sandbox Voice API.
import { afterEach, describe, expect, it } from 'vitest';
import { t } from '../../src/bot/i18n.ts';
import { loadCommands } from '../../src/bot/interactions/command-loader.ts';
import { deployCommands } from '../../src/bot/interactions/deploy.ts';
import { APP_ID, startHarness, type Harness, type HarnessOptions } from '../support/harness.ts';

const GUILD = '200000000000000082';
const TEXT = '210000000000000082';
const VOICE = '220000000000000082';
const DANA = { id: '300000000000000081', username: 'dana' };
const ERIN = { id: '300000000000000082', username: 'erin' };

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function start(options: HarnessOptions & { registerForUsers: boolean }): Promise<Harness> {
  const { registerForUsers, ...rest } = options;
  harness = await startHarness({
    guilds: [{ id: GUILD, name: 'Elsewhere', textChannelId: TEXT, voiceChannels: [{ id: VOICE, name: 'v' }], members: [DANA, ERIN] }],
    ...rest,
  });
  // Registered as `npm start` does, global (only global commands can be user-installed).
  await deployCommands({ token: harness.token, clientId: APP_ID, apiBaseUrl: harness.discord.restUrl, commands: (await loadCommands()).values(), userInstall: registerForUsers });
  return harness;
}

const registered = (h: Harness, name: string) => (h.discord.registeredCommands() as Array<Record<string, unknown>>).find((c) => c.name === name);

describe('user-installable app', () => {
  it('registers /say and /emote for user installs and private channels, and answers /say in a DM with a file', async () => {
    const h = await start({ env: { USER_INSTALL: 'everyone' }, registerForUsers: true });
    for (const name of ['say', 'emote']) {
      expect(registered(h, name)).toMatchObject({ integration_types: [0, 1], contexts: [0, 1, 2] });
    }
    // A server-only command stays installed to servers only.
    expect(registered(h, 'autoread')?.integration_types).toEqual([0]);
    const from = h.sandbox.requests.length;
    const handle = await h.discord.privateCommand({ userId: DANA.id, name: 'say', context: 1, options: [{ name: 'text', value: 'Hello from a DM.' }] });
    const reply = await handle.waitFor((r) => r.files.length > 0, 20_000);
    expect(reply.content).toMatch(/^There is no voice channel here, so here is the audio as a file: /);
    expect(reply.files).toHaveLength(1);
    const file = reply.files[0];
    expect(file?.name).toMatch(/\.(wav|mp3)$/);
    // A real audio file, the length the sandbox speaks for that text.
    expect(file?.data.subarray(0, 4).toString('latin1')).toMatch(/^(RIFF|ID3)/);
    expect(h.sandbox.requests.slice(from).filter((r) => r.endpoint === 'tts').map((r) => r.text)).toEqual(['Hello from a DM.']);
    expect(handle.problems).toEqual([]);
    // Never posted anywhere but the interaction: no channel message, no DM by another route.
    expect(h.discord.channelMessages()).toEqual([]);
  });

  it('answers /emote in a group DM with a file from the emotion endpoint', async () => {
    const h = await start({ env: { USER_INSTALL: 'everyone' }, registerForUsers: true });
    const handle = await h.discord.privateCommand({ userId: ERIN.id, name: 'emote', context: 2, groupDm: true, locale: 'ko', options: [{ name: 'text', value: 'So happy!' }] });
    const reply = await handle.waitFor((r) => r.files.length > 0, 20_000);
    expect(reply.content?.startsWith(t('ko', 'userInstall.file', { voice: '', seconds: '', format: '' }).split(':')[0] ?? '')).toBe(true);
    expect(h.sandbox.requests.filter((r) => r.text === 'So happy!').map((r) => r.endpoint)).toEqual(['emotion-tts']);
  });

  it("holds each user to their own daily budget outside servers, refused before anything is paid", async () => {
    const h = await start({ env: { USER_INSTALL: 'everyone', BUDGET_MEMBER_DAILY_CHARS: '30', BUDGET_MEMBER_COOLDOWN_SECONDS: '0' }, registerForUsers: true });
    const say = async (userId: string, text: string) => {
      const handle = await h.discord.privateCommand({ userId, name: 'say', context: 2, options: [{ name: 'text', value: text }] });
      return handle.waitForFinal(20_000);
    };
    const first = await say(DANA.id, 'Twenty characters!!');
    expect(first.files).toHaveLength(1);
    const before = h.sandbox.requests.length;
    const second = await say(DANA.id, 'Twenty more characters.');
    expect(second.files).toHaveLength(0);
    expect(second.content).toMatch(/daily/i);
    expect(h.sandbox.requests.length).toBe(before);
    // Erin's budget is her own.
    const erin = await say(ERIN.id, 'Twenty more characters.');
    expect(erin.files).toHaveLength(1);
  });

  it('is not offered in DMs with USER_INSTALL=off, and a stale registration is answered with why, unpaid', async () => {
    const off = await start({ registerForUsers: false });
    expect(registered(off, 'say')?.integration_types ?? [0]).toEqual([0]);
    await expect(off.discord.privateCommand({ userId: DANA.id, name: 'say', context: 1, options: [{ name: 'text', value: 'hi' }] }))
      .rejects.toThrow(/not offered to user installs/);
    await off.close();
    // Registered for users by an earlier start, then switched off: Discord still delivers it; SayBot refuses.
    const stale = await start({ registerForUsers: true });
    const from = stale.sandbox.requests.length;
    const handle = await stale.discord.privateCommand({ userId: DANA.id, name: 'say', context: 1, locale: 'ja', options: [{ name: 'text', value: 'hi' }] });
    const reply = await handle.waitForFinal(10_000);
    expect(reply.content).toBe(t('ja', 'userInstall.off'));
    expect(reply.files).toEqual([]);
    expect(stale.sandbox.requests.length).toBe(from);
  });

  it('with an allow-list, answers only the users on it', async () => {
    const h = await start({ env: { USER_INSTALL: 'allowlist', USER_INSTALL_ALLOWLIST: DANA.id }, registerForUsers: true });
    const refused = await (await h.discord.privateCommand({ userId: ERIN.id, name: 'say', context: 1, options: [{ name: 'text', value: 'hi' }] })).waitForFinal(10_000);
    expect(refused.content).toBe(t('en-US', 'userInstall.notAllowed'));
    const allowed = await (await h.discord.privateCommand({ userId: DANA.id, name: 'say', context: 1, options: [{ name: 'text', value: 'Hello.' }] })).waitForFinal(20_000);
    expect(allowed.files).toHaveLength(1);
  });
});
