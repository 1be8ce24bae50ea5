// The studio's Scenes page in a real browser (Debian's Chromium through playwright-core; skipped with one line
// without one, failed under CI): a three-speaker scene written in the editor shows a line's error as it is typed,
// then plays in the member's voice channel with the voices in order (heard in the local Discord's voice: each
// line's tone at its voice's pitch), and its file and .srt download; a changed line re-pays only that line.
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { parseWavHeader } from '../../../src/core/audio/codecs/wav.ts';
import { parseSrtTimes } from '../../../src/features/scenes/subtitles.ts';
import { describeInBrowser, useBrowser } from '../../support/browser.ts';
import { seoulWith, useDashboard } from '../../support/dashboard.ts';
import { linePitches } from '../../support/scene-audio.ts';
import { LOUNGE, SEOUL } from '../../support/world.ts';

const MEMBER = { id: '340000000000000002', username: 'writer' };
const VOICES = { Ann: 'voice-b-en-f-01', Ben: 'voice-b-en-m-01', Kei: 'voice-b-ja-m-01' } as const;
const CAST = `cast: Ann = ${VOICES.Ann}, Ben = ${VOICES.Ben}, Kei = ${VOICES.Kei}`;
const LINES = ['Ann: Good morning from the studio.', 'Ben: Morning to you, Ann.', 'Kei: And a good morning from me.'];

const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 30_000, interval: 50 });

describeInBrowser('the Scenes page in a real browser', () => {
  const h = useDashboard({
    guilds: [seoulWith([{ ...MEMBER, voiceChannelId: LOUNGE }], 'en-US')],
    config: { voiceIdleTimeoutMs: 60_000 },
  });
  const browser = useBrowser();

  const ttsSince = (before: number) =>
    h.sandbox.requests.slice(before).filter((r) => r.endpoint === 'tts' || r.endpoint === 'emotion-tts');

  async function scenesPage(): Promise<Page> {
    const page = await (await browser().newContext({ locale: 'en-US', acceptDownloads: true })).newPage();
    await page.goto(h.url);
    await page.getByRole('link', { name: 'Log in with Discord' }).click();
    await page.getByLabel('Signed in as').selectOption(MEMBER.id);
    await Promise.all([page.waitForURL(`${h.url}/`), page.getByRole('button', { name: 'Authorize' }).click()]);
    await page.getByRole('link', { name: 'Seoul' }).click();
    await page.getByRole('link', { name: 'Scenes' }).click();
    return page;
  }

  async function download(page: Page, name: string): Promise<Buffer> {
    const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name }).click()]);
    const path = await file.path();
    return readFile(path);
  }

  it('shows a line error as typed, plays in voice in order, and downloads its file and .srt', async () => {
    const page = await scenesPage();
    const script = page.getByLabel('Script');
    // Typed as a person types: the third line is wrong until its closing bracket comes.
    await script.fill(`${CAST}\n${LINES[0]}\n[pause 99s]`);
    await poll(() => page.locator('#scene-check').textContent()).toMatch(/^Line 3: /);
    await poll(() => page.locator('#scene-gutter li.error').textContent()).toBe('3');
    await script.fill([CAST, ...LINES].join('\n'));
    await poll(() => page.locator('#scene-check').textContent()).toBe('The script reads well: 3 lines, 3 speakers.');
    // Each line marked with what the parser read it as.
    await poll(() => page.locator('#scene-gutter li').allTextContents()).toEqual(['1 cast', '2 Ann', '3 Ben', '4 Kei']);
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
    await page.close();
  }, 120_000);

  it('a changed line re-pays only that line', async () => {
    const page = await scenesPage();
    const first = ['Ann: A line that stays as it is.', 'Ben: Another line that stays.', 'Kei: The line to change.'];
    const script = page.getByLabel('Script');
    await script.fill([CAST, ...first].join('\n'));
    const whole = first.map((line) => line.slice(line.indexOf(': ') + 2).length).reduce((a, b) => a + b, 0);
    await page.getByRole('button', { name: `Make the file (${whole} characters)` }).click();
    await poll(() => page.locator('#scene-result').textContent()).toMatch(/^The scene is made/);

    const changed = [...first.slice(0, 2), 'Kei: And the line that changed in the browser.'];
    await script.fill([CAST, ...changed].join('\n'));
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
    await poll(() =>
      page.locator('#scene-line-audio').evaluate((audio) => (audio as unknown as { duration: number }).duration),
    ).toBeGreaterThan(0);
    // Its words are the server's, as every front-end's outcome (outcome-words.ts).
    expect(await page.locator('#scene-result').textContent()).toMatch(/^The scene is made: \d+\.\d s\.$/);
    expect(ttsSince(heard)).toEqual([]);
    await page.close();
  }, 120_000);

  it("a speaker's voice changed in the cast is written into the script's cast line and costed again", async () => {
    const page = await scenesPage();
    const script = page.getByLabel('Script');
    await script.fill('Ann: A voice chosen for me.\nBen: And one for me.');
    const ann = page.getByLabel('Ann', { exact: true });
    await poll(() => ann.inputValue()).not.toBe('');
    await ann.fill(VOICES.Kei);
    await ann.dispatchEvent('change');
    await poll(() => script.inputValue()).toBe(
      `cast: Ann = ${VOICES.Kei}\nAnn: A voice chosen for me.\nBen: And one for me.`,
    );
    await poll(() => page.getByRole('row', { name: /Ann/ }).textContent()).toContain('from the cast line');
    // Ann's voice heard on its own: paid only once its priced button is clicked, in the voice now cast.
    const before = h.sandbox.requests.length;
    const hear = page.getByRole('button', { name: `Hear Ann (${'A voice chosen for me.'.length} characters)` });
    await poll(() => hear.count()).toBe(1);
    expect(ttsSince(before)).toEqual([]);
    await hear.click();
    await poll(() =>
      page.locator('#scene-line-audio').evaluate((audio) => (audio as unknown as { duration: number }).duration),
    ).toBeGreaterThan(0);
    expect(ttsSince(before).map((r) => [r.voice, r.text])).toEqual([[VOICES.Kei, 'A voice chosen for me.']]);
    await page.close();
  });
});
