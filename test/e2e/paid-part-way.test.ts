// Work paid for part-way is told as such (issue 56, claim 2): a request in several parts whose first part the service
// made and charged, then refused the rest for the month's quota, is never told "sent nothing" nor "try again" before
// the quota resets, as a file or in voice. The sandbox refuses for real: its key is left just enough for the first
// part, so its second is answered 429 with the service's own figures (a few characters left). So too when the service
// refuses the key (401, deactivated while the first part's answer is held) or the plan's access (403) for the rest.
import { beforeEach, describe, expect, it } from 'vitest';
import { PLAN_LIMITS } from '@saybot/voice-sandbox';
import { useHarnessPerTest } from '../support/file-harness.ts';
import { runCommand, type Harness } from '../support/harness.ts';
import { oneRoomGuild } from '../support/world.ts';
import { t, type MessageKey } from '../../src/core/i18n/translate.ts';
import { countCharacters } from '../../src/core/characters.ts';
import { splitText } from '../../src/core/speech/split-text.ts';

const GUILD = '200000000000000097';
const VOICE = '220000000000000097';
const WRITER = '300000000000000971'; // outside voice: files
const SPEAKER = '300000000000000972'; // in voice
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
    ]),
  ],
  env: { VOICE_API_PLAN: 'creator', FREE_VOICE: 'chosen' },
  // Parts of at most 40 characters, so that a short text is several parts (TTS_MAX_CHARS_PER_REQUEST's own floor is 50).
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

function expectPaidPartWay(content: string, paid: number): void {
  expect(content).toMatch(new RegExp(`\\b${paid} characters`));
  expect(content).not.toMatch(/sent nothing|nothing was (spent|charged)/i);
  expect(content).not.toMatch(/try again/i);
  const reset = /resets (\d{4}-\d{2}-01)/.exec(content)?.[1];
  expect(reset).toBeDefined();
  expect(content).toBe(t('en-US', 'error.paidPartWay.quota', { paid, reset: reset ?? '' }));
}

describe('paid part-way, then refused for the month', () => {
  it('as a file: the characters of the part made are said spent, and why the rest was not sent', async () => {
    const { text, first, parts } = threeParts();
    leaveRoomFor(first);
    const before = h.sandbox.requests.length;
    const { content } = await runCommand(h, {
      guildId: GUILD,
      userId: WRITER,
      name: 'say',
      options: { text, voice: VOICE_ID, output: 'file' },
    });
    const made = requestsFor(parts, before);
    expect(made.map((r) => r.status)).toEqual([200, 429]);
    expect(made[0]?.charactersBilled).toBe(first);
    expectPaidPartWay(content, first);
  });

  it('in voice: the part heard is said paid, not "stopped part-way … please try again"', async () => {
    const { text, first, parts } = threeParts();
    leaveRoomFor(first);
    const before = h.sandbox.requests.length;
    h.discord.clearAudio(GUILD);
    const handle = await h.discord.command({
      guildId: GUILD,
      userId: SPEAKER,
      name: 'say',
      options: [
        { name: 'text', value: text },
        { name: 'voice', value: VOICE_ID },
      ],
    });
    const failure = await handle.waitFor(
      (r) => r.kind !== 'delete' && r.content !== undefined && !/^(Speaking|Queued)/.test(r.content ?? ''),
      20_000,
    );
    const made = requestsFor(parts, before);
    expect(made.map((r) => r.status).slice(0, 2)).toEqual([200, 429]);
    expectPaidPartWay(failure.content ?? '', first);
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
    it(`as a file, ${refusal.name}: the part made is said spent, and the rest not sent`, async () => {
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
      const { content } = await reply;
      // A file's parts are asked one after another: the second is the first refused, and nothing follows it.
      const made = requestsSince(before);
      expect(made.map((r) => r.status)).toEqual([200, refusal.status]);
      expect(made[0]?.charactersBilled).toBe(first);
      expectKeyRefusedPartWay(content, first, refusal.key);
    });
  }

  it('in voice, 401 after parts were heard: said spent, not "stopped part-way (… nothing was spent)"', async () => {
    const { text, parts } = threeParts();
    const before = h.sandbox.requests.length;
    // In voice the next part is asked for as the one before it starts to play: both are in flight before either
    // answers, so both are held, and the third meets the deactivated key.
    h.sandbox.injectFault({ kind: 'hold-after-charge', endpoint: 'tts', times: 2 });
    const handle = await h.discord.command({
      guildId: GUILD,
      userId: SPEAKER,
      name: 'say',
      options: [
        { name: 'text', value: text },
        { name: 'voice', value: VOICE_ID },
      ],
    });
    await refuseAfter(parts.slice(0, 2), () => h.sandbox.setKeyActive(h.apiKey, false));
    const failure = await handle.waitFor(
      (r) => r.kind !== 'delete' && r.content !== undefined && !/^(Speaking|Queued)/.test(r.content ?? ''),
      20_000,
    );
    const made = requestsSince(before);
    expect(made.map((r) => r.status)).toEqual([200, 200, 401]);
    const paid = made.reduce((sum, r) => sum + r.charactersBilled, 0);
    expect(paid).toBe(countCharacters(parts[0] ?? '') + countCharacters(parts[1] ?? ''));
    expectKeyRefusedPartWay(failure.content ?? '', paid, 'error.paidPartWay.keyRefused');
  });
});
