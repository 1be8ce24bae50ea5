// The playground's page API over real HTTP, as the page's script (or anyone with its token) calls it, without a
// browser or SayBot: the page server in front of a real local Discord (the playground's server), to show what it
// hands out and refuses; in SayBot's place a real child process that logs an error line and is killed underneath.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_ID, FakeDiscord, fakeToken, startBotProcess, type BotProcess } from '@saybot/local-discord';
import { watchSaybot } from '@saybot/playground/saybot-status.ts';
import { startPage, type Page } from '@saybot/playground/web.ts';
import { GUILD, PEOPLE } from '@saybot/playground/world.ts';

const OLIVIA = PEOPLE[2]!;
/** The dashboard's address: never reached here (its /login is where the page sends the browser). */
const DASHBOARD = 'http://127.0.0.1:9';
const STAND_IN = `
console.log(JSON.stringify({ level: 50, msg: 'the Voice API is unreachable' }));
console.log(JSON.stringify({ level: 30, msg: 'waiting' }));
setInterval(() => undefined, 1000);`;

describe("the playground's page API", () => {
  let discord: FakeDiscord;
  let page: Page;
  let token: string;
  let bot: BotProcess;
  /** What the playground printed in the terminal. */
  const terminal: string[] = [];
  beforeAll(async () => {
    discord = await FakeDiscord.start({
      token: fakeToken(),
      applicationId: APP_ID,
      applicationOwnerId: OLIVIA.id,
      guilds: [GUILD],
      oauth2: { redirectUris: [`${DASHBOARD}/callback`] },
      log: () => undefined,
    });
    // SayBot's stand-in: it logs an error as pino does (level 50), then waits to be killed.
    bot = startBotProcess({
      entry: '',
      command: { argv: [process.execPath, '-e', STAND_IN], cwd: process.cwd() },
      env: {},
      caCertificatePem: discord.caCertificatePem,
    });
    await bot.waitForLine((l) => l['msg'] === 'waiting');
    const saybot = watchSaybot(bot, (line) => terminal.push(line));
    page = await startPage({ discord, saybot, dashboardUrl: DASHBOARD, speech: 'tones', host: '127.0.0.1', port: 0 });
    const html = await (await fetch(page.url)).text();
    token = /name="playground-token" content="([^"]+)"/.exec(html)![1]!;
  });
  afterAll(async () => {
    await page?.close();
    await bot?.stop();
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

  it('SayBot killed underneath: the terminal says so once, the page shows why, and every action is refused', async () => {
    const state = async () =>
      (await (await fetch(`${page.url}/api/state?as=${OLIVIA.id}`)).json()) as { saybot: { stopped: string | null } };
    expect((await state()).saybot.stopped).toBeNull();
    process.kill(bot.child.pid!, 'SIGKILL');
    await expect
      .poll(async () => (await state()).saybot.stopped, { timeout: 10_000 })
      .toBe('SayBot stopped (signal SIGKILL): the Voice API is unreachable');
    const say = await fetch(`${page.url}/api/command`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-playground-token': token },
      body: JSON.stringify({ as: OLIVIA.id, channelId: GUILD.textChannelId, name: 'say', options: [] }),
    });
    expect(say.status).toBe(503);
    expect(((await say.json()) as { error: string }).error).toMatch(/^SayBot stopped \(signal SIGKILL\).*Restart/);
    await expect.poll(() => terminal, { timeout: 10_000 }).toHaveLength(1);
    expect(terminal[0]).toMatch(/^SayBot stopped \(signal SIGKILL\): the Voice API is unreachable\. /);
  });
});
