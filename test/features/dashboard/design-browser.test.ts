// Every dashboard page as people use it, in one real browser (Debian's Chromium through playwright-core; skipped with
// one line without one, failed under CI): axe-core (read from node_modules, injected into the page) finds no serious or
// critical violation at 1280 and 390 px in light and dark; nothing scrolls sideways at 360 px; the Voices page is at
// most three screens tall on a phone for a manager with the filter unset; the dictionary of 500 entries comes in
// pages; the phone's menu, a voice's "more" menu and the theme switch work from the keyboard; an inline save
// confirms beside its button and keeps working without script.
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { exportDictionary } from '../../../src/features/autoread/index-dictionary.ts';
import { seriousViolations, sideways } from '../../support/axe.ts';
import { describeInBrowser, keptTabs, logInByRequest, useBrowser } from '../../support/browser.ts';
import { keyboardProblems } from '../../support/keyboard.ts';
import { seoulWith, useDashboard, managerAndMember } from '../../support/dashboard.ts';
import { LOUNGE, SEOUL } from '../../support/world.ts';

const MANAGER = { id: '340000000000000001', username: 'manager' };
const MEMBER = { id: '340000000000000002', username: 'dana' };
/** Logs in only in the pictures' test (a first login shows the consent page's member list, whatever the order). */
const NEWCOMER = { id: '340000000000000003', username: 'erin' };

/** Waits for the page as a person would, however busy the machine. */
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 30_000, interval: 50 });

const SERVER = `/servers/${SEOUL}`;
/** Every page a manager sees, by name (this manager is the application's owner too: the console is theirs). */
const PAGES: Record<string, string> = {
  servers: '/',
  overview: SERVER,
  voices: `${SERVER}/voices`,
  myvoice: `${SERVER}/myvoice`,
  mydata: `${SERVER}/mydata`,
  scenes: `${SERVER}/scenes`,
  month: `${SERVER}/month`,
  dictionary: `${SERVER}/dictionary`,
  autoread: `${SERVER}/autoread`,
  owner: '/owner',
  notFound: '/servers/1/nothing',
};

/** The page's height in screens. */
const screens = (page: Page) => page.evaluate<number>('document.scrollingElement.scrollHeight / window.innerHeight');

/** The theme the switch set on <html> ('auto': none, the system's). */
const theme = (page: Page) => page.evaluate<string>("document.documentElement.dataset.theme ?? 'auto'");

describeInBrowser('the dashboard as people use it', () => {
  // The dashboard's clock, moved on a minute before each login: this file logs in more often than the dashboard's
  // limit of logins a minute from one address allows, and each test must pass whatever ran before it.
  let shiftMs = 0;
  const h = useDashboard({
    dashboardNow: () => Date.now() + shiftMs,
    // Seoul has an icon and the manager an avatar (the local Discord draws them); the member has none.
    guilds: [
      {
        ...seoulWith(
          managerAndMember(
            { ...MANAGER, voiceChannelId: LOUNGE, avatar: true },
            { ...MEMBER, voiceChannelId: LOUNGE },
            [NEWCOMER],
          ),
          'en-US',
        ),
        icon: true,
      },
    ],
    // The manager is the application's owner: the console is walked as the other pages are.
    discord: { applicationOwnerId: MANAGER.id },
  });
  const browser = useBrowser();

  /** A new browser context logged in as `userId` (by request: no test here is about the login), at `width`. */
  async function loggedIn(userId: string, options: { width?: number; javaScript?: boolean } = {}) {
    shiftMs += 61_000;
    const context = await browser().newContext({
      locale: 'en-US',
      viewport: { width: options.width ?? 1280, height: 800 },
      javaScriptEnabled: options.javaScript ?? true,
    });
    await logInByRequest(context, h.url, userId);
    const page = await context.newPage();
    page.on('dialog', (dialog) => void dialog.accept());
    return { context, page };
  }

  /**
   * One logged-in context and tab for each user and script setting, opened by the first test that asks and kept for
   * the file (a new context and tab cost about as much Chromium as a page's render): each test gets it back as a new
   * one would be, at `width` (800 tall), light (a new context's scheme), no theme chosen, and opens its first page.
   * A test that ends the session (clears the cookies) logs in anew with `loggedIn`.
   */
  const sessions = keptTabs<string>();
  async function session(userId: string, options: { width?: number; javaScript?: boolean } = {}) {
    const javaScript = options.javaScript ?? true;
    const page = await sessions(`${userId} ${javaScript}`, async () => (await loggedIn(userId, { javaScript })).page);
    const context = page.context();
    await page.setViewportSize({ width: options.width ?? 1280, height: 800 });
    await page.emulateMedia({ colorScheme: 'light' });
    if (javaScript && page.url().startsWith(h.url)) await page.evaluate("localStorage.removeItem('saybot-theme')");
    return { context, page };
  }

  async function at(page: Page, width: number, height: number, scheme: 'light' | 'dark') {
    await page.setViewportSize({ width, height });
    await page.emulateMedia({ colorScheme: scheme });
  }

  it('every page: no serious or critical axe violation at 1280 and 390 px in light and dark, every control reached by Tab in order with a visible focus, none scrolls sideways at 360 px', async () => {
    const { page } = await session(MANAGER.id);
    // 500 entries, so the dictionary is shown as it is on a busy server.
    await page.goto(`${h.url}${PAGES['dictionary']}`);
    const entries = Array.from({ length: 500 }, (_, i) => ({ word: `w${i}`, reading: `reading ${i}` }));
    await page.getByLabel('Import a file (replaces the whole dictionary)').setInputFiles({
      name: 'dictionary.json',
      mimeType: 'application/json',
      buffer: Buffer.from(exportDictionary(entries)),
    });
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await poll(() => page.getByRole('status').textContent()).toBe('Imported 500 entries.');

    const found: string[] = [];
    const wide: string[] = [];
    const keyboard: string[] = [];
    for (const [name, path] of Object.entries(PAGES)) {
      await page.goto(`${h.url}${path}`);
      if (name === 'owner') expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Owner console');
      for (const [width, height] of [
        [1280, 800],
        [390, 844],
      ] as const) {
        for (const scheme of ['light', 'dark'] as const) {
          await at(page, width, height, scheme);
          for (const violation of await seriousViolations(page)) found.push(`${name} ${width} ${scheme}: ${violation}`);
        }
        for (const problem of await keyboardProblems(page)) keyboard.push(`${name} ${width}: ${problem}`);
      }
      await page.setViewportSize({ width: 360, height: 740 });
      if ((await sideways(page)) > 0) wide.push(`${name}: ${await sideways(page)} px`);
    }
    // The logged-out pages too: the login page.
    const guest = await (await browser().newContext({ viewport: { width: 360, height: 740 } })).newPage();
    await guest.goto(h.url);
    for (const scheme of ['light', 'dark'] as const) {
      await guest.emulateMedia({ colorScheme: scheme });
      for (const violation of await seriousViolations(guest)) found.push(`login ${scheme}: ${violation}`);
    }
    if ((await sideways(guest)) > 0) wide.push(`login: ${await sideways(guest)} px`);
    await guest.context().close();

    expect(found).toEqual([]);
    expect(keyboard).toEqual([]);
    expect(wide).toEqual([]);
  }, 600_000);

  it("a member's pages: every control reached by Tab in order with a visible focus, on the page, at 1280 and 390 px", async () => {
    const { page } = await session(MEMBER.id);
    const problems: string[] = [];
    for (const name of ['servers', 'overview', 'voices', 'myvoice', 'scenes', 'month', 'mydata'] as const)
      for (const [width, height] of [
        [1280, 800],
        [390, 844],
      ] as const) {
        await page.setViewportSize({ width, height });
        await page.goto(`${h.url}${PAGES[name]}`);
        for (const problem of await keyboardProblems(page)) problems.push(`${name} ${width}: ${problem}`);
      }
    expect(problems).toEqual([]);
  }, 300_000);

  it('on a phone: Voices at most three screens for a manager, the dictionary in pages, the menus by keyboard', async () => {
    const { page } = await session(MANAGER.id, { width: 390 });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${h.url}${PAGES['voices']}`);
    const voicesScreens = await screens(page);
    console.log(`voices at 390 px, a manager, no filter: ${voicesScreens.toFixed(2)} screens`);
    expect(voicesScreens).toBeLessThanOrEqual(3);
    expect(await page.locator('li.voice').count()).toBeGreaterThan(0);

    // A voice's other actions are behind its "more" button, opened and used from the keyboard.
    const summary = page.locator('li.voice details.more > summary').first();
    await summary.focus();
    await page.keyboard.press('Enter');
    const makeDefault = page.locator('li.voice details.more[open] button').first();
    await poll(() => makeDefault.isVisible()).toBe(true);
    await page.keyboard.press('Tab');
    await poll(() => page.evaluate<boolean>("document.activeElement.closest('.more-menu') !== null")).toBe(true);

    // The sidebar is a menu on a phone: closed on a page, opened by keyboard, its links then reachable.
    const menu = page.locator('details.side > summary');
    await poll(() => menu.isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: 'Dictionary' }).isVisible()).toBe(false);
    await menu.focus();
    await page.keyboard.press('Enter');
    await poll(() => page.getByRole('link', { name: 'Dictionary' }).isVisible()).toBe(true);
    await page.getByRole('link', { name: 'Dictionary' }).press('Enter');
    await page.waitForURL(`${h.url}${PAGES['dictionary']}`);

    // The dictionary (500 entries, imported by the first test or now) comes 50 to a page.
    if ((await page.locator('tbody tr').count()) === 0) {
      await page.getByLabel('Import a file (replaces the whole dictionary)').setInputFiles({
        name: 'dictionary.json',
        mimeType: 'application/json',
        buffer: Buffer.from(
          exportDictionary(Array.from({ length: 500 }, (_, i) => ({ word: `w${i}`, reading: `r${i}` }))),
        ),
      });
      await page.getByRole('button', { name: 'Import', exact: true }).click();
      await poll(() => page.getByRole('status').textContent()).toBe('Imported 500 entries.');
    }
    await poll(() => page.locator('tbody tr').count()).toBe(50);
    await page.getByRole('link', { name: 'Next' }).click();
    await poll(() => page.locator('tbody tr').first().textContent()).toContain('w50');
    expect(await sideways(page)).toBe(0);

    // The theme switch: dark, light, then the system's again; kept across pages.
    await page.locator('#theme-switch').focus();
    await page.keyboard.press('Enter');
    await poll(() => theme(page)).toBe('dark');
    await page.reload();
    await poll(() => theme(page)).toBe('dark');
    await page.locator('#theme-switch').click();
    await page.locator('#theme-switch').click();
    await poll(() => theme(page)).toBe('auto');
  }, 300_000);

  it('a saved change confirms beside its button with script, and comes back as a page without (and no theme switch)', async () => {
    for (const javaScript of [true, false]) {
      const { page } = await session(MEMBER.id, { javaScript });
      await page.goto(`${h.url}${PAGES['myvoice']}`);
      const url = page.url();
      // The theme switch needs the script: without it, the page offers no control that does nothing.
      expect(await page.locator('#theme-switch').isVisible()).toBe(javaScript);
      await page.getByLabel('voice', { exact: true }).fill(javaScript ? 'voice-b-en-m-01' : 'voice-b-en-f-01');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      const status = page.getByRole('status');
      await poll(() => status.textContent()).toContain(javaScript ? 'voice-b-en-m-01' : 'voice-b-en-f-01');
      // With script: the same page, the answer beside the button, the current settings swapped in.
      if (javaScript) {
        expect(await status.evaluate((node) => node.classList.contains('saved'))).toBe(true);
        expect(page.url()).toBe(url);
        await poll(() => page.locator('#myvoice-current').textContent()).toContain('voice-b-en-m-01');
      } else expect(await status.evaluate((node) => node.classList.contains('notice'))).toBe(true);
    }
  }, 180_000);

  it('an on/off setting is a switch showing its value: saved inline when flipped (click or Space), kept after a reload; without script sent with its form', async () => {
    const { page } = await session(MANAGER.id);
    await page.goto(`${h.url}${PAGES['autoread']}`);
    // read_bots is off by default, announce too: each flipped once, by the mouse and by the keyboard.
    const readBots = page.getByRole('switch', { name: 'read_bots' });
    const announce = page.getByRole('switch', { name: 'announce' });
    const readBotsBefore = await readBots.isChecked();
    const announceBefore = await announce.isChecked();
    const settingsForm = page.locator('form[action$="/autoread/settings"]');
    await readBots.click();
    await poll(() => settingsForm.locator('.saved').textContent()).toContain('Auto-read settings changed');
    await announce.focus();
    await page.keyboard.press('Space');
    await poll(() => announce.isChecked()).toBe(!announceBefore);
    // The save is under way from the key press on (the form is busy until its answer is in).
    await poll(() => settingsForm.getAttribute('aria-busy')).toBeNull();
    await page.reload();
    expect([await readBots.isChecked(), await announce.isChecked()]).toEqual([!readBotsBefore, !announceBefore]);
    expect(page.url()).toBe(`${h.url}${PAGES['autoread']}`);

    // Without script: Space flips the box, the form's button sends it, the page comes back showing the new value.
    const plain = await session(MEMBER.id, { javaScript: false });
    await plain.page.goto(`${h.url}${PAGES['myvoice']}`);
    const readMe = plain.page.getByRole('switch', { name: 'read_me' });
    expect(await readMe.isChecked()).toBe(true);
    await readMe.focus();
    await plain.page.keyboard.press('Space');
    await plain.page.getByRole('button', { name: 'Save', exact: true }).click();
    await poll(() => plain.page.getByRole('status').textContent()).toContain('auto-read does not read you');
    await plain.page.goto(`${h.url}${PAGES['myvoice']}`);
    expect(await plain.page.getByRole('switch', { name: 'read_me' }).isChecked()).toBe(false);
  }, 180_000);

  it("a switch saves only itself and the form's Save only what was changed on the page: a change made elsewhere since the page loaded stays", async () => {
    // With script: two tabs of the same manager; the second turns autojoin over, then the first (loaded before that)
    // flips announce.
    const { context, page } = await session(MANAGER.id);
    await page.goto(`${h.url}${PAGES['autoread']}`);
    const other = await context.newPage();
    await other.goto(`${h.url}${PAGES['autoread']}`);
    const autojoin = (tab: Page) => tab.getByRole('switch', { name: 'autojoin', exact: true });
    const autojoinBefore = await autojoin(page).isChecked();
    await autojoin(other).click();
    await poll(() => other.locator('form[action$="/autoread/settings"] .saved').textContent()).toContain(
      'Auto-read settings changed',
    );
    await page.getByRole('switch', { name: 'announce' }).click();
    await poll(() => page.locator('form[action$="/autoread/settings"] .saved').textContent()).toContain(
      'Auto-read settings changed',
    );
    await page.reload();
    expect(await autojoin(page).isChecked()).toBe(!autojoinBefore);
    await other.close();

    // Without script: the whole form is posted, yet only the field changed on this page is applied.
    const first = await session(MANAGER.id, { javaScript: false });
    await first.page.goto(`${h.url}${PAGES['autoread']}`);
    const second = await first.context.newPage();
    await second.goto(`${h.url}${PAGES['autoread']}`);
    const readBots = (tab: Page) => tab.getByRole('switch', { name: 'read_bots' });
    const readBotsBefore = await readBots(second).isChecked();
    await readBots(second).click();
    await second.getByRole('button', { name: 'Save the settings' }).click();
    await poll(() => second.getByRole('status').textContent()).toContain('Auto-read settings changed');
    await first.page.getByRole('switch', { name: 'announce' }).click();
    await first.page.getByRole('button', { name: 'Save the settings' }).click();
    await poll(() => first.page.getByRole('status').textContent()).toContain('Auto-read settings changed');
    expect(await readBots(first.page).isChecked()).toBe(!readBotsBefore);
    await second.close();
  }, 180_000);

  it('a refused inline save says why and puts the switch back as saved (the session ended: 403)', async () => {
    const { context, page } = await loggedIn(MANAGER.id);
    await page.goto(`${h.url}${PAGES['autoread']}`);
    const announce = page.getByRole('switch', { name: 'announce' });
    const before = await announce.isChecked();
    await context.clearCookies();
    await announce.click();
    const alert = page.locator('form[action$="/autoread/settings"] .saved.error');
    await poll(() => alert.textContent()).toContain('This page is out of date');
    expect(await announce.isChecked()).toBe(before);

    // My voice's Save, refused the same way, says so too.
    const member = await loggedIn(MEMBER.id);
    await member.page.goto(`${h.url}${PAGES['myvoice']}`);
    await member.context.clearCookies();
    await member.page.getByRole('button', { name: 'Save', exact: true }).click();
    await poll(() => member.page.getByRole('alert').textContent()).toContain('This page is out of date');
    await member.context.close();
    await context.close();
  }, 180_000);

  it("shows the server's icon and the manager's avatar from Discord's CDN (the local one here), initials for the member", async () => {
    const { page } = await session(MANAGER.id);
    const answer = await page.goto(`${h.url}${PAGES['voices']}`);
    const cdn = h.discord.cdnUrl;
    expect(answer?.headers()['content-security-policy']).toContain(`img-src 'self' ${cdn}`);
    const icon = page.locator('.side-server img.pic');
    expect(await icon.getAttribute('src')).toMatch(new RegExp(`^${cdn}/icons/${SEOUL}/[0-9a-f]{32}\\.png`));
    await poll(() => icon.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBe(96);
    expect(await page.locator('.account img.pic').getAttribute('src')).toContain(`${cdn}/avatars/${MANAGER.id}/`);

    const member = await loggedIn(NEWCOMER.id);
    await member.page.goto(`${h.url}${PAGES['voices']}`);
    expect((await member.page.locator('.account .pic').textContent())?.trim()).toBe('E');
    await member.context.close();
  }, 120_000);
});
