// The rules every way of speaking keeps, written once and run here across the front-ends, end to end: the real bot,
// the local Discord and the sandbox. A table of front-ends (how a member asks for `text` to be spoken, and the words
// they read back) against a table of rules (what must hold whichever front-end asked). To add a front-end, add a
// row to FRONT_ENDS; to add a rule, an `it.each` over it.
import { describe, expect, it } from 'vitest';
import { countCharacters } from '../../src/core/speech/split-text.ts';
import { useFileHarness } from '../support/file-harness.ts';
import { defaultGuilds, runCommand, type Harness } from '../support/harness.ts';
import { ALICE, LONDON as GUILD } from '../support/world.ts';

/** The member's daily budget in characters: the cap every row is asked past. */
const DAILY = 20;

const h = useFileHarness({
  guilds: defaultGuilds(),
  config: { voiceIdleTimeoutMs: 60_000 },
  env: {
    BUDGET_MEMBER_DAILY_CHARS: String(DAILY),
    BUDGET_MEMBER_COOLDOWN_SECONDS: '0',
    USER_INSTALL: 'everyone',
  },
});

/** A way of speaking: asks for `text` as ALICE would there, and gives back the words she reads at the end. */
interface FrontEnd {
  name: string;
  ask(harness: Harness, text: string): Promise<string>;
}

const finalWords = (r: { kind: string; content?: string | undefined }) =>
  r.kind !== 'delete' && r.content !== undefined && !/^(Speaking|Queued)/.test(r.content);

const FRONT_ENDS: FrontEnd[] = [
  {
    name: '/say',
    ask: async (harness, text) =>
      (await runCommand(harness, { guildId: GUILD, userId: ALICE, name: 'say', options: { text, output: 'file' } }))
        .content,
  },
  {
    name: '/say in voice',
    ask: async (harness, text) =>
      (await runCommand(harness, { guildId: GUILD, userId: ALICE, name: 'say', options: { text } })).content,
  },
  {
    name: '/emote',
    ask: async (harness, text) =>
      (await runCommand(harness, { guildId: GUILD, userId: ALICE, name: 'emote', options: { text, output: 'file' } }))
        .content,
  },
  {
    name: '/say outside a server (the user install)',
    ask: async (harness, text) => {
      const handle = await harness.discord.privateCommand({
        userId: ALICE,
        name: 'say',
        context: 2,
        options: [{ name: 'text', value: text }],
      });
      return (await handle.waitForFinal(20_000)).content ?? '';
    },
  },
  {
    name: 'the Speak menu',
    ask: async (harness, text) => {
      const handle = await harness.discord.messageCommand({
        guildId: GUILD,
        userId: ALICE,
        name: 'Speak',
        message: { author: { id: ALICE, username: 'alice' }, content: text },
      });
      return (await handle.waitFor(finalWords, 20_000)).content ?? '';
    },
  },
  {
    name: '/scene',
    ask: async (harness, text) => {
      const form = await harness.discord.command({
        guildId: GUILD,
        userId: ALICE,
        name: 'scene',
        options: [{ name: 'new', type: 1, options: [{ name: 'output', value: 'file' }] }],
      });
      await form.waitFor((r) => r.kind === 'callback' && r.type === 9);
      const script = `cast: Ann = voice-b-en-f-01\nAnn: ${text}`;
      const submit = await harness.discord.submitModal({ on: form, values: { script } });
      const shown = await submit.waitFor((r) => r.kind !== 'delete' && r.content !== undefined, 20_000);
      const rows = (shown.message?.components ?? []) as Array<{ components: Array<{ custom_id: string }> }>;
      const confirm = rows
        .flatMap((row) => row.components.map((b) => b.custom_id))
        .find((id) => id.startsWith('scene:go:'));
      // Refused at the preview already: its words are the answer.
      if (confirm === undefined) return shown.content ?? '';
      const pressed = await harness.discord.pressButton({
        guildId: GUILD,
        userId: ALICE,
        messageId: String(shown.message?.id),
        customId: confirm,
      });
      return (
        (await pressed.waitFor((r) => r.content !== undefined && !/^🎬 Making/.test(r.content), 30_000)).content ?? ''
      );
    },
  },
];

const paidRequests = (harness: Harness) =>
  harness.sandbox.requests.filter((r) => r.endpoint === 'tts' || r.endpoint === 'emotion-tts').length;

/** The whole numbers in `words`. */
const numbersIn = (words: string) => [...words.matchAll(/\d+/g)].map((m) => Number(m[0]));

describe('the rules of speaking, for every front-end', () => {
  it.each(FRONT_ENDS)(
    "$name: a text over the member's budget is refused naming the cap and its figure, and nothing is requested",
    async (front) => {
      const before = paidRequests(h);
      const words = await front.ask(h, 'This text is longer than the twenty characters of her day.');
      // The refusal's words (failure-words.ts), or a preview that offers no "Play it" and says which budget.
      expect(words).toMatch(
        new RegExp(
          `^Your daily budget in this server is ${DAILY} characters|budget today leaves \\d+ of ${DAILY} characters`,
        ),
      );
      expect(paidRequests(h)).toBe(before);
    },
  );

  it.each(FRONT_ENDS)(
    "$name: the count it shows is in the service's unit (NFC code points, countCharacters), not as written",
    async (front) => {
      // Written decomposed (NFD): each accent a code point of its own, which the service does not bill.
      const text = 'déjà vu café crème brûlée élève'.normalize('NFD');
      const billed = countCharacters(text);
      expect([...text].length).toBeGreaterThan(billed);
      const before = paidRequests(h);
      const words = await front.ask(h, text);
      expect(numbersIn(words)).toContain(billed);
      expect(numbersIn(words)).not.toContain([...text].length);
      expect(paidRequests(h)).toBe(before);
    },
  );
});
