// The playground's page as a Discord client, in a real browser: what a member sees of messages (Discord's Markdown,
// pictures with their alt text, the line above an interaction's answer), of the server changing under them (SayBot
// leaving, a member removed), and how the command picker and forms take the keyboard. The page server runs in front
// of a real local Discord (the playground's server); in SayBot's place a discord.js client answers as a bot does.
import { crc32, deflateSync } from 'node:zlib';
import { Events, MessageFlags, type Client, type TextChannel } from 'discord.js';
import type { BrowserContext, Page as BrowserPage, Route } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FakeDiscord } from '@saybot/local-discord';
import { startPage, type Page } from '@saybot/playground/web.ts';
import { GENERAL, GUILD, GUILD_ID, LOUNGE, PEOPLE, READ_ALOUD } from '@saybot/playground/world.ts';
import { seriousViolations } from '../../support/axe.ts';
import { describeInBrowser, useBrowser } from '../../support/browser.ts';
import { APP_ID, TOKEN, loginClient } from '../local-discord/helpers.ts';

const [ALICE, DANA, OLIVIA] = PEOPLE as [(typeof PEOPLE)[number], (typeof PEOPLE)[number], (typeof PEOPLE)[number]];
/** The browser's getComputedStyle, for a look at what a person sees (the tests have no DOM types). */
interface Styled {
  getComputedStyle(node: unknown): { color: string };
}
/** The dashboard's address: never reached here. */
const DASHBOARD = 'http://127.0.0.1:9';

/** A small PNG (a width × height blue rectangle), as the /usage chart is one. */
function png(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bits per sample
  header[9] = 2; // RGB
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) rows[y * (width * 3 + 1) + 1 + x * 3 + 2] = 200;
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describeInBrowser("the playground's page shows the server as Discord's client does", () => {
  const browser = useBrowser();
  let discord: FakeDiscord;
  let server: Page;
  /** SayBot's stand-in: /say answers with a ▶ Play button, /scene save with a form; both are answered in turn. */
  let bot: Client;
  let context: BrowserContext;
  let page: BrowserPage;
  const pageErrors: string[] = [];
  /** The text of every /say SayBot's stand-in received, in order. */
  const said: string[] = [];

  beforeAll(async () => {
    discord = await FakeDiscord.start({
      token: TOKEN,
      applicationId: APP_ID,
      applicationOwnerId: OLIVIA.id,
      guilds: [GUILD],
      oauth2: { redirectUris: [`${DASHBOARD}/callback`] },
      log: () => undefined,
    });
    server = await startPage({
      discord,
      saybot: { stopped: () => undefined },
      dashboardUrl: DASHBOARD,
      speech: 'tones',
      host: '127.0.0.1',
      port: 0,
    });
    bot = await loginClient(discord);
    await bot.application!.commands.set([
      {
        name: 'say',
        description: 'Say something in the voice channel',
        options: [
          { type: 3, name: 'text', description: 'What to say', required: true },
          { type: 3, name: 'voice', description: 'Whose voice', autocomplete: true },
          { type: 10, name: 'speed', description: 'How fast', min_value: 0.5, max_value: 2 },
          { type: 3, name: 'note', description: 'A note', max_length: 10 },
        ],
      },
      {
        name: 'scene',
        description: 'Scenes',
        options: [
          {
            type: 1,
            name: 'save',
            description: 'Save a scene',
            options: [{ type: 3, name: 'name', description: 'Its name', required: true }],
          },
        ],
      },
    ]);
    bot.on(Events.InteractionCreate, (interaction) => {
      const answer = async () => {
        if (interaction.isChatInputCommand() && interaction.commandName === 'say') {
          said.push(interaction.options.getString('text', true));
          await interaction.reply({
            content: `Spoke **${interaction.options.getString('text', true)}** in \`voice-b-en-f-01\``,
            components: [
              { type: 1, components: [{ type: 2, style: 2, label: '▶ Play', custom_id: 'say:play:t31FZa9' }] },
            ],
            allowedMentions: { parse: [] },
          });
        } else if (interaction.isChatInputCommand() && interaction.commandName === 'scene')
          await interaction.showModal({
            custom_id: 'scene:form:new::wav',
            title: 'Write a scene',
            components: [{ type: 18, label: 'Script', component: { type: 4, custom_id: 'script', style: 2 } }],
          });
        else if (interaction.isAutocomplete())
          await interaction.respond([{ name: 'voice-b-en-f-01', value: 'voice-b-en-f-01' }]);
        else if (interaction.isModalSubmit())
          await interaction.reply({ content: 'Saved the scene **greeting**', flags: MessageFlags.Ephemeral });
        else if (interaction.isButton()) await interaction.reply({ content: 'Playing it **again**' });
      };
      void answer().catch(() => undefined);
    });
    context = await browser().newContext({ locale: 'en-US', timezoneId: 'UTC' });
    page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) pageErrors.push(message.text());
    });
    await page.goto(server.url);
  });
  afterAll(async () => {
    await context?.close();
    await bot?.destroy();
    await server?.close();
    await discord?.close();
  });

  const general = async () => (await bot.channels.fetch(GENERAL)) as TextChannel;
  const as = async (person: (typeof PEOPLE)[number]) => {
    await page.getByLabel('Who you are').selectOption(person.id);
    await page.getByRole('button', { name: '# general' }).click();
  };
  const message = (text: string | RegExp) => page.locator('#messages [data-message-id]').filter({ hasText: text });
  const input = () => page.getByRole('textbox', { name: 'Message or slash command' });

  it("draws Discord's Markdown, links only to http(s), and no HTML from a message", async () => {
    await as(ALICE);
    await (
      await general()
    ).send({
      content: [
        '# Usage this month',
        '**bold** *italic* _also italic_ __underlined__ ~~struck~~ `voice-b-en-f-01` snake_case_name',
        '> quoted by <@' + ALICE.id + '> in <#' + READ_ALOUD + '>',
        '- first point',
        '- second point',
        '1. step one',
        '2. step two',
        '-# small print',
        'The [manual](https://example.com/manual) and [a trap](javascript:alert(1)), resets <t:0:D>.',
        'A secret: ||the twist|| and <img src=x onerror=alert(1)>',
        '```ts',
        'const line = "**not bold**";',
        '```',
      ].join('\n'),
      allowedMentions: { parse: [] },
    });
    const shown = message('Usage this month');
    await shown.waitFor();
    await expect.poll(() => shown.getByRole('heading', { name: 'Usage this month' }).count()).toBe(1);
    expect(await shown.locator('strong').allTextContents()).toEqual(['bold']);
    expect(await shown.locator('em').allTextContents()).toEqual(['italic', 'also italic']);
    expect(await shown.locator('u').textContent()).toBe('underlined');
    expect(await shown.locator('s').textContent()).toBe('struck');
    expect(await shown.locator('code.inline').textContent()).toBe('voice-b-en-f-01');
    expect(await shown.locator('blockquote').textContent()).toBe('quoted by @alice in #read-aloud');
    expect(await shown.locator('ul > li').allTextContents()).toEqual(['first point', 'second point']);
    expect(await shown.locator('ol > li').allTextContents()).toEqual(['step one', 'step two']);
    expect(await shown.locator('.subtext').textContent()).toBe('small print');
    expect(await shown.locator('pre code').textContent()).toBe('const line = "**not bold**";');
    // A masked link shows its text and, on hover, where it goes; a javascript: one is no link at all.
    const manual = shown.getByRole('link', { name: 'manual' });
    expect(await manual.getAttribute('href')).toBe('https://example.com/manual');
    expect(await manual.getAttribute('title')).toBe('https://example.com/manual');
    expect(await shown.locator('a').count()).toBe(1);
    expect(await shown.locator('time').textContent()).toBe('January 1, 1970');
    // Nothing of the text became HTML, and no Markdown sign is left where it was a style.
    expect(await shown.locator('img').count()).toBe(0);
    const text = (await shown.textContent()) ?? '';
    expect(text).toContain('<img src=x onerror=alert(1)>');
    expect(text).toContain('snake_case_name');
    expect(text.replace('"**not bold**"', '')).not.toMatch(/\*\*|__|~~|`/);
    // A spoiler is hidden until clicked.
    const spoiler = shown.getByRole('button', { name: 'Spoiler' });
    const colour = () =>
      shown
        .locator('.spoiler > span')
        .evaluate((node: unknown) => (globalThis as unknown as Styled).getComputedStyle(node).color);
    expect(await colour()).toBe('rgba(0, 0, 0, 0)');
    // Hidden, it is a button named "Spoiler" and nothing more: its words are neither seen nor its name's text.
    expect(await seriousViolations(page)).toEqual([]);
    await spoiler.click();
    await expect.poll(colour).not.toBe('rgba(0, 0, 0, 0)');
    expect(await seriousViolations(page)).toEqual([]);
    expect(pageErrors).toEqual([]);
  });

  it('shows a picture in the message, described by its alt text', async () => {
    await as(ALICE);
    await (
      await general()
    ).send({
      content: '**Usage in 2026-11**',
      files: [
        { attachment: png(40, 20), name: 'usage-2026-11.png', description: 'Characters spent each day of 2026-11' },
      ],
    });
    const chart = message('Usage in 2026-11').getByRole('img', { name: 'Characters spent each day of 2026-11' });
    await chart.waitFor();
    // The picture itself, through the page's own origin, not a link to download it.
    await expect.poll(() => chart.evaluate((img: unknown) => (img as { naturalWidth: number }).naturalWidth)).toBe(40);
    expect(await seriousViolations(page)).toEqual([]);
    expect(pageErrors).toEqual([]);
  });

  it("draws a reply's buttons of every style readable, as Discord does (white on the coloured ones), light or dark preferred, narrow or wide", async () => {
    await as(ALICE);
    await (
      await general()
    ).send({
      content: 'Spoke **the buttons**',
      components: [
        {
          type: 1,
          components: [
            { type: 2, style: 1, label: 'Play in my voice channel', custom_id: 'b:1' },
            { type: 2, style: 2, label: '▶ Play', custom_id: 'b:2' },
            { type: 2, style: 3, label: 'Save', custom_id: 'b:3' },
            { type: 2, style: 4, label: 'Delete', custom_id: 'b:4' },
          ],
        },
      ],
      allowedMentions: { parse: [] },
    });
    const shown = message('Spoke the buttons');
    await shown.getByRole('button', { name: 'Play in my voice channel' }).waitFor();
    try {
      for (const width of [390, 1280])
        for (const colorScheme of ['light', 'dark'] as const) {
          await page.setViewportSize({ width, height: 800 });
          await page.emulateMedia({ colorScheme });
          expect(await seriousViolations(page)).toEqual([]);
        }
    } finally {
      await page.emulateMedia({ colorScheme: null });
      await page.setViewportSize({ width: 1280, height: 720 });
    }
    expect(pageErrors).toEqual([]);
  });

  it("tops an answer as Discord does: '… used /command' for a command or its form, a reply to the button's message", async () => {
    await as(ALICE);
    await input().fill('/say');
    await page.locator('[data-command="say"]').click();
    await page.locator('[data-option="text"]').fill('hello there');
    await page.getByRole('button', { name: 'Send' }).click();
    const spoke = message('Spoke hello there');
    await spoke.waitFor();
    expect(await spoke.locator('.used').textContent()).toBe('alice used /say');
    // The button's answer is a reply to the message the button is on: that message's author and text above it.
    await spoke.getByRole('button', { name: '▶ Play' }).click();
    const again = message('Playing it again');
    await again.waitFor();
    expect(await again.locator('.used').count()).toBe(0);
    expect(await again.locator('.replied').textContent()).toBe('@SayBotSpoke hello there in voice-b-en-f-01');
    expect(await again.textContent()).not.toContain('say:play');
    // A form a command opened: its answer is the command's.
    await input().fill('/scene');
    await page.locator('[data-command="scene"]').click();
    await page.locator('[data-sub="0"]').selectOption('save');
    await page.locator('[data-option="name"]').fill('greeting');
    await page.getByRole('button', { name: 'Send' }).click();
    const form = page.getByRole('dialog', { name: 'Write a scene' });
    await form.locator('[data-field="script"]').fill('Ann: Hello.');
    await form.getByRole('button', { name: 'Submit' }).click();
    const saved = message('Saved the scene greeting');
    await saved.waitFor();
    expect(await saved.locator('.used').textContent()).toBe('alice used /scene save');
    expect(await saved.textContent()).not.toContain('scene:form');
    expect(await seriousViolations(page)).toEqual([]);
    expect(pageErrors).toEqual([]);
  });

  it("takes the keyboard as Discord's command picker: the first option focused, Escape back to the message box", async () => {
    await as(ALICE);
    /** What has the focus: a sub-command's list (its level), or the element's id. */
    const focused = () =>
      page.evaluate<string | undefined>(
        "document.activeElement?.getAttribute('data-sub') ?? document.activeElement?.id",
      );
    const focusedField = (attribute: string) =>
      page.evaluate<string | null | undefined>(`document.activeElement?.getAttribute('${attribute}')`);
    await input().fill('/sc');
    // Down and Enter pick from the list, as a click does.
    await input().press('ArrowDown');
    await input().press('ArrowUp');
    await input().press('Enter');
    await page.locator('#command-form').waitFor();
    await expect.poll(focused).toBe('0');
    await page.locator('[data-sub="0"]').selectOption('save');
    await expect.poll(() => focusedField('data-option')).toBe('name');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('#command-form').isHidden()).toBe(true);
    expect(await focused()).toBe('input');
    // Escape with the list open closes the list; the text stays.
    await input().fill('/s');
    await page.locator('[data-command="say"]').waitFor();
    await input().press('Escape');
    expect(await page.locator('[data-command]').count()).toBe(0);
    expect(await input().inputValue()).toBe('/s');
    // ...and stays closed when the person's state comes again (the page asks for it every 0.7 s): two answers, so
    // that the page has drawn at least one of them since the Escape.
    for (let answers = 0; answers < 2; answers += 1)
      await page.waitForResponse((response) => response.url().includes('/api/state'));
    expect(await page.locator('[data-command]').count()).toBe(0);
    // A form SayBot sent closes on Escape too, and the message box has the focus again.
    await input().fill('/scene');
    await input().press('Enter');
    await page.locator('[data-sub="0"]').selectOption('save');
    await page.locator('[data-option="name"]').fill('escape');
    await page.getByRole('button', { name: 'Send' }).click();
    const form = page.getByRole('dialog', { name: 'Write a scene' });
    await form.waitFor();
    await expect.poll(() => focusedField('data-field')).toBe('script');
    await page.keyboard.press('Escape');
    await form.waitFor({ state: 'detached' });
    expect(await focused()).toBe('input');
    await input().fill('');
    expect(pageErrors).toEqual([]);
  });

  it("offers its owner SayBot's return when the page drew with the owner picked before the owner's state came", async () => {
    await as(ALICE);
    await bot.guilds.cache.get(GUILD_ID)!.leave();
    const notice = page.getByRole('status').filter({ hasText: 'SayBot is no longer in Playground' });
    await notice.waitFor();
    // Olivia's state is held back until the page has drawn with her picked (a busy host's order of events).
    const { promise: held, resolve: release } = Promise.withResolvers<void>();
    const hers = (url: URL) => url.pathname === '/api/state' && url.searchParams.get('as') === OLIVIA.id;
    await page.route(hers, async (route) => {
      await held;
      await route.continue();
    });
    await page.getByLabel('Who you are').selectOption(OLIVIA.id);
    await page.getByRole('button', { name: '# general' }).click();
    release();
    await notice.getByRole('button', { name: 'Add SayBot to Playground' }).click();
    await notice.waitFor({ state: 'hidden' });
    await page.unroute(hers);
    expect(pageErrors).toEqual([]);
  });

  it('follows SayBot leaving the server, and its owner adding it back, without a reload', async () => {
    await as(OLIVIA);
    await page.getByRole('button', { name: 'Join Lounge' }).click();
    discord.setVoiceState(GUILD_ID, APP_ID, LOUNGE);
    const lounge = page.locator(`[data-voice-channel="${LOUNGE}"] .voice-members`);
    await expect.poll(() => lounge.textContent()).toBe('oliviaSayBot');
    // The owner's console makes SayBot leave (DELETE /users/@me/guilds/{id}, as the dashboard does).
    await bot.guilds.cache.get(GUILD_ID)!.leave();
    await expect.poll(() => lounge.textContent()).toBe('olivia');
    const notice = page.getByRole('status').filter({ hasText: 'SayBot is no longer in Playground' });
    await notice.waitFor();
    // A member who is not its owner is told the same, with nothing to press (and nothing more after the words).
    await as(ALICE);
    await expect.poll(() => notice.getByRole('button').count()).toBe(0);
    expect(await notice.textContent()).toBe(
      'SayBot is no longer in Playground: its commands and menus are gone, and its buttons no longer answer.',
    );
    await as(OLIVIA);
    // Its commands are no longer offered, and what is typed as one is a message.
    await input().fill('/sa');
    expect(await page.locator('[data-command]').count()).toBe(0);
    await input().fill('');
    // Its owner adds it back: commands again.
    await notice.getByRole('button', { name: 'Add SayBot to Playground' }).click();
    await notice.waitFor({ state: 'hidden' });
    await input().fill('/sa');
    await page.locator('[data-command="say"]').waitFor();
    await input().press('Escape');
    await input().fill('');
    await page.getByRole('button', { name: 'Leave Lounge' }).click();
    expect(await seriousViolations(page)).toEqual([]);
    expect(pageErrors).toEqual([]);
  });

  it('follows a member removed from the server: they no longer see it, the others no longer see them', async () => {
    await as(DANA);
    await page.getByRole('button', { name: 'Join Lounge' }).click();
    const lounge = page.locator(`[data-voice-channel="${LOUNGE}"] .voice-members`);
    await expect.poll(() => lounge.textContent()).toContain('dana');
    discord.removeMember(GUILD_ID, DANA.id);
    await page.getByRole('status').filter({ hasText: 'You are no longer a member of Playground' }).waitFor();
    await expect.poll(() => lounge.textContent()).not.toContain('dana');
    expect(await page.locator('#messages').textContent()).toContain('You cannot see the channels');
    expect(await page.getByRole('button', { name: 'Join Lounge' }).count()).toBe(0);
    expect(await page.getByLabel('Who you are').locator(`option[value="${DANA.id}"]`).textContent()).toBe(
      'dana (manager, removed from the server)',
    );
    expect(await seriousViolations(page)).toEqual([]);
    expect(pageErrors).toEqual([]);
  });

  it('reveals a spoiler that hides a link on the first click, as Discord does: the link is followed only once seen', async () => {
    await as(ALICE);
    await (
      await general()
    ).send({
      content: 'The answer: ||[the secret page](https://example.com/secret)|| @everyone @here',
      allowedMentions: { parse: [] },
    });
    const shown = message('The answer');
    await shown.waitFor();
    expect(await shown.locator('.mention').allTextContents()).toEqual(['@everyone', '@here']);
    // Hidden, its link is not reached by Tab either (a hidden link a keyboard could follow unseen).
    expect(await shown.locator('.spoiler a').getAttribute('tabindex')).toBe('-1');
    const pagesBefore = context.pages().length;
    await shown.getByRole('button', { name: 'Spoiler' }).click();
    await expect.poll(() => shown.locator('.spoiler.revealed').count()).toBe(1);
    // The click revealed it and went nowhere; the link is now a link as any other.
    expect(context.pages().length).toBe(pagesBefore);
    expect(page.url()).toBe(new URL(server.url).href);
    const link = shown.getByRole('link', { name: 'the secret page' });
    expect(await link.getAttribute('tabindex')).toBeNull();
    expect(await link.getAttribute('href')).toBe('https://example.com/secret');
    // Read as a person reads it: the revealed link has enough contrast, under the pointer or not, whichever scheme
    // the system prefers (the page is Discord's dark in both).
    try {
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme });
        await page.mouse.move(0, 0);
        expect(await seriousViolations(page)).toEqual([]);
        await shown.hover();
        expect(await seriousViolations(page)).toEqual([]);
      }
    } finally {
      await page.emulateMedia({ colorScheme: null });
    }
    expect(pageErrors).toEqual([]);
  });

  it('writes on several lines as Discord does: Shift+Enter a new line, Enter sends', async () => {
    await as(ALICE);
    // Picked, the person is asked to write, no longer to pick who they are.
    expect(await input().getAttribute('placeholder')).not.toMatch(/Pick who you are/);
    await input().click();
    await page.keyboard.type('first line');
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type('second line');
    expect(await input().inputValue()).toBe('first line\nsecond line');
    await page.keyboard.press('Enter');
    const sent = message('first line');
    await sent.waitFor();
    expect(await sent.locator('.content').innerText()).toBe('first line\nsecond line');
    expect(await input().inputValue()).toBe('');
    expect(pageErrors).toEqual([]);
  });

  it("keeps a message whose sending failed, says the page's server cannot be reached, and takes that back once it answers", async () => {
    await as(ALICE);
    const notice = page.getByRole('alert').filter({ hasText: 'cannot be reached' });
    // The server gone (no answer), then a proxy's 502 in its place: neither is the page's server answering.
    for (const down of [
      (route: Route) => route.abort(),
      (route: Route) => route.fulfill({ status: 502, body: 'Bad Gateway' }),
    ]) {
      await page.route('**/api/**', down);
      try {
        await input().fill('not lost');
        await input().press('Enter');
        await notice.waitFor();
        expect(await input().inputValue()).toBe('not lost');
        await expect.poll(() => page.locator('#send').isDisabled()).toBe(false);
      } finally {
        await page.unroute('**/api/**', down);
      }
      // Back: the notice goes by itself (the page asks again), and the kept text is sent once.
      await notice.waitFor({ state: 'hidden', timeout: 30_000 });
    }
    await input().press('Enter');
    await message('not lost').waitFor();
    await expect.poll(() => input().inputValue()).toBe('');
    expect(await message('not lost').count()).toBe(1);
    expect(pageErrors).toEqual([]);
  });

  it('one press is one interaction: Send waits while a command is under way, as Discord’s client does', async () => {
    await as(ALICE);
    const before = said.length;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const slow = async (route: Route) => {
      await held;
      await route.continue();
    };
    await page.route('**/api/command', slow);
    try {
      await input().fill('/say');
      await input().press('Enter');
      await page.locator('[data-option="text"]').fill('only once');
      const send = page.getByRole('button', { name: 'Send' });
      await send.click();
      await expect.poll(() => send.isDisabled()).toBe(true);
      // Enter in the form's field submits too: still one.
      await page.locator('[data-option="text"]').press('Enter');
      await input().press('Enter');
      release();
      await message('Spoke only once').waitFor();
      await expect.poll(() => send.isDisabled()).toBe(false);
    } finally {
      release();
      await page.unroute('**/api/command', slow);
    }
    expect(said.slice(before)).toEqual(['only once']);
    expect(await message('Spoke only once').count()).toBe(1);
    expect(pageErrors).toEqual([]);
  });

  it("holds a command's form to its declaration as Discord's client does: required, min/max, max length", async () => {
    await as(ALICE);
    const before = said.length;
    await input().fill('/say');
    await input().press('Enter');
    const field = (name: string) => page.locator(`[data-option="${name}"]`);
    const send = page.getByRole('button', { name: 'Send' });
    const valid = (name: string) =>
      field(name).evaluate((node: unknown) => (node as { validity: { valid: boolean } }).validity.valid);
    // Nothing in the required field: not sent, and the status line names it.
    await send.click();
    await expect.poll(() => page.locator('#status').textContent()).toMatch(/^text: /);
    // Speed 7 where 0.5-2 is declared: not sent either.
    await field('text').fill('held');
    await field('speed').fill('7');
    expect(await valid('speed')).toBe(false);
    await send.click();
    await expect.poll(() => page.locator('#status').textContent()).toMatch(/^speed: /);
    // Past max_length the field takes no more, as Discord's box does.
    expect(await field('note').getAttribute('maxlength')).toBe('10');
    await field('note').pressSequentially('0123456789ABC');
    expect(await field('note').inputValue()).toBe('0123456789');
    expect(said.length).toBe(before);
    await field('speed').fill('2');
    await send.click();
    await message('Spoke held').waitFor();
    expect(said.slice(before)).toEqual(['held']);
    expect(pageErrors).toEqual([]);
  });

  it('a form closed with Escape stays closed, the page loaded again', async () => {
    await as(ALICE);
    await input().fill('/scene');
    await input().press('Enter');
    await page.locator('[data-sub="0"]').selectOption('save');
    await page.locator('[data-option="name"]').fill('closed');
    await page.getByRole('button', { name: 'Send' }).click();
    const form = page.getByRole('dialog', { name: 'Write a scene' });
    await form.waitFor();
    await page.keyboard.press('Escape');
    await form.waitFor({ state: 'detached' });
    await page.reload();
    // The page has drawn what its first state says (the messages and, with them, any open form).
    await page.locator('#messages > li').first().waitFor();
    expect(await page.getByLabel('Who you are').inputValue()).toBe(ALICE.id);
    expect(await form.count()).toBe(0);
    expect(await page.locator('#modal-layer').isHidden()).toBe(true);
    expect(pageErrors).toEqual([]);
  });

  it("lists the commands for a '/' typed before the person's state came, once it comes", async () => {
    // A tab of its own in the file's context (its own sessionStorage: nobody chosen yet), cheaper than a new context.
    const shown = await context.newPage();
    try {
      const errors: string[] = [];
      shown.on('pageerror', (error) => errors.push(error.message));
      // Alice's state is held back until she typed '/' (a busy host's order of events).
      const { promise: held, resolve: release } = Promise.withResolvers<void>();
      await shown.route(
        (url) => url.pathname === '/api/state' && url.searchParams.get('as') === ALICE.id,
        async (route) => {
          await held;
          await route.continue();
        },
      );
      await shown.goto(server.url);
      await shown.getByLabel('Who you are').selectOption(ALICE.id);
      await shown.getByRole('textbox', { name: 'Message or slash command' }).fill('/say');
      release();
      await shown.locator('[data-command="say"]').click({ timeout: 20_000 });
      await shown.locator('[data-option="text"]').waitFor();
      expect(errors).toEqual([]);
    } finally {
      await shown.close();
    }
  });

  it("lists nothing for a '/' closed with Escape before the person's state came, once it comes", async () => {
    // A tab of its own in the file's context, as the test before.
    const shown = await context.newPage();
    try {
      const { promise: held, resolve: release } = Promise.withResolvers<void>();
      const alices = (url: URL) => url.pathname === '/api/state' && url.searchParams.get('as') === ALICE.id;
      await shown.route(alices, async (route) => {
        await held;
        await route.continue();
      });
      await shown.goto(server.url);
      await shown.getByLabel('Who you are').selectOption(ALICE.id);
      const box = shown.getByRole('textbox', { name: 'Message or slash command' });
      await box.fill('/');
      await box.press('Escape');
      release();
      // Her state came and was drawn (her first answer, then another): the list stays closed, the '/' stays.
      for (let answers = 0; answers < 2; answers += 1)
        await shown.waitForResponse((response) => alices(new URL(response.url())));
      expect(await shown.locator('[data-command]').count()).toBe(0);
      expect(await box.inputValue()).toBe('/');
    } finally {
      await shown.close();
    }
  });

  it('an autocomplete still to be asked when its command is dropped asks nothing and shows no error', async () => {
    // A context of its own whose timers the test moves on: the field asks 250 ms after the last key.
    const own = await browser().newContext({ locale: 'en-US', timezoneId: 'UTC' });
    try {
      await own.clock.install();
      const shown = await own.newPage();
      const errors: string[] = [];
      shown.on('pageerror', (error) => errors.push(error.message));
      await shown.goto(server.url);
      await shown.getByLabel('Who you are').selectOption(ALICE.id);
      const box = shown.getByRole('textbox', { name: 'Message or slash command' });
      await box.fill('/say');
      await shown.locator('[data-command="say"]').click();
      await shown.locator('[data-option="text"]').fill('dropped');
      await shown.locator('[data-option="voice"]').fill('voice-b');
      await shown.keyboard.press('Escape');
      await expect.poll(() => shown.locator('#command-form').isHidden()).toBe(true);
      await own.clock.runFor(1000);
      expect(await shown.locator('#status').textContent()).not.toMatch(/Autocomplete/);
      expect(errors).toEqual([]);
    } finally {
      await own.close();
    }
  });
});
