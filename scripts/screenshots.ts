// `npm run screenshots` [--out <folder>] [--timeout <seconds>] [--only <name>]: the README's screenshots, made from
// the running demo rather than by hand. It starts the demo stack (demo/demo.ts runDemo: the local Discord, the sandbox
// Voice API and SayBot as `npm start` runs it) and, while it runs, saves a PNG of each page in PAGES with the tests'
// browser (fixtures/browser.ts: an installed Chromium, never a downloaded one); then the playground's page
// (`npm run playground`) with a member's /say answered. `--only` makes that one file. One line per file; exit 1
// with one line saying why on a failure.
//
// A page is { name, url(stack), prepare?(page, stack), once? }: `prepare` runs after the page loaded and before the
// shot (log in, fill a form, open a menu). Each dashboard page is shot at a laptop's 1280 px and a phone's 390 px, in
// light and dark (<name>-<width>-<scheme>.png); `once` pages (the local Discord's) at 1280 px in light only. The
// browser context is fresh for each shot. Each file is written as a palette PNG (scripts/png-palette.ts).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { BrowserContext, Page } from 'playwright-core';
import { PEOPLE, startPlayground } from '@saybot/playground';
import { runDemo, type DemoStack } from '../demo/demo.ts';
import { launchBrowser } from '../fixtures/browser.ts';
import { paletteSized } from './png-palette.ts';

interface ScreenshotPage {
  /** The file name, without .png. */
  name: string;
  url: (stack: DemoStack) => string;
  prepare?: (page: Page, stack: DemoStack) => Promise<void>;
  /** Shot once (1280 px, light), not at every width and scheme. */
  once?: boolean;
}

/** The widths and schemes every dashboard page is shot at. */
const VIEWS = [
  { width: 1280, height: 800, scheme: 'light' },
  { width: 1280, height: 800, scheme: 'dark' },
  { width: 390, height: 844, scheme: 'light' },
  { width: 390, height: 844, scheme: 'dark' },
] as const;

/** Where the consent page's shot says it would go (no website runs behind it). */
const EXAMPLE_REDIRECT = 'http://127.0.0.1:9/auth/discord/callback';

/**
 * Opens `path` of the dashboard as the demo manager: logged in already (the session of an earlier page, kept so that
 * the shots stay within the dashboard's logins per minute), else through the login.
 */
const dashboardPage = (path: string) => async (page: Page, stack: DemoStack) => {
  const login = page.getByRole('link', { name: 'Log in with Discord' });
  if ((await login.count()) > 0) {
    await login.click();
    // The login revokes its token, which ends the authorisation too: from the second login on, Discord asks again
    // (with the demo manager chosen already).
    if (page.url().includes('/oauth2/authorize')) await page.getByRole('button', { name: 'Authorize' }).click();
    await page.waitForURL(`${stack.dashboardUrl}/`);
  }
  if (path !== '/') await page.goto(`${stack.dashboardUrl}${path.replace('{guild}', stack.guildId)}`);
};

const PAGES: ScreenshotPage[] = [
  { name: 'dashboard-login', url: ({ dashboardUrl }) => dashboardUrl },
  { name: 'dashboard-servers', url: ({ dashboardUrl }) => `${dashboardUrl}/`, prepare: dashboardPage('/') },
  {
    name: 'dashboard-dictionary',
    url: ({ dashboardUrl }) => `${dashboardUrl}/`,
    prepare: async (page, stack) => {
      await dashboardPage('/servers/{guild}/dictionary')(page, stack);
      for (const [word, reading] of [
        ['gg', 'good game'],
        ['brb', 'be right back'],
        ['SayBot', 'say bot'],
      ] as const) {
        await page.getByLabel('Word or pattern').fill(word);
        await page.getByLabel('Reading', { exact: true }).fill(reading);
        await page.getByRole('button', { name: 'Add', exact: true }).click();
        await page.getByRole('status').waitFor();
      }
      await page.getByLabel('Sentence', { exact: true }).fill('gg everyone, brb');
      await page.getByRole('button', { name: 'Show the reading' }).click();
      await page.locator('blockquote').waitFor();
    },
  },
  {
    name: 'dashboard-server',
    url: ({ dashboardUrl }) => `${dashboardUrl}/`,
    prepare: dashboardPage('/servers/{guild}'),
  },
  {
    name: 'dashboard-my-voice',
    url: ({ dashboardUrl }) => `${dashboardUrl}/`,
    prepare: dashboardPage('/servers/{guild}/myvoice'),
  },
  {
    name: 'dashboard-my-data',
    url: ({ dashboardUrl }) => `${dashboardUrl}/`,
    prepare: dashboardPage('/servers/{guild}/mydata'),
  },
  {
    name: 'dashboard-voices',
    url: ({ dashboardUrl }) => `${dashboardUrl}/`,
    prepare: async (page, stack) => {
      await dashboardPage('/servers/{guild}/voices')(page, stack);
      // A free voice heard: its player shows, nothing spent.
      await page.getByRole('button', { name: 'Hear free-en-f', exact: true }).click();
      await page.locator('audio').waitFor();
    },
  },
  {
    name: 'dashboard-month',
    url: ({ dashboardUrl }) => `${dashboardUrl}/`,
    prepare: async (page, stack) => {
      await dashboardPage('/servers/{guild}/month')(page, stack);
      // The chart drawn by the page's script, one day's figures shown as on hover.
      const today = page.locator(`rect.hit[data-day="${new Date().toISOString().slice(0, 10)}"]`).first();
      await today.hover();
    },
  },
  {
    name: 'dashboard-autoread',
    url: ({ dashboardUrl }) => `${dashboardUrl}/`,
    prepare: dashboardPage('/servers/{guild}/autoread'),
  },
  {
    name: 'dashboard-scenes',
    url: ({ dashboardUrl }) => `${dashboardUrl}/`,
    prepare: dashboardPage('/servers/{guild}/scenes'),
  },
  {
    // The owner's console: the demo manager owns the demo's application (demo/demo.ts).
    name: 'dashboard-owner',
    url: ({ dashboardUrl }) => `${dashboardUrl}/`,
    prepare: dashboardPage('/owner'),
  },
  {
    name: 'dashboard-not-found',
    url: ({ dashboardUrl }) => `${dashboardUrl}/`,
    prepare: dashboardPage('/servers/{guild}/nothing-here'),
  },
  {
    name: 'local-discord-consent',
    once: true,
    url: ({ discord }) => {
      discord.oauth2.registerRedirectUri(EXAMPLE_REDIRECT);
      return discord.oauth2.authorizationUrl({ redirectUri: EXAMPLE_REDIRECT, state: 'screenshot' });
    },
  },
];

const { values } = parseArgs({
  options: {
    out: { type: 'string', default: path.join('docs', 'screenshots') },
    timeout: { type: 'string', default: '180' },
    only: { type: 'string' },
  },
});
const wanted = (name: string) => values.only === undefined || values.only === name;
const outDir = path.resolve(values.out);
const timeoutSeconds = Number(values.timeout);
if (!Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0) {
  console.error(`screenshots: --timeout must be a number of seconds above 0, got ${JSON.stringify(values.timeout)}`);
  process.exit(1);
}
mkdirSync(outDir, { recursive: true });

const browser = await launchBrowser().catch((error: unknown) => {
  console.error(`screenshots: ${String(error instanceof Error ? error.message : error).split('\n')[0]}`);
  process.exit(1);
});
// The demo's own results (audio, transcript, SayBot's log) are not wanted here.
const demoOut = mkdtempSync(path.join(tmpdir(), 'saybot-screenshots-'));
/** The playground's page as a member sees it: in the Lounge, listening, their /say answered, the next one begun. */
async function playgroundShot(): Promise<void> {
  const playground = await startPlayground({ speech: 'words' });
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  try {
    const page = await context.newPage();
    await page.goto(playground.url);
    await page.getByLabel('Who you are').selectOption(PEOPLE[0]!.id);
    await page.getByRole('button', { name: 'Join Lounge' }).click();
    await page.getByRole('button', { name: /Listen/ }).click();
    const input = page.getByRole('textbox', { name: 'Message or slash command' });
    await input.fill('Is SayBot here? I want to hear it.');
    await input.press('Enter');
    await input.fill('/say');
    await page.locator('[data-command="say"]').click();
    await page.locator('[data-option="text"]').fill('Hello from the playground!');
    await page.locator('[data-option="voice"]').fill('voice-b-en-f-01');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.locator('[data-message-id]').filter({ hasText: 'Spoke' }).waitFor({ timeout: 60_000 });
    await input.fill('/s');
    const file = path.join(outDir, 'playground.png');
    writeFileSync(file, paletteSized(await page.screenshot()));
    console.log(`screenshots: ${path.relative(process.cwd(), file)}`);
  } finally {
    await context.close();
    await playground.stop();
  }
}

try {
  if (PAGES.some((shot) => wanted(shot.name)))
    await runDemo({
      outDir: demoOut,
      signal: AbortSignal.timeout(timeoutSeconds * 1000),
      whileRunning: async (stack) => {
        // The dashboard's session cookie, once logged in, for the pages after.
        let signedIn: Awaited<ReturnType<BrowserContext['storageState']>> | undefined;
        for (const shot of PAGES.filter((page) => wanted(page.name)))
          for (const view of shot.once === true ? [VIEWS[0]] : VIEWS) {
            const context = await browser.newContext({
              viewport: { width: view.width, height: view.height },
              colorScheme: view.scheme,
              ...(shot.prepare && signedIn ? { storageState: signedIn } : {}),
            });
            try {
              const page = await context.newPage();
              await page.goto(shot.url(stack), { waitUntil: 'load' });
              await shot.prepare?.(page, stack);
              const name = shot.once === true ? shot.name : `${shot.name}-${view.width}-${view.scheme}`;
              const file = path.join(outDir, `${name}.png`);
              // Written as a palette PNG (scripts/png-palette.ts): a third of Chromium's PNG, the page's colours kept.
              writeFileSync(file, paletteSized(await page.screenshot({ fullPage: true })));
              if (shot.prepare) signedIn = await context.storageState();
              console.log(`screenshots: ${path.relative(process.cwd(), file)}`);
            } finally {
              await context.close();
            }
          }
      },
    });
  if (wanted('playground')) await playgroundShot();
  await browser.close();
  rmSync(demoOut, { recursive: true, force: true });
  process.exit(0);
} catch (error) {
  console.error(
    `screenshots: failed: ${String(error instanceof Error ? error.message : error).split('\n')[0]} (the demo's log: ${path.join(demoOut, 'saybot.log')})`,
  );
  await browser.close().catch(() => undefined);
  process.exit(1);
}
