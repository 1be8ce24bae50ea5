// The playground's page API over real HTTP, as the page's script (or anyone with its token) calls it, without a
// browser or SayBot: the page server in front of a real local Discord (the playground's server), to show what it
// hands out and refuses.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_ID, FakeDiscord, fakeToken } from '@saybot/local-discord';
import { startPage, type Page } from '@saybot/playground/web.ts';
import { GUILD, PEOPLE } from '@saybot/playground/world.ts';

const OLIVIA = PEOPLE[2]!;
/** The dashboard's address: never reached here (its /login is where the page sends the browser). */
const DASHBOARD = 'http://127.0.0.1:9';

describe("the playground's page API", () => {
  let discord: FakeDiscord;
  let page: Page;
  let token: string;
  beforeAll(async () => {
    discord = await FakeDiscord.start({
      token: fakeToken(),
      applicationId: APP_ID,
      applicationOwnerId: OLIVIA.id,
      guilds: [GUILD],
      oauth2: { redirectUris: [`${DASHBOARD}/callback`] },
      log: () => undefined,
    });
    page = await startPage({ discord, dashboardUrl: DASHBOARD, speech: 'tones', host: '127.0.0.1', port: 0 });
    const html = await (await fetch(page.url)).text();
    token = /name="playground-token" content="([^"]+)"/.exec(html)![1]!;
  });
  afterAll(async () => {
    await page?.close();
    await discord?.close();
  });

  /** The dashboard's /login as SayBot's sends it on: Discord's authorize with prompt=none, from a browser's cookies. */
  const dashboardLogin = (cookie: string) =>
    fetch(discord.oauth2.authorizationUrl({ redirectUri: `${DASHBOARD}/callback`, state: 's', prompt: 'none' }), {
      headers: { cookie },
      redirect: 'manual',
    });

  it('the dashboard link signs in the browser that followed it, and no other client that asks after it', async () => {
    const link = await fetch(`${page.url}/dashboard?as=${OLIVIA.id}&token=${token}`, { redirect: 'manual' });
    expect(link.status).toBe(302);
    expect(link.headers.get('location')).toBe(`${DASHBOARD}/login`);
    // A client with an empty cookie jar, after it: Discord's consent page, nobody signed in.
    const stranger = await dashboardLogin('');
    expect(stranger.status).toBe(200);
    expect(await stranger.text()).not.toMatch(/selected>/);
    // The browser that clicked carries the link's cookie (host-only: 127.0.0.1, whatever the port) and is let in.
    const cookie = link.headers
      .getSetCookie()
      .map((c) => c.split(';')[0]!)
      .join('; ');
    const clicked = await dashboardLogin(cookie);
    expect(clicked.status).toBe(302);
    expect(new URL(clicked.headers.get('location')!).searchParams.has('code')).toBe(true);
  });
});
