// Suites that need a real browser (fixtures/browser.ts launches it): `describeInBrowser(name, suite)` runs the
// suite when a Chromium is installed; without one it is skipped with one line saying how to install one, and under
// CI (the CI environment variable set) it fails instead, so a CI machine cannot pass by skipping.
// `answerConsent(page, userId, action)`: on the local Discord's consent page, signs in as that user and clicks
// Authorize (or Cancel); resolves once the browser has left the page (it is then on the website's redirect).
// `logInByRequest(context, dashboardUrl, userId)`: the same login (the dashboard's /login, the consent page's form
// answered as that user, /callback) asked with the context's own cookies and no page rendered, for a test whose
// subject is not the login. `keptTabs()`: a file's tabs kept from one test to the next, one a key.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { BROWSER_INSTALL_HINT, findBrowser, launchBrowser } from '../../fixtures/browser.ts';

/** What a browser suite does here: run, be skipped (no browser), or fail (no browser under CI). */
export function browserSuiteMode(browser: string | undefined, env: NodeJS.ProcessEnv): 'run' | 'skip' | 'fail' {
  if (browser !== undefined) return 'run';
  const ci = env['CI'];
  return ci !== undefined && ci !== '' && ci !== '0' && ci.toLowerCase() !== 'false' ? 'fail' : 'skip';
}

export function describeInBrowser(name: string, suite: () => void): void {
  const mode = browserSuiteMode(findBrowser(), process.env);
  if (mode === 'run') return void describe(name, suite);
  if (mode === 'fail')
    return void describe(name, () => {
      it('has a browser (CI is set)', () => {
        throw new Error(BROWSER_INSTALL_HINT);
      });
    });
  console.warn(`skipped "${name}": ${BROWSER_INSTALL_HINT}`);
  describe.skip(name, suite);
}

export async function answerConsent(
  page: Page,
  userId: string,
  action: 'Authorize' | 'Cancel' = 'Authorize',
): Promise<void> {
  const consentUrl = page.url();
  await page.getByLabel('Signed in as').selectOption(userId);
  await Promise.all([
    page.waitForURL((url) => url.toString() !== consentUrl),
    page.getByRole('button', { name: action }).click(),
  ]);
}

export async function logInByRequest(context: BrowserContext, dashboardUrl: string, userId: string): Promise<void> {
  const consent = await context.request.get(`${dashboardUrl}/login`);
  const form = await consent.text();
  const requestId = /name="request" value="([^"]+)"/.exec(form)?.[1];
  if (!consent.ok() || requestId === undefined)
    throw new Error(`no consent form at ${consent.url()}: ${consent.status()}`);
  // Authorize: the redirect to /callback is followed, and the dashboard's own redirect after it, as a browser does.
  const back = await context.request.post(new URL('/oauth2/authorize', consent.url()).href, {
    form: { request: requestId, user_id: userId, action: 'authorize' },
  });
  if (back.url() !== `${dashboardUrl}/` || !back.ok())
    throw new Error(`the login ended at ${back.url()}: ${back.status()}`);
}

/**
 * A file's tabs, one a key (a user, a script setting): opened by the first test that asks and given to the tests after
 * it (a new context and tab cost about as much Chromium as a page's render); opened anew when the last one failed to
 * open or was closed, so that one test's failure is not every later test's.
 */
export function keptTabs<K>(): (key: K, open: () => Promise<Page>) => Promise<Page> {
  const tabs = new Map<K, Promise<Page>>();
  return (key, open) => {
    const kept = tabs.get(key);
    const tab = kept === undefined ? open() : kept.then((page) => (page.isClosed() ? open() : page), open);
    tabs.set(key, tab);
    return tab;
  };
}

let shared: Promise<Browser> | undefined;

/**
 * The test worker's browser: launched by the first browser file the worker runs and kept for the next ones (the
 * `wall` project runs its files one after another in a worker's one module graph), so that a run starts a browser a
 * worker, not one a file; launched again if it went away. Playwright ends it with the worker's process.
 */
export async function workerBrowser(): Promise<Browser> {
  const current = await shared?.catch(() => undefined);
  if (current?.isConnected() === true) return current;
  shared = launchBrowser();
  return shared;
}

/**
 * The browser for the suite (or describe block) that calls this: the worker's, got before its tests; after them
 * every page and context they opened is closed, so the next file starts from a browser with nothing open.
 */
export function useBrowser(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await workerBrowser();
  }, 60_000);
  afterAll(async () => {
    await closeEverything(browser);
  });
  return () => {
    if (browser === undefined) throw new Error('the browser is launched in a hook: use it inside a test');
    return browser;
  };
}

/** Closes every context (and so every page) a file opened in the worker's browser. */
export async function closeEverything(browser: Browser | undefined): Promise<void> {
  if (browser?.isConnected() !== true) return;
  await Promise.all(browser.contexts().map((context) => context.close()));
}
