// Issue 26's reading settings end to end: the real bot against the local Discord (MESSAGE_CREATE, voice with DAVE)
// and the sandbox Voice API. Each test checks what the voice channel HEARD and the texts the Voice API received
// (none for a message that is not read).
import { PermissionFlagsBits } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatMessage } from '@saybot/local-discord/message-create.ts';
import type { FakeGuildSpec } from '@saybot/local-discord/types.ts';
import { numberValue, runCommand, startHarness, type Harness, type HarnessOptions } from '../support/harness.ts';

const GUILD = '200000000000000002';
const TEXT = '210000000000000002';
const VOICE = '220000000000000003';
const ALICE = { id: '300000000000000011', username: 'alice' }; // Manage Server, in voice
const CAROL = { id: '300000000000000013', username: 'carol' }; // in voice, no Manage Server
const DAVE = { id: '300000000000000014', username: 'dave' }; // not in voice at first

function guilds(): FakeGuildSpec[] {
  return [{
    id: GUILD,
    name: 'London',
    preferredLocale: 'en-US',
    textChannelId: TEXT,
    voiceChannels: [{ id: VOICE, name: 'general' }],
    members: [
      { ...ALICE, voiceChannelId: VOICE, locale: 'en-US', permissions: PermissionFlagsBits.ManageGuild },
      { ...CAROL, voiceChannelId: VOICE, locale: 'en-US' },
      { ...DAVE, locale: 'en-US' },
    ],
  }];
}

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function startReading(options: HarnessOptions = {}): Promise<Harness> {
  harness = await startHarness({ guilds: guilds(), config: { voiceIdleTimeoutMs: 60_000 }, ...options });
  const { content } = await runCommand(harness, { guildId: GUILD, userId: ALICE.id, name: 'autoread', subcommand: 'start' });
  expect(content).toContain(`Reading <#${TEXT}> aloud in <#${VOICE}>`);
  return harness;
}

type Author = { id: string; username: string };
let sequence = 0;
async function post(h: Harness, author: Author, content: string, extra: Partial<ChatMessage> = {}): Promise<void> {
  const id = (BigInt(Date.now() - 1_420_070_400_000) << 22n | BigInt(++sequence & 0xfff)).toString();
  const delivered = await h.discord.postMessage({ id, channelId: TEXT, guildId: GUILD, author, member: { roles: [] }, content, ...extra });
  expect(delivered).toBe(true);
}

/** The texts the Voice API was asked to speak since `from` (an index into the sandbox's requests). */
const spoken = (h: Harness, from = 0): string[] => h.sandbox.requests.slice(from).filter((r) => r.endpoint === 'tts').map((r) => r.text ?? '');

/** Waits until the channel heard `text` at `speed` (the sandbox's length for it, divided by the speed), and returns its length. */
async function heardSeconds(h: Harness, text: string, speed = 1): Promise<number> {
  const expected = h.sandbox.expectedDurationSeconds(text) / speed;
  const audio = await h.discord.waitForAudio(GUILD, { minSeconds: expected - 0.1, quietMs: 400 });
  return audio.seconds;
}

describe('speed and volume kept in presets and /myvoice', () => {
  it("the server's default preset with speed 1.5 reads a message in 2/3 of its time, from one paid call", async () => {
    const h = await startReading();
    const saved = await runCommand(h, {
      guildId: GUILD, userId: ALICE.id, name: 'preset', subcommand: 'save',
      options: { name: 'brisk', voice: 'voice-b-en-m-01', speed: numberValue(1.5), volume: numberValue(-3) },
    });
    expect(saved.content).toContain('speed 1.5×');
    expect(saved.content).toContain('volume -3 dB');
    await runCommand(h, { guildId: GUILD, userId: ALICE.id, name: 'preset', subcommand: 'default', options: { name: 'brisk' } });
    const listed = await runCommand(h, { guildId: GUILD, userId: CAROL.id, name: 'preset', subcommand: 'list' });
    expect(listed.content).toContain('speed 1.5×');
    const from = h.sandbox.requests.length;
    h.discord.clearAudio(GUILD);
    await post(h, CAROL, 'Read this one a little faster, please.');
    const text = 'carol said, Read this one a little faster, please.';
    const seconds = await heardSeconds(h, text, 1.5);
    expect(spoken(h, from)).toEqual([text]);
    expect(Math.abs(seconds - h.sandbox.expectedDurationSeconds(text) / 1.5)).toBeLessThan(0.15);
  });

  it('/myvoice set speed:0.75 is the member\'s own: their messages are read slower, shown in the reply', async () => {
    const h = await startReading();
    const set = await runCommand(h, { guildId: GUILD, userId: CAROL.id, name: 'myvoice', subcommand: 'set', options: { speed: numberValue(0.75) } });
    expect(set.content).toContain('speed 0.75×');
    h.discord.clearAudio(GUILD);
    await post(h, CAROL, 'Slowly now.');
    const text = 'carol said, Slowly now.';
    const seconds = await heardSeconds(h, text, 0.75);
    expect(Math.abs(seconds - h.sandbox.expectedDurationSeconds(text) / 0.75)).toBeLessThan(0.15);
  });
});

describe("a member's own name and opt-out (/myvoice name, read_me)", () => {
  it('reads a member by the name they set, not their display name; a mention-shaped name is refused', async () => {
    const h = await startReading();
    const refused = await runCommand(h, { guildId: GUILD, userId: CAROL.id, name: 'myvoice', subcommand: 'set', options: { name: `<@${ALICE.id}>` } });
    expect(refused.content).toContain('A name to be read is 1 to 32 letters or digits');
    const set = await runCommand(h, { guildId: GUILD, userId: CAROL.id, name: 'myvoice', subcommand: 'set', options: { name: 'Caz' } });
    expect(set.content).toContain('auto-read names you "Caz"');
    const from = h.sandbox.requests.length;
    h.discord.clearAudio(GUILD);
    await post(h, CAROL, 'Hello everyone.');
    const text = 'Caz said, Hello everyone.';
    const seconds = await heardSeconds(h, text);
    expect(spoken(h, from)).toEqual([text]);
    expect(Math.abs(seconds - h.sandbox.expectedDurationSeconds(text))).toBeLessThan(0.15);
  });

  it("an opted-out member's message makes no API call; read_me:True reads them again", async () => {
    const h = await startReading();
    const set = await runCommand(h, { guildId: GUILD, userId: CAROL.id, name: 'myvoice', subcommand: 'set', options: { read_me: false } });
    expect(set.content).toContain('auto-read does not read you');
    const from = h.sandbox.requests.length;
    h.discord.clearAudio(GUILD);
    await post(h, CAROL, 'Please do not read this.');
    // Messages are handed over in order: once Alice's is sent to the service, Carol's was decided.
    await post(h, ALICE, 'But read mine.');
    await heardSeconds(h, 'alice said, But read mine.');
    expect(spoken(h, from)).toEqual(['alice said, But read mine.']);
    expect(h.logs()).toContain('"skipped":"opted-out"');

    await runCommand(h, { guildId: GUILD, userId: CAROL.id, name: 'myvoice', subcommand: 'set', options: { read_me: true } });
    const again = h.sandbox.requests.length;
    h.discord.clearAudio(GUILD);
    await post(h, CAROL, 'Now read me.');
    await heardSeconds(h, 'carol said, Now read me.');
    expect(spoken(h, again)).toEqual(['carol said, Now read me.']);
  });
});
