// The dashboard on a phone and in its words, in a real browser (Debian's Chromium through playwright-core): a voice's
// description wraps rather than being cut; the dictionary's entries are one row each with their actions in a menu;
// a touch screen is told to tap, not hover; the month's "Top members" is as tall as its members; the server's owner is
// badged as its owner; one "more" menu is open at a time, closed by Escape or a click elsewhere; a count's words
// agree with it ("1 entry"); no page shows an emoji, which would need a font the page does not bring.
import type { BrowserContextOptions, Page } from 'playwright-core';
import { expect, it } from 'vitest';
import {
  MAX_PATTERN_LENGTH,
  MAX_WORD_LENGTH,
  exportDictionary,
} from '../../../src/features/autoread/index-dictionary.ts';
import { seriousViolations, sideways } from '../../support/axe.ts';
import { describeInBrowser, keptTabs, logInByRequest, useBrowser } from '../../support/browser.ts';
import { seoulWith, useDashboard, managerAndMember } from '../../support/dashboard.ts';
import { LOUNGE, SEOUL } from '../../support/world.ts';

const OWNER = { id: '350000000000000001', username: 'owner' };
const MANAGER = { id: '350000000000000002', username: 'manager' };
const MEMBER = { id: '350000000000000003', username: 'dana' };
const SERVER = `/servers/${SEOUL}`;

const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 30_000, interval: 50 });

/** A phone as Chromium plays one: 390 px wide, touch, no hover. */
const PHONE: BrowserContextOptions = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };
const DESK: BrowserContextOptions = { viewport: { width: 1280, height: 800 } };

describeInBrowser('the dashboard on a phone and in its words', () => {
  // Each login a minute after the last on the dashboard's clock: the file logs in more often than its limit allows.
  let shiftMs = 0;
  const h = useDashboard({
    dashboardNow: () => Date.now() + shiftMs,
    guilds: [
      {
        ...seoulWith(
          [
            { ...OWNER, voiceChannelId: LOUNGE },
            ...managerAndMember({ ...MANAGER, voiceChannelId: LOUNGE }, { ...MEMBER, voiceChannelId: LOUNGE }),
          ],
          'en-US',
        ),
        ownerId: OWNER.id,
      },
    ],
  });
  const browser = useBrowser();

  async function loggedIn(userId: string, options: BrowserContextOptions) {
    shiftMs += 61_000;
    const context = await browser().newContext({ locale: 'en-US', ...options });
    // By request: no test here is about the login; each opens its first page itself.
    await logInByRequest(context, h.url, userId);
    const page = await context.newPage();
    page.on('dialog', (dialog) => void dialog.accept());
    return { context, page };
  }

  /**
   * The manager's phone: one context and tab opened by the first test that asks and kept for the file (three tests
   * use it; a new context and tab cost about as much Chromium as a page's render), given back at the phone's size;
   * each test opens its own first page.
   */
  const phoneTab = keptTabs<'manager'>();
  async function managersPhone() {
    const page = await phoneTab('manager', async () => (await loggedIn(MANAGER.id, PHONE)).page);
    await page.setViewportSize({ width: 390, height: 844 });
    return page;
  }

  /** Every emoji (Extended_Pictographic) in the page's text. */
  const emoji = (page: Page) =>
    page.evaluate<string[]>('[...document.body.innerText.matchAll(/\\p{Extended_Pictographic}/gu)].map((m) => m[0])');

  it("badges the server's owner as its owner, a manager as a manager", async () => {
    // No page shows an emoji: its icons are its own drawings, which need no font. Each page is loaded once, its
    // badge (the list's and Voices') read on the same load.
    const shown: string[] = [];
    const noEmoji = async (path: string) => {
      for (const glyph of await emoji(owner.page)) shown.push(`${path}: ${glyph}`);
    };
    const owner = await loggedIn(OWNER.id, DESK);
    await owner.page.goto(h.url);
    expect((await owner.page.locator('.server-card .badge').textContent())?.trim()).toBe('owner');
    await noEmoji('/');
    await owner.page.goto(`${h.url}${SERVER}/voices`);
    expect((await owner.page.locator('.side-server .badge').textContent())?.trim()).toBe('Owner');
    await noEmoji(`${SERVER}/voices`);
    for (const path of [
      SERVER,
      ...['myvoice', 'mydata', 'scenes', 'month', 'dictionary', 'autoread'].map((p) => `${SERVER}/${p}`),
    ]) {
      await owner.page.goto(`${h.url}${path}`);
      await noEmoji(path);
    }
    expect(shown).toEqual([]);
    await owner.context.close();

    const manager = await loggedIn(MANAGER.id, DESK);
    await manager.page.goto(h.url);
    expect((await manager.page.locator('.server-card .badge').textContent())?.trim()).toBe('manager');
    await manager.page.goto(`${h.url}${SERVER}/voices`);
    expect((await manager.page.locator('.side-server .badge').textContent())?.trim()).toBe('Manager');
    await manager.context.close();
  }, 120_000);

  it('a voice\'s description wraps on a phone; one "more" menu open at a time, closed by Escape or a click elsewhere', async () => {
    const page = await managersPhone();
    await page.goto(`${h.url}${SERVER}/voices`);
    const cut = await page.evaluate<string[]>(`[...document.querySelectorAll('.voice-detail')]
      .filter((p) => p.scrollWidth > p.clientWidth + 1 || getComputedStyle(p).textOverflow === 'ellipsis')
      .map((p) => p.textContent)`);
    expect(cut).toEqual([]);
    expect(await page.locator('.voice-detail').count()).toBeGreaterThan(1);

    const menus = page.locator('li.voice details.more');
    const open = page.locator('li.voice details.more[open]');
    await menus.nth(0).locator('summary').click();
    await poll(() => open.count()).toBe(1);
    // The open menu lies over the rows below it, so the next is opened from the keyboard.
    await menus.nth(1).locator('summary').focus();
    await page.keyboard.press('Enter');
    await poll(() => open.count()).toBe(1);
    expect(await menus.nth(1).evaluate((menu) => (menu as unknown as { open: boolean }).open)).toBe(true);

    // Escape closes it and gives the focus back to its button.
    await menus.nth(1).locator('.more-menu button').first().focus();
    await page.keyboard.press('Escape');
    await poll(() => open.count()).toBe(0);
    expect(await page.evaluate<boolean>("document.activeElement?.matches('details.more > summary') === true")).toBe(
      true,
    );

    // A click (a tap) elsewhere closes it too.
    await menus.nth(2).locator('summary').click();
    await poll(() => open.count()).toBe(1);
    await page.locator('h1').click();
    await poll(() => open.count()).toBe(0);
    expect(await emoji(page)).toEqual([]);
  }, 120_000);

  it("the dictionary on a phone: one row an entry, its actions in a menu; a count's words agree with it", async () => {
    const page = await managersPhone();
    await page.goto(`${h.url}${SERVER}/dictionary`);
    await page.getByLabel('Import a file (replaces the whole dictionary)').setInputFiles({
      name: 'dictionary.json',
      mimeType: 'application/json',
      buffer: Buffer.from(exportDictionary([{ word: 'SayBot', reading: 'say bot' }])),
    });
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await poll(() => page.getByRole('status').textContent()).toBe('Imported 1 entry.');
    await page.goto(`${h.url}${SERVER}/dictionary`);
    expect((await page.locator('table.dictionary caption').textContent())?.trim()).toMatch(/^1 entry \(at most 500\)/);

    const row = page.locator('table.dictionary tbody tr').first();
    const rowHeight = (await row.boundingBox())?.height ?? Infinity;
    const fieldHeight = (await row.getByRole('textbox').boundingBox())?.height ?? 0;
    console.log(
      `a dictionary entry at 390 px: ${rowHeight.toFixed(0)} px tall, its field ${fieldHeight.toFixed(0)} px`,
    );
    // One row: no taller than two of its fields (stacked, it was a column of boxes many times that).
    expect(rowHeight).toBeLessThan(2 * fieldHeight);
    const remove = row.getByRole('button', { name: 'Remove' });
    expect(await remove.isVisible()).toBe(false);
    await row.locator('details.more > summary').click();
    await poll(() => remove.isVisible()).toBe(true);
    expect(await row.getByRole('button', { name: 'Move', exact: true }).isVisible()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
  }, 120_000);

  it("the dictionary on a phone with long words: none wider than the screen, the last row's menu over the cards, Escape back to its button", async () => {
    const page = await managersPhone();
    await page.goto(`${h.url}${SERVER}/dictionary`);
    // A word as long as the server takes (50 letters, no space to break at), a long pattern, and a few more rows.
    const longWord = 'Donaudampfschifffahrtsgesellschaftskapitänsmützen'.padEnd(MAX_WORD_LENGTH, 'x');
    const longPattern = `(${'abcdefghij'.repeat(8)})+`;
    await page.getByLabel('Import a file (replaces the whole dictionary)').setInputFiles({
      name: 'dictionary.json',
      mimeType: 'application/json',
      buffer: Buffer.from(
        exportDictionary([
          { word: longWord, reading: 'a long word' },
          { pattern: longPattern, reading: 'letters' },
          ...['one', 'two', 'three', 'four'].map((word) => ({ word, reading: `${word} read` })),
        ]),
      ),
    });
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await poll(() => page.getByRole('status').textContent()).toBe('Imported 6 entries.');
    await page.goto(`${h.url}${SERVER}/dictionary`);

    // Nothing wider than the phone: not the page, not a row, not a word in its cell.
    expect(await sideways(page)).toBe(0);
    const wide = await page.evaluate<string[]>(`[...document.querySelectorAll('table.dictionary tbody tr')]
      .flatMap((row) => [row, ...row.querySelectorAll('th, td')])
      .filter((node) => node.getBoundingClientRect().right > innerWidth + 0.5 || node.scrollWidth > node.clientWidth + 1)
      .map((node) => node.tagName + ': ' + node.textContent.trim().slice(0, 20))`);
    expect(wide).toEqual([]);
    // On a laptop too, the table fits its column: nothing to scroll sideways in it.
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(
      await page.evaluate<number>(
        "(() => { const wrap = document.querySelector('.table-wrap'); return wrap.scrollWidth - wrap.clientWidth; })()",
      ),
    ).toBe(0);
    await page.setViewportSize({ width: 390, height: 844 });

    // The last row's menu opens over what follows (the cards): nothing clips it, and its actions are the topmost
    // thing where they are, the page scrolled to them.
    const last = page.locator('table.dictionary tbody tr').last();
    const summary = last.locator('details.more > summary');
    await summary.click();
    const menu = last.locator('.more-menu');
    const remove = menu.getByRole('button', { name: 'Remove' });
    await poll(() => remove.isVisible()).toBe(true);
    const covered = await page.evaluate<string[]>(`(() => {
      const menu = document.querySelector('table.dictionary tbody tr:last-child .more-menu');
      const clips = [];
      for (let box = menu.parentElement; box; box = box.parentElement) {
        if (getComputedStyle(box).overflowY === 'visible') continue;
        const outer = box.getBoundingClientRect();
        const inner = menu.getBoundingClientRect();
        if (box !== document.documentElement && box !== document.body && inner.bottom > outer.bottom + 0.5)
          clips.push('clipped by ' + box.className);
      }
      const button = [...menu.querySelectorAll('button')].at(-1);
      document.scrollingElement.scrollTop += button.getBoundingClientRect().top - innerHeight / 2;
      const at = button.getBoundingClientRect();
      const top = document.elementFromPoint(at.x + at.width / 2, at.y + at.height / 2);
      if (!button.contains(top)) clips.push('covered by ' + (top ? top.tagName + '.' + top.className : 'nothing'));
      return clips;
    })()`);
    expect(covered).toEqual([]);

    // Escape closes it and gives the focus back to its "⋯" button, wherever in the menu a tap left the focus (a tap on
    // its background leaves it on the page's body).
    await menu.click({ position: { x: 40, y: 3 } });
    expect(await remove.isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    await poll(() => last.locator('details.more[open]').count()).toBe(0);
    const focusedSummary = () =>
      summary.evaluate(
        (node) => node === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement,
      );
    expect(await focusedSummary()).toBe(true);
    await summary.tap();
    await poll(() => remove.isVisible()).toBe(true);
    await menu.tap({ position: { x: 40, y: 3 } });
    expect(await remove.isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    await poll(() => remove.isVisible()).toBe(false);
    expect(await focusedSummary()).toBe(true);

    // The word field takes what the server takes: a word's limit, a pattern's once it is one.
    const word = page.getByLabel('Word or pattern', { exact: true });
    expect(await word.getAttribute('maxlength')).toBe(String(MAX_WORD_LENGTH));
    await page.getByLabel('This is a pattern (regular expression)').check();
    expect(await word.getAttribute('maxlength')).toBe(String(MAX_PATTERN_LENGTH));
    expect(await seriousViolations(page)).toEqual([]);
  }, 120_000);

  it('the month page: a touch screen is told to tap, a mouse to hover; "Top members" no taller than its members', async () => {
    const phone = await loggedIn(MEMBER.id, PHONE);
    await phone.page.goto(`${h.url}${SERVER}/month`);
    await poll(() => phone.page.getByText('Tap a bar').isVisible()).toBe(true);
    expect(await phone.page.getByText('Hover over a bar').isVisible()).toBe(false);
    // No member spent anything this month: the panel holds one row saying so, not an empty picture.
    const members = phone.page.locator('.chart-panel').last();
    await poll(() => members.locator('h3').textContent()).toBe('Top members');
    const pictureHeight = (await members.locator('svg').boundingBox())?.height ?? Infinity;
    const perDayHeight = (await phone.page.locator('.chart-panel svg').first().boundingBox())?.height ?? 0;
    console.log(`Top members, none: ${pictureHeight.toFixed(0)} px; per day: ${perDayHeight.toFixed(0)} px`);
    expect(pictureHeight).toBeLessThan(perDayHeight / 2);
    expect(await seriousViolations(phone.page)).toEqual([]);
    await phone.context.close();

    const desk = await loggedIn(MEMBER.id, DESK);
    await desk.page.goto(`${h.url}${SERVER}/month`);
    await poll(() => desk.page.getByText('Hover over a bar').isVisible()).toBe(true);
    expect(await desk.page.getByText('Tap a bar').isVisible()).toBe(false);
    await desk.context.close();
  }, 120_000);
});
