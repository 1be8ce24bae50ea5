import { PermissionFlagsBits } from 'discord.js';
import { describe, expect, it } from 'vitest';
import type { FakeGuildSpec } from '@saybot/local-discord/types.ts';
import { useFileHarness } from '../support/file-harness.ts';
import { runCommand } from '../support/harness.ts';
import { postChat, startAutoRead } from '../support/chat.ts';
import { oneRoomGuild } from '../support/world.ts';
import { watchPacketOrder } from '../support/packet-order.ts';
import { holdReplyNearItsEnd } from '../support/held-say.ts';

// A reading server keeps a dictionary of 500 words sharing a prefix (character names) and its members write
// messages full of near-matches, while another server listens to SayBot. The dictionary is built and applied on the
// main thread, which also sends every server's voice packets: the other server hears every packet, in order. (The
// gaps between them are npm run bench's figure: a test that times them measures the machine.)

const GUILD = '200000000000000241';
const CAFE = '200000000000000242';
const ADMIN = '300000000000000241';
const LISTENER = '300000000000000242';
const TEXT = '210000000000000241';
const VOICE = '220000000000000241';
const CAFE_VOICE = '220000000000000242';

const guilds: FakeGuildSpec[] = [
  oneRoomGuild(GUILD, 'Readers', { text: TEXT, voice: VOICE, voiceName: 'reading' }, [
    { id: ADMIN, username: 'admin', permissions: PermissionFlagsBits.ManageGuild, voiceChannelId: VOICE },
  ]),
  oneRoomGuild(CAFE, 'Cafe', { text: '210000000000000242', voice: CAFE_VOICE, voiceName: 'lounge' }, [
    { id: LISTENER, username: 'listener', voiceChannelId: CAFE_VOICE },
  ]),
];

const h = useFileHarness({ guilds });

const numbered = (i: number) => String(i).padStart(3, '0');

describe('a dictionary of 500 words sharing a prefix', () => {
  it("is imported and read with while another server's voice plays, every packet of it sent in order", async () => {
    const entries = Array.from({ length: 500 }, (_, i) => ({ word: `charactername${numbered(i)}`, reading: `n${i}` }));
    const importFile = async (json: unknown) => {
      const file = h.discord.hostAttachment(Buffer.from(JSON.stringify(json)), 'dictionary.json', 'application/json');
      return runCommand(h, {
        guildId: GUILD,
        userId: ADMIN,
        name: 'dictionary',
        subcommand: 'import',
        options: { file: { type: 11, value: file.id } },
      });
    };
    const post = (content: string) =>
      postChat(h, { guildId: GUILD, channelId: TEXT }, { id: ADMIN, username: 'admin' }, content);
    await startAutoRead(h, GUILD, ADMIN, { text: TEXT, voice: VOICE });
    // Once through every step with a small dictionary first, so that what runs beside the cafe's reply below is the
    // dictionary's work and not the first run of the code around it.
    await importFile({ version: 1, entries: [{ word: 'warm', reading: 'up' }] });
    const warmUp = h.sandbox.requests.length;
    expect(await post('warm words before the names')).toBe(true);
    await expect.poll(() => h.sandbox.requests.length, { timeout: 10_000 }).toBeGreaterThan(warmUp);

    h.discord.clearAudio(CAFE);
    const text =
      'This reply keeps playing in the cafe while the readers change their dictionary and write messages full of names, and nobody here should hear a gap.';
    holdReplyNearItsEnd(h, text);
    const say = await runCommand(h, { guildId: CAFE, userId: LISTENER, name: 'say', options: { text } });
    await h.discord.waitForPacket(CAFE, (p) => !p.silence);
    const watch = watchPacketOrder();

    const imported = await importFile({ version: 1, entries });
    expect(imported.content).toBe('Imported the file (500 in all): the dictionary holds exactly these now.');
    const requests = h.sandbox.requests.length;
    // Near-matches: each name with one more letter, or one digit short; the first message starts with two names.
    for (let m = 0; m < 6; m++) {
      const words = Array.from({ length: 40 }, (_, i) =>
        i % 2 === 0 ? `charactername${numbered(m * 40 + i)}x` : `charactername${numbered(m * 40 + i).slice(0, 2)}`,
      );
      if (m === 0) words.unshift('charactername007 CharacterName123');
      expect(await post(words.join(' '))).toBe(true);
    }
    // The first message was read with the dictionary (the reader hands one message over at a time) while the cafe's
    // reply still played: the names by their readings, the near-matches as written.
    await expect
      .poll(() => h.sandbox.requests.slice(requests).filter((r) => r.endpoint === 'tts').length, { timeout: 30_000 })
      .toBeGreaterThanOrEqual(1);
    const first = h.sandbox.requests.slice(requests).find((r) => r.endpoint === 'tts')?.text ?? '';
    expect(first).toMatch(/^(admin said, )?n7 n123 charactername000x charactername00 /);
    expect(say.handle.responses.some((r) => (r.content ?? '').startsWith('Spoke'))).toBe(false);
    h.sandbox.resumePaused();

    await say.handle.waitFor((r) => (r.content ?? '').startsWith('Spoke'), 30_000);
    const heard = h.discord.heard(CAFE);
    expect(heard.seconds).toBeGreaterThan(h.sandbox.expectedDurationSeconds(text) - 0.5);
    expect(watch.order(heard.packets)).toEqual({ outOfOrder: 0, missing: 0 });
  });
});
