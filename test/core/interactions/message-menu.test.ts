// Message context menus end to end: the local Discord sends what Discord sends when a member uses "Speak" on a
// message (type 2, data.type 3, target_id, resolved.messages), and the real bot routes it, checks it, answers it.
import { ApplicationCommandType, ContextMenuCommandBuilder, InteractionContextType, MessageFlags } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnyCommandModule, MessageMenuModule } from '../../../src/core/interactions/command.ts';
import { loadCommandModules } from '../../../src/app/command-modules.ts';
import { t } from '../../../src/core/i18n/catalogue.ts';
import { showContent } from '../../../src/core/interactions/replies.ts';
import { speakableMessage, speakMessageText } from '../../../src/features/autoread/speak-message.ts';
import type { FakeMessageCommandInput, InteractionHandle } from '@saybot/local-discord/types.ts';
import { APP_ID, defaultGuilds, startHarness, type Harness } from '../../support/harness.ts';
import { ALICE, BOB, MINJI, OTHER_ROOM, OUTSIDE } from '../../support/world.ts';

const guilds = defaultGuilds();
const seoul = guilds[0] as (typeof guilds)[number];
const london = guilds[1] as (typeof guilds)[number];

/** A test-only menu that needs its member in voice and answers with the text Speak would read from the message. */
const readBack: MessageMenuModule = {
  data: new ContextMenuCommandBuilder()
    .setName('Read back')
    .setType(ApplicationCommandType.Message)
    .setContexts(InteractionContextType.Guild) as MessageMenuModule['data'],
  requires: { inVoice: true },
  uses: [],
  async execute(interaction) {
    await showContent(
      interaction,
      speakMessageText(speakableMessage(interaction.targetMessage), { language: interaction.guildLocale }),
    );
  },
};

const ephemeral = (r: { flags?: number }) => ((r.flags ?? 0) & MessageFlags.Ephemeral) === MessageFlags.Ephemeral;

/** Uses a menu on a message and waits for the first response with something to read. */
async function useMenu(
  h: Harness,
  input: FakeMessageCommandInput,
): Promise<{ handle: InteractionHandle; content: string; private: boolean }> {
  const handle = await h.discord.messageCommand(input);
  const final = await handle.waitFor((r) => r.kind !== 'delete' && r.content !== undefined, 20_000);
  return { handle, content: final.content ?? '', private: ephemeral(final) };
}

describe('message context menus', () => {
  let h: Harness;
  beforeAll(async () => {
    // Everything in commands/ (Speak included), plus the probe.
    const commands = new Map<string, AnyCommandModule>([
      ...(await loadCommandModules()),
      [readBack.data.name, readBack],
    ]);
    h = await startHarness({ guilds, commands });
  });
  afterAll(async () => {
    await h?.close();
  });

  it("Speak on a message with nothing to read reaches its execute, which says so privately in the member's language", async () => {
    const korean = await useMenu(h, {
      guildId: seoul.id,
      userId: MINJI,
      name: 'Speak',
      message: { author: { id: OTHER_ROOM, username: 'other-room' }, content: '😂😂 **' },
    });
    expect(korean.content).toBe(t('ko', 'speak.nothing'));
    expect(korean.private).toBe(true);
    const japanese = await useMenu(h, {
      guildId: london.id,
      userId: BOB,
      name: 'Speak',
      message: { author: { id: ALICE, username: 'alice' }, content: '👍' },
    });
    expect(japanese.content).toBe(t('ja', 'speak.nothing'));
    expect(japanese.private).toBe(true);
    expect([...korean.handle.problems, ...japanese.handle.problems]).toEqual([]);
  });

  it('gives the menu the chosen message as Discord resolves it: content, mentions by name, attachments', async () => {
    const content = `look <@${MINJI}> https://www.youtube.com/watch?v=x`;
    const { content: said, private: hidden } = await useMenu(h, {
      guildId: seoul.id,
      userId: MINJI,
      name: 'Read back',
      message: {
        author: { id: OTHER_ROOM, username: 'other-room' },
        content,
        mentions: [{ id: MINJI, username: 'minji' }],
        attachments: [
          {
            id: '510000000000000001',
            filename: 'cat.png',
            content_type: 'image/png',
            size: 1024,
            url: 'https://cdn.invalid/cat.png',
          },
        ],
      },
    });
    const expected = speakMessageText(
      {
        content,
        cleanup: { users: { [MINJI]: 'minji' }, attachments: [{ filename: 'cat.png', contentType: 'image/png' }] },
      },
      { language: 'ko' },
    );
    expect(expected).toContain('minji');
    expect(said).toBe(expected);
    expect(said).not.toContain(MINJI);
    expect(hidden).toBe(true);
  });

  it("checks a menu's preconditions before its execute: outside voice, told privately to join a channel first", async () => {
    const { content, private: hidden } = await useMenu(h, {
      guildId: seoul.id,
      userId: OUTSIDE,
      name: 'Read back',
      message: { author: { id: MINJI, username: 'minji' }, content: 'hello there' },
    });
    expect(content).toBe(t('ko', 'error.voice.notInVoice'));
    expect(hidden).toBe(true);
  });

  it("answers a menu it does not know with the usual private failure, and a slash command's name used as a menu too, without that command's preconditions", async () => {
    const before = h.logs().length;
    for (const name of ['Nope', 'budget']) {
      const {
        handle,
        content,
        private: hidden,
      } = await useMenu(h, {
        guildId: london.id,
        userId: ALICE,
        name,
        message: { author: { id: BOB, username: 'bob' }, content: 'hi' },
      });
      expect(content, name).toBe(t('en-US', 'error.internal'));
      expect(hidden, name).toBe(true);
      // Answered in time, once: never Discord's "The application did not respond".
      expect(handle.problems, name).toEqual([]);
    }
    const failures = h
      .logs()
      .slice(before)
      .split('\n')
      .filter((line) => line.includes('"command failed"'));
    expect(failures.map((line) => (JSON.parse(line) as { command: string }).command)).toEqual(['Nope', 'budget']);
  });

  it('registers the menus with the slash commands, and a second start with the same ones PUTs nothing', async () => {
    const registered = h.discord.registeredCommands() as Array<{
      name: string;
      type: number;
      name_localizations?: Record<string, string> | null;
    }>;
    const speak = registered.find((c) => c.name === 'Speak');
    expect(speak?.type).toBe(ApplicationCommandType.Message);
    expect(speak?.name_localizations).toEqual({ ko: t('ko', 'menu.speak'), ja: t('ja', 'menu.speak') });
    expect(registered.find((c) => c.name === 'say')?.type).toBe(ApplicationCommandType.ChatInput);
    const puts = () =>
      h.discord.restLog.filter((e) => e.method === 'PUT' && e.path.endsWith(`/applications/${APP_ID}/commands`)).length;
    expect(puts()).toBe(1);

    await h.restart();
    expect(puts()).toBe(1);
    expect(h.logs()).toContain('slash commands already up to date');
    // The restarted bot still answers the menu Discord holds.
    const { content } = await useMenu(h, {
      guildId: london.id,
      userId: BOB,
      name: 'Speak',
      message: { author: { id: ALICE, username: 'alice' }, content: '🎉' },
    });
    expect(content).toBe(t('ja', 'speak.nothing'));
  });
});
