// A reply's buttons end to end: "Save as sound" and "Play in my voice channel" under a file reply, and on the private
// Components V2 message that follows a voice message (which cannot carry buttons itself), served from the audio
// cache with no call to the Voice API, against the local Discord (which keeps the soundboard and checks its limits,
// and Components V2 messages, as Discord does) and the sandbox.
import { MessageFlags, PermissionFlagsBits } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PERMISSIONS, type InteractionHandle } from '@saybot/local-discord';
import { oggOpusSeconds, SOUNDBOARD_MAX_BYTES } from '@saybot/local-discord/soundboard.ts';
import type { FakeGuildSpec, InteractionResponse } from '@saybot/local-discord/types.ts';
import { t } from '../../src/core/i18n/catalogue.ts';
import { useHarnessPerTest } from '../support/file-harness.ts';
import { runCommand, type Harness, type HarnessOptions } from '../support/harness.ts';

const GUILD = '200000000000000092';
const TEXT = '210000000000000092';
const VOICE = '220000000000000092';
const ALICE = { id: '300000000000000091', username: 'alice' }; // Create Expressions, in voice
const BOB = { id: '300000000000000092', username: 'bob' }; // no Create Expressions, in voice

function guilds(): FakeGuildSpec[] {
  return [
    {
      id: GUILD,
      name: 'Buttons',
      textChannelId: TEXT,
      voiceChannels: [{ id: VOICE, name: 'v' }],
      // As on Discord, where @everyone may send voice messages by default.
      everyonePermissions: DEFAULT_PERMISSIONS | PermissionFlagsBits.SendVoiceMessages,
      botPermissions:
        DEFAULT_PERMISSIONS | PermissionFlagsBits.CreateGuildExpressions | PermissionFlagsBits.SendVoiceMessages,
      members: [
        { ...ALICE, voiceChannelId: VOICE, locale: 'en-US', permissions: PermissionFlagsBits.CreateGuildExpressions },
        { ...BOB, voiceChannelId: VOICE, locale: 'en-US' },
      ],
    },
  ];
}

const openHarness = useHarnessPerTest();

async function start(options: HarnessOptions = {}): Promise<Harness> {
  const harness = await openHarness({ guilds: guilds(), ...options });
  return harness;
}

/** /say as a file, and the reply message with its buttons' custom_ids (play, sound). */
async function fileReply(
  h: Harness,
  userId: string,
  text: string,
): Promise<{ messageId: string; play: string; sound: string }> {
  const { handle } = await runCommand(h, { guildId: GUILD, userId, name: 'say', options: { text, output: 'file' } });
  const reply = await handle.waitFor((r) => r.files.length > 0, 60_000);
  const message = reply.message ?? {};
  const rows = (message.components ?? []) as Array<{ components: Array<{ custom_id: string; label: string }> }>;
  const buttons = rows.flatMap((row) => row.components);
  expect(buttons.map((b) => b.label)).toEqual([t('en-US', 'buttons.play'), t('en-US', 'buttons.sound')]);
  // Bounded and free of the text and the member: a version, an action, a random ID.
  for (const button of buttons) expect(button.custom_id).toMatch(/^sb1:(play|sound):[\w-]{16}$/);
  return { messageId: String(message.id), play: buttons[0]?.custom_id ?? '', sound: buttons[1]?.custom_id ?? '' };
}

/** The private Components V2 message that follows a voice-message reply: its text and its buttons. */
interface ButtonsMessage {
  response: InteractionResponse;
  messageId: string;
  text: string;
  buttons: Array<{ custom_id: string; label: string }>;
}

/** /say as a voice message, then the follow-up carrying its buttons (a voice message carries none). */
async function voiceMessageReply(
  h: Harness,
  userId: string,
  text: string,
): Promise<{ handle: InteractionHandle; follow: ButtonsMessage }> {
  const { handle } = await runCommand(h, {
    guildId: GUILD,
    userId,
    name: 'say',
    options: { text, output: 'voice-message' },
  });
  const response = await handle.waitFor((r) => r.kind === 'follow-up', 60_000);
  const message = response.message ?? {};
  type Component = { type: number; content?: string; components?: Component[]; custom_id?: string; label?: string };
  const walk = (list: Component[]): Component[] => list.flatMap((c) => [c, ...walk(c.components ?? [])]);
  const all = walk((message.components ?? []) as Component[]);
  return {
    handle,
    follow: {
      response,
      messageId: String(message.id),
      text: all
        .filter((c) => c.type === 10)
        .map((c) => c.content ?? '')
        .join('\n'),
      buttons: all.filter((c) => c.type === 2).map((c) => ({ custom_id: c.custom_id ?? '', label: c.label ?? '' })),
    },
  };
}

async function press(
  h: Harness,
  userId: string,
  messageId: string,
  customId: string,
): Promise<{ handle: InteractionHandle; content: string }> {
  const handle = await h.discord.pressButton({ guildId: GUILD, userId, messageId, customId });
  const final = await handle.waitForFinal(60_000);
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
    expect(
      Math.abs((oggOpusSeconds(saved?.data ?? Buffer.alloc(0)) ?? 0) - h.sandbox.expectedDurationSeconds(text)),
    ).toBeLessThan(0.1);
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
    expect((await press(h, BOB.id, alices.messageId, alices.sound)).content).toBe(
      t('en-US', 'buttons.notYours', { member: `<@${ALICE.id}>` }),
    );
    expect((await press(h, BOB.id, alices.messageId, alices.play)).content).toBe(
      t('en-US', 'buttons.notYours', { member: `<@${ALICE.id}>` }),
    );
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
    expect(content).toMatch(
      new RegExp(`^Played it again in <#${VOICE}> \\(\\d\\.\\d s\\), from the cache: no characters spent\\.$`),
    );
    const expected = h.sandbox.expectedDurationSeconds(text);
    const audio = await h.discord.waitForAudio(GUILD, { minSeconds: expected - 0.1, quietMs: 400 });
    expect(audio.seconds).toBeGreaterThan(expected - 0.1);
    expect(audio.seconds).toBeLessThan(expected + 0.3);
    expect(ttsCalls(h)).toBe(calls);
  });

  it('"Play in my voice channel" stopped while it plays says it was stopped, not that it played it again', async () => {
    const h = await start();
    // Long enough to be heard before it ends: stopped at its first sound, whenever that comes.
    const text = 'A long reply to play again, so that it is still playing when the member stops it, '.repeat(3);
    const { messageId, play } = await fileReply(h, ALICE.id, text);
    h.discord.clearAudio(GUILD);
    const heard = h.discord.waitForPacket(GUILD, (packet) => !packet.silence, 20_000);
    const handle = await h.discord.pressButton({ guildId: GUILD, userId: ALICE.id, messageId, customId: play });
    await heard;
    await runCommand(h, { guildId: GUILD, userId: ALICE.id, name: 'stop' });
    const final = await handle.waitForFinal(60_000);
    expect(final.content).toBe(t('en-US', 'say.stopped', { voice: '`voice-b-en-f-01`' }));
    expect(final.content).not.toMatch(/^Played it again/);
  });

  it('"Again" under a reply spoken in voice plays it again from the cache', async () => {
    const h = await start();
    const text = 'Once more.';
    const { handle } = await runCommand(h, { guildId: GUILD, userId: ALICE.id, name: 'say', options: { text } });
    const reply = await handle.waitFor((r) => (r.content ?? '').startsWith('Spoke '), 60_000);
    const rows = (reply.message?.components ?? []) as Array<{
      components: Array<{ custom_id: string; label: string }>;
    }>;
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

  it('follows a voice-message reply with a private Components V2 message whose buttons play it, post it again and save it, all from the cache', async () => {
    const h = await start();
    const text = 'Good game.';
    const { handle, follow } = await voiceMessageReply(h, ALICE.id, text);
    // The voice message is the response itself, public and attributed; the buttons come after it, to Alice alone.
    const voice = handle.responses.find((r) => r.kind === 'edit-original');
    expect(((voice?.flags ?? 0) & MessageFlags.IsVoiceMessage) !== 0).toBe(true);
    expect(handle.responses.indexOf(follow.response)).toBeGreaterThan(
      handle.responses.indexOf(voice as InteractionResponse),
    );
    expect(follow.response.flags).toBe(MessageFlags.Ephemeral | MessageFlags.IsComponentsV2);
    expect(follow.response.content).toBeUndefined();
    expect(follow.response.message?.content).toBe('');
    expect(follow.text).toMatch(/\d\.\d s/);
    expect(follow.buttons.map((b) => b.label)).toEqual([
      t('en-US', 'buttons.play'),
      t('en-US', 'buttons.again'),
      t('en-US', 'buttons.sound'),
    ]);
    for (const button of follow.buttons) expect(button.custom_id).toMatch(/^sb1:(play|post|sound):[\w-]{16}$/);
    expect(handle.problems).toEqual([]);
    const calls = ttsCalls(h);

    h.discord.clearAudio(GUILD);
    const played = await press(h, ALICE.id, follow.messageId, follow.buttons[0]?.custom_id ?? '');
    expect(played.content).toMatch(new RegExp(`^Played it again in <#${VOICE}> \\(\\d\\.\\d s\\), from the cache`));
    const expected = h.sandbox.expectedDurationSeconds(text);
    const audio = await h.discord.waitForAudio(GUILD, { minSeconds: expected - 0.1, quietMs: 400 });
    expect(audio.seconds).toBeLessThan(expected + 0.3);

    // "Again": the same voice message once more in the channel, under a line naming who asked.
    const before = h.discord.channelMessages(TEXT).length;
    const again = await press(h, ALICE.id, follow.messageId, follow.buttons[1]?.custom_id ?? '');
    expect(again.content).toBe(t('en-US', 'buttons.posted'));
    const posted = h.discord.channelMessages(TEXT).slice(before);
    expect(posted.map((m) => m.message.content)).toEqual([
      t('en-US', 'buttons.postedHeader', { member: `<@${ALICE.id}>` }),
      '',
    ]);
    expect(((Number(posted[1]?.message.flags) || 0) & MessageFlags.IsVoiceMessage) !== 0).toBe(true);
    expect(posted[1]?.files[0]?.contentType).toBe('audio/ogg');
    for (const message of posted) expect(message.message.mentions).toEqual([]);

    const saved = await press(h, ALICE.id, follow.messageId, follow.buttons[2]?.custom_id ?? '');
    expect(saved.content).toMatch(/^Saved as "Good game\." on this server's soundboard/);
    expect(h.discord.soundboardSounds(GUILD)).toHaveLength(1);
    expect(ttsCalls(h)).toBe(calls);
  });

  it('offers no "Save as sound" after a voice message longer than 5.2 s, and "Again" only where the member may post one', async () => {
    const h = await start();
    const text = 'This sentence is far too long to be a soundboard sound, since a sound lasts five seconds at most.';
    expect(h.sandbox.expectedDurationSeconds(text)).toBeGreaterThan(5.2);
    const { follow } = await voiceMessageReply(h, ALICE.id, text);
    expect(follow.buttons.map((b) => b.label)).toEqual([t('en-US', 'buttons.play'), t('en-US', 'buttons.again')]);
    // Alice may no longer send voice messages here: "Again" posts nothing and gives her the audio privately.
    h.discord.setChannelOverwrites(GUILD, TEXT, [
      { id: ALICE.id, type: 1, deny: PermissionFlagsBits.SendVoiceMessages },
    ]);
    const before = h.discord.channelMessages(TEXT).length;
    const { handle, content } = await press(h, ALICE.id, follow.messageId, follow.buttons[1]?.custom_id ?? '');
    expect(
      content.startsWith(
        t('en-US', 'voiceMessage.fallback.member-no-permission', { voice: '', seconds: '', format: '' }).split(
          ':',
        )[0] ?? '',
      ),
    ).toBe(true);
    expect(handle.responses.at(-1)?.files.map((f) => f.name)).toEqual([expect.stringMatching(/\.ogg$/)]);
    expect(h.discord.channelMessages(TEXT).length).toBe(before);
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

  it('gives an "Again" that does nothing (not cached) its file share back before its answer waits on Discord', async () => {
    const h = await start({ env: { CACHE_MAX_MB: '0' } });
    const { follow } = await voiceMessageReply(h, ALICE.id, 'Not kept either.');
    const again = follow.buttons.find((b) => b.label === t('en-US', 'buttons.again'))?.custom_id ?? '';
    // Discord makes the edit answering the press wait a while (429): nothing is being made meanwhile.
    h.discord.rateLimit({ route: 'webhook-edit', retryAfterMs: 5_000 });
    const handle = await h.discord.pressButton({
      guildId: GUILD,
      userId: ALICE.id,
      messageId: follow.messageId,
      customId: again,
    });
    // Deferred: its share was taken before.
    await handle.waitFor((r) => r.kind === 'callback');
    await expect.poll(() => h.bot.fileShares.held({ guildId: GUILD, userId: ALICE.id }), { timeout: 60_000 }).toBe(0);
    expect(handle.responses.some((r) => r.kind === 'edit-original')).toBe(false);
    expect((await handle.waitForFinal(60_000)).content).toBe(t('en-US', 'buttons.notCached'));
  });
});
