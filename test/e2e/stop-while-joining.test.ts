// /stop and /skip of orders in voice are normal outcomes, whatever the voice connection is doing (issue 56).
import { describe, expect, it } from 'vitest';
import { useFileHarness } from '../support/file-harness.ts';
import { runCommand } from '../support/harness.ts';
import { oneRoomGuild } from '../support/world.ts';
import { booksSettled } from '../support/books-settled.ts';
import { t } from '../../src/core/i18n/translate.ts';
import { splitText } from '../../src/core/speech/split-text.ts';

const GUILD = '200000000000000056';
const TEXT = '210000000000000056';
const VOICE = '220000000000000056';
const SPEAKER = '300000000000000561'; // in voice, no rights over others
const VOICE_ID = 'voice-b-en-f-01';
const MAX_CHARS = 40;

const h = useFileHarness({
  guilds: [
    oneRoomGuild(GUILD, 'Joining', { text: TEXT, voice: VOICE }, [
      { id: SPEAKER, username: 'speaker', voiceChannelId: VOICE, locale: 'en-US' },
    ]),
  ],
  // Parts of at most 40 characters, so that a short text is several parts (TTS_MAX_CHARS_PER_REQUEST's own floor is 50).
  config: { maxCharsPerRequest: MAX_CHARS, voiceIdleTimeoutMs: 60_000 },
});

let serial = 0;

/** A text of four parts, new each time (a real request each, never the cache). */
function fourParts(): { text: string; parts: string[] } {
  const n = ++serial;
  const text = `First part ${n} is spoken right here. Second part ${n} follows it closely. Third part ${n} comes after that. Fourth part ${n} ends the order.`;
  const parts = splitText(text, MAX_CHARS);
  expect(parts.length).toBe(4);
  return { text, parts };
}

/** /say in voice by `userId`, answered once SayBot accepted it (its first response): the order is SayBot's now. */
async function sayAccepted(text: string, userId = SPEAKER) {
  const handle = await h.discord.command({
    guildId: GUILD,
    userId,
    name: 'say',
    options: [
      { name: 'text', value: text },
      { name: 'voice', value: VOICE_ID },
    ],
  });
  await expect.poll(() => handle.responses.length).toBeGreaterThan(0);
  return handle;
}

/** The reply's last word once it is not "Speaking…" or "Queued…". */
async function outcomeOf(handle: Awaited<ReturnType<typeof sayAccepted>>): Promise<string> {
  const answer = await handle.waitFor(
    (r) => r.kind !== 'delete' && r.content !== undefined && !/^(Speaking|Queued)/.test(r.content ?? ''),
    20_000,
  );
  return answer.content ?? '';
}

describe('in voice', () => {
  it('/stop of a long order is a normal outcome: no unhandled rejection, no error-level line', async () => {
    await runCommand(h, { guildId: GUILD, userId: SPEAKER, name: 'join' });
    const { text } = fourParts();
    const from = h.logs().split('\n').length;
    const say = await sayAccepted(text);
    await h.discord.waitForPacket(GUILD, (packet) => !packet.silence, 20_000);
    // Parts 2 to 4 were queued; the third and fourth were not yet asked for when the stop let them go.
    const stop = await runCommand(h, { guildId: GUILD, userId: SPEAKER, name: 'stop' });
    expect(stop.content).toBe(t('en-US', 'stop.own', { count: 3 }));
    expect(await outcomeOf(say)).toMatch(/^Stopped/);
    await booksSettled(h);
    const lines = h.logs().split('\n').slice(from).filter(Boolean);
    expect(lines.filter((line) => line.includes('unhandled promise rejection'))).toEqual([]);
    expect(lines.filter((line) => /"level":(50|60)/.test(line))).toEqual([]);
  });
});
