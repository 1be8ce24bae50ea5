// No part of punctuation alone is sent or billed, whichever front-end asked (issue 94, item 1), end to end: the real
// bot, the local Discord and the sandbox. A token that fills a part with a digit before its final "!?": every request
// the service gets holds a letter or a digit, and the text reaches it whole (the French spaced " !" and the other
// edges: test/core/characters.test.ts). The rule lives once (splitText,
// src/core/characters.ts), through the pipeline's one split; this asks it of /say (voice, file, voice message),
// /emote, /scene, the Speak menu and auto-read.
import { PermissionFlagsBits } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { splitText } from '../../src/core/sourcing/part-request.ts';
import { postChat, startAutoRead } from '../support/chat.ts';
import { useFileHarness } from '../support/file-harness.ts';
import { runCommand, type Harness } from '../support/harness.ts';
import { ALICE, GENERAL, LONDON as GUILD, LONDON_TEXT, londonWith } from '../support/world.ts';

const MAX_CHARS = 60;
const h = useFileHarness({
  guilds: [
    londonWith([
      {
        id: ALICE,
        username: 'alice',
        voiceChannelId: GENERAL,
        locale: 'en-US',
        permissions: PermissionFlagsBits.ManageGuild | PermissionFlagsBits.SendVoiceMessages,
      },
    ]),
  ],
  config: { voiceIdleTimeoutMs: 60_000, maxCharsPerRequest: MAX_CHARS },
});

let serial = 0;
/**
 * A long token that fills a part, a digit before its final "!?" (`Q…2!?`), new each time to its digit (never the
 * cache: the part that ends it is the digit and its punctuation), in letters
 * auto-read's reading leaves as they are (no run of one letter, no space before the "!" for it to close up).
 */
function fillingWord(): string {
  const n = ++serial;
  const letters = Array.from({ length: MAX_CHARS - 2 }, (_, i) => 'abcdefghijklmnopqrstuvwxyz'[(i + n) % 26]).join('');
  return `${letters}${n % 10}!?`;
}

const squash = (s: string) => s.replace(/\s+/g, '');

type Ask = (harness: Harness, text: string) => Promise<unknown>;
/**
 * A command row. One as a file or a voice message waits for its file: the member's file share (two at a time) is
 * held until then, so a row that moved on at its last request could have the next row refused, in any order.
 */
const command =
  (name: string, options: Record<string, unknown> = {}): Ask =>
  async (harness, text) => {
    const { handle } = await runCommand(harness, {
      guildId: GUILD,
      userId: ALICE,
      name,
      options: { text, ...options },
    });
    if (options.output !== undefined) await handle.waitFor((r) => r.files.length > 0, 60_000);
  };

let reading = false;
const FRONT_ENDS: Array<[string, Ask]> = [
  ['/say in voice', command('say')],
  ['/say as a file', command('say', { output: 'file' })],
  ['/say as a voice message', command('say', { output: 'voice-message' })],
  ['/emote as a file', command('emote', { output: 'file' })],
  [
    '/scene as a file',
    async (harness, text) => {
      const form = await harness.discord.command({
        guildId: GUILD,
        userId: ALICE,
        name: 'scene',
        options: [{ name: 'new', type: 1, options: [{ name: 'output', value: 'file' }] }],
      });
      await form.waitFor((r) => r.kind === 'callback' && r.type === 9);
      const submit = await harness.discord.submitModal({
        on: form,
        values: { script: `cast: Ann = voice-b-en-f-01\nAnn: ${text}` },
      });
      const shown = await submit.waitFor((r) => r.kind !== 'delete' && r.content !== undefined, 30_000);
      const rows = (shown.message?.components ?? []) as Array<{ components: Array<{ custom_id: string }> }>;
      const confirm = rows
        .flatMap((row) => row.components.map((b) => b.custom_id))
        .find((id) => id.startsWith('scene:go:'));
      expect(confirm, shown.content).toBeDefined();
      const pressed = await harness.discord.pressButton({
        guildId: GUILD,
        userId: ALICE,
        messageId: String(shown.message?.id),
        customId: confirm ?? '',
      });
      await pressed.waitFor((r) => r.files.length > 0, 60_000);
    },
  ],
  [
    'the Speak menu',
    (harness, text) =>
      harness.discord.messageCommand({
        guildId: GUILD,
        userId: ALICE,
        name: 'Speak',
        message: { author: { id: ALICE, username: 'alice' }, content: text },
      }),
  ],
  [
    'auto-read',
    async (harness, text) => {
      if (!reading) {
        reading = true;
        await startAutoRead(harness, GUILD, ALICE, { text: LONDON_TEXT, voice: GENERAL });
        const options = { say_name: false };
        await runCommand(harness, { guildId: GUILD, userId: ALICE, name: 'autoread', subcommand: 'settings', options });
      }
      expect(
        await postChat(harness, { guildId: GUILD, channelId: LONDON_TEXT }, { id: ALICE, username: 'alice' }, text),
      ).toBe(true);
    },
  ],
];

describe('no part of punctuation alone is sent, whichever front-end asks', () => {
  it.each(FRONT_ENDS)(
    '%s: a token that fills a part, then a digit and "!?": every request holds a letter or a digit, the text whole',
    async (_name, ask) => {
      const text = fillingWord();
      const before = h.sandbox.requests.length;
      // The rows run one after another, each waiting for all its parts: what the service gets from here is this row's.
      const ours = () => h.sandbox.requests.slice(before).filter((r) => r.text !== undefined);
      await ask(h, text);
      // As many requests as the text has parts (in voice, each asked for once the one before it is heard).
      await expect.poll(() => ours().length, { timeout: 60_000 }).toBe(splitText(text, MAX_CHARS).length);
      const sent = ours().map((r) => r.text ?? '');
      for (const part of sent) expect(part, JSON.stringify(sent)).toMatch(/[\p{L}\p{N}]/u);
      expect(squash(sent.join(''))).toBe(squash(text));
    },
  );
});
