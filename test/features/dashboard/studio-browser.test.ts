// The studio's pages in a real browser (the dashboard's harness: Debian's Chromium through playwright-core): a paid
// sample is not requested before its price is clicked; a member hears three samples (two free voices, one from the
// cache) spending nothing, picks a voice and auto-read reads them in it in the voice channel; the month's chart,
// drawn in the browser, shows /usage's figures on hover; a manager changes an auto-read setting and the running bot
// reads with it.
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { describeInBrowser, keptTabs, logInByRequest, useBrowser } from '../../support/browser.ts';
import { postChat, startAutoRead } from '../../support/chat.ts';
import { seoulWith, useDashboard, managerAndMember } from '../../support/dashboard.ts';
import { booksSettled } from '../../support/books-settled.ts';
import { runCommand } from '../../support/harness.ts';
import { LOUNGE, SEOUL, SEOUL_TEXT } from '../../support/world.ts';

const MANAGER = { id: '350000000000000001', username: 'manager' };
const MEMBER = { id: '350000000000000002', username: 'dana' };
const PAID_VOICE = 'voice-b-en-f-01';
/** The paid sample test's own voice, so whether the other test made its sample first changes nothing. */
const FIRST_PAID = 'voice-b-en-m-01';
/** What a voice's sample says (the en strings' dashboard.voices.sampleText). */
const SAMPLE_TEXT = 'Hello! This is how I sound when SayBot speaks with my voice.';

describeInBrowser('the studio in a real browser', () => {
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

  /** A browser context and tab logged in as `userId` (by request: no test here is about the login). */
  async function newTab(userId: string): Promise<Page> {
    const context = await browser().newContext({ locale: 'en-US' });
    await logInByRequest(context, h.url, userId);
    const page = await context.newPage();
    page.on('dialog', (dialog) => void dialog.accept());
    return page;
  }

  /**
   * `userId`'s tab, opened by the first test that asks and kept for the file (a new context and tab cost about as much
   * Chromium as a page's render), at a new context's size (1280 x 720), on the server's page that `link` names, by
   * its links: the servers' list, the server, the link.
   */
  const tabs = keptTabs<string>();
  async function loggedIn(userId: string, link: 'Voices' | 'The month' | 'Auto-read'): Promise<Page> {
    const page = await tabs(userId, () => newTab(userId));
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto(h.url);
    await page.getByRole('link', { name: 'Seoul' }).click();
    await page.getByRole('link', { name: link, exact: true }).click();
    return page;
  }

  // A voice's sample requests, by their text: another test's /say or auto-read may speak in the same voice.
  const ttsFor = (voice: string) =>
    h.sandbox.requests.filter((r) => r.endpoint === 'tts' && r.voice === voice && r.text === SAMPLE_TEXT).length;
  const audioLoaded = (page: Page) =>
    expect
      .poll(() => page.locator('audio').evaluate((audio) => (audio as unknown as { duration: number }).duration), {
        timeout: 10_000,
      })
      .toBeGreaterThan(0);

  it('shows a paid sample its price and requests it only on the click', async () => {
    const page = await loggedIn(MANAGER.id, 'Voices');
    await page.getByRole('button', { name: `Hear ${FIRST_PAID}`, exact: true }).click();
    const pay = page.getByRole('button', { name: /^Play it \(\d+ characters\)$/ });
    await expect.poll(() => pay.count()).toBe(1);
    expect(await page.locator('audio').count()).toBe(0);
    expect(ttsFor(FIRST_PAID)).toBe(0);
    await pay.click();
    await audioLoaded(page);
    expect(ttsFor(FIRST_PAID)).toBe(1);
  });

  it('a member hears two free voices and a cached one for nothing, picks one and is read in it', async () => {
    // The cached sample: made here (paid, by the manager) unless an earlier run of this test in the file made it.
    if (ttsFor(PAID_VOICE) === 0) {
      const manager = await loggedIn(MANAGER.id, 'Voices');
      await manager.getByRole('button', { name: `Hear ${PAID_VOICE}`, exact: true }).click();
      await manager.getByRole('button', { name: /^Play it \(\d+ characters\)$/ }).click();
      await audioLoaded(manager);
    }
    // Only the samples' own requests count: another test's /say or auto-read may still be paying for its parts.
    const samplesAsked = () => h.sandbox.requests.filter((r) => r.text === SAMPLE_TEXT).length;
    const requestsBefore = samplesAsked();
    // The member's day as /usage gives it (another test's auto-read may have read them already today).
    const youToday = async () =>
      /^You today: .*$/m.exec(
        (await runCommand(h, { guildId: SEOUL, userId: MEMBER.id, name: 'usage', locale: 'en-US' })).content,
      )?.[0];
    const todayBefore = await youToday();
    const page = await loggedIn(MEMBER.id, 'Voices');
    await page.getByLabel('Language').selectOption({ label: 'English' });
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(() => page.locator('li.voice').count()).toBeGreaterThan(2);
    expect(await page.locator('li.voice[data-voice="voice-b-ko-f-01"]').count()).toBe(0);

    for (const voice of ['free-en-f', 'free-en-m', PAID_VOICE]) {
      await page.getByRole('button', { name: `Hear ${voice}`, exact: true }).click();
      await expect.poll(() => page.getByRole('heading', { level: 2 }).first().textContent()).toBe(`Sample of ${voice}`);
      await expect
        .poll(() => page.getByRole('status').last().textContent())
        .toContain('This cost nothing (the free voice, or already in the cache).');
      await audioLoaded(page);
    }
    // The list stayed filtered through the samples.
    expect(await page.locator('li.voice[data-voice="voice-b-ko-f-01"]').count()).toBe(0);
    // Nothing asked of the Voice API, nothing spent.
    expect(samplesAsked()).toBe(requestsBefore);
    expect(todayBefore).toBeDefined();
    expect(await youToday()).toBe(todayBefore);

    await page.getByRole('button', { name: `Use ${PAID_VOICE}`, exact: true }).click();
    await expect
      .poll(() => page.getByRole('status').first().textContent())
      .toBe(`SayBot now speaks for you in ${PAID_VOICE} in this server.`);

    await startAutoRead(h, SEOUL, MANAGER.id, { text: SEOUL_TEXT, voice: LOUNGE });
    const from = h.sandbox.requests.length;
    h.discord.clearAudio(SEOUL);
    expect(await postChat(h, { guildId: SEOUL, channelId: SEOUL_TEXT }, MEMBER, 'Read me in my new voice.')).toBe(true);
    await expect
      .poll(() => h.sandbox.requests.slice(from).find((r) => r.endpoint === 'tts')?.voice, { timeout: 15_000 })
      .toBe(PAID_VOICE);
    const text = h.sandbox.requests.slice(from).find((r) => r.endpoint === 'tts')?.text ?? '';
    const audio = await h.discord.waitForAudio(SEOUL, {
      minSeconds: h.sandbox.expectedDurationSeconds(text) - 0.1,
      quietMs: 400,
    });
    expect(audio.seconds).toBeGreaterThan(h.sandbox.expectedDurationSeconds(text) - 0.1);
  }, 90_000);

  it("draws the month's chart in the browser with /usage's figures, shown on hover", async () => {
    const { handle } = await runCommand(h, {
      guildId: SEOUL,
      userId: MANAGER.id,
      name: 'say',
      options: { text: 'Count me in the month.' },
    });
    // Spoken and on the books, and so is what the test before left reading: the month does not move after /usage.
    await handle.waitFor((r) => /^Spoke/.test(r.content ?? ''), 30_000);
    await booksSettled(h);
    const usage = (await runCommand(h, { guildId: SEOUL, userId: MANAGER.id, name: 'usage', locale: 'en-US' })).content;
    const [, spent, saved] = /This server: ([\d,]+) characters spent, ([\d,]+) saved by the cache/.exec(usage) ?? [];
    expect(Number(spent?.replaceAll(',', ''))).toBeGreaterThan(0);
    const page = await loggedIn(MANAGER.id, 'The month');
    const today = new Date().toISOString().slice(0, 10);
    // Every character of this test run was spent today: today's bar is the server's month.
    await page.locator(`rect.hit[data-day="${today}"]`).first().hover();
    await expect
      .poll(() => page.locator('#month-readout').textContent())
      .toBe(`${today}: Spent ${spent} · Saved by the cache ${saved}`);
    await page.locator(`rect.hit[data-day="${today}"]`).last().hover();
    await expect
      .poll(() => page.locator('#month-readout').textContent())
      .toMatch(new RegExp(`^${today}: Spent this month ${spent}`));
    // Each panel is one picture named by its figures in words: the top members' names each member (other tests'
    // members too, whatever the order) with theirs.
    expect(await page.getByRole('img', { name: /(: |, )manager [\d,]+(,|$)/ }).count()).toBe(1);
    // On a phone the chart is drawn again at its width: its words at their own size, not a 720-wide picture shrunk.
    await page.setViewportSize({ width: 390, height: 844 });
    const scale = () =>
      page.evaluate<number>(
        "(() => { const svg = document.querySelector('svg.chart'); return svg.getBoundingClientRect().width / svg.viewBox.baseVal.width; })()",
      );
    await expect.poll(scale).toBeGreaterThan(0.95);
  }, 90_000);

  it('a manager changes an auto-read setting on its page, and the running bot reads with it', async () => {
    await startAutoRead(h, SEOUL, MANAGER.id, { text: SEOUL_TEXT, voice: LOUNGE });
    const long = 'This message is long enough that a limit of twenty characters cuts it short.';
    const spokenAfter = async (from: number) => {
      await expect
        .poll(() => h.sandbox.requests.slice(from).find((r) => r.endpoint === 'tts')?.text, { timeout: 15_000 })
        .toBeDefined();
      return h.sandbox.requests.slice(from).find((r) => r.endpoint === 'tts')?.text ?? '';
    };
    let from = h.sandbox.requests.length;
    expect(await postChat(h, { guildId: SEOUL, channelId: SEOUL_TEXT }, MEMBER, long)).toBe(true);
    expect(await spokenAfter(from)).toContain('cuts it short');

    const page = await loggedIn(MANAGER.id, 'Auto-read');
    expect(await page.locator('main').textContent()).toMatch(
      /Reading the chat of channel #\S+ aloud in voice channel lounge\./,
    );
    await page.getByLabel('max_length', { exact: true }).fill('20');
    await page.getByRole('button', { name: 'Save the settings' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toContain('longest message: 20 characters');

    from = h.sandbox.requests.length;
    expect(await postChat(h, { guildId: SEOUL, channelId: SEOUL_TEXT }, MEMBER, long)).toBe(true);
    const spoken = await spokenAfter(from);
    expect(spoken).not.toContain('cuts it short');
    expect(spoken).toContain('This message');
  });
});
