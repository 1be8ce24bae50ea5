// The browser harness proven on the local Discord's consent page: a real Chromium (Debian's, never a downloaded one)
// chooses who is signed in, clicks Authorize, and lands on the website's redirect with a code and the state; the
// code then buys that user's token. Without a browser the suite is skipped with one line (failed under CI).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { FakeDiscord } from '@saybot/local-discord';
import {
  closeEverything,
  answerConsent,
  browserSuiteMode,
  describeInBrowser,
  keptTabs,
  workerBrowser,
} from '../../support/browser.ts';
import { APP_ID, TOKEN, guildSpec } from './helpers.ts';

const g1 = guildSpec(1);
const BOB = g1.members[1]!;

describe('browser suites without a browser', () => {
  it('are skipped, or fail when CI is set', () => {
    expect(browserSuiteMode('/usr/bin/chromium', { CI: 'true' })).toBe('run');
    expect(browserSuiteMode(undefined, {})).toBe('skip');
    expect(browserSuiteMode(undefined, { CI: 'false' })).toBe('skip');
    expect(browserSuiteMode(undefined, { CI: 'true' })).toBe('fail');
    expect(browserSuiteMode(undefined, { CI: '1' })).toBe('fail');
  });
});

describe("a file's kept tabs", () => {
  it('give the same tab to the next test, and open anew after a failed open or a closed tab', async () => {
    const tab = (closed: boolean) => ({ isClosed: () => closed }) as unknown as Page;
    const tabs = keptTabs<string>();
    const first = tab(false);
    expect(await tabs('a', () => Promise.resolve(first))).toBe(first);
    expect(await tabs('a', () => Promise.resolve(tab(false)))).toBe(first);
    await expect(tabs('b', () => Promise.reject(new Error('no login')))).rejects.toThrow('no login');
    const second = tab(true);
    expect(await tabs('b', () => Promise.resolve(second))).toBe(second);
    const third = tab(false);
    expect(await tabs('b', () => Promise.resolve(third))).toBe(third);
  });
});

describeInBrowser('the local Discord’s consent page in a real browser', () => {
  let fake: FakeDiscord;
  let website: Server;
  let redirectUri: string;
  let browser: Browser;
  beforeAll(async () => {
    // The website: its callback only says it was reached (the test reads the URL the browser landed on).
    website = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('landed'));
    await new Promise<void>((resolve) => website.listen(0, '127.0.0.1', resolve));
    redirectUri = `http://127.0.0.1:${(website.address() as AddressInfo).port}/auth/callback`;
    fake = await FakeDiscord.start({
      token: TOKEN,
      applicationId: APP_ID,
      guilds: [g1],
      oauth2: { redirectUris: [redirectUri] },
      log: () => undefined,
    });
    browser = await workerBrowser();
  });
  afterAll(async () => {
    await closeEverything(browser);
    await fake?.close();
    website?.closeAllConnections();
    await new Promise((resolve) => website?.close(resolve));
  });

  it('a member chooses who they are, clicks Authorize, and lands on the redirect with a code and the state', async () => {
    const page = await browser.newPage();
    await page.goto(fake.oauth2.authorizationUrl({ redirectUri, state: 'state-from-the-cookie' }));
    await answerConsent(page, BOB.id);
    const landed = new URL(page.url());
    expect(`${landed.origin}${landed.pathname}`).toBe(redirectUri);
    expect(await page.textContent('body')).toBe('landed');
    expect(landed.searchParams.get('state')).toBe('state-from-the-cookie');
    const code = landed.searchParams.get('code')!;

    const answer = await fetch(fake.oauth2.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        client_id: fake.oauth2.clientId,
        client_secret: fake.oauth2.clientSecret,
        grant_type: 'authorization_code',
        code,
        redirect_uri: redirectUri,
      }),
    });
    const { access_token: accessToken } = (await answer.json()) as { access_token: string };
    const me = (await (
      await fetch(`${fake.oauth2.apiUrl}/users/@me`, { headers: { authorization: `Bearer ${accessToken}` } })
    ).json()) as { id: string };
    expect(me.id).toBe(BOB.id);
    await page.close();
  });
});
