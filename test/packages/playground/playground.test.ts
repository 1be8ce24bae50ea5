// `npm run playground` as a person uses it, in a real browser: the playground started once (SayBot as `npm start`
// runs it, against the local Discord and the sandbox in tones, whose pitch names the voice), and each case picks who
// it is, acts in the page and hears the result in the page's own audio: what the page decoded from the voice
// channel's live stream (the local Discord's listening member decrypted the DAVE frames and decoded the Opus).
import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { PRESET_VOICES, presetVoice } from '@saybot/voice-sandbox';
import { GENERAL, GUILD_ID, LOUNGE, PEOPLE, READ_ALOUD, startPlayground, type Playground } from '@saybot/playground';
import { HELPER_NAME, STUDY } from '@saybot/playground/world.ts';
import { dominantPitchHz } from '../../../src/core/audio/analysis/clip.ts';
import { closeEverything, describeInBrowser, workerBrowser } from '../../support/browser.ts';

const [ALICE, DANA, OLIVIA] = PEOPLE as [(typeof PEOPLE)[number], (typeof PEOPLE)[number], (typeof PEOPLE)[number]];
const VOICE = 'voice-b-en-f-01';
const VOICE_HZ = presetVoice(VOICE)!.pitchHz;
/** A voice of another pitch: the helper's line, told apart from SayBot's. */
const OTHER_VOICE = 'voice-b-en-m-01';
const OTHER_HZ = presetVoice(OTHER_VOICE)!.pitchHz;
/** The page hears at 24 kHz (playground/src/web.ts). */
const PAGE_RATE = 24_000;
const WAIT_MS = 45_000;
/** Each case waits for SayBot and the audio on a busy machine: well past what it takes idle (10-20 s). */
const CASE_MS = 120_000;
/** SayBot's default cooldown between a member's paid requests (3 s, defaultBudgets in src/core/config.ts), and a margin. */
const COOLDOWN_MS = 3500;

/** What the page's script offers for a look at what it heard (playground/src/page-script.ts). */
interface PageGlobals {
  playground: { heardSamples(seconds?: number): number[]; heardSeconds(): number };
}

describeInBrowser('npm run playground in a real browser', () => {
  let playground: Playground;
  let browser: Browser;
  let page: Page;
  const policyErrors: string[] = [];

  beforeAll(async () => {
    [playground, browser] = await Promise.all([startPlayground({ speech: 'tones' }), workerBrowser()]);
    page = await browser.newPage();
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) policyErrors.push(message.text());
    });
    page.on('pageerror', (error) => policyErrors.push(`page error: ${error.message}`));
    await page.goto(playground.url);
  }, 120_000);
  // Each case starts from the page at rest, whatever the case before left: no form open (SayBot's, or a command's
  // half filled in, which would keep the next "/" from listing the commands), nothing typed, a desktop's width.
  beforeEach(async () => {
    const form = page.getByRole('dialog');
    if (await form.isVisible()) await form.getByRole('button', { name: 'Cancel' }).click();
    const input = page.getByRole('textbox', { name: 'Message or slash command' });
    await input.press('Escape');
    await input.fill('');
    await page.setViewportSize({ width: 1280, height: 800 });
  });
  afterAll(async () => {
    await closeEverything(browser);
    await playground?.stop();
  }, 60_000);

  /** Picks who the page is, puts them in the Lounge, and makes sure the page is listening. */
  async function as(person: (typeof PEOPLE)[number], channel = GENERAL): Promise<void> {
    await page.getByLabel('Who you are').selectOption(person.id);
    // The page draws the new person's buttons only once its next state is in: until then a "Leave Lounge" may be the
    // previous person's. The local Discord says where this person is; "Join Lounge" joins whoever the page now is.
    const join = page.getByRole('button', { name: 'Join Lounge' });
    const inLounge = () => playground.discord.voiceChannelOf(GUILD_ID, person.id) === LOUNGE;
    let asked = 0;
    await expect
      .poll(
        async () => {
          if (inLounge()) return true;
          // Asked again only when the join did not land (the page redrew under the click, or the answer was lost).
          if (Date.now() - asked > 3_000 && (await join.isVisible())) {
            asked = Date.now();
            await join.click({ timeout: 5_000 }).catch(() => undefined);
          }
          return inLounge();
        },
        { timeout: WAIT_MS },
      )
      .toBe(true);
    const listen = page.getByRole('button', { name: /Listen/ });
    if ((await listen.getAttribute('aria-pressed')) !== 'true') await listen.click();
    await page.getByRole('button', { name: channel === GENERAL ? '# general' : '# read-aloud' }).click();
  }

  /**
   * When SayBot last spent characters for each person, as far as a case saw it done (a line heard, its outcome
   * shown). Cases run in a new order each time: a case that has someone pay waits out the cooldown another case may
   * have left them, or SayBot refuses the request ("Please wait 1 s") and nothing is heard.
   */
  const lastSpent = new Map<string, number>();
  const spent = (...people: Array<(typeof PEOPLE)[number]>) => {
    for (const person of people) lastSpent.set(person.id, Date.now());
  };
  const cooledDown = (person: (typeof PEOPLE)[number]) =>
    page.waitForTimeout(Math.max(0, (lastSpent.get(person.id) ?? -Infinity) + COOLDOWN_MS - Date.now()));

  const heardSeconds = () => page.evaluate(() => (globalThis as unknown as PageGlobals).playground.heardSeconds());

  /** Waits until the page heard `seconds` more than `before`, then the pitch of the newest `seconds` of it. */
  async function pitchHeardAfter(before: number, seconds: number): Promise<number | undefined> {
    await page.waitForFunction(
      (least) => (globalThis as unknown as PageGlobals).playground.heardSeconds() >= least,
      before + seconds,
      {
        timeout: WAIT_MS,
      },
    );
    const samples = await page.evaluate(
      (s) => (globalThis as unknown as PageGlobals).playground.heardSamples(s),
      seconds,
    );
    return dominantPitchHz(Float32Array.from(samples), PAGE_RATE);
  }

  /** Types a slash command into the page, picks it, and fills its options (`voice` through its autocomplete). */
  async function slash(name: string, fill: () => Promise<void>): Promise<void> {
    await page.getByRole('textbox', { name: 'Message or slash command' }).fill(`/${name}`);
    await page.locator(`[data-command="${name}"]`).click();
    await fill();
    await page.getByRole('button', { name: 'Send' }).click();
  }

  it(
    'a member types /say with a voice from its autocomplete, and the page hears the reply in that voice',
    async () => {
      await as(ALICE);
      await cooledDown(ALICE);
      const before = await heardSeconds();
      await slash('say', async () => {
        await page.locator('[data-option="text"]').fill('Hello from the playground page');
        const voice = page.locator('[data-option="voice"]');
        // SayBot's own autocomplete answered what was typed last (the page's list says which): its choices are offered
        // under the field. One SayBot could not give within Discord's 3 s offers none, by design (autocomplete-late):
        // typed again then, as a member would, and the fresh answer waited for.
        const answered = page.locator('#choices-voice[data-for="English friendly"]');
        await expect
          .poll(
            async () => {
              await voice.fill('');
              await voice.fill('English friendly');
              await answered.waitFor({ state: 'attached', timeout: WAIT_MS });
              return answered.locator(`option[value="${VOICE}"]`).count();
            },
            { timeout: WAIT_MS },
          )
          .toBeGreaterThan(0);
        await voice.fill(VOICE);
      });
      const pitch = await pitchHeardAfter(before, 1);
      spent(ALICE);
      expect(Math.abs((pitch ?? 0) - VOICE_HZ)).toBeLessThan(5);
      // The reply is in #general, with alice's use of /say above it and its buttons.
      const reply = page.locator('[data-message-id]').filter({ hasText: 'alice used /say' }).last();
      await expect.poll(() => reply.textContent(), { timeout: WAIT_MS }).toMatch(/Spoke|Speaking/);
      expect(policyErrors).toEqual([]);
    },
    CASE_MS,
  );

  it(
    "the owner presses a reply's Again button, and the page hears the line again",
    async () => {
      await as(OLIVIA);
      const first = await heardSeconds();
      await slash('say', async () => {
        await page.locator('[data-option="text"]').fill('Once more, with the button');
        await page.locator('[data-option="voice"]').fill(VOICE);
      });
      await pitchHeardAfter(first, 1);
      const reply = page.locator('[data-message-id]').filter({ hasText: 'olivia used /say' }).last();
      await expect.poll(() => reply.textContent(), { timeout: WAIT_MS }).toContain('Spoke');
      const before = await heardSeconds();
      await reply.getByRole('button', { name: 'Again' }).click();
      const pitch = await pitchHeardAfter(before, 1);
      expect(Math.abs((pitch ?? 0) - VOICE_HZ)).toBeLessThan(5);
      expect(policyErrors).toEqual([]);
    },
    CASE_MS,
  );

  it(
    'a manager starts auto-read in #read-aloud, writes there, and the page hears it read in a preset voice',
    async () => {
      await as(DANA, READ_ALOUD);
      await slash('autoread', async () => {
        await page.locator('[data-sub="0"]').selectOption('start');
        await page.locator('[data-option="channel"]').selectOption(READ_ALOUD);
      });
      const started = page.locator('[data-message-id]').filter({ hasText: 'dana used /autoread' }).last();
      await expect.poll(() => started.count(), { timeout: WAIT_MS }).toBe(1);
      const before = await heardSeconds();
      const input = page.getByRole('textbox', { name: 'Message or slash command' });
      await input.fill('Reading this aloud from the read-aloud channel');
      await input.press('Enter');
      await expect
        .poll(() => page.locator('[data-author="dana"]').filter({ hasText: 'Reading this aloud' }).count())
        .toBe(1);
      const pitch = await pitchHeardAfter(before, 1);
      // Auto-read waits out no cooldown, but its spend counts as dana's last (accounting.ts): a /say of hers next waits.
      spent(DANA);
      const nearest = Math.min(...PRESET_VOICES.map((v) => Math.abs(v.pitchHz - (pitch ?? 0))));
      expect(nearest).toBeLessThan(5);
      expect(policyErrors).toEqual([]);
    },
    CASE_MS,
  );

  it(
    'the picker offers alice, a plain member, no /clone, /budget or /autoread (Manage Server by default); dana sees them',
    async () => {
      const input = page.getByRole('textbox', { name: 'Message or slash command' });
      /** The commands the picker offers when `person` types "/" (typed afresh: the page may still show another's). */
      const offeredTo = async (person: (typeof PEOPLE)[number]) => {
        await page.getByLabel('Who you are').selectOption(person.id);
        await input.fill('');
        await input.fill('/');
        return page
          .locator('#suggestions [data-command]')
          .evaluateAll((items) => items.map((item) => item.getAttribute('data-command') ?? ''));
      };
      const managers = ['autoread', 'budget', 'clone'];
      // Polled: the page draws a person's state once its next poll is in.
      await expect
        .poll(async () => {
          const names = await offeredTo(ALICE);
          return names.includes('say') && !managers.some((name) => names.includes(name));
        })
        .toBe(true);
      await expect
        .poll(async () => {
          const names = await offeredTo(DANA);
          return managers.every((name) => names.includes(name));
        })
        .toBe(true);
      await input.fill('');
      expect(policyErrors).toEqual([]);
    },
    CASE_MS,
  );

  it(
    "the owner's /scene save opens SayBot's form: the page draws it, she writes the script, and sees SayBot's answer",
    async () => {
      await as(OLIVIA);
      await slash('scene', async () => {
        await page.locator('[data-sub="0"]').selectOption('save');
        await page.locator('[data-option="name"]').fill('greeting');
      });
      // SayBot answered with a modal (no script file given): the page draws it as a form.
      const form = page.getByRole('dialog', { name: 'Write a scene' });
      await form.waitFor({ timeout: WAIT_MS });
      await form.locator('[data-field="script"]').fill('Ann: Hello there.\nBen: Hello, Ann.');
      await form.getByRole('button', { name: 'Submit' }).click();
      await form.waitFor({ state: 'detached', timeout: WAIT_MS });
      // The local Discord delivered it as a modal submit, and SayBot saved the scene and said so (to her only).
      const saved = page.locator('[data-message-id]').filter({ hasText: 'Saved the scene' });
      await expect.poll(() => saved.count(), { timeout: WAIT_MS }).toBe(1);
      expect(await saved.textContent()).toContain('greeting');
      expect(await saved.textContent()).toContain('Only you can see this');
      expect(policyErrors).toEqual([]);
    },
    CASE_MS,
  );

  it(
    'a private reply that outlives its interaction reaches the member by DM, shown under Direct messages',
    async () => {
      await as(ALICE);
      // Alice writes in #general (free: nothing is read there); her message is what she will have read aloud.
      const words = `Later, ${randomUUID().slice(0, 4)}.`;
      const input = page.getByRole('textbox', { name: 'Message or slash command' });
      await input.fill(words);
      await input.press('Enter');
      const mine = page.locator('[data-author="alice"]').filter({ hasText: words });
      await expect.poll(() => mine.count(), { timeout: WAIT_MS }).toBe(1);
      // The voice channel is kept busy by an event, not by a line's length: the owner's line (straight to the local
      // Discord: the page acts as alice) is paid for and its answer held by the sandbox (a retry of it too) until this
      // case lets it go, so what alice asks for next waits behind it.
      const held = `Held, ${randomUUID().slice(0, 4)}.`;
      playground.sandbox.injectFault({ kind: 'hold-after-charge', endpoint: 'tts', times: Infinity });
      try {
        playground.discord.setVoiceState(GUILD_ID, OLIVIA.id, LOUNGE);
        await playground.discord.command({
          guildId: GUILD_ID,
          userId: OLIVIA.id,
          channelId: GENERAL,
          name: 'say',
          options: [
            { name: 'text', value: held },
            { name: 'voice', value: VOICE },
          ],
        });
        await expect
          .poll(() => playground.sandbox.requests.some((r) => r.text === held && r.outcome === 'held'), {
            timeout: WAIT_MS,
          })
          .toBe(true);
        await cooledDown(ALICE);
        // Alice uses the Speak menu on her message: SayBot tells her privately that it is queued.
        await mine.hover();
        await mine.getByRole('button', { name: 'Apps ▸ Speak' }).click();
        const queued = page.locator('[data-message-id]').filter({ hasText: 'Only you can see this' }).filter({
          hasText: 'Queued',
        });
        await expect.poll(() => queued.count(), { timeout: WAIT_MS }).toBeGreaterThan(0);
        // Discord's clock passes the token's 15 minutes while her line still waits: its outcome can only reach her by DM.
        playground.discord.advanceClock(15 * 60_000 + 1_000);
      } finally {
        playground.sandbox.clearFaults();
        playground.sandbox.resumePaused();
      }
      await page.getByRole('button', { name: /Direct messages/ }).click();
      const dm = page.locator('#messages [data-message-id]').filter({ hasText: 'About Speak' });
      await expect.poll(() => dm.count(), { timeout: WAIT_MS }).toBe(1);
      // Alice's line was paid for only once the sandbox let the held one go, at the end of this case: just now.
      spent(ALICE);
      expect(await page.locator('#channel-title').textContent()).toContain('Direct messages');
      await page.getByRole('button', { name: '# general' }).click();
      expect(policyErrors).toEqual([]);
    },
    CASE_MS,
  );

  it(
    "opens the dashboard signed in as the person picked, from the page's own link only",
    async () => {
      // Another site navigating a visitor to the sign-in address (no page token) signs nobody in.
      const forged = await browser.newPage();
      try {
        const answer = await forged.goto(`${playground.url}/dashboard?as=${OLIVIA.id}`);
        expect(answer?.status()).toBe(403);
        expect(forged.url()).toBe(`${playground.url}/dashboard?as=${OLIVIA.id}`);
      } finally {
        await forged.close();
      }
      await page.getByLabel('Who you are').selectOption(DANA.id);
      // On a phone (360 px) the page does not scroll sideways.
      await page.setViewportSize({ width: 360, height: 740 });
      await expect
        .poll(() => page.evaluate('document.scrollingElement.scrollWidth - document.scrollingElement.clientWidth'))
        .toBe(0);
      await page.setViewportSize({ width: 1280, height: 800 });
      const [dashboard] = await Promise.all([
        page.context().waitForEvent('page'),
        page.getByRole('link', { name: 'Open the dashboard' }).click(),
      ]);
      try {
        await dashboard.waitForURL(
          (url) => url.origin === new URL(playground.dashboardUrl).origin && !/login|callback/.test(url.pathname),
          {
            timeout: WAIT_MS,
          },
        );
        await expect.poll(() => dashboard.textContent('body'), { timeout: WAIT_MS }).toContain(DANA.username);
      } finally {
        await dashboard.close();
      }
    },
    CASE_MS,
  );

  it(
    "Discord's consent page offers only the person the page signed in, and no one to another browser",
    async () => {
      // Another browser, handed no sign-in, that goes to the dashboard's login: nobody to authorize as, only Cancel.
      const stranger = await browser.newContext();
      try {
        const other = await stranger.newPage();
        await other.goto(`${playground.dashboardUrl}/login`);
        await other.getByRole('alert').filter({ hasText: 'Nobody is signed in' }).waitFor({ timeout: WAIT_MS });
        expect(await other.getByRole('button', { name: 'Authorize' }).count()).toBe(0);
        expect(await other.locator('select').count()).toBe(0);
      } finally {
        await stranger.close();
      }
      // The page's own browser, signed in as olivia by her "Open the dashboard": the consent page offers her alone.
      await page.getByLabel('Who you are').selectOption(OLIVIA.id);
      const [dashboard] = await Promise.all([
        page.context().waitForEvent('page'),
        page.getByRole('link', { name: 'Open the dashboard' }).click(),
      ]);
      try {
        await dashboard.waitForURL(
          (url) => url.origin === new URL(playground.dashboardUrl).origin && !/login|callback/.test(url.pathname),
          { timeout: WAIT_MS },
        );
        await dashboard.goto(
          playground.discord.oauth2.authorizationUrl({
            redirectUri: `${playground.dashboardUrl}/callback`,
            prompt: 'consent',
          }),
        );
        expect(await dashboard.getByLabel('Signed in as').locator('option').allTextContents()).toEqual([
          `olivia (${OLIVIA.id})`,
        ]);
      } finally {
        await dashboard.close();
      }
      expect(policyErrors).toEqual([]);
    },
    CASE_MS,
  );

  it(
    'the command list follows whose client the page is: /autoread, hidden from a member, is listed once a manager is picked',
    async () => {
      const input = page.getByRole('textbox', { name: 'Message or slash command' });
      const listed = (name: string) => page.locator(`[data-command="${name}"]`);
      await page.getByLabel('Who you are').selectOption(ALICE.id);
      // Alice's own commands in (a manager's, shown before, would list /autoread): typed again until they are.
      await expect
        .poll(
          async () => {
            await input.fill('/');
            return (await listed('say').count()) === 1 && (await listed('autoread').count()) === 0;
          },
          { timeout: WAIT_MS },
        )
        .toBe(true);
      await input.fill('/autoread');
      expect(await listed('autoread').count()).toBe(0);
      await page.getByLabel('Who you are').selectOption(DANA.id);
      await listed('autoread').waitFor({ state: 'visible', timeout: WAIT_MS });
      expect(await listed('autoread').count()).toBe(1);
    },
    CASE_MS,
  );

  it(
    'two voice channels at once: SayBot stays with alice in the Lounge, its helper speaks for dana in the Study, heard apart',
    async () => {
      // Auto-read another case may have started keeps every other channel from a seat today (its guard comes before
      // the seat rule: speaking-command.ts memberVoiceChannel): stopped first, so this case passes in any order.
      await as(DANA, READ_ALOUD);
      const stops = page.locator('[data-message-id]').filter({ hasText: 'dana used /autoread' });
      const stopsBefore = await stops.count();
      await slash('autoread', async () => {
        await page.locator('[data-sub="0"]').selectOption('stop');
      });
      await expect.poll(() => stops.count(), { timeout: WAIT_MS }).toBe(stopsBefore + 1);
      await as(ALICE);
      await slash('join', async () => undefined);
      await expect.poll(() => playground.discord.botVoiceChannel(GUILD_ID), { timeout: WAIT_MS }).toBe(LOUNGE);
      await page.getByLabel('Who you are').selectOption(DANA.id);
      const join = page.getByRole('button', { name: 'Join Study' });
      const inStudy = () => playground.discord.voiceChannelOf(GUILD_ID, DANA.id) === STUDY;
      await expect
        .poll(
          async () => {
            if (!inStudy() && (await join.isVisible())) await join.click({ timeout: 5_000 }).catch(() => undefined);
            return inStudy();
          },
          { timeout: WAIT_MS },
        )
        .toBe(true);
      const hear = page.getByLabel('Voice channel to hear');
      await hear.selectOption(STUDY);
      try {
        const listen = page.getByRole('button', { name: /Listen/ });
        if ((await listen.getAttribute('aria-pressed')) !== 'true') await listen.click();
        await cooledDown(DANA);
        const before = await heardSeconds();
        await slash('say', async () => {
          await page.locator('[data-option="text"]').fill('The study hears the helper');
          await page.locator('[data-option="voice"]').fill(OTHER_VOICE);
        });
        // Its reply first: a refusal (a cooldown another case left) is said here, not as silence.
        const reply = page.locator('[data-message-id]').filter({ hasText: 'dana used /say' }).last();
        await expect.poll(() => reply.textContent(), { timeout: WAIT_MS }).toMatch(/Spoke|Speaking/);
        const pitch = await pitchHeardAfter(before, 1);
        spent(DANA);
        expect(Math.abs((pitch ?? 0) - OTHER_HZ)).toBeLessThan(5);
        // The page shows which bot sits where: SayBot with alice, its helper with dana.
        const botsIn = (channelId: string) =>
          page.locator(`[data-voice-channel="${channelId}"] .voice-members li.bot`).allTextContents();
        await expect.poll(() => botsIn(STUDY), { timeout: WAIT_MS }).toEqual([HELPER_NAME]);
        expect(await botsIn(LOUNGE)).toEqual(['SayBot']);
        expect(policyErrors).toEqual([]);
      } finally {
        await hear.selectOption('');
      }
    },
    CASE_MS,
  );
});
