// "In voice now" with a helper bot, and the owner console's helper bots, in a real browser (Debian's Chromium through
// playwright-core; skipped with one line without one, failed under CI): each seat a line of its own (bot, channel,
// what it plays) that wraps on a phone; axe finds no serious or critical violation at 1280 and 390 px, light and dark;
// nothing scrolls sideways at 360 px.
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { seriousViolations, sideways } from '../../support/axe.ts';
import { describeInBrowser, logInByRequest, useBrowser } from '../../support/browser.ts';
import { seoulWith, useDashboard, managerAndMember } from '../../support/dashboard.ts';
import { runCommand } from '../../support/harness.ts';
import { LOUNGE, SEOUL } from '../../support/world.ts';

const OWNER = { id: '390000000000000931', username: 'owner', voiceChannelId: LOUNGE };
// A long channel name: a phone wraps it rather than scrolling sideways.
const STUDY = { id: '220000000000000936', name: 'the long quiet study room for reading aloud together' };
const MEMBER = { id: '390000000000000932', username: 'frances', voiceChannelId: STUDY.id };

const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 30_000, interval: 50 });

describeInBrowser('seats on the dashboard, in a browser', () => {
  const h = useDashboard({
    guilds: [
      {
        ...seoulWith(managerAndMember(OWNER, MEMBER), 'en-US'),
        voiceChannels: [{ id: LOUNGE, name: 'lounge' }, STUDY],
      },
    ],
    helpers: 1,
    discord: { applicationOwnerId: OWNER.id },
    config: { voiceIdleTimeoutMs: 60_000 },
  });
  const browser = useBrowser();

  /** axe at both widths in both schemes, sideways at 360 px: the problems, a line each. */
  async function problemsOf(page: Page, name: string): Promise<string[]> {
    const found: string[] = [];
    for (const [width, height] of [
      [1280, 800],
      [390, 844],
    ] as const) {
      await page.setViewportSize({ width, height });
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        for (const violation of await seriousViolations(page)) found.push(`${name} ${width} ${scheme}: ${violation}`);
      }
    }
    await page.setViewportSize({ width: 360, height: 740 });
    const wide = await sideways(page);
    if (wide > 0) found.push(`${name}: ${wide} px sideways`);
    await page.setViewportSize({ width: 1280, height: 800 });
    return found;
  }

  it("lists each seat in voice, and each helper in the owner's console; accessible at both widths and schemes", async () => {
    await runCommand(h, { guildId: SEOUL, userId: OWNER.id, name: 'join' });
    await runCommand(h, { guildId: SEOUL, userId: MEMBER.id, name: 'join' });
    const context = await browser().newContext({ locale: 'en-US', viewport: { width: 1280, height: 800 } });
    await logInByRequest(context, h.url, OWNER.id);
    const page = await context.newPage();
    await page.goto(`${h.url}/servers/${SEOUL}`);
    const seats = page.locator('#glance-in-voice-item .glance-seat');
    await poll(() => seats.count()).toBe(2);
    const lines = async () => (await seats.allTextContents()).map((line) => line.replace(/\s+/g, ' ').trim());
    expect(await lines()).toEqual([
      'SayBot In lounge Quiet, nothing waiting.',
      `SayBot 2 In ${STUDY.name} Quiet, nothing waiting.`,
    ]);
    expect(await problemsOf(page, 'in voice now')).toEqual([]);

    await page.goto(`${h.url}/owner#helpers`);
    const helpers = page.getByRole('region', { name: 'Helper bots' });
    await poll(() => helpers.isVisible()).toBe(true);
    expect((await helpers.getByRole('row').nth(1).textContent())?.replace(/\s+/g, ' ').trim()).toBe(
      'SayBot 2 online 1 1',
    );
    expect(await problemsOf(page, 'owner console')).toEqual([]);
    await context.close();
  }, 240_000);
});
