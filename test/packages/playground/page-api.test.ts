// The playground's page API over real HTTP, as the page's script (or anyone with its token) calls it, without a
// browser or SayBot: the page server in front of a real local Discord (the playground's server), to show what it
// hands out and refuses; in SayBot's place a real child process that logs an error line and is killed underneath.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Events, MessageFlags, type Client } from 'discord.js';
import { FakeDiscord, startBotProcess } from '@saybot/local-discord';
import { watchSaybot } from '@saybot/playground/saybot-status.ts';
import { startPage, type Page } from '@saybot/playground/web.ts';
import { GUILD, PEOPLE } from '@saybot/playground/world.ts';
import { APP_ID, TOKEN, loginClient } from '../local-discord/helpers.ts';

const ALICE = PEOPLE[0]!;
const DANA = PEOPLE[1]!;
const GENERAL = GUILD.textChannelId!;
const OLIVIA = PEOPLE[2]!;
/** The dashboard's address: never reached here (its /login is where the page sends the browser). */
const DASHBOARD = 'http://127.0.0.1:9';
/** SayBot running, for the cases where it does not stop. */
const running = { stopped: () => undefined };
const STAND_IN = `
console.log(JSON.stringify({ level: 50, msg: 'the Voice API is unreachable' }));
console.log(JSON.stringify({ level: 30, msg: 'waiting' }));
setInterval(() => undefined, 1000);`;

describe("the playground's page API", () => {
  let discord: FakeDiscord;
  let page: Page;
  let token: string;
  /** A gateway client that receives interactions and never answers them (a hung SayBot). */
  let client: Client;
  beforeAll(async () => {
    discord = await FakeDiscord.start({
      token: TOKEN,
      applicationId: APP_ID,
      applicationOwnerId: OLIVIA.id,
      guilds: [GUILD],
      oauth2: { redirectUris: [`${DASHBOARD}/callback`] },
      log: () => undefined,
    });
    page = await startPage({
      discord,
      saybot: running,
      dashboardUrl: DASHBOARD,
      speech: 'tones',
      host: '127.0.0.1',
      port: 0,
    });
    client = await loginClient(discord);
    token = await tokenOf(page.url);
  });
  afterAll(async () => {
    await client?.destroy();
    await page?.close();
    await discord?.close();
  });

  /** The page's token, from its meta tag, as its script reads it. */
  const tokenOf = async (url: string) =>
    /name="playground-token" content="([^"]+)"/.exec(await (await fetch(url)).text())![1]!;
  const act = (url: string, pageToken: string, action: string, body: object) =>
    fetch(`${url}/api/${action}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-playground-token': pageToken },
      body: JSON.stringify(body),
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
    // SayBot's stand-in, a page of its own watching it: it logs an error as pino does (level 50), then waits.
    const bot = startBotProcess({
      entry: '',
      command: { argv: [process.execPath, '-e', STAND_IN], cwd: process.cwd() },
      env: {},
      caCertificatePem: discord.caCertificatePem,
    });
    const terminal: string[] = [];
    let watched: Page | undefined;
    try {
      await bot.waitForLine((l) => l['msg'] === 'waiting');
      const saybot = watchSaybot(bot, (line) => terminal.push(line));
      watched = await startPage({
        discord,
        saybot,
        dashboardUrl: DASHBOARD,
        speech: 'tones',
        host: '127.0.0.1',
        port: 0,
      });
      const state = async () =>
        (await (await fetch(`${watched!.url}/api/state?as=${OLIVIA.id}`)).json()) as {
          saybot: { stopped: string | null };
        };
      expect((await state()).saybot.stopped).toBeNull();
      process.kill(bot.child.pid!, 'SIGKILL');
      await expect
        .poll(async () => (await state()).saybot.stopped, { timeout: 10_000 })
        .toBe('SayBot stopped (signal SIGKILL): the Voice API is unreachable');
      const say = await act(watched.url, await tokenOf(watched.url), 'command', {
        as: OLIVIA.id,
        channelId: GUILD.textChannelId,
        name: 'say',
      });
      expect(say.status).toBe(503);
      expect(((await say.json()) as { error: string }).error).toMatch(/^SayBot stopped \(signal SIGKILL\).*Restart/);
      await expect.poll(() => terminal, { timeout: 10_000 }).toHaveLength(1);
      expect(terminal[0]).toMatch(/^SayBot stopped \(signal SIGKILL\): the Voice API is unreachable\. /);
    } finally {
      await watched?.close();
      await bot.stop();
    }
  });

  it("an interaction SayBot does not acknowledge within Discord's 3 s shows, to its member only, that it did not respond", async () => {
    const used = await act(page.url, token, 'command', { as: ALICE.id, channelId: GUILD.textChannelId, name: 'say' });
    expect(used.status).toBe(200);
    const general = async (as: string) => {
      const state = (await (await fetch(`${page.url}/api/state?as=${as}`)).json()) as {
        text: Array<{ id: string; messages: Array<{ content: string; interaction?: { name: string } }> }>;
      };
      return state.text.find((c) => c.id === GUILD.textChannelId)!.messages.map((m) => m.content);
    };
    expect(await general(ALICE.id)).not.toContain('The application did not respond');
    discord.advanceClock(3001);
    expect(await general(ALICE.id)).toContain('The application did not respond');
    expect(await general(OLIVIA.id)).not.toContain('The application did not respond');
  });

  it('a chat message over 2,000 characters is refused as Discord refuses it (50035), not cut short', async () => {
    const long = await act(page.url, token, 'post', {
      as: ALICE.id,
      channelId: GUILD.textChannelId,
      content: 'é'.repeat(2001),
    });
    expect(long.status).toBe(400);
    expect(((await long.json()) as { error: string }).error).toMatch(/Invalid Form Body.*2000 or fewer/);
    const state = (await (await fetch(`${page.url}/api/state?as=${ALICE.id}`)).json()) as {
      text: Array<{ messages: Array<{ content: string }> }>;
    };
    expect(state.text.flatMap((c) => c.messages).some((m) => m.content.startsWith('éé'))).toBe(false);
  });

  it('a command whose options break its declaration is refused as Discord refuses it, with the reason, and reaches no one', async () => {
    await client.application!.commands.set(
      [
        {
          name: 'speak',
          description: 'Speak',
          options: [
            { type: 3, name: 'text', description: 'Text', required: true, max_length: 4000 },
            { type: 10, name: 'speed', description: 'Speed', min_value: 0.5, max_value: 2 },
          ],
        },
      ],
      GUILD.id,
    );
    let received = 0;
    const count = () => (received += 1);
    client.on(Events.InteractionCreate, count);
    try {
      const cases: Array<[object[], RegExp]> = [
        [
          [
            { name: 'text', type: 3, value: 'hi' },
            { name: 'speed', type: 10, value: 7 },
          ],
          /speed: at most 2/,
        ],
        [[{ name: 'text', type: 3, value: 'x'.repeat(4001) }], /text: at most 4000 characters/],
        [[{ name: 'speed', type: 10, value: 1 }], /text: required/],
      ];
      for (const [options, why] of cases) {
        const answer = await act(page.url, token, 'command', {
          as: ALICE.id,
          channelId: GENERAL,
          name: 'speak',
          options,
        });
        expect(answer.status).toBe(400);
        expect(((await answer.json()) as { error: string }).error).toMatch(why);
      }
      expect(received).toBe(0);
    } finally {
      client.off(Events.InteractionCreate, count);
      await client.application!.commands.set([], GUILD.id);
    }
  });

  it("a member's private reply is no one else's: the page refuses another member's Speak menu or button on it", async () => {
    // SayBot (here the client) answers alice's command privately, with a button.
    const answered = new Promise<string>((resolve, reject) => {
      client.once(Events.InteractionCreate, (i) => {
        if (!i.isChatInputCommand()) return reject(new Error('expected a command'));
        i.reply({
          content: 'your voice: private',
          flags: MessageFlags.Ephemeral,
          components: [{ type: 1, components: [{ type: 2, style: 1, label: 'More', custom_id: 'more' }] }],
          withResponse: true,
        }).then((r) => resolve(r.resource!.message!.id), reject);
      });
    });
    expect((await act(page.url, token, 'command', { as: ALICE.id, channelId: GENERAL, name: 'myvoice' })).status).toBe(
      200,
    );
    const messageId = await answered;
    const sent = discord.interactions().length;
    const speak = await act(page.url, token, 'menu', { as: DANA.id, name: 'Speak', channelId: GENERAL, messageId });
    expect(speak.status).toBe(404);
    const press = await act(page.url, token, 'press', { as: DANA.id, messageId, customId: 'more' });
    expect(press.status).toBe(404);
    expect(((await press.json()) as { error: string }).error).toMatch(/Unknown Message/);
    expect(discord.interactions().length).toBe(sent);
    // Alice's own Speak menu on it reaches SayBot.
    expect(
      (await act(page.url, token, 'menu', { as: ALICE.id, name: 'Speak', channelId: GENERAL, messageId })).status,
    ).toBe(200);
    expect(discord.interactions().length).toBe(sent + 1);
  });
});
