// Few characters left vs a longer line (issue 94, item 4; cases from its outside check): the free voice's words carry
// the service's figure in en/ja/ko, grouped as /usage groups it, "used up" only at 0; and the service's own 429 whose
// figure leaves enough for the text is neither.
import { beforeEach, describe, expect, it } from 'vitest';
import { PLAN_LIMITS } from '@saybot/voice-sandbox';
import { countCharacters } from '../../src/core/characters.ts';
import { t } from '../../src/core/i18n/catalogue.ts';
import { useFileHarness } from '../support/file-harness.ts';
import { runCommand } from '../support/harness.ts';
import { ALICE, LONDON as GUILD } from '../support/world.ts';

const h = useFileHarness({
  env: { FREE_VOICE: 'fallback', VOICE_API_PLAN: 'creator', TTS_MAX_CHARS_PER_REQUEST: '3000' },
  config: { voiceIdleTimeoutMs: 60_000 },
});
const TEXT = 'Thirty-seven characters, give or take';

beforeEach(() => {
  h.sandbox.clearFaults();
  h.sandbox.setKeyUsed(h.apiKey, 0);
});

const CASES = [
  ...(['en-US', 'ja', 'ko'] as const).flatMap((locale) =>
    [5, 1, 0].flatMap((left) =>
      (['say', 'emote'] as const).map((command) => ({ locale, left, command, output: 'file' })),
    ),
  ),
  { locale: 'en-US' as const, left: 5, command: 'say' as const, output: 'voice' },
  { locale: 'ja' as const, left: 0, command: 'say' as const, output: 'voice' },
];

describe('few characters left', () => {
  it.each(CASES)('$command $output, $locale, $left left', async ({ locale, left, command, output }) => {
    h.sandbox.setKeyUsed(h.apiKey, PLAN_LIMITS.creator - left);
    const text = `${TEXT} ${left}${command}${locale}.`;
    const { handle, content: first } = await runCommand(h, {
      guildId: GUILD,
      userId: ALICE,
      name: command,
      options: { text, output },
      locale,
    });
    const content =
      output === 'voice'
        ? ((await handle.waitFor((r) => /free-en-f/.test(r.content ?? ''), 60_000)).content ?? first)
        : first;
    const month = t(locale, 'fallback.reason.month');
    if (left === 0) expect(content).toContain(month);
    else {
      expect(content).not.toContain(month);
      expect(content).toContain(String(left));
    }
    expect(h.sandbox.charactersBilled()).toBe(0);
  });
  // Its own figure says the text fits: the refusal is for now, not the month's.
  it("the service's own 429 while its figure says 300,000 left: never 'used up', nor too few", async () => {
    h.sandbox.injectFault({ kind: 'service-error', status: 429, times: 1 });
    const { content } = await runCommand(h, {
      guildId: GUILD,
      userId: ALICE,
      name: 'say',
      options: { text: 'Refused by the service while its own figure says plenty left.', output: 'file' },
      locale: 'en-US',
    });
    expect(content).not.toContain(t('en-US', 'fallback.reason.month'));
    expect(content).not.toMatch(/used up/);
    expect(content).not.toContain('too few characters are left');
  });
  it.each(['en-US', 'ja', 'ko'] as const)(
    'a figure in the thousands is grouped as /usage groups it (%s)',
    async (locale) => {
      h.sandbox.setKeyUsed(h.apiKey, PLAN_LIMITS.creator - 1_500);
      const text = `${'A long line past what is left this month. '.repeat(38)}${locale}.`;
      const { content } = await runCommand(h, {
        guildId: GUILD,
        userId: ALICE,
        name: 'say',
        options: { text, output: 'file' },
        locale,
      });
      const needed = countCharacters(text);
      expect(needed).toBeGreaterThan(1_500);
      expect(content).toContain(
        t(locale, 'fallback.reason.tooFewLeft', {
          left: '1,500',
          needed: `1,${String(needed % 1000).padStart(3, '0')}`,
        }),
      );
      expect(h.sandbox.charactersBilled()).toBe(0);
    },
  );
});
