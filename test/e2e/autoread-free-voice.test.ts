// Auto-read's free_voice is a manager's promise that chatter spends no characters: where the owner's FREE_VOICE lets
// no free voice read it (off, or the free voice only standing in), a message is not read, never read in the paid voice.
import { describe, expect, it } from 'vitest';
import { PermissionFlagsBits } from 'discord.js';
import { t } from '../../src/core/i18n/catalogue.ts';
import { useHarnessPerTest } from '../support/file-harness.ts';
import { runCommand } from '../support/harness.ts';
import { postChat, snowflakeAt, startAutoRead } from '../support/chat.ts';
import { until } from '../support/books-shown.ts';
import { ALICE, GENERAL, LONDON, LONDON_TEXT, londonWith } from '../support/world.ts';

const startHarness = useHarnessPerTest();
const reader = { id: ALICE, username: 'alice' };

describe("auto-read's free_voice where the owner lets no free voice read", () => {
  it.each(['off', 'fallback'] as const)(
    'FREE_VOICE=%s: the message is not read, nothing asked of the service',
    async (FREE_VOICE) => {
      const h = await startHarness({
        guilds: [
          londonWith([
            { ...reader, voiceChannelId: GENERAL, locale: 'en-US', permissions: PermissionFlagsBits.ManageGuild },
          ]),
        ],
        env: { FREE_VOICE },
      });
      await startAutoRead(h, LONDON, ALICE, { text: LONDON_TEXT, voice: GENERAL });
      await runCommand(h, {
        guildId: LONDON,
        userId: ALICE,
        name: 'autoread',
        subcommand: 'settings',
        options: { free_voice: true },
      });
      const before = h.sandbox.requests.length;
      await postChat(h, { guildId: LONDON, channelId: LONDON_TEXT }, reader, 'chatter that spends nothing', {
        id: snowflakeAt(),
      });
      // Either it went to the service (the hole), or the free voice it was handed was refused.
      await until(() => h.sandbox.requests.length > before || h.logs().includes('"code":"free-voice-unavailable"'));
      expect(h.sandbox.requests.slice(before)).toEqual([]);
      expect(h.sandbox.charactersBilled()).toBe(0);
    },
  );

  // bb7: the setting was taken without a word, then every message was dropped with a log line the manager never sees.
  it.each([
    ['off', 'en-US', true],
    ['fallback', 'ja', true],
    ['chosen', 'ko', false],
  ] as const)(
    'FREE_VOICE=%s: /autoread settings free_voice:true in %s is saved, with a warning where it cannot read: %s',
    async (FREE_VOICE, locale, warned) => {
      const h = await startHarness({
        guilds: [londonWith([{ ...reader, locale, permissions: PermissionFlagsBits.ManageGuild }])],
        env: { FREE_VOICE },
      });
      const set = (free: boolean) =>
        runCommand(h, {
          guildId: LONDON,
          userId: ALICE,
          name: 'autoread',
          subcommand: 'settings',
          options: { free_voice: free },
          locale,
        });
      const warning = t(locale, 'autoread.freeVoice.cannotRead');
      const on = await set(true);
      expect(on.content.includes(warning)).toBe(warned);
      expect((await set(false)).content).not.toContain(warning);
    },
  );
});
