// Work paid for part-way is told as such (issue 56, claim 2): a request in several parts whose first part the service
// made and charged, then refused the rest for the month's quota, is never told "sent nothing" nor "try again" before
// the quota resets, as a file or in voice. The sandbox refuses for real: its key is left just enough for the first
// part, so its second is answered 429 with the service's own figures (a few characters left). So too when the service
// refuses the key (401, deactivated while the first part's answer is held) or the plan's access (403) for the rest.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { PLAN_LIMITS } from '@saybot/voice-sandbox';
import { answerOf, spentShown as spentShownTo } from '../support/books-shown.ts';
import { useHarnessPerTest } from '../support/file-harness.ts';
import { runCommand, type Harness } from '../support/harness.ts';
import type { InteractionHandle } from '@saybot/local-discord/types.ts';
import { oneRoomGuild } from '../support/world.ts';
import { t, type MessageKey } from '../../src/core/i18n/catalogue.ts';
import { countCharacters } from '../../src/core/characters.ts';
import { splitText } from '../../src/core/sourcing/part-request.ts';
import { booksSettled } from '../support/books-settled.ts';
import { finishedClips } from '../support/clips-finished.ts';

const GUILD = '200000000000000097';
const VOICE = '220000000000000097';
const WRITER = '300000000000000971'; // outside voice: files
const SPEAKER = '300000000000000972'; // in voice
const SECOND_SPEAKER = '300000000000000973'; // in voice too
const VOICE_ID = 'voice-b-en-f-01';
const MAX_CHARS = 40;

// A bot and a service of its own for each case: a case's next part, asked for before its refusal came, may reach the
// service after the case ended and spend the month the next case sets.
const openHarness = useHarnessPerTest();
const options = {
  guilds: [
    oneRoomGuild(GUILD, 'Part-way', { text: '210000000000000097', voice: VOICE }, [
      { id: WRITER, username: 'writer', locale: 'en-US' },
      { id: SPEAKER, username: 'speaker', voiceChannelId: VOICE, locale: 'en-US' },
      { id: SECOND_SPEAKER, username: 'second', voiceChannelId: VOICE, locale: 'en-US' },
    ]),
  ],
  env: { VOICE_API_PLAN: 'creator', FREE_VOICE: 'chosen' },
  // Parts of at most 40 characters, so that a short text is several parts (TTS_MAX_CHARS_PER_REQUEST's own floor is
  // 50).
  config: { maxCharsPerRequest: MAX_CHARS },
};
let h: Harness;

let serial = 0;
/** A text of three parts, each new each time (a real request each, never the cache, never another case's). */
function threeParts(): { text: string; first: number; parts: string[] } {
  const n = ++serial;
  const text = `First part number ${n} is spoken. Second part ${n} follows it here. Third part ${n} ends it.`;
  const parts = splitText(text, MAX_CHARS);
  expect(parts.length).toBe(3);
  return { text, first: countCharacters(parts[0] ?? ''), parts };
}

/**
 * This case's requests at the service since `before`: a request another case left in flight (its next part, asked
 * for before its refusal came) may reach the service after this case began, and is not this case's.
 */
function requestsFor(parts: readonly string[], before: number) {
  return h.sandbox.requests.slice(before).filter((r) => r.text !== undefined && parts.includes(r.text));
}

/** The month leaves room for the first part and for 5 characters more: the second part is refused by the service. */
function leaveRoomFor(first: number): void {
  h.sandbox.setKeyUsed(h.apiKey, PLAN_LIMITS.creator - first - 5);
}

beforeEach(async () => {
  h = await openHarness(options);
  h.sandbox.clearFaults();
  h.sandbox.setKeyPlan(h.apiKey, 'creator');
  h.sandbox.setKeyUsed(h.apiKey, 0);
});

/** /say by the speaker (or `userId`), in voice (or as `output`): the handle of its reply. */
function sayBy(text: string, userId = SPEAKER, output?: 'file' | 'voice-message') {
  return h.discord.command({
    guildId: GUILD,
    userId,
    name: 'say',
    options: [
      { name: 'text', value: text },
      { name: 'voice', value: VOICE_ID },
      ...(output === undefined ? [] : [{ name: 'output', value: output }]),
    ],
  });
}

/** This server's characters spent this month, as /usage shows them. */
const spentShown = () => spentShownTo(h, GUILD, SPEAKER);

/**
 * The reply posts the part that was paid for as a file, and says so before the words of what was paid: never paid
 * audio left undelivered.
 */
function expectPartFile(handle: InteractionHandle, content: string): void {
  const files = handle.responses.flatMap((r) => r.files);
  expect(files).toHaveLength(1);
  expect(content.split('\n')[0]).toMatch(/^Here is `[^`]+`, [\d.]+ s \((wav|mp3)\)\.$/);
  expect(handle.responses.flatMap((r) => r.message?.components ?? [])).toEqual([]);
}

function expectPaidPartWay(content: string, paid: number): void {
  expect(content).toMatch(new RegExp(`\\b${paid} characters`));
  expect(content).not.toMatch(/sent nothing|nothing was (spent|charged)/i);
  expect(content).not.toMatch(/try again/i);
  const reset = /resets (\d{4}-\d{2}-01)/.exec(content)?.[1];
  expect(reset).toBeDefined();
  expect(content).toBe(t('en-US', 'error.paidPartWay.quota', { paid, reset: reset ?? '' }));
}

describe('paid part-way, then refused for the month', () => {
  it('as a file: the part made is posted, its characters said spent, and why the rest was not sent', async () => {
    const { text, first, parts } = threeParts();
    leaveRoomFor(first);
    const before = h.sandbox.requests.length;
    const { handle, content } = await runCommand(h, {
      guildId: GUILD,
      userId: WRITER,
      name: 'say',
      options: { text, voice: VOICE_ID, output: 'file' },
    });
    const made = requestsFor(parts, before);
    // The first part's answer said how few characters are left: the second, known not to fit, is not sent.
    expect(made.map((r) => r.status)).toEqual([200]);
    expect(made[0]?.charactersBilled).toBe(first);
    expectPartFile(handle, content);
    expectPaidPartWay(content.split('\n').slice(1).join('\n'), first);
  });

  it('as a voice message: the part made is posted (as its file where the member may not send one), and says what was paid', async () => {
    const { text, first, parts } = threeParts();
    leaveRoomFor(first);
    const before = h.sandbox.requests.length;
    const handle = await sayBy(text, WRITER, 'voice-message');
    const note = await handle.waitFor((r) => (r.content ?? '').includes('counted its'), 60_000);
    expect(requestsFor(parts, before).map((r) => r.status)).toEqual([200]);
    // The writer may not send voice messages here: it comes to them as its Ogg file, the words with it.
    const said = (note.content ?? '').split('\n').find((line) => line.includes('counted its'));
    expectPaidPartWay(said ?? '', first);
    const posted = handle.responses.flatMap((r) => r.files);
    expect(posted).toHaveLength(1);
    expect(posted[0]?.name).toMatch(/\.ogg$/);
  });

  it("as a file, a gateway's 504 for the second part: the part made is posted, the second said maybe counted", async () => {
    const { text, parts } = threeParts();
    const before = h.sandbox.requests.length;
    h.sandbox.injectFault({ kind: 'hold-after-charge', endpoint: 'tts' });
    const reply = runCommand(h, {
      guildId: GUILD,
      userId: WRITER,
      name: 'say',
      options: { text, voice: VOICE_ID, output: 'file' },
    });
    await refuseAfter(parts.slice(0, 1), () => h.sandbox.injectFault({ kind: 'gateway-after-charge', status: 504 }));
    const { handle, content } = await reply;
    expect(requestsSince(before).map((r) => r.status)).toEqual([200, 504]);
    expectPartFile(handle, content);
    // Said first: the file holds only the part before; then why the rest is missing.
    expect(content.split('\n')[1]).toBe(t('en-US', 'outcome.partWay.only'));
    expect(content.split('\n').slice(2).join('\n')).toMatch(/may have|counted as spent/);
    expect(content).not.toMatch(/nothing was (spent|charged)/i);
  });

  it("as a voice message, a gateway's 502 for the second part: the part made is posted, said to be only part", async () => {
    const { text, parts } = threeParts();
    const before = h.sandbox.requests.length;
    h.sandbox.injectFault({ kind: 'hold-after-charge', endpoint: 'tts' });
    const handle = await sayBy(text, SPEAKER, 'voice-message');
    await refuseAfter(parts.slice(0, 1), () => h.sandbox.injectFault({ kind: 'gateway-after-charge', status: 502 }));
    const only = t('en-US', 'outcome.partWay.only');
    const note = await handle.waitFor((r) => (r.content ?? '').includes(only));
    expect(requestsSince(before).map((r) => r.status)).toEqual([200, 502]);
    // Its Ogg (a voice message, or its file where the member may not send one), and words saying it is only part.
    const posted = handle.responses.flatMap((r) => r.files);
    expect(posted).toHaveLength(1);
    expect(posted[0]?.name).toMatch(/\.ogg$/);
    expect(note.content ?? '').toMatch(/may have|counted as spent/);
  });

  it('in voice: the part heard is said paid, not "stopped part-way … please try again"', async () => {
    const { text, first, parts } = threeParts();
    leaveRoomFor(first);
    const before = h.sandbox.requests.length;
    h.discord.clearAudio(GUILD);
    const handle = await sayBy(text);
    const failure = await handle.waitFor(
      (r) => r.kind !== 'delete' && r.content !== undefined && !/^(Speaking|Queued)/.test(r.content ?? ''),
      20_000,
    );
    const made = requestsFor(parts, before);
    expect(made.map((r) => r.status).slice(0, 2)).toEqual([200]);
    expectPaidPartWay(failure.content ?? '', first);
    // The channel's reply still says whose words it heard, and no longer that they are being spoken.
    const shown = (
      await handle.waitFor((r) => r.kind === 'edit-original' && !/^Speaking/.test(r.content ?? ''), 60_000)
    ).content;
    expect(shown).toBe(t('en-US', 'say.spokePartWay', { channel: `<#${VOICE}>`, voice: `\`${VOICE_ID}\`` }));
  });

  it('in voice: once a part is refused, no later part of the order is sent, even one the month still has room for', async () => {
    const n = ++serial;
    const parts = [`First part number ${n} is spoken here.`, `Then part ${n} is refused for the month.`, `End ${n}.`];
    const text = parts.join(' ');
    expect(splitText(text, MAX_CHARS)).toEqual(parts);
    const [first, second, third] = parts.map(countCharacters) as [number, number, number];
    // After the first part the month has room for the third, not the second.
    h.sandbox.setKeyUsed(h.apiKey, PLAN_LIMITS.creator - first - third - 2);
    expect(second).toBeGreaterThan(third + 2);
    const before = h.sandbox.requests.length;
    const content = await answerOf(await sayBy(text));
    await booksSettled(h);
    expect(requestsFor(parts, before).map((r) => [r.text, r.status])).toEqual([[parts[0], 200]]);
    expect(h.sandbox.charactersBilled()).toBe(first);
    expect(await spentShown()).toBe(first);
    expectPaidPartWay(content, first);
  });

  it('in voice: a part is not asked for while the one before it may still be refused', async () => {
    const n = ++serial;
    const parts = [`The first part ${n} is refused, too long.`, `Short ${n}.`];
    const text = parts.join(' ');
    expect(splitText(text, MAX_CHARS)).toEqual(parts);
    const [first, second] = parts.map(countCharacters) as [number, number];
    // The month has room for the second part, not the first.
    h.sandbox.setKeyUsed(h.apiKey, PLAN_LIMITS.creator - second - 2);
    expect(first).toBeGreaterThan(second + 2);
    const before = h.sandbox.requests.length;
    const content = await answerOf(await sayBy(text));
    await booksSettled(h);
    expect(requestsFor(parts, before).map((r) => [r.text, r.status])).toEqual([[parts[0], 429]]);
    expect(h.sandbox.charactersBilled()).toBe(0);
    expect(await spentShown()).toBe(0);
    expect(content).not.toMatch(/counted its|which are spent/);
  });

  it('in voice: nothing of the order is heard after the part refused, not even a part that costs nothing', async () => {
    const n = ++serial;
    const parts = [
      `First part number ${n} is spoken here.`,
      `Then part ${n} is refused for the month.`,
      `Cached ${n}.`,
    ];
    const text = parts.join(' ');
    expect(splitText(text, MAX_CHARS)).toEqual(parts);
    // The third part is in the cache: free, so no request is there to stop, only its playing.
    expect(await answerOf(await sayBy(parts[2] ?? ''))).toMatch(/^Spoke/);
    const [first] = parts.map(countCharacters) as [number];
    h.sandbox.setKeyUsed(h.apiKey, PLAN_LIMITS.creator - first - 2);
    const clipsBefore = finishedClips(h.logs()).length;
    const content = await answerOf(await sayBy(text));
    expectPaidPartWay(content, first);
    // The order ended at the part refused: only the first part was handed to the player; nothing after it was heard.
    const clips = finishedClips(h.logs())
      .slice(clipsBefore)
      .map((clip) => ({ part: /#\d+$/.exec(clip.label)?.[0], status: clip.status }));
    expect(clips).toEqual([{ part: '#1', status: 'played' }]);
  });

  it('in voice: once the month is found used up, an order queued behind is not sent either, and told so', async () => {
    const n = ++serial;
    const parts = [`First part number ${n} is spoken here.`, `Then part ${n} finds the month used up.`];
    const text = parts.join(' ');
    expect(splitText(text, MAX_CHARS)).toEqual(parts);
    const behind = `Queued behind it, number ${n}.`;
    // After the first part nothing is left: the second is the service's "used up" 429, which marks the month.
    h.sandbox.setKeyUsed(h.apiKey, PLAN_LIMITS.creator - countCharacters(parts[0] ?? ''));
    // The first part is charged and its answer held at the service while another member's order is accepted.
    h.sandbox.injectFault({ kind: 'hold-after-charge', endpoint: 'tts' });
    const before = h.sandbox.requests.length;
    const first = await sayBy(text);
    await vi.waitFor(() => expect(requestsFor(parts, before)[0]?.outcome).toBe('held'), { timeout: 20_000 });
    const second = await sayBy(behind, SECOND_SPEAKER);
    await second.waitFor((r) => (r.content ?? '').startsWith('Queued'), 60_000);
    h.sandbox.resumePaused();
    expectPaidPartWay(await answerOf(first), countCharacters(parts[0] ?? ''));
    const told = await answerOf(second);
    await booksSettled(h);
    expect(requestsFor([...parts, behind], before).map((r) => [r.text, r.status])).toEqual([
      [parts[0], 200],
      [parts[1], 429],
    ]);
    expect(told).toMatch(/^The monthly character quota of the voice service is used up\. It resets \d{4}-\d{2}-01\.$/);
    expect(await spentShown()).toBe(h.sandbox.charactersBilled());
  });
});

/** Every request this case's bot made (a refused one names no text: the service read no further than its key). */
function requestsSince(before: number) {
  return h.sandbox.requests.slice(before).filter((r) => r.endpoint === 'tts');
}

/**
 * The first `held` parts are made and charged, their answers held; then `refuse` makes the service refuse what
 * follows (the key deactivated, the plan's access gone), and the answers go on.
 */
async function refuseAfter(held: readonly string[], refuse: () => void): Promise<void> {
  await expect
    .poll(() => held.every((text) => h.sandbox.requests.some((r) => r.text === text && r.outcome === 'held')))
    .toBe(true);
  refuse();
  h.sandbox.resumePaused();
}

const keyRefusals: Array<{ name: string; refuse: () => void; status: number; key: MessageKey }> = [
  {
    name: '401, the key deactivated',
    refuse: () => h.sandbox.setKeyActive(h.apiKey, false),
    status: 401,
    key: 'error.paidPartWay.keyRefused',
  },
  {
    name: "403, the plan's API access gone",
    refuse: () => h.sandbox.injectFault({ kind: 'service-error', status: 403, endpoint: 'tts', times: Infinity }),
    status: 403,
    key: 'error.paidPartWay.planRefused',
  },
];

function expectKeyRefusedPartWay(content: string, paid: number, key: MessageKey): void {
  expect(content).toMatch(new RegExp(`\\b${paid} characters`));
  expect(content).not.toMatch(/sent nothing|nothing was (spent|charged)/i);
  expect(content).toBe(t('en-US', key, { paid }));
}

describe('paid part-way, then the key refused', () => {
  for (const refusal of keyRefusals) {
    it(`as a file, ${refusal.name}: the part made is posted and said spent, and the rest not sent`, async () => {
      const { text, first, parts } = threeParts();
      const before = h.sandbox.requests.length;
      h.sandbox.injectFault({ kind: 'hold-after-charge', endpoint: 'tts' });
      const reply = runCommand(h, {
        guildId: GUILD,
        userId: WRITER,
        name: 'say',
        options: { text, voice: VOICE_ID, output: 'file' },
      });
      await refuseAfter(parts.slice(0, 1), refusal.refuse);
      const { handle, content } = await reply;
      // A file's parts are asked one after another: the second is the first refused, and nothing follows it.
      const made = requestsSince(before);
      expect(made.map((r) => r.status)).toEqual([200, refusal.status]);
      expect(made[0]?.charactersBilled).toBe(first);
      expectPartFile(handle, content);
      expectKeyRefusedPartWay(content.split('\n').slice(1).join('\n'), first, refusal.key);
    });
  }

  it('in voice, 401 after parts were heard: said spent, not "stopped part-way (… nothing was spent)"', async () => {
    const { text, parts } = threeParts();
    const before = h.sandbox.requests.length;
    // In voice the next part is asked for once the one before it is heard: the first is held, the key deactivated
    // meanwhile, and the second (asked once the first plays) meets it.
    h.sandbox.injectFault({ kind: 'hold-after-charge', endpoint: 'tts' });
    const handle = await sayBy(text);
    await refuseAfter(parts.slice(0, 1), () => h.sandbox.setKeyActive(h.apiKey, false));
    const failure = await handle.waitFor(
      (r) => r.kind !== 'delete' && r.content !== undefined && !/^(Speaking|Queued)/.test(r.content ?? ''),
      20_000,
    );
    const made = requestsSince(before);
    expect(made.map((r) => r.status)).toEqual([200, 401]);
    const paid = made.reduce((sum, r) => sum + r.charactersBilled, 0);
    expect(paid).toBe(countCharacters(parts[0] ?? ''));
    expectKeyRefusedPartWay(failure.content ?? '', paid, 'error.paidPartWay.keyRefused');
  });
});

describe('paid for, then its audio cut', () => {
  it('in voice, the first part cut after the next was fetched and paid: the reply names all the order spent', async () => {
    const { text, parts } = threeParts();
    const before = h.sandbox.requests.length;
    const spentBefore = await spentShown();
    // The first part's body pauses after its first second (accepted and charged; the next part is asked for once it
    // is heard), and is reset there once the second part was answered and read: both paid, a moment heard (issue 56).
    h.sandbox.injectFault({ kind: 'pause-after', bytes: 48_000, then: 'reset', endpoint: 'tts' });
    const handle = await sayBy(text);
    // The second part's body read to its end: its 2xx was taken as paid before a byte of it was read.
    await vi.waitFor(() => expect(requestsFor(parts, before)[1]?.outcome).toBe('complete'), { timeout: 15_000 });
    expect(requestsFor(parts, before)[0]?.outcome).toBe('paused');
    h.sandbox.resumePaused();
    const content = await answerOf(handle);
    await booksSettled(h);
    const made = requestsFor(parts, before);
    expect(made.slice(0, 2).map((r) => [r.text, r.status])).toEqual([
      [parts[0], 200],
      [parts[1], 200],
    ]);
    const paid = made.reduce((sum, r) => sum + r.charactersBilled, 0);
    expect(paid).toBeGreaterThan(countCharacters(parts[0] ?? ''));
    expect((await spentShown()) - spentBefore).toBe(paid);
    expect(content).toBe(t('en-US', 'error.api.undelivered.paid', { paid }));
  });
});
