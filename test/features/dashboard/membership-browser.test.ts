// Membership on the dashboard as Discord has it now, in a real browser (Debian's Chromium; skipped with one line
// without one, failed under CI). SayBot has no Guild Members intent, so Discord tells it nothing when a member is
// kicked, banned or loses a role: a page trusts SayBot's view of a member for a bounded window (the dashboard's clock,
// which these tests move on instead of waiting), then asks Discord again; an answer of Unknown Member closes the
// server's pages at once. And a login code is bound to the browser whose login asked for it (PKCE, S256).
import type { BrowserContext, Page } from 'playwright-core';
import { PermissionFlagsBits } from 'discord.js';
import { expect, it } from 'vitest';
import { describeInBrowser, logInByRequest, useBrowser } from '../../support/browser.ts';
import { seoulWith, useDashboard } from '../../support/dashboard.ts';
import { SEOUL } from '../../support/world.ts';

const MANAGES = PermissionFlagsBits.ManageGuild;
const KICKED = { id: '340000000000000001', username: 'kicked', permissions: MANAGES };
const BANNED = { id: '340000000000000002', username: 'banned', permissions: MANAGES };
const RETURNING = { id: '340000000000000003', username: 'returning', permissions: MANAGES };
const DEMOTED = { id: '340000000000000004', username: 'demoted', permissions: MANAGES };
const VICTIM = { id: '340000000000000005', username: 'victim', permissions: MANAGES };
const ATTACKER = { id: '340000000000000006', username: 'attacker' };

/** More than SayBot trusts its view of a member (about a minute). */
const PAST_THE_WINDOW_MS = 61_000;

/** Every page of a server a member opens, and those of its managers (the export is a download: asked, not shown). */
const server = `/servers/${SEOUL}`;
const MEMBER_PAGES = ['', '/month', '/voices', '/scenes', '/myvoice', '/mydata'].map((path) => `${server}${path}`);
const MANAGER_PAGES = ['/dictionary', '/autoread'].map((path) => `${server}${path}`);
const EXPORT = `${server}/dictionary/export`;
const EVERY_PAGE = [...MEMBER_PAGES, ...MANAGER_PAGES];

/** Waits for the page as a person would, however busy the machine (vitest's own poll gives up after 1 s). */
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 30_000, interval: 50 });

describeInBrowser('membership on the dashboard, and whose login a code is', () => {
  let shiftMs = 0;
  const h = useDashboard({
    guilds: [seoulWith([KICKED, BANNED, RETURNING, DEMOTED, VICTIM, ATTACKER], 'en-US')],
    dashboardNow: () => Date.now() + shiftMs,
  });
  const browser = useBrowser();

  async function newBrowser(): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser().newContext({ locale: 'en-US' });
    const page = await context.newPage();
    return { context, page };
  }

  /** A fresh browser logged in as `userId` (by request: the login is not what these tests look at), on no page yet. */
  async function loggedIn(userId: string): Promise<{ context: BrowserContext; page: Page }> {
    // A minute on before each login: the file logs in more often than the dashboard's ten logins a minute from one
    // address, and each test must pass whatever ran before it (a login forgets the member's views anyway).
    shiftMs += 61_000;
    const opened = await newBrowser();
    await logInByRequest(opened.context, h.url, userId);
    return opened;
  }

  /** The status each page answers the browser with, asked by its address with the browser's cookies (not rendered). */
  async function statuses(context: BrowserContext, paths: readonly string[]): Promise<number[]> {
    const found: number[] = [];
    for (const path of paths) found.push((await context.request.get(`${h.url}${path}`)).status());
    return found;
  }

  /** The export's status, asked with the browser's own cookies. */
  const exportStatus = async (context: BrowserContext) => (await context.request.get(`${h.url}${EXPORT}`)).status();

  /** Whether the servers' list offers Seoul. */
  async function listsSeoul(page: Page): Promise<boolean> {
    await page.goto(h.url);
    await poll(() => page.getByText(/Signed in as/).count()).toBeGreaterThan(0);
    return (await page.getByRole('link', { name: 'Seoul' }).count()) > 0;
  }

  it('a member kicked from the server loses its list entry and every page once SayBot asks Discord again', async () => {
    const { context, page } = await loggedIn(KICKED.id);
    expect(await listsSeoul(page)).toBe(true);
    expect(await statuses(context, EVERY_PAGE)).toEqual(EVERY_PAGE.map(() => 200));
    expect(await exportStatus(context)).toBe(200);

    h.discord.removeMember(SEOUL, KICKED.id);
    shiftMs += PAST_THE_WINDOW_MS;

    expect(await statuses(context, EVERY_PAGE)).toEqual(EVERY_PAGE.map(() => 404));
    // The last of them as the browser shows it.
    await page.goto(`${h.url}${EVERY_PAGE.at(-1)}`);
    expect(await page.getByText('There is no such page, or it is not yours to see.').count()).toBe(1);
    expect(await exportStatus(context)).toBe(404);
    expect(await listsSeoul(page)).toBe(false);
    await context.close();
  }, 120_000);

  it('a banned member whose change Discord answers with Unknown Member loses every page at once', async () => {
    const { context, page } = await loggedIn(BANNED.id);
    expect((await page.goto(`${h.url}${server}/myvoice`))?.status()).toBe(200);

    h.discord.removeMember(SEOUL, BANNED.id, 'ban');
    // A change is asked of Discord before it is made: Unknown Member. The pages then close with no time passing.
    const [cleared] = await Promise.all([
      page.waitForResponse((response) => response.url().endsWith('/myvoice/clear')),
      page.getByRole('button', { name: 'Clear all my settings' }).click(),
    ]);
    expect(cleared.status()).toBe(404);
    expect(await statuses(context, EVERY_PAGE)).toEqual(EVERY_PAGE.map(() => 404));
    expect(await exportStatus(context)).toBe(404);
    expect(await listsSeoul(page)).toBe(false);
    await context.close();
  }, 120_000);

  it('a kicked member who logs in again opens none of the pages by typing their address', async () => {
    const first = await loggedIn(RETURNING.id);
    expect(await statuses(first.context, [server])).toEqual([200]);
    h.discord.removeMember(SEOUL, RETURNING.id);
    await first.context.close();

    // At once, no time passing: a new login starts from what Discord says now.
    const { context, page } = await loggedIn(RETURNING.id);
    expect(await listsSeoul(page)).toBe(false);
    expect(await statuses(context, EVERY_PAGE)).toEqual(EVERY_PAGE.map(() => 404));
    expect(await exportStatus(context)).toBe(404);
    await context.close();
  }, 120_000);

  it("a manager whose Manage Server was taken loses the managers' pages on the next view past the window", async () => {
    const { context, page } = await loggedIn(DEMOTED.id);
    expect(await statuses(context, MANAGER_PAGES)).toEqual(MANAGER_PAGES.map(() => 200));
    await page.goto(`${h.url}${server}/month`);
    expect(await page.locator(`form[action="${server}/month/budgets"]`).count()).toBe(1);
    // The overview's figures: the managers' two (the budgets, auto-read) among them.
    await page.goto(`${h.url}${server}`);
    expect(await page.locator('#glance-budgets-item, #glance-autoread-item').count()).toBe(2);

    h.discord.setMemberRoles(SEOUL, DEMOTED.id, []);
    shiftMs += PAST_THE_WINDOW_MS;

    expect(await statuses(context, MANAGER_PAGES)).toEqual(MANAGER_PAGES.map(() => 403));
    expect(await exportStatus(context)).toBe(403);
    // Still a member: their own pages open, without the managers' links or the budgets' form.
    expect(await statuses(context, MEMBER_PAGES)).toEqual(MEMBER_PAGES.map(() => 200));
    await page.goto(`${h.url}${server}`);
    expect(await page.getByRole('link', { name: 'Dictionary' }).count()).toBe(0);
    expect(await page.locator('#glance-budgets-item, #glance-autoread-item').count()).toBe(0);
    expect(await page.locator('#glance-server-month-item').count()).toBe(1);
    await page.goto(`${h.url}${server}/month`);
    expect(await page.locator(`form[action="${server}/month/budgets"]`).count()).toBe(0);
    await context.close();
  }, 120_000);

  it("a code Discord issued to one browser's login, brought to another browser's login, signs no one in", async () => {
    // The victim's browser logs in; the code on its way back is caught (leaked from a log, a proxy, a history).
    const victim = await newBrowser();
    let leaked: (url: string) => void = () => undefined;
    const caught = new Promise<string>((resolve) => (leaked = resolve));
    // Caught at the consent form's answer: the redirect to the dashboard's callback, with the code, never followed.
    const consentForm = (url: URL) => url.href === h.discord.oauth2.authorizeUrl;
    await victim.page.route(consentForm, async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      const redirect = await route.fetch({ maxRedirects: 0 });
      leaked(redirect.headers()['location'] ?? '');
      await route.fulfill({ status: 200, contentType: 'text/plain', body: 'caught' });
    });
    await victim.page.goto(h.url);
    await victim.page.getByRole('link', { name: 'Log in with Discord' }).click();
    await victim.page.getByLabel('Signed in as').selectOption(VICTIM.id);
    await victim.page.getByRole('button', { name: 'Authorize' }).click();
    const code = new URL(await caught).searchParams.get('code') ?? '';
    expect(code).not.toBe('');

    // The attacker starts a login of their own (a valid state, in their own cookie) and brings the victim's code.
    const attacker = await newBrowser();
    await attacker.page.goto(h.url);
    await attacker.page.getByRole('link', { name: 'Log in with Discord' }).click();
    await poll(() => attacker.page.getByLabel('Signed in as').count()).toBe(1);
    const state = new URL(attacker.page.url()).searchParams.get('state') ?? '';
    const injected = `${h.url}/callback?code=${encodeURIComponent(code)}&state=${encodeURIComponent(state)}`;
    const answer = await attacker.page.goto(injected);
    expect(await attacker.page.getByText(`Signed in as ${VICTIM.username}`).count()).toBe(0);
    // Refused as a code that is not this login's, not as Discord failing (which would send the member to wait for
    // Discord instead of logging in again).
    expect(answer?.status()).toBe(400);
    expect(await attacker.page.getByText(/its code was not accepted/).count()).toBe(1);
    expect(await attacker.page.getByText(/Discord did not answer/).count()).toBe(0);
    await attacker.page.goto(h.url);
    expect(await attacker.page.getByText(/Signed in as/).count()).toBe(0);
    expect(await attacker.context.cookies()).not.toContainEqual(expect.objectContaining({ name: 'saybot-session' }));
    await victim.context.close();
    await attacker.context.close();
  }, 120_000);
});
