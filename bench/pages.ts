// Figure 18 of npm run bench (issue 57): each dashboard page as a browser first gets it, in the real browser
// (Debian's Chromium, fixtures/browser.ts) against the running demo (demo/demo.ts: the local Discord, the sandbox and
// SayBot as `npm start` runs it): the bytes transferred (as sent: compressed where SayBot compresses; headers
// not counted) and the requests, in a fresh context (no cache) signed in as the member, the manager and the owner
// (the demo manager owns the application), audio excluded (none plays until asked). And whether its first render
// works without script: the same title, the same forms (their actions) and the same links with script off.
// Goal: under 150 KB a page.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { DEMO_MEMBER, runDemo, signInDemoManager, type DemoStack } from '../demo/demo.ts';
import { launchBrowser } from '../fixtures/browser.ts';

const GOAL_BYTES = 150 * 1024;

/** The pages weighed, and who sees each (a member sees the first ones; a manager every server page; the owner all). */
const PAGES: ReadonlyArray<{ name: string; path: string; who: ReadonlyArray<'member' | 'manager'> }> = [
  { name: 'servers', path: '/', who: ['member', 'manager'] },
  { name: 'server', path: '/servers/{guild}', who: ['member', 'manager'] },
  { name: 'voices', path: '/servers/{guild}/voices', who: ['member', 'manager'] },
  { name: 'my voice', path: '/servers/{guild}/myvoice', who: ['member', 'manager'] },
  { name: 'scenes (studio)', path: '/servers/{guild}/scenes', who: ['member', 'manager'] },
  { name: 'month', path: '/servers/{guild}/month', who: ['member', 'manager'] },
  { name: 'my data', path: '/servers/{guild}/mydata', who: ['member', 'manager'] },
  { name: 'dictionary', path: '/servers/{guild}/dictionary', who: ['manager'] },
  { name: 'auto-read', path: '/servers/{guild}/autoread', who: ['manager'] },
  { name: 'owner console', path: '/owner', who: ['manager'] },
];

interface Row {
  page: string;
  view: string;
  bytes: number;
  requests: number;
  withoutScript: boolean;
}

/** What a first render must show without script: its title, its forms' actions and its links. */
const OUTLINE = `JSON.stringify({
  title: document.querySelector('h1')?.textContent.trim(),
  forms: [...document.querySelectorAll('form')].map((form) => form.getAttribute('action')).sort(),
  links: [...document.querySelectorAll('main a[href]')].map((link) => link.getAttribute('href')).sort(),
})`;

/** A context signed in to the dashboard as whoever the local Discord has signed in. */
async function signedIn(browser: Browser, stack: DemoStack): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
  const page = await context.newPage();
  await page.goto(stack.dashboardUrl);
  await page.getByRole('link', { name: 'Log in with Discord' }).click();
  if (page.url().includes('/oauth2/authorize')) await page.getByRole('button', { name: 'Authorize' }).click();
  await page.waitForURL(`${stack.dashboardUrl}/`);
  await page.close();
  return context;
}

/** One page's first load in a fresh context holding `session`'s cookies: bytes as transferred, and requests. */
async function weigh(
  browser: Browser,
  session: BrowserContext,
  url: string,
  javaScript: boolean,
): Promise<{ bytes: number; requests: number; outline: string }> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    locale: 'en-US',
    javaScriptEnabled: javaScript,
    storageState: await session.storageState(),
  });
  try {
    const page: Page = await context.newPage();
    const sizes: Array<Promise<number>> = [];
    page.on('requestfinished', (request) => {
      if (request.resourceType() === 'media') return;
      sizes.push(request.sizes().then((size) => size.responseBodySize));
    });
    await page.goto(url, { waitUntil: 'networkidle' });
    const all = await Promise.all(sizes);
    return {
      bytes: all.reduce((sum, size) => sum + size, 0),
      requests: all.length,
      outline: await page.evaluate<string>(OUTLINE),
    };
  } finally {
    await context.close();
  }
}

export async function measurePages(log: (line: string) => void): Promise<string> {
  const title = '## 18. Dashboard pages: bytes and requests of a first load, and without script (issue 57)';
  const browser = await launchBrowser().catch((error: unknown) => error as Error);
  if (browser instanceof Error) {
    log(`pages: no browser: figure 18 skipped (${browser.message.split('\n')[0]})`);
    return `${title}\n\nSkipped: no Chromium installed (${browser.message.split('\n')[0]}).`;
  }
  const demoOut = mkdtempSync(path.join(tmpdir(), 'saybot-bench-pages-'));
  const rows: Row[] = [];
  try {
    await runDemo({
      outDir: demoOut,
      signal: AbortSignal.timeout(600_000),
      whileRunning: async (stack) => {
        const manager = await signedIn(browser, stack);
        // The member next: the local Discord's browser session is theirs for this login, then the manager's again.
        stack.discord.oauth2.preauthorize(DEMO_MEMBER.id, ['identify', 'guilds']);
        stack.discord.oauth2.signIn(DEMO_MEMBER.id);
        const member = await signedIn(browser, stack);
        signInDemoManager(stack.discord);
        for (const [view, session] of [
          ['member', member],
          ['manager', manager],
        ] as const)
          for (const each of PAGES.filter((p) => p.who.includes(view))) {
            const url = `${stack.dashboardUrl}${each.path.replace('{guild}', stack.guildId)}`;
            const withScript = await weigh(browser, session, url, true);
            const without = await weigh(browser, session, url, false);
            const shown = each.path === '/owner' ? 'owner' : view;
            rows.push({
              page: each.name,
              view: shown,
              bytes: withScript.bytes,
              requests: withScript.requests,
              withoutScript: without.outline === withScript.outline,
            });
            log(
              `pages: ${each.name} (${shown}) ${(withScript.bytes / 1024).toFixed(1)} KB, ${withScript.requests} requests`,
            );
          }
        await member.close();
        await manager.close();
      },
    });
  } finally {
    await browser.close();
    rmSync(demoOut, { recursive: true, force: true });
  }
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  return [
    title,
    '',
    "Each page loaded once in a fresh browser context (nothing cached) against the running demo, signed in as a member, as the demo server's manager, and as the owner (the console): the response bodies as transferred (compressed where SayBot compresses them; headers not counted) of every request until the network is idle (the page, the stylesheet, scripts, Discord's pictures from the local CDN), audio excluded. Without script: the same page loaded with script off shows the same title, forms and links. Goal: under 150 KB a page.",
    '',
    '| Page | Seen as | Transferred | Requests | Under 150 KB | Without script |',
    '|---|---|---|---|---|---|',
    ...rows.map(
      (row) =>
        `| ${row.page} | ${row.view} | ${kb(row.bytes)} | ${row.requests} | ${row.bytes < GOAL_BYTES ? 'yes' : '**no**'} | ${row.withoutScript ? 'works' : '**differs**'} |`,
    ),
  ].join('\n');
}
