// A reply's buttons end to end: "Save as sound" and "Play in my voice channel" under a file reply, served from the
// audio cache with no call to the Voice API, against the local Discord (which keeps the soundboard and checks its
// limits as Discord does) and the sandbox.
import { PermissionFlagsBits } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_PERMISSIONS, type InteractionHandle } from '@saybot/local-discord';
import { oggOpusSeconds, SOUNDBOARD_MAX_BYTES } from '@saybot/local-discord/soundboard.ts';
import type { FakeGuildSpec } from '@saybot/local-discord/types.ts';
import { t } from '../../src/bot/i18n.ts';
import { runCommand, startHarness, type Harness, type HarnessOptions } from '../support/harness.ts';

const GUILD = '200000000000000092';
const TEXT = '210000000000000092';
const VOICE = '220000000000000092';
const ALICE = { id: '300000000000000091', username: 'alice' }; // Create Expressions, in voice
const BOB = { id: '300000000000000092', username: 'bob' }; // no Create Expressions, in voice

function guilds(): FakeGuildSpec[] {
  return [{
    id: GUILD, name: 'Buttons', textChannelId: TEXT, voiceChannels: [{ id: VOICE, name: 'v' }],
    botPermissions: DEFAULT_PERMISSIONS | PermissionFlagsBits.CreateGuildExpressions,
    members: [
      { ...ALICE, voiceChannelId: VOICE, locale: 'en-US', permissions: PermissionFlagsBits.CreateGuildExpressions },
      { ...BOB, voiceChannelId: VOICE, locale: 'en-US' },
    ],
  }];
}

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function start(options: HarnessOptions = {}): Promise<Harness> {
  harness = await startHarness({ guilds: guilds(), ...options });
  return harness;
}

/** /say as a file, and the reply message with its buttons' custom_ids (play, sound). */
async function fileReply(h: Harness, userId: string, text: string): Promise<{ messageId: string; play: string; sound: string }> {
  const { handle } = await runCommand(h, { guildId: GUILD, userId, name: 'say', options: { text, output: 'file' } });
  const reply = await handle.waitFor((r) => r.files.length > 0, 20_000);
  const message = reply.message ?? {};
  const rows = (message.components ?? []) as Array<{ components: Array<{ custom_id: string; label: string }> }>;
  const buttons = rows.flatMap((row) => row.components);
  expect(buttons.map((b) => b.label)).toEqual([t('en-US', 'buttons.play'), t('en-US', 'buttons.sound')]);
  // Bounded and free of the text and the member: a version, an action, a random ID.
  for (const button of buttons) expect(button.custom_id).toMatch(/^sb1:(play|sound):[\w-]{16}$/);
  return { messageId: String(message.id), play: buttons[0]?.custom_id ?? '', sound: buttons[1]?.custom_id ?? '' };
}

async function press(h: Harness, userId: string, messageId: string, customId: string): Promise<{ handle: InteractionHandle; content: string }> {
  const handle = await h.discord.pressButton({ guildId: GUILD, userId, messageId, customId });
  const final = await handle.waitForFinal(20_000);
  // Answered at once, privately (deferred within Discord's 3 s), then edited with the result.
  expect(handle.responses[0]).toMatchObject({ kind: 'callback', type: 5, flags: 64 });
  expect(handle.problems).toEqual([]);
  return { handle, content: final.content ?? '' };
}

const ttsCalls = (h: Harness) => h.sandbox.requests.filter((r) => r.endpoint === 'tts').length;

describe('reply buttons', () => {
  it('"Save as sound" saves a short reply to the soundboard as Ogg Opus within Discord\'s limits, with no Voice API call', async () => {
    const h = await start();
    const text = 'Good game.';
    const { messageId, sound } = await fileReply(h, ALICE.id, text);
    const calls = ttsCalls(h);
    const { content } = await press(h, ALICE.id, messageId, sound);
    expect(content).toMatch(/^Saved as "Good game\." on this server's soundboard \(\d\.\d s\)\.$/);
    expect(ttsCalls(h)).toBe(calls);
    const [saved] = h.discord.soundboardSounds(GUILD);
    expect(saved?.object).toMatchObject({ name: text, volume: 1, guild_id: GUILD });
    expect(saved?.contentType).toBe('audio/ogg');
    expect(saved?.data.length).toBeLessThanOrEqual(SOUNDBOARD_MAX_BYTES);
    // The sound is the reply's audio: as long as the sandbox speaks the text.
    expect(Math.abs((oggOpusSeconds(saved?.data ?? Buffer.alloc(0)) ?? 0) - h.sandbox.expectedDurationSeconds(text))).toBeLessThan(0.1);
  });

  it('refuses to save a reply longer than 5.2 s, saying why, before rendering anything', async () => {
    const h = await start();
    const text = 'This sentence is far too long to be a soundboard sound, since a sound lasts five seconds at most.';
    const seconds = h.sandbox.expectedDurationSeconds(text);
    expect(seconds).toBeGreaterThan(5.2);
    const { messageId, sound } = await fileReply(h, ALICE.id, text);
    const { content } = await press(h, ALICE.id, messageId, sound);
    expect(content).toBe(t('en-US', 'sound.tooLong', { max: 5.2, seconds: seconds.toFixed(1) }));
    expect(h.discord.soundboardSounds(GUILD)).toEqual([]);
  });

  it('refuses a member without Create Expressions, and anyone but the member who asked', async () => {
    const h = await start();
    const bobs = await fileReply(h, BOB.id, 'Bob here.');
    expect((await press(h, BOB.id, bobs.messageId, bobs.sound)).content).toBe(t('en-US', 'sound.memberPermission'));
    const alices = await fileReply(h, ALICE.id, 'Alice here.');
    expect((await press(h, BOB.id, alices.messageId, alices.sound)).content).toBe(t('en-US', 'buttons.notYours', { member: `<@${ALICE.id}>` }));
    expect((await press(h, BOB.id, alices.messageId, alices.play)).content).toBe(t('en-US', 'buttons.notYours', { member: `<@${ALICE.id}>` }));
    expect(h.discord.soundboardSounds(GUILD)).toEqual([]);
    expect(h.discord.botVoiceChannel(GUILD)).toBeNull();
  });

  it('"Play in my voice channel" plays the reply from the cache, heard in full, with no Voice API call', async () => {
    const h = await start();
    const text = 'Play me again.';
    const { messageId, play } = await fileReply(h, ALICE.id, text);
    const calls = ttsCalls(h);
    h.discord.clearAudio(GUILD);
    const { content } = await press(h, ALICE.id, messageId, play);
    expect(content).toMatch(new RegExp(`^Played it again in <#${VOICE}> \\(\\d\\.\\d s\\), from the cache: no characters spent\\.$`));
    const expected = h.sandbox.expectedDurationSeconds(text);
    const audio = await h.discord.waitForAudio(GUILD, { minSeconds: expected - 0.1, quietMs: 400 });
    expect(audio.seconds).toBeGreaterThan(expected - 0.1);
    expect(audio.seconds).toBeLessThan(expected + 0.3);
    expect(ttsCalls(h)).toBe(calls);
  });

  it('"Again" under a reply spoken in voice plays it again from the cache', async () => {
    const h = await start();
    const text = 'Once more.';
    const { handle } = await runCommand(h, { guildId: GUILD, userId: ALICE.id, name: 'say', options: { text } });
    const reply = await handle.waitFor((r) => (r.content ?? '').startsWith('Spoke '), 20_000);
    const rows = (reply.message?.components ?? []) as Array<{ components: Array<{ custom_id: string; label: string }> }>;
    const buttons = rows.flatMap((row) => row.components);
    expect(buttons.map((b) => b.label)).toEqual([t('en-US', 'buttons.again'), t('en-US', 'buttons.sound')]);
    const calls = ttsCalls(h);
    h.discord.clearAudio(GUILD);
    await press(h, ALICE.id, String(reply.message?.id), buttons[0]?.custom_id ?? '');
    const expected = h.sandbox.expectedDurationSeconds(text);
    const audio = await h.discord.waitForAudio(GUILD, { minSeconds: expected - 0.1, quietMs: 400 });
    expect(audio.seconds).toBeLessThan(expected + 0.3);
    expect(ttsCalls(h)).toBe(calls);
  });

  it('says the audio is no longer cached rather than paying again', async () => {
    const h = await start({ env: { CACHE_MAX_MB: '0' } });
    const { messageId, play, sound } = await fileReply(h, ALICE.id, 'Not kept.');
    const calls = ttsCalls(h);
    expect((await press(h, ALICE.id, messageId, play)).content).toBe(t('en-US', 'buttons.notCached'));
    expect((await press(h, ALICE.id, messageId, sound)).content).toBe(t('en-US', 'buttons.notCached'));
    expect(ttsCalls(h)).toBe(calls);
    expect(h.discord.botVoiceChannel(GUILD)).toBeNull();
  });
});
