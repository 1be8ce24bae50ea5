// The studio's Scenes page in a real browser (Debian's Chromium through playwright-core; skipped with one line
// without one, failed under CI): in the editor (CodeMirror, bundled and served by SayBot under the strict CSP) each
// speaker's lines carry their own class and a refused line is underlined as it is typed, the cost stays in view, the
// cast is a table with a button to hear each speaker, and the made file plays in the page; a three-speaker scene
// plays in the member's voice channel with the voices in order (heard in the local Discord's voice: each line's tone
// at its voice's pitch), and its file and .srt download; a changed line re-pays only that line; without script the
// page's plain form still saves a scene.
import { readFile } from 'node:fs/promises';
import type { Page, Request } from 'playwright-core';
import { expect, it } from 'vitest';
import { parseWavHeader } from '../../../src/core/audio/codecs/wav.ts';
import { parseSrtTimes } from '../../support/srt-times.ts';
import { seriousViolations } from '../../support/axe.ts';
import { describeInBrowser, keptTabs, logInByRequest, useBrowser } from '../../support/browser.ts';
import { seoulWith, useDashboard } from '../../support/dashboard.ts';
import { linePitches } from '../../support/scene-audio.ts';
import { LOUNGE, SEOUL } from '../../support/world.ts';

const MEMBER = { id: '340000000000000002', username: 'writer' };
const VOICES = { Ann: 'voice-b-en-f-01', Ben: 'voice-b-en-m-01', Kei: 'voice-b-ja-m-01' } as const;
const CAST = `cast: Ann = ${VOICES.Ann}, Ben = ${VOICES.Ben}, Kei = ${VOICES.Kei}`;
const LINES = ['Ann: Good morning.', 'Ben: Morning, Ann.', 'Kei: Morning to you.'];

const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 30_000, interval: 50 });

describeInBrowser('the Scenes page in a real browser', () => {
  // The dashboard's clock, moved on a minute before each login: this file logs in more often than the dashboard's
  // limit of logins a minute from one address allows, and each test must pass whatever ran before it.
  let shiftMs = 0;
  const h = useDashboard({
    dashboardNow: () => Date.now() + shiftMs,
    guilds: [seoulWith([{ ...MEMBER, voiceChannelId: LOUNGE }], 'en-US')],
    config: { voiceIdleTimeoutMs: 60_000 },
  });
  const browser = useBrowser();

  const ttsSince = (before: number) =>
    h.sandbox.requests.slice(before).filter((r) => r.endpoint === 'tts' || r.endpoint === 'emotion-tts');

  /** What the page's console said of the Content Security Policy (a refused script or style) since it was opened. */
  const cspComplaints = new WeakMap<Page, string[]>();

  /** A browser context and tab logged in as the member, with or without script. */
  async function loggedIn(javaScriptEnabled: boolean): Promise<Page> {
    shiftMs += 61_000;
    const context = await browser().newContext({ locale: 'en-US', acceptDownloads: true, javaScriptEnabled });
    const page = await context.newPage();
    const complaints: string[] = [];
    cspComplaints.set(page, complaints);
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) complaints.push(message.text());
    });
    // Logged in by request: no test here is about the login.
    await logInByRequest(context, h.url, MEMBER.id);
    return page;
  }

  /**
   * One tab for each script setting, opened by the first test that asks and kept for the file (a new context and tab
   * cost about as much Chromium as a page's render), each test given a new Scenes page in it: at a new context's size
   * (1280 x 720) or a phone's, the console's complaints counted from this page on. The page is opened by its address,
   * or with `byLinks` as a member goes: the servers' list, the server, its Scenes link (on a phone in its menu).
   */
  const tabs = keptTabs<boolean>();
  async function scenesPage(
    options: { javaScriptEnabled?: boolean; phone?: boolean; byLinks?: boolean } = {},
  ): Promise<Page> {
    const javaScriptEnabled = options.javaScriptEnabled ?? true;
    const page = await tabs(javaScriptEnabled, () => loggedIn(javaScriptEnabled));
    await page.setViewportSize(options.phone ? { width: 390, height: 700 } : { width: 1280, height: 720 });
    cspComplaints.get(page)?.splice(0);
    if (options.byLinks === true) {
      await page.goto(h.url);
      await page.getByRole('link', { name: 'Seoul' }).click();
      // On a phone the server's pages are in its menu, folded on the overview as on every page: opened first.
      await page.waitForURL(`${h.url}/servers/${SEOUL}`);
      const menu = page.locator('details.side > summary');
      if (await menu.isVisible()) await menu.click();
      await page.getByRole('link', { name: 'Scenes' }).click();
      await page.waitForURL(`${h.url}/servers/${SEOUL}/scenes`);
    } else await page.goto(`${h.url}/servers/${SEOUL}/scenes`);
    // The editor in place of the textarea, once the page's script has run.
    if (javaScriptEnabled) await page.locator('.cm-content').waitFor();
    return page;
  }

  /** The editor (CodeMirror's content, named by the page's Script label). */
  const editor = (page: Page) => page.getByRole('textbox', { name: 'Script' });
  /** The script replaced by `text`, typed in one go as a paste would (Enter for each new line). */
  async function write(page: Page, text: string): Promise<void> {
    await editor(page).click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.press('Delete');
    const lines = text.split('\n');
    for (const [index, line] of lines.entries()) {
      await page.keyboard.insertText(line);
      if (index < lines.length - 1) await page.keyboard.press('Enter');
    }
  }
  /** The editor's lines with their classes (only the speaker, cast, pause and error ones). */
  const markedLines = (page: Page) =>
    page.locator('.cm-line').evaluateAll((lines) =>
      lines.map((line) => ({
        text: line.textContent ?? '',
        marks: [...line.classList].filter((name) => name.startsWith('scene-')).join(' '),
      })),
    );
  /** Whether the element is wholly inside the browser's window. */
  const inView = (page: Page, selector: string) =>
    page.locator(selector).evaluate((element) => {
      const box = element.getBoundingClientRect();
      return box.height > 0 && box.top >= 0 && box.bottom <= (element.ownerDocument.defaultView?.innerHeight ?? 0);
    });
  const audioSeconds = (page: Page, selector: string) =>
    page.locator(selector).evaluate((audio) => (audio as unknown as { duration: number }).duration);

  async function download(page: Page, name: string): Promise<Buffer> {
    const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name }).click()]);
    const path = await file.path();
    return readFile(path);
  }

  it('shows a line error as typed, plays in voice in order, and downloads its file and .srt', async () => {
    const page = await scenesPage();
    // With script, before anything is typed (the cost bar shown): no serious or critical axe violation at either
    // width, and the bar's buttons have their names.
    const found: string[] = [];
    for (const [width, height] of [
      [1280, 800],
      [390, 844],
    ] as const) {
      await page.setViewportSize({ width, height });
      for (const violation of await seriousViolations(page)) found.push(`${width}: ${violation}`);
    }
    expect(found).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(await page.locator('#scene-make').textContent()).toBe('Make the file');
    expect(await page.locator('#scene-play').textContent()).toBe('Play it in my voice channel');
    // The scenes feature's message keeps its Discord words for /scene; here its `code` is formatted, as text.
    await write(page, 'cast: Ann');
    await poll(() => page.locator('#scene-check').innerHTML()).toBe(
      'Line 1: a cast is written <code>cast: Name = voice</code>.',
    );
    // A message that names its line in its own words is shown once, not after another "Line 1: ".
    await write(page, 'Ann says hello');
    await poll(() => page.locator('#scene-check').textContent()).toMatch(/^Line 1 is not Name: text/);
    await write(page, `${CAST}\n${LINES[0]}\n[pause 99s]`);
    await poll(() => page.locator('#scene-check').textContent()).toMatch(/^Line 3: /);
    await poll(() => page.locator('.cm-line.scene-line-error .scene-error').textContent()).toBe('[pause 99s]');
    await write(page, [CAST, ...LINES].join('\n'));
    await poll(() => page.locator('#scene-check').textContent()).toBe('The script reads well: 3 lines, 3 speakers.');
    // Each line marked with what the parser read it as: the cast line, then a class for each speaker.
    await poll(() => markedLines(page)).toEqual([
      { text: CAST, marks: 'scene-cast' },
      { text: LINES[0], marks: 'scene-speaker scene-speaker-0' },
      { text: LINES[1], marks: 'scene-speaker scene-speaker-1' },
      { text: LINES[2], marks: 'scene-speaker scene-speaker-2' },
    ]);
    const paid = LINES.map((line) => line.slice(line.indexOf(': ') + 2).length).reduce((a, b) => a + b, 0);
    await poll(() => page.locator('#scene-cost').textContent()).toContain(`${paid} characters to pay; 0 of 3`);
    await poll(() => page.getByLabel('Kei', { exact: true }).inputValue()).toBe(VOICES.Kei);

    const before = h.sandbox.requests.length;
    h.discord.clearAudio(SEOUL);
    await page.getByRole('button', { name: `Play it in my voice channel (${paid} characters)` }).click();
    await poll(() => page.locator('#scene-result').textContent()).toMatch(/^Played the scene in your voice channel/);
    expect(ttsSince(before).map((r) => r.voice)).toEqual([VOICES.Ann, VOICES.Ben, VOICES.Kei]);
    const heard = await h.discord.waitForAudio(SEOUL, { minSeconds: 1 });
    const pitches = linePitches(h, heard, LINES);
    const expected = [VOICES.Ann, VOICES.Ben, VOICES.Kei].map((voice) => h.sandbox.voicePitchHz(voice) ?? -1);
    for (const [i, pitch] of pitches.entries()) expect(Math.abs(pitch - (expected[i] ?? 0)), LINES[i]).toBeLessThan(4);

    // Every line is made now: the file costs nothing, and nothing more is requested.
    await poll(() => page.locator('#scene-cost').textContent()).toMatch(/^Nothing to pay/);
    const made = h.sandbox.requests.length;
    await page.getByRole('button', { name: 'Make the file (free)' }).click();
    await poll(() => page.locator('#scene-result').textContent()).toMatch(/^The scene is made/);
    expect(ttsSince(made)).toEqual([]);
    const wav = await download(page, 'Download the audio');
    const parsed = parseWavHeader(new Uint8Array(wav));
    expect('header' in parsed).toBe(true);
    const srt = (await download(page, 'Download the subtitles (.srt)')).toString('utf8');
    expect(parseSrtTimes(srt).map((cue) => cue.speaker)).toEqual(['Ann', 'Ben', 'Kei']);
  }, 120_000);

  it("a count's words agree with it: one line, one speaker, one character", async () => {
    const page = await scenesPage();
    await write(page, 'Ann: A');
    await poll(() => page.locator('#scene-check').textContent()).toBe('The script reads well: 1 line, 1 speaker.');
    await poll(() => page.locator('#scene-cost').textContent()).toContain('1 character to pay; 0 of 1 line already');
    expect(await page.getByRole('button', { name: 'Make the file (1 character)' }).count()).toBe(1);
  }, 120_000);

  it('a changed line re-pays only that line', async () => {
    const page = await scenesPage();
    const first = ['Ann: A line that stays as it is.', 'Ben: Another line that stays.', 'Kei: The line to change.'];
    await write(page, [CAST, ...first].join('\n'));
    const whole = first.map((line) => line.slice(line.indexOf(': ') + 2).length).reduce((a, b) => a + b, 0);
    await page.getByRole('button', { name: `Make the file (${whole} characters)` }).click();
    await poll(() => page.locator('#scene-result').textContent()).toMatch(/^The scene is made/);

    const changed = [...first.slice(0, 2), 'Kei: And the line that changed in the browser.'];
    await write(page, [CAST, ...changed].join('\n'));
    const price = 'And the line that changed in the browser.'.length;
    await poll(() => page.locator('#scene-cost').textContent()).toContain(
      `${price} characters to pay; 2 of 3 lines already made (free)`,
    );
    const before = h.sandbox.requests.length;
    await page.getByRole('button', { name: `Make the file (${price} characters)` }).click();
    await poll(() => page.locator('#scene-result').textContent()).toMatch(/^The scene is made/);
    expect(ttsSince(before).map((r) => r.text)).toEqual(['And the line that changed in the browser.']);
    // Heard alone, the changed line costs nothing more: it is made.
    await poll(() => page.getByRole('button', { name: 'Hear line 4 (free)' }).count()).toBe(1);
    const heard = h.sandbox.requests.length;
    await page.getByRole('button', { name: 'Hear line 4 (free)' }).click();
    await poll(() => audioSeconds(page, '#scene-line-audio')).toBeGreaterThan(0);
    // Its words are the server's, as every front-end's outcome (outcome-words.ts).
    expect(await page.locator('#scene-result').textContent()).toMatch(/^The scene is made: \d+\.\d s\.$/);
    expect(ttsSince(heard)).toEqual([]);
  }, 120_000);

  it("a speaker's voice changed in the cast is written into the script's cast line and costed again", async () => {
    const page = await scenesPage();
    await write(page, 'Ann: A voice chosen for me.\nBen: And one for me.');
    const ann = page.getByLabel('Ann', { exact: true });
    await poll(() => ann.inputValue()).not.toBe('');
    await ann.fill(VOICES.Kei);
    await ann.dispatchEvent('change');
    // In the editor, and in the form's field that the page posts when the scene is saved.
    const written = `cast: Ann = ${VOICES.Kei}\nAnn: A voice chosen for me.\nBen: And one for me.`;
    await poll(() => editor(page).innerText()).toBe(written);
    expect(await page.locator('#scene-script').inputValue()).toBe(written);
    await poll(() => page.getByRole('row', { name: /Ann/ }).textContent()).toContain('from the cast line');
    // Ann's voice heard on its own: paid only once its priced button is clicked, in the voice now cast.
    const before = h.sandbox.requests.length;
    const hear = page.getByRole('button', { name: `Hear Ann (${'A voice chosen for me.'.length} characters)` });
    await poll(() => hear.count()).toBe(1);
    expect(ttsSince(before)).toEqual([]);
    await hear.click();
    await poll(() => audioSeconds(page, '#scene-line-audio')).toBeGreaterThan(0);
    expect(ttsSince(before).map((r) => [r.voice, r.text])).toEqual([[VOICES.Kei, 'A voice chosen for me.']]);
  });

  it('on a phone: two speakers coloured apart, an error underlined as typed, the cost in view, the made file played', async () => {
    const page = await scenesPage({ phone: true, byLinks: true });
    // The page as a first visit loads it (a routed page skips the browser's cache): under 150 KB in all, the gzipped
    // editor included (the goal, audio apart; 127 KB measured: the editor 93 KB, the page 10 KB).
    const transfers: Promise<number>[] = [];
    const counted = (request: Request) =>
      transfers.push(request.sizes().then((sizes) => sizes.responseBodySize + sizes.responseHeadersSize));
    page.on('requestfinished', counted);
    await page.route('**/*', (route) => route.continue());
    await page.reload({ waitUntil: 'load' });
    await page.locator('.cm-content').waitFor();
    page.off('requestfinished', counted);
    const weight = (await Promise.all(transfers)).reduce((a, b) => a + b, 0);
    expect(transfers.length).toBeGreaterThan(4);
    expect(weight).toBeLessThan(150 * 1024);
    await page.unroute('**/*');
    const two = ['Ann: Is the studio open today?', 'Ben: It is, and the editor is new.'];
    // Typed key by key, as a person types.
    await editor(page).click();
    await page.keyboard.type(`${two[0]}\n${two[1]}`);
    await poll(() => markedLines(page)).toEqual([
      { text: two[0], marks: 'scene-speaker scene-speaker-0' },
      { text: two[1], marks: 'scene-speaker scene-speaker-1' },
    ]);
    // Each speaker's colour is their class's: the two lines' edges differ.
    const edges = await page
      .locator('.cm-line.scene-speaker')
      .evaluateAll((lines) =>
        lines.map((line) => line.ownerDocument.defaultView?.getComputedStyle(line).borderLeftColor),
      );
    expect(new Set(edges).size).toBe(2);

    // A wrong pause typed on a third line: underlined there, the speakers' lines still marked, then put right.
    await page.keyboard.type('\n[pause 99s]');
    await poll(() => page.locator('.cm-line.scene-line-error .scene-error').textContent()).toBe('[pause 99s]');
    expect(
      await page
        .locator('.scene-error')
        .evaluate((mark) => mark.ownerDocument.defaultView?.getComputedStyle(mark).textDecorationStyle),
    ).toBe('wavy');
    expect(await page.locator('.cm-line.scene-speaker').count()).toBe(2);
    await poll(() => page.locator('#scene-check').textContent()).toBe('Line 3: a pause is at most 5 s.');
    for (let i = 0; i < '[pause 99s]'.length + 1; i++) await page.keyboard.press('Backspace');
    await poll(() => page.locator('#scene-check').textContent()).toBe('The script reads well: 2 lines, 2 speakers.');
    expect(await page.locator('.scene-error').count()).toBe(0);
    // Tab is not taken by the editor: the keyboard moves on to the next field.
    await page.keyboard.press('Tab');
    expect(
      await page.evaluate(
        () => (globalThis as unknown as { document: { activeElement: { id: string } } }).document.activeElement.id,
      ),
    ).toBe('scene-name');

    // The cast: a row per speaker, with their voice and a button to hear them.
    const paid = two.map((line) => line.slice(line.indexOf(': ') + 2).length).reduce((a, b) => a + b, 0);
    await poll(() => page.locator('#scene-cost').textContent()).toContain(`${paid} characters to pay`);
    const rows = page.locator('#scene-cast tr');
    expect(await rows.locator('th').allTextContents()).toEqual(['Ann', 'Ben']);
    for (const name of ['Ann', 'Ben'])
      expect(
        await page
          .getByRole('row', { name: new RegExp(`^${name}`) })
          .getByRole('button', { name: `Hear ${name}`, exact: false })
          .count(),
      ).toBe(1);
    // The cost stays in view: beside the editor, and with the cast table scrolled to.
    await editor(page).scrollIntoViewIfNeeded();
    expect(await inView(page, '#scene-cost')).toBe(true);
    await page.locator('#scene-lines').scrollIntoViewIfNeeded();
    expect(await inView(page, '#scene-cost')).toBe(true);

    // Made as a file, it plays in the page.
    await page.getByRole('button', { name: `Make the file (${paid} characters)` }).click();
    await poll(() => page.locator('#scene-result').textContent()).toMatch(/^The scene is made/);
    const made = page.getByRole('region', { name: 'The scene made' }).locator('audio');
    await poll(() => audioSeconds(page, '#scene-audio')).toBeGreaterThan(1);
    await made.evaluate((audio) => (audio as unknown as { play(): Promise<void> }).play());
    await poll(() =>
      made.evaluate((audio) => (audio as unknown as { currentTime: number }).currentTime),
    ).toBeGreaterThan(0);
    // Nothing the page did was refused by the Content Security Policy.
    expect(cspComplaints.get(page)).toEqual([]);
  }, 120_000);

  it('a script pasted or typed past 4,000 characters is kept whole and answered: too long, nothing made or saved until it is cut', async () => {
    const page = await scenesPage();
    const line = 'Ann: A rather long line of the script, pasted in one go from somewhere else.';
    const pasted = Array.from({ length: 60 }, () => line).join('\n');
    expect(pasted.length).toBeGreaterThan(4000);
    await editor(page).click();
    // One insertion, as a paste is.
    await page.keyboard.insertText(pasted);
    const check = page.locator('#scene-check');
    await poll(() => check.textContent()).toBe('The script is longer than 4000 characters.');
    expect(await page.locator('.cm-line').count()).toBe(60);
    expect(await check.getAttribute('role')).toBe('alert');
    expect(await page.getByRole('button', { name: /^Make the file/ }).isDisabled()).toBe(true);
    // Typed past it: kept too.
    await page.keyboard.type('!');
    await poll(() => page.locator('.cm-line').last().textContent()).toBe(`${line}!`);
    // Save is refused in the page: the script stays, the answer says why.
    const url = page.url();
    await page.getByRole('button', { name: 'Save the scene' }).click();
    await poll(() => check.textContent()).toBe('The script is longer than 4000 characters.');
    expect(page.url()).toBe(url);
    expect(await page.locator('.cm-line').count()).toBe(60);
  }, 120_000);

  it("without script, the page's plain form saves the scene", async () => {
    const page = await scenesPage({ javaScriptEnabled: false });
    const script = page.getByLabel('Script');
    await script.fill('Ann: Saved without script.');
    await page.getByLabel('Name to save it as').fill('No script');
    await page.getByRole('button', { name: 'Save the scene' }).click();
    await poll(() => page.getByRole('status').first().textContent()).toBe('Saved the scene "No script" (1 line).');
    expect(await page.getByRole('textbox', { name: 'Script' }).inputValue()).toBe('Ann: Saved without script.');
  });
});
