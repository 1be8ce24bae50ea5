// The dashboard in a real browser (Debian's Chromium through playwright-core; skipped with one line without one,
// failed under CI): a manager logs in on the local Discord's consent page, edits the dictionary, imports 500
// entries and tries a sentence; a member changes their voice, and auto-read reads them in it in the voice channel.
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { exportDictionary } from '../../../src/features/autoread/index-dictionary.ts';
import { describeInBrowser, useBrowser } from '../../support/browser.ts';
import { postChat, startAutoRead } from '../../support/chat.ts';
import { seoulWith, useDashboard, managerAndMember } from '../../support/dashboard.ts';
import { runCommand } from '../../support/harness.ts';
import { LOUNGE, SEOUL, SEOUL_TEXT } from '../../support/world.ts';

const MANAGER = { id: '330000000000000001', username: 'manager' };
const MEMBER = { id: '330000000000000002', username: 'carol' };
const MEMBER_VOICE = 'voice-b-en-m-01';

/** Waits for the page as a person would, however busy the machine (vitest's own poll gives up after 1 s). */
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 30_000, interval: 50 });

describeInBrowser('the dashboard in a real browser', () => {
  const h = useDashboard({
    guilds: [
      seoulWith(
        managerAndMember({ ...MANAGER, voiceChannelId: LOUNGE }, { ...MEMBER, voiceChannelId: LOUNGE }),
        'en-US',
      ),
    ],
    config: { voiceIdleTimeoutMs: 60_000 },
  });
  const browser = useBrowser();

  /** A fresh browser context logged in as `userId` through the consent page; on the server's page. */
  async function loggedIn(userId: string): Promise<Page> {
    const page = await (await browser().newContext({ locale: 'en-US' })).newPage();
    page.on('dialog', (dialog) => void dialog.accept());
    await page.goto(h.url);
    await page.getByRole('link', { name: 'Log in with Discord' }).click();
    await page.getByLabel('Signed in as').selectOption(userId);
    await Promise.all([page.waitForURL(`${h.url}/`), page.getByRole('button', { name: 'Authorize' }).click()]);
    await page.getByRole('link', { name: 'Seoul' }).click();
    return page;
  }

  it('a manager logs in, adds, edits, moves and removes entries, imports 500 and tries a sentence', async () => {
    const page = await loggedIn(MANAGER.id);
    await page.getByRole('link', { name: 'Dictionary' }).click();
    await poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Dictionary · Seoul');

    await page.getByLabel('Word or pattern').fill('gg');
    await page.getByLabel('Reading', { exact: true }).fill('good game');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await poll(() => page.getByRole('status').textContent()).toBe('Added "gg".');

    await page.getByLabel('Reading: gg').fill('well played');
    await page.getByRole('button', { name: 'Save reading' }).click();
    await poll(() => page.getByRole('status').textContent()).toBe('Replaced the reading of "gg".');
    expect(
      (await runCommand(h, { guildId: SEOUL, userId: MANAGER.id, name: 'dictionary', subcommand: 'list' })).content,
    ).toContain('gg → well played');

    const entries = Array.from({ length: 500 }, (_, i) => ({ word: `w${i}`, reading: `reading ${i}` }));
    await page.getByLabel('Import a file (replaces the whole dictionary)').setInputFiles({
      name: 'dictionary.json',
      mimeType: 'application/json',
      buffer: Buffer.from(exportDictionary(entries)),
    });
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await poll(() => page.getByRole('status').textContent()).toBe('Imported 500 entries.');
    // 500 entries come 50 to a page; the last is found by the search, moved first, and is then first on page 1.
    await poll(() => page.locator('tbody tr').count()).toBe(50);
    await page.getByLabel('Search words and readings').fill('w499');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByLabel('Move to position: w499').fill('1');
    await page.getByRole('row', { name: /w499/ }).getByRole('button', { name: 'Move', exact: true }).click();
    await poll(() => page.getByRole('status').textContent()).toContain('w499');
    await page.goto(`${h.url}/servers/${SEOUL}/dictionary`);
    await poll(() => page.locator('tbody tr').first().textContent()).toContain('w499');

    await page
      .getByRole('row', { name: /\bw0\b/ })
      .getByRole('button', { name: 'Remove' })
      .click();
    await poll(() => page.getByRole('status').first().textContent()).toBe('Removed "w0".');

    await page.getByLabel('Sentence', { exact: true }).fill('w1 and w2');
    await page.getByRole('button', { name: 'Show the reading' }).click();
    await poll(() => page.locator('blockquote').textContent()).toBe('reading 1 and reading 2');
    // Heard in the manager's voice: its price first, then the audio the browser loads and can play.
    await page.getByRole('button', { name: 'Hear it' }).click();
    await page.getByRole('button', { name: /^Play it \(\d+ characters\)$/ }).click();
    await poll(() =>
      page.locator('audio').evaluate((audio) => (audio as unknown as { duration: number }).duration),
    ).toBeGreaterThan(0);
    await page.close();
  }, 120_000);

  it('a member changes their voice, and auto-read reads them in it in the voice channel', async () => {
    const page = await loggedIn(MEMBER.id);
    await page.getByRole('link', { name: 'My voice' }).click();
    await page.getByLabel('voice', { exact: true }).fill(MEMBER_VOICE);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await poll(() => page.getByRole('status').textContent()).toContain(MEMBER_VOICE);
    await page.close();

    await startAutoRead(h, SEOUL, MANAGER.id, { text: SEOUL_TEXT, voice: LOUNGE });
    const from = h.sandbox.requests.length;
    h.discord.clearAudio(SEOUL);
    expect(await postChat(h, { guildId: SEOUL, channelId: SEOUL_TEXT }, MEMBER, 'Hello from the dashboard.')).toBe(
      true,
    );
    await poll(() => h.sandbox.requests.slice(from).find((r) => r.endpoint === 'tts')?.voice).toBe(MEMBER_VOICE);
    const text = h.sandbox.requests.slice(from).find((r) => r.endpoint === 'tts')?.text ?? '';
    const audio = await h.discord.waitForAudio(SEOUL, {
      minSeconds: h.sandbox.expectedDurationSeconds(text) - 0.1,
      quietMs: 400,
    });
    expect(audio.seconds).toBeGreaterThan(h.sandbox.expectedDurationSeconds(text) - 0.1);
  }, 120_000);
});

describeInBrowser("the tests' browser", () => {
  const browser = useBrowser();

  it("opens no omnibox popup for a window, and turns off every feature Playwright's own flags did", async () => {
    const page = await (await browser().newContext()).newPage();
    const cdp = await browser().newBrowserCDPSession();
    const { targetInfos } = await cdp.send('Target.getTargets');
    await cdp.detach();
    expect(targetInfos.map((target) => target.url).filter((url) => url.startsWith('chrome://omnibox'))).toEqual([]);
    // Chromium reads the last --disable-features alone: it must hold every feature an earlier one named.
    await page.goto('chrome://version');
    const commandLine = (await page.locator('#command_line').textContent()) ?? '';
    const lists = [...commandLine.matchAll(/--disable-features=(\S+)/g)].map((m) => (m[1] ?? '').split(','));
    expect(lists.length).toBeGreaterThan(1);
    const last = new Set(lists.at(-1));
    expect(lists.flat().filter((feature) => !last.has(feature))).toEqual([]);
    expect(last).toContain('WebUIOmniboxPopup');
  });
});
