// The dashboard's guards, each attacked over HTTP against the real bot (its view of Discord), the local Discord's
// OAuth2 and the store: every attack here is refused, and each test fails without the guard it names.
import { readFileSync } from 'node:fs';
import { PermissionFlagsBits } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_SECRET, seoulWith, startDashboardHarness, type DashboardHarness } from '../../support/dashboard.ts';
import { runCommand } from '../../support/harness.ts';
import { LONDON, LONDON_TEXT, GENERAL, SEOUL } from '../../support/world.ts';

const MANAGER = '310000000000000001';
const MEMBER = '310000000000000002';
const SCRIPTED = '310000000000000003';
const LONDON_MANAGER = '310000000000000011';
const SCRIPT_NAME = '<img src=x onerror=alert(1)>';

let h: DashboardHarness;

/** The https proxy's address (DASHBOARD_TRUSTED_PROXY): apart from every test client's 127.0.<pid>.<n>. */
const PROXY = '127.0.251.1';

/** A third server, added while the bot runs, with one manager. */
const OTHER_GUILD = '200000000000000009';
const busanWith = (managerId: string) => ({
  id: OTHER_GUILD,
  name: 'Busan',
  textChannelId: '210000000000000009',
  voiceChannels: [{ id: '220000000000000009', name: 'busan-voice' }],
  members: [{ id: managerId, username: 'demoted', permissions: PermissionFlagsBits.ManageGuild }],
});

beforeAll(async () => {
  h = await startDashboardHarness({
    env: { DASHBOARD_TRUSTED_PROXY: PROXY },
    guilds: [
      seoulWith([
        { id: MANAGER, username: 'manager', permissions: PermissionFlagsBits.ManageGuild },
        { id: MEMBER, username: 'member' },
        { id: SCRIPTED, username: SCRIPT_NAME, permissions: PermissionFlagsBits.ManageGuild },
      ]),
      {
        id: LONDON,
        name: 'London',
        textChannelId: LONDON_TEXT,
        voiceChannels: [{ id: GENERAL, name: 'general' }],
        members: [{ id: LONDON_MANAGER, username: 'london-manager', permissions: PermissionFlagsBits.ManageGuild }],
      },
    ],
  });
}, 60_000);

afterAll(async () => {
  await h?.close();
});

const dictionary = (guildId: string) => `/servers/${guildId}/dictionary`;
const words = (guildId: string) => listed(guildId);
async function listed(guildId: string): Promise<string[]> {
  const { openSqliteStore } = await import('../../../src/app/store.ts');
  const store = openSqliteStore(h.databasePath);
  try {
    return (await store.dictionary.list(guildId)).map((entry) => ('word' in entry ? entry.word : entry.pattern));
  } finally {
    await store.close();
  }
}

describe('dashboard attacks', () => {
  it('logs in through Discord and lists only the servers SayBot sees the member in', async () => {
    const browser = h.client();
    const back = await browser.login(MANAGER);
    expect(back.status).toBe(303);
    const home = await browser.get('/');
    expect(home.body).toContain('Signed in as manager');
    expect(home.body).toContain(`/servers/${SEOUL}`);
    expect(home.body).not.toContain(`/servers/${LONDON}`);
  });

  it('refuses a change without the CSRF token, and takes it with the token', async () => {
    const browser = h.client();
    await browser.login(MANAGER);
    await browser.get(dictionary(SEOUL));
    const without = await browser.post(`${dictionary(SEOUL)}/add`, { word: 'nocsrf', reading: 'x' }, { csrf: null });
    expect(without.status).toBe(403);
    const forged = await browser.post(
      `${dictionary(SEOUL)}/add`,
      { word: 'nocsrf', reading: 'x' },
      { csrf: 'A'.repeat(43) },
    );
    expect(forged.status).toBe(403);
    expect(await words(SEOUL)).not.toContain('nocsrf');
    const taken = await browser.post(`${dictionary(SEOUL)}/add`, { word: 'withcsrf', reading: 'x' });
    expect(taken.status).toBe(200);
    expect(await words(SEOUL)).toContain('withcsrf');
  });

  it('refuses a change from another Origin or with none, token and session notwithstanding', async () => {
    const browser = h.client();
    await browser.login(MANAGER);
    await browser.get(dictionary(SEOUL));
    const other = await browser.post(
      `${dictionary(SEOUL)}/add`,
      { word: 'evilorigin', reading: 'x' },
      { origin: 'https://evil.example' },
    );
    expect(other.status).toBe(403);
    const none = await browser.post(`${dictionary(SEOUL)}/add`, { word: 'evilorigin', reading: 'x' }, { origin: null });
    expect(none.status).toBe(403);
    expect(await words(SEOUL)).not.toContain('evilorigin');
  });

  it("refuses another server's dictionary by its ID, to read or to change", async () => {
    await runCommand(h, {
      guildId: LONDON,
      userId: LONDON_MANAGER,
      name: 'dictionary',
      subcommand: 'add',
      options: { word: 'london', reading: 'x' },
    });
    const browser = h.client();
    await browser.login(MANAGER);
    await browser.get(dictionary(SEOUL));
    const read = await browser.get(dictionary(LONDON));
    expect(read.status).toBe(404);
    expect(read.body).not.toContain('london');
    const exported = await browser.get(`${dictionary(LONDON)}/export`);
    expect(exported.status).toBe(404);
    const write = await browser.post(`${dictionary(LONDON)}/remove`, { kind: 'word', word: 'london' });
    expect(write.status).toBe(404);
    expect(await words(LONDON)).toContain('london');
  });

  it('refuses a member without Manage Server the dictionary, to read or to change', async () => {
    const browser = h.client();
    await browser.login(MEMBER);
    const home = await browser.get(`/servers/${SEOUL}`);
    expect(home.status).toBe(200);
    expect(home.body).not.toContain('/dictionary');
    expect((await browser.get(dictionary(SEOUL))).status).toBe(403);
    const write = await browser.post(`${dictionary(SEOUL)}/add`, { word: 'bymember', reading: 'x' });
    expect(write.status).toBe(403);
    expect(await words(SEOUL)).not.toContain('bymember');
  });

  it('asks Discord again before a change: a manager whose role was taken away since is refused at once', async () => {
    const DEMOTED = '310000000000000004';
    h.discord.addGuild(busanWith(DEMOTED));
    await expect.poll(() => h.bot.client.guilds.cache.has(OTHER_GUILD), { timeout: 10_000 }).toBe(true);
    const browser = h.client();
    await browser.login(DEMOTED);
    expect((await browser.get(dictionary(OTHER_GUILD))).status).toBe(200);
    // Discord tells a bot of a member's roles changing only with the privileged Server Members intent: SayBot's
    // cache still holds the old roles, so only asking Discord again finds out.
    const world = (
      h.discord as unknown as { parts: { world: { guild(id: string): { members: Map<string, { roles: string[] }> } } } }
    ).parts.world;
    const member = world.guild(OTHER_GUILD).members.get(DEMOTED);
    if (member === undefined) throw new Error('no such member');
    member.roles = [];
    const refused = await browser.post(`${dictionary(OTHER_GUILD)}/add`, { word: 'demoted', reading: 'x' });
    expect(refused.status).toBe(403);
    expect(await words(OTHER_GUILD)).not.toContain('demoted');
  });

  it("closes the managers' pages at the next view when Discord says a role lost Manage Server", async () => {
    const EDITED = '310000000000000005';
    const guild = '200000000000000010';
    h.discord.addGuild({
      ...busanWith(EDITED),
      id: guild,
      name: 'Daegu',
      textChannelId: '210000000000000010',
      voiceChannels: [{ id: '220000000000000010', name: 'daegu-voice' }],
    });
    await expect.poll(() => h.bot.client.guilds.cache.has(guild), { timeout: 10_000 }).toBe(true);
    const browser = h.client();
    await browser.login(EDITED);
    expect((await browser.get(dictionary(guild))).status).toBe(200);
    // GUILD_ROLE_UPDATE comes with the Guilds intent SayBot has: the view trusted a minute is forgotten at once.
    const [role] = h.discord.memberRoles(guild, EDITED);
    if (role === undefined) throw new Error('no role');
    h.discord.setRolePermissions(guild, role, 0n);
    await expect.poll(async () => (await browser.get(dictionary(guild))).status, { timeout: 10_000 }).toBe(403);
  });

  it("shows a dictionary reading's script and a member's name as text", async () => {
    const browser = h.client();
    await browser.login(SCRIPTED);
    await browser.get(dictionary(SEOUL));
    const added = await browser.post(`${dictionary(SEOUL)}/add`, { word: 'xss', reading: '<script>alert(1)</script>' });
    expect(added.status).toBe(200);
    const page = await browser.get(`${dictionary(SEOUL)}?q=xss`);
    expect(page.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page.body).not.toContain('<script>alert(1)');
    expect(page.body).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(page.body).not.toContain(SCRIPT_NAME);
    expect(page.headers['content-security-policy']).toMatch(/script-src 'self'/);
    expect(page.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
    expect(page.headers['x-content-type-options']).toBe('nosniff');
  });

  it('serves the stylesheet and the scripts as the files of web/ are, cached an hour, under the CSP of a page', async () => {
    const browser = h.client();
    const page = await browser.get('/');
    const served = [
      ['/static/style.css', 'design.css', 'text/css; charset=utf-8'],
      ['/static/theme.js', 'theme.js', 'text/javascript; charset=utf-8'],
      ['/static/app.js', 'enhance.js', 'text/javascript; charset=utf-8'],
      ['/static/month.js', 'month-chart.js', 'text/javascript; charset=utf-8'],
    ];
    for (const [path, file, type] of served) {
      const answer = await browser.get(path!);
      expect(answer.status).toBe(200);
      expect(answer.headers['content-type']).toBe(type);
      expect(answer.headers['cache-control']).toBe('max-age=3600');
      expect(answer.headers['content-security-policy']).toBe(page.headers['content-security-policy']);
      expect(answer.body).toBe(
        readFileSync(new URL(`../../../src/features/dashboard/web/${file}`, import.meta.url), 'utf8'),
      );
    }
  });

  it('refuses a stolen session after logout, and every session after logout everywhere', async () => {
    const browser = h.client();
    await browser.login(MANAGER);
    const stolen = h.client();
    for (const [name, value] of browser.cookies) stolen.cookies.set(name, value);
    expect((await stolen.get('/')).body).toContain('Signed in as manager');
    await browser.post('/logout', {});
    const after = await stolen.get(dictionary(SEOUL));
    expect(after.status).toBe(303);
    stolen.csrf = browser.csrf;
    expect((await stolen.post(`${dictionary(SEOUL)}/add`, { word: 'stolen', reading: 'x' })).status).toBe(403);

    const phone = h.client();
    const laptop = h.client();
    await phone.login(MANAGER);
    await laptop.login(MANAGER);
    await laptop.get('/');
    expect((await laptop.post('/logout-everywhere', {})).status).toBe(200);
    expect((await phone.get('/')).body).not.toContain('Signed in');
    expect(await words(SEOUL)).not.toContain('stolen');
  });

  it('refuses a forged state, and a state without its cookie', async () => {
    const browser = h.client();
    await browser.get('/login');
    const code = h.discord.oauth2.issueCode({
      userId: MANAGER,
      redirectUri: `${h.url}/callback`,
      scopes: ['identify', 'guilds'],
    });
    const forged = await browser.get(`/callback?code=${code}&state=${'f'.repeat(43)}`);
    expect(forged.status).toBe(400);
    expect([...browser.cookies.keys()].some((name) => name.includes('session'))).toBe(false);
    const stranger = h.client();
    const noCookie = await stranger.get(`/callback?code=${code}&state=${'f'.repeat(43)}`);
    expect(noCookie.status).toBe(400);
    expect([...stranger.cookies.keys()].some((name) => name.includes('session'))).toBe(false);
  });

  it("refuses a victim's code brought to an attacker's login whose code_challenge was stripped (PKCE downgrade)", async () => {
    // The attacker starts a login (their state and verifier in their cookie) and removes the challenge from its
    // address; the victim's browser, signed in at Discord, opens it; the code leaks to the attacker's callback.
    const attacker = h.client();
    const start = await attacker.get('/login');
    const authorize = new URL(String(start.headers['location']));
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    authorize.searchParams.delete('code_challenge');
    authorize.searchParams.delete('code_challenge_method');
    h.discord.oauth2.signIn(MANAGER);
    h.discord.oauth2.preauthorize(MANAGER, ['identify', 'guilds']);
    try {
      const consent = await fetch(authorize, { redirect: 'manual' });
      const back = new URL(consent.headers.get('location') ?? '');
      expect(back.searchParams.has('code')).toBe(true);
      // SayBot sends its verifier, as always; Discord (here the local one) refuses it for a code bound to no challenge.
      const answer = await attacker.get(`${back.pathname}${back.search}`);
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect([...attacker.cookies.keys()].some((name) => name.includes('session'))).toBe(false);
    } finally {
      h.discord.oauth2.signIn(null);
    }
  });

  it("words a refused code as the login's own fault and Discord down as Discord's", async () => {
    const login = async () => {
      const browser = h.client();
      const start = await browser.get('/login');
      // A login's token is revoked after use, and Discord asks for consent again: the member gives it beforehand.
      h.discord.oauth2.preauthorize(MANAGER, ['identify', 'guilds']);
      const consent = await fetch(String(start.headers['location']), { redirect: 'manual' });
      const back = new URL(consent.headers.get('location') ?? '');
      return { browser, callback: `${back.pathname}${back.search}` };
    };
    h.discord.oauth2.signIn(MANAGER);
    try {
      // Discord down at the exchange: Discord's failure, and the code is not spent.
      const first = await login();
      h.discord.oauth2.failNext('token', 503);
      const down = await first.browser.get(first.callback);
      expect(down.status).toBe(502);
      expect(down.body).toContain('Discord did not answer as expected');
      // A code used once already, brought to another login of the same member (its own state and verifier): the
      // exchange is Discord's invalid_grant, the login's own fault.
      const second = await login();
      expect((await second.browser.get(second.callback)).status).toBe(303);
      const replay = await login();
      const code = new URL(second.callback, h.url).searchParams.get('code') ?? '';
      const state = new URL(replay.callback, h.url).searchParams.get('state') ?? '';
      const reused = await replay.browser.get(`/callback?code=${code}&state=${state}`);
      expect(reused.status).toBe(400);
      expect(reused.body).toContain('its code was not accepted');
      expect(reused.body).not.toContain('Discord did not answer');
    } finally {
      h.discord.oauth2.signIn(null);
    }
  });

  it('refuses an oversized body before reading it', async () => {
    const browser = h.client();
    await browser.login(MANAGER);
    await browser.get(dictionary(SEOUL));
    const big = await browser.post(`${dictionary(SEOUL)}/add`, { word: 'big', reading: 'x'.repeat(40_000) });
    expect(big.status).toBe(413);
    const huge = await browser.upload(`${dictionary(SEOUL)}/import`, { name: 'd.json', content: ' '.repeat(700_000) });
    expect(huge.status).toBe(413);
    expect(await words(SEOUL)).not.toContain('big');
  });

  it('refuses a login flood from one address, not from another', async () => {
    const flooder = h.client();
    const answers: number[] = [];
    for (let i = 0; i < 12; i += 1) answers.push((await flooder.get('/login')).status);
    expect(answers.slice(0, 10).every((status) => status === 302)).toBe(true);
    expect(answers.slice(10)).toEqual([429, 429]);
    expect((await h.client().get('/login')).status).toBe(302);
  });

  it("counts a login flood through the https proxy by the member's address, which no one else can forge", async () => {
    const proxy = h.client(PROXY);
    const through = (forwardedFor: string) =>
      proxy.get('/login', { 'x-forwarded-for': forwardedFor }).then((answer) => answer.status);
    const answers: number[] = [];
    for (let i = 0; i < 11; i += 1) answers.push(await through('203.0.113.7'));
    expect(answers.at(-1)).toBe(429);
    // The proxy appends the address it saw: what a client wrote before it is not the address.
    expect(await through('203.0.113.7, 198.51.100.9')).toBe(302);
    // Not from the proxy: X-Forwarded-For is the client's own writing, and counts for nothing.
    const spoofer = h.client();
    const spoofed: number[] = [];
    for (let i = 0; i < 11; i += 1)
      spoofed.push((await spoofer.get('/login', { 'x-forwarded-for': `198.51.100.${i}` })).status);
    expect(spoofed.at(-1)).toBe(429);
  });

  it("refuses a session's flood of changes past its limit a minute, and not another session's", async () => {
    const flooder = h.client();
    await flooder.login(MEMBER);
    await flooder.get(`/servers/${SEOUL}/myvoice`);
    const answers: number[] = [];
    for (let i = 0; i < 62; i += 1) answers.push((await flooder.post(`/servers/${SEOUL}/myvoice/clear`, {})).status);
    expect(answers.slice(0, 60).every((status) => status === 200)).toBe(true);
    expect(answers.slice(60)).toEqual([429, 429]);
    const other = h.client();
    await other.login(MEMBER);
    await other.get(`/servers/${SEOUL}/myvoice`);
    expect((await other.post(`/servers/${SEOUL}/myvoice/clear`, {})).status).toBe(200);
  });

  it('keeps secrets out of the log and the pages, and logs one audit line per change', async () => {
    const browser = h.client();
    await browser.login(MANAGER);
    const page = await browser.get(dictionary(SEOUL));
    await browser.post(`${dictionary(SEOUL)}/add`, { word: 'audited', reading: 'secret reading words' });
    // The access token was used for the login's two reads and revoked: none is left alive at Discord.
    expect(h.discord.oauth2.liveTokens(MANAGER)).toBe(0);
    const session = [...browser.cookies].find(([name]) => name.includes('session'))?.[1] ?? '';
    expect(session).toMatch(/^[\w-]{43}$/);
    const logs = h.logs();
    for (const secret of [CLIENT_SECRET, session]) {
      expect(logs).not.toContain(secret);
      expect(page.body).not.toContain(secret);
    }
    expect(logs).not.toContain('secret reading words');
    const audits = logs
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line['audit'] === 'dictionary.add' && line['userId'] === MANAGER);
    expect(audits.map((line) => line['guildId'])).toContain(SEOUL);
  });
});
