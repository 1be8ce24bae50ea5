// The owner console over HTTP against the real bot, the local Discord and the sandbox: refused, saying nothing, to a
// member, a manager of one server and a stranger, and to the owner without the CSRF token or from another origin;
// for the application's owner (and OWNER_IDS) a server's month and top spender as /usage counts them, the key's last
// error after a sandbox fault, `npm run doctor`'s checks run from the page, leaving a server behind its confirmation,
// and no secret anywhere on the page. Then the page in a real browser.
import { PermissionFlagsBits } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { describeInBrowser, logInByRequest, useBrowser } from '../../support/browser.ts';
import { CLIENT_SECRET, seoulWith, signedIn, useDashboard, type DashboardClient } from '../../support/dashboard.ts';
import { APP_ID, runCommand } from '../../support/harness.ts';
import { SEOUL } from '../../support/world.ts';

const OWNER = '370000000000000001';
const NAMED_OWNER = '370000000000000002';
const MANAGER = '370000000000000003';
const MEMBER = '370000000000000004';

const h = useDashboard({
  guilds: [
    seoulWith(
      [
        { id: OWNER, username: 'owner' },
        { id: NAMED_OWNER, username: 'co-owner' },
        { id: MANAGER, username: 'manager', permissions: PermissionFlagsBits.ManageGuild },
        { id: MEMBER, username: 'spender' },
      ],
      'en-US',
    ),
  ],
  discord: { applicationOwnerId: OWNER, botPublic: true },
  // The default bot-wide budget (the harness's own is none): nine tenths of the creator plan.
  env: { OWNER_IDS: NAMED_OWNER, BUDGET_BOT_MONTHLY_CHARS: '270000' },
});

/** A server added while the bot runs, for the test that leaves one (the others keep Seoul whatever the order). */
let nextServer = 0;
async function addServer(members = [{ id: MEMBER, username: 'spender' }]): Promise<{ id: string; name: string }> {
  nextServer += 1;
  const id = `20000000000000009${nextServer}`;
  const name = `Leaving ${nextServer}`;
  h.discord.addGuild({
    id,
    name,
    textChannelId: `21000000000000009${nextServer}`,
    voiceChannels: [{ id: `22000000000000009${nextServer}`, name: 'voice' }],
    members,
  });
  await expect.poll(() => h.bot.client.guilds.cache.has(id), { timeout: 10_000 }).toBe(true);
  return { id, name };
}

const unescape = (text: string) =>
  text.replaceAll('&quot;', '"').replaceAll('&#39;', "'").replaceAll('&amp;', '&').replaceAll('&lt;', '<');

/** "No such page" as this client gets it for a path that never existed: what every refusal must look like. */
async function notFoundOf(client: DashboardClient): Promise<string> {
  const answer = await client.get('/no-such-page');
  expect(answer.status).toBe(404);
  return answer.body;
}

describe('the owner console', () => {
  it('refuses a stranger, a member and a manager of one server with the same "no such page", to read or change', async () => {
    const leaving = await addServer();
    const stranger = h.client();
    const strangerNotFound = await notFoundOf(stranger);
    for (const path of ['/owner', '/owner?page=2', `/owner/servers/${leaving.id}/leave`]) {
      const answer = await stranger.get(path);
      expect(answer.status).toBe(404);
      expect(answer.body).toBe(strangerNotFound);
    }
    for (const userId of [MEMBER, MANAGER]) {
      const client = await signedIn(h, userId, '/');
      const notFound = await notFoundOf(client);
      expect((await client.get('/')).body).not.toContain('/owner');
      for (const path of ['/owner', `/owner/servers/${leaving.id}/leave`]) {
        const answer = await client.get(path);
        expect(answer.status).toBe(404);
        expect(answer.body).toBe(notFound);
      }
      // With a valid session, the dashboard's origin and the member's own CSRF token: still nothing.
      for (const [path, fields] of [
        ['/owner/doctor', {}],
        [`/owner/servers/${leaving.id}/leave`, { confirm: leaving.id }],
      ] as const) {
        const answer = await client.post(path, fields);
        expect(answer.status).toBe(404);
        expect(answer.body).toBe(notFound);
      }
    }
    expect(h.bot.client.guilds.cache.has(leaving.id)).toBe(true);
    expect(h.logs()).not.toMatch(new RegExp(`"audit":"owner\\.\\w+","userId":"(${MEMBER}|${MANAGER})"`));
  });

  it("refuses the owner's changes without the CSRF token or from another origin", async () => {
    const leaving = await addServer();
    const owner = await signedIn(h, OWNER, `/owner/servers/${leaving.id}/leave`);
    const path = `/owner/servers/${leaving.id}/leave`;
    expect((await owner.post(path, { confirm: leaving.id }, { csrf: null })).status).toBe(403);
    expect((await owner.post(path, { confirm: leaving.id }, { csrf: 'A'.repeat(43) })).status).toBe(403);
    expect((await owner.post(path, { confirm: leaving.id }, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await owner.post(path, { confirm: leaving.id }, { origin: null })).status).toBe(403);
    expect((await owner.post('/owner/doctor', {}, { csrf: null })).status).toBe(403);
    expect(h.bot.client.guilds.cache.has(leaving.id)).toBe(true);
    // Unconfirmed (no confirmation, or another server's ID): refused, and SayBot stays.
    const unconfirmed = await owner.post(path, {});
    expect(unconfirmed.status).toBe(400);
    expect(unescape(unconfirmed.body)).toContain('Leaving a server needs its confirmation');
    expect((await owner.post(path, { confirm: SEOUL })).status).toBe(400);
    expect(h.bot.client.guilds.cache.has(leaving.id)).toBe(true);
  });

  it("shows the owner a server's month and top spender as /usage counts them, and the plan with its reserve", async () => {
    await runCommand(h, { guildId: SEOUL, userId: MEMBER, name: 'say', options: { text: 'Owner, see me spend.' } });
    const usage = await runCommand(h, { guildId: SEOUL, userId: OWNER, name: 'usage', locale: 'en-US' });
    const spent = /This server: ([\d,]+) characters spent/.exec(usage.content)?.[1];
    expect(Number(spent?.replaceAll(',', ''))).toBeGreaterThan(0);
    // The application's owner sees the whole plan in /usage: so does the console, in the same words.
    const wholeBot = usage.content.split('\n').find((line) => line.startsWith('Whole bot:'));
    expect(wholeBot).toBeDefined();

    for (const userId of [OWNER, NAMED_OWNER]) {
      const owner = await signedIn(h, userId, '/');
      expect((await owner.get('/')).body).toContain('href="/owner"');
      const page = await owner.get('/owner');
      expect(page.status).toBe(200);
      const text = unescape(page.body);
      const row = /<tr>\s*<th scope="row">Seoul[\s\S]*?<\/tr>/.exec(text)?.[0] ?? '';
      expect(row).toContain(`${spent} spent`);
      expect(row).toContain('spender: ');
      expect(row).toContain(`/owner/servers/${SEOUL}/leave`);
      expect(text).toContain(wholeBot?.replaceAll('**', ''));
      // The creator plan (300,000) less the bot-wide budget (nine tenths): 30,000 in reserve.
      expect(text).toContain('Kept in reserve for your own use: 30,000 characters of the 300,000');
      // Public Bot as the local Discord's application says it, with no ALLOWED_GUILDS: the owner is warned.
      expect(text).toMatch(/<p id="public-bot" role="alert">\s*Public Bot is on and ALLOWED_GUILDS is not set/);
      expect(text).toContain('eSpeak NG installed: yes.');
      expect(text).toMatch(/Since SayBot started: [\d,]+ hits?, [\d,]+ miss(es)?\b/);
    }
  });

  it('opens with a summary row: the plan as /usage counts it (a meter of it), the servers, each figure a link to its part; and the install link', async () => {
    await runCommand(h, { guildId: SEOUL, userId: MEMBER, name: 'say', options: { text: 'Counted in the summary.' } });
    const usage = await runCommand(h, { guildId: SEOUL, userId: OWNER, name: 'usage', locale: 'en-US' });
    const whole = /Whole bot: ([\d,]+) of ([\d,]+) used[^,]*, ([\d,]+) left/.exec(usage.content);
    expect(whole).not.toBeNull();
    const owner = await signedIn(h, OWNER, '/owner');
    const text = unescape((await owner.get('/owner')).body);
    const summary =
      /<section class="glance glance-row" aria-labelledby="summary-title">[\s\S]*?<\/section>/.exec(text)?.[0] ?? '';
    // The summary comes before the details.
    expect(text.indexOf('summary-title')).toBeLessThan(text.indexOf('id="plan"'));
    const item = (id: string) => new RegExp(`id="glance-${id}-item">([\\s\\S]*?)</li>`).exec(summary)?.[1] ?? '';
    const plan = item('plan');
    expect(plan).toContain('<a class="glance-link" href="#plan">');
    expect(plan).toContain(`<span class="glance-value">${whole?.[1]} used</span>`);
    expect(plan).toContain(`<span class="glance-detail">of ${whole?.[2]}, ${whole?.[3]} left</span>`);
    const number = (value: string | undefined) => Number(value?.replaceAll(',', ''));
    expect(plan).toMatch(new RegExp(`<meter[^>]*max="${number(whole?.[2])}"[^>]*value="${number(whole?.[1])}"`));
    const servers = (await h.bot.client.rest.get('/users/@me/guilds')) as unknown[];
    expect(item('servers')).toContain(`<span class="glance-value">${servers.length}</span>`);
    for (const [id, part] of [
      ['servers', 'servers'],
      ['key', 'key'],
      ['cache', 'cache'],
      ['free', 'free-voice'],
    ] as const) {
      expect(item(id)).toContain(`href="#${part}"`);
      expect(text).toContain(`id="${part}"`);
    }
    // The key answered (the /say above): its last answer, and when.
    expect(item('key')).toMatch(/<span class="glance-value">Accepted<\/span>[\s\S]*Last answer \d{4}-\d\d-\d\d/);
    expect(item('cache')).toMatch(/<span class="glance-value">(\d+\.\d %|No lookups yet)<\/span>/);
    // The install link: the application's, with the scopes and rights of the owners' guide, on the local Discord.
    const install = /<a class="button primary" id="install-link" href="([^"]*)"/.exec(text)?.[1] ?? '';
    const url = new URL(install);
    expect(url.origin).toBe(new URL(h.discord.restUrl).origin);
    expect(url.pathname).toBe('/oauth2/authorize');
    expect(url.searchParams.get('client_id')).toBe(APP_ID);
    expect(url.searchParams.get('scope')).toBe('bot applications.commands');
    expect(url.searchParams.get('permissions')).toBe('70368747359232');
  });

  it("shows the key's last refusal after the service answered 401, with when and where", async () => {
    const owner = await signedIn(h, OWNER, '/owner');
    h.sandbox.injectFault({
      kind: 'service-error',
      status: 401,
      endpoint: 'tts',
      body: JSON.stringify({ error: { code: 'invalid_api_key', message: 'the API key is not valid' } }),
      contentType: 'application/json',
    });
    const before = Date.now();
    await runCommand(h, { guildId: SEOUL, userId: MEMBER, name: 'say', options: { text: 'A refused key here.' } });
    const text = unescape((await owner.get('/owner')).body);
    const refused = /<dt>Last refused[^<]*<\/dt>\s*<dd>([^<]*)<\/dd>/.exec(text)?.[1] ?? '';
    expect(refused).toMatch(/^401 at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC, tts, request req_\w+$/);
    const at = Date.parse(refused.replace(/^401 at (\S+) (\S+) UTC.*$/, '$1T$2Z'));
    expect(at).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
  });

  it("runs npm run doctor's checks from the page, and shows no secret", async () => {
    const owner = await signedIn(h, OWNER, '/owner');
    // Post/Redirect/Get: the press answers with the console's own address, so a reload does not run them again.
    const pressed = await owner.post('/owner/doctor', {});
    expect(pressed.status).toBe(303);
    expect(pressed.headers['location']).toBe('/owner#doctor');
    const ran = await owner.get('/owner');
    expect(ran.status).toBe(200);
    const text = unescape(ran.body);
    const checks = /<table id="doctor-checks">[\s\S]*?<\/table>/.exec(text)?.[0] ?? '';
    for (const name of ['Node.js', 'Configuration', 'Discord token', 'Public Bot', 'Voice API', 'Dashboard'])
      expect(checks).toContain(`<th scope="row">${name}</th>`);
    expect(checks).toMatch(
      /Discord token<\/th>\s*<td><span class="badge badge-ok">passed<\/span><\/td>\s*<td>logged in as/,
    );
    // The doctor's own verdict on a Public Bot without ALLOWED_GUILDS: failed.
    expect(checks).toMatch(/Public Bot<\/th>\s*<td><span class="badge badge-danger">failed<\/span><\/td>/);
    expect(h.logs()).toContain('"audit":"owner.doctor"');

    const session = [...owner.cookies].find(([name]) => name.includes('session'))?.[1] ?? '';
    expect(session).toMatch(/^[\w-]{43}$/);
    for (const secret of [h.apiKey, h.token, CLIENT_SECRET, session]) expect(ran.body).not.toContain(secret);
  });

  it('runs the checks one at a time: a second press while they run gets that run, not another', async () => {
    const owner = await signedIn(h, OWNER, '/owner');
    const from = h.sandbox.requests.length;
    const probes = () => h.sandbox.requests.slice(from).filter((request) => request.endpoint === 'tts').length;
    // The Voice API check's probe is held at the sandbox: the first run is under way until it answers.
    h.sandbox.injectFault({ kind: 'slow-headers', headersDelayMs: 6000, endpoint: 'tts' });
    const first = owner.post('/owner/doctor', {});
    await expect.poll(probes, { timeout: 30_000, interval: 20 }).toBe(1);
    const second = await owner.post('/owner/doctor', {});
    expect((await first).status).toBe(303);
    expect(second.status).toBe(303);
    expect(probes()).toBe(1);
    expect(unescape((await owner.get('/owner')).body)).toMatch(
      /Voice API<\/th>\s*<td><span class="badge badge-ok">passed/,
    );
  });

  it('leaves a server after its confirmation page, and lists it no more', async () => {
    const leaving = await addServer();
    const owner = await signedIn(h, OWNER, '/owner');
    expect(unescape((await owner.get('/owner')).body)).toContain(`Leave ${leaving.name}`);
    const confirm = await owner.get(`/owner/servers/${leaving.id}/leave`);
    expect(confirm.status).toBe(200);
    expect(unescape(confirm.body)).toContain(`Leave ${leaving.name}?`);
    // Post/Redirect/Get: the answer is the console's address, the notice shown there.
    const posted = await owner.post(`/owner/servers/${leaving.id}/leave`, { confirm: leaving.id });
    expect(posted.status).toBe(303);
    expect(posted.headers['location']).toBe(`/owner?left=${leaving.id}`);
    const left = await owner.get(`/owner?left=${leaving.id}`);
    expect(left.status).toBe(200);
    expect(unescape(left.body)).toContain(`SayBot left ${leaving.name}.`);
    expect(left.body).not.toContain(`/owner/servers/${leaving.id}/leave`);
    await expect.poll(() => h.bot.client.guilds.cache.has(leaving.id), { timeout: 10_000 }).toBe(false);
    expect((await owner.get(`/owner/servers/${leaving.id}/leave`)).status).toBe(404);
    expect(h.logs()).toMatch(new RegExp(`"audit":"owner.leave","userId":"${OWNER}","guildId":"${leaving.id}"`));
  });

  it('after leaving, a member of no server SayBot serves still logs in and is told so; the owner still has the console', async () => {
    const loner = { id: '370000000000000009', username: 'loner' };
    const leaving = await addServer([loner]);
    const owner = await signedIn(h, OWNER, '/owner');
    expect((await owner.post(`/owner/servers/${leaving.id}/leave`, { confirm: leaving.id })).status).toBe(303);
    await expect.poll(() => h.bot.client.guilds.cache.has(leaving.id), { timeout: 10_000 }).toBe(false);

    const member = h.client();
    const back = await member.login(loner.id);
    expect(back.status).toBe(303);
    const home = await member.get('/');
    expect(home.status).toBe(200);
    expect(unescape(home.body)).toContain('SayBot serves none of your servers');
    expect(home.body).not.toContain(leaving.id);

    const again = h.client();
    expect((await again.login(OWNER)).status).toBe(303);
    const page = await again.get('/owner');
    expect(page.status).toBe(200);
    expect(page.body).toContain('id="install-link"');
  });
});

/** Waits for the page as a person would, however busy the machine (vitest's own poll gives up after 1 s). */
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 30_000, interval: 50 });

describeInBrowser('the owner console in a real browser', () => {
  const browser = useBrowser();

  it('the owner opens the console from the servers page, runs the checks, and turns back from leaving', async () => {
    const page = await (await browser().newContext({ locale: 'en-US' })).newPage();
    await page.goto(h.url);
    await page.getByRole('link', { name: 'Log in with Discord' }).click();
    await page.getByLabel('Signed in as').selectOption(OWNER);
    await Promise.all([page.waitForURL(`${h.url}/`), page.getByRole('button', { name: 'Authorize' }).click()]);
    await page.getByRole('link', { name: 'Owner console' }).click();
    await poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Owner console');
    await expect(page.getByRole('row', { name: /^Seoul/ }).textContent()).resolves.toContain('spent');

    await page.getByRole('button', { name: 'Run the checks' }).click();
    await poll(() => page.getByRole('row', { name: /^Discord token/ }).textContent()).toContain('passed');
    // The result is at the console's address: reloading shows it again without running the checks.
    expect(page.url()).toBe(`${h.url}/owner#doctor`);

    // axe, the keyboard and the widths: the design's browser test walks the console as every page.

    await page.getByRole('link', { name: 'Leave Seoul' }).click();
    await poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Leave Seoul?');
    await page.getByRole('link', { name: 'No, back to the console' }).click();
    await poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Owner console');
    expect(h.bot.client.guilds.cache.has(SEOUL)).toBe(true);
    await page.close();
  }, 120_000);

  it('after leaving a server the console is at its own address: a reload shows the same, sends nothing again', async () => {
    const leaving = await addServer();
    const context = await browser().newContext({ locale: 'en-US' });
    // By request: the login is the test before's subject, not this one's.
    await logInByRequest(context, h.url, OWNER);
    const page = await context.newPage();
    await page.goto(`${h.url}/owner/servers/${leaving.id}/leave`);
    await page.getByRole('button', { name: `Yes, leave ${leaving.name}` }).click();
    const notice = page.getByRole('status').filter({ hasText: `SayBot left ${leaving.name}.` });
    await notice.waitFor();
    expect(new URL(page.url()).pathname).toBe('/owner');
    await page.reload();
    await poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Owner console');
    expect(await notice.isVisible()).toBe(true);
    // Nothing was sent again (a second leave would say SayBot is not in that server).
    expect(await page.locator('.notice').allTextContents()).toEqual([`SayBot left ${leaving.name}.`]);
    await page.close();
  }, 120_000);
});
