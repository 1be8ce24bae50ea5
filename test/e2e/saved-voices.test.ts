// A voice a member saves (/myvoice set, /preset save) end to end: saved only where SayBot can stand behind it, a saved
// voice the service refuses named plainly with where it came from, and a cloned voice deleted from under presets and
// members' /myvoice: its deleter told what went with it, each member told once at their next /say.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PermissionFlagsBits } from 'discord.js';
import { afterAll, describe, expect, it } from 'vitest';
import type { InteractionHandle } from '@saybot/local-discord/types.ts';
import { openSqliteStore } from '../../src/app/store.ts';
import { t } from '../../src/core/i18n/catalogue.ts';
import { madeClone } from '../support/clones.ts';
import { useFileHarness } from '../support/file-harness.ts';
import { pitchOf, runCommand } from '../support/harness.ts';
import { postChat, startAutoRead } from '../support/chat.ts';
import { oneRoomGuild } from '../support/world.ts';

const GUILD = '200000000000000931';
const ROOM = '220000000000000931';
const ADMIN = '300000000000009310'; // Manage Server, in voice
const [A, B, C, D, E, F, G] = [
  '300000000000009311',
  '300000000000009312',
  '300000000000009313',
  '300000000000009314',
  '300000000000009315',
  '300000000000009316',
  '300000000000009317',
];
const TEXT = '210000000000000931';
const UNLISTED = 'voice-b-en-f-99'; // preset-shaped, neither documented nor in the owner's list: unknown to the service
const EXTRA = 'voice-b-de-m-01'; // the owner's own (VOICES_FILE), which the sandbox has

const member = (id: string) => ({ id, username: `m${id.slice(-2)}`, locale: 'en-US', voiceChannelId: ROOM });
const guilds = [
  oneRoomGuild(GUILD, 'Saved', { text: TEXT, voice: ROOM }, [
    { ...member(ADMIN), permissions: PermissionFlagsBits.ManageGuild },
    ...[A, B, C, D, E, F, G].map(member),
  ]),
];
const voicesDir = mkdtempSync(path.join(tmpdir(), 'saybot-saved-voices-'));
const voicesFile = path.join(voicesDir, 'voices.json');
writeFileSync(voicesFile, JSON.stringify([{ id: EXTRA, character: 'deep male newsreader' }]));
afterAll(() => rmSync(voicesDir, { recursive: true, force: true }));
const h = useFileHarness({ guilds, env: { VOICES_FILE: voicesFile }, config: { voiceIdleTimeoutMs: 60_000 } });

const command = (
  userId: string,
  name: string,
  subcommand: string,
  options: Record<string, string> = {},
  locale?: string,
) => runCommand(h, { guildId: GUILD, userId, name, subcommand, options, ...(locale === undefined ? {} : { locale }) });
const tts = () => h.sandbox.requests.filter((r) => r.endpoint === 'tts');

/** The reply that ends a /say: not its defer, nor "Speaking…". */
const answerOf = (handle: InteractionHandle) =>
  handle
    .waitFor(
      (r) => r.kind !== 'delete' && r.content !== undefined && !/^(Speaking|Queued|Making)|…$/.test(r.content),
      30_000,
    )
    .then((r) => r.content ?? '');
async function say(userId: string, options: Record<string, string>, locale?: string): Promise<string> {
  const { handle } = await runCommand(h, {
    guildId: GUILD,
    userId,
    name: 'say',
    options: { text: 'Say this in my voice, please.', ...options },
    ...(locale === undefined ? {} : { locale }),
  });
  return answerOf(handle);
}

/** What a member or a manager saved before SayBot refused unlisted voices: written as /myvoice and /preset wrote it. */
async function savedBefore(write: (store: ReturnType<typeof openSqliteStore>) => Promise<unknown>): Promise<void> {
  const store = openSqliteStore(h.databasePath);
  try {
    await write(store);
  } finally {
    await store.close();
  }
}

describe('a voice saved', () => {
  it("is refused by /myvoice set, /preset save and /autoread voice_add when SayBot does not list it, in the member's language, nothing saved", async () => {
    const refusal = `The voice "${UNLISTED}" is not one this bot lists, so it is not saved. Pick one from the list (/voices list), or ask the bot's owner to add it.`;
    expect((await command(A, 'myvoice', 'set', { voice: UNLISTED })).content).toBe(refusal);
    const ja = (await command(A, 'myvoice', 'set', { voice: UNLISTED }, 'ja')).content;
    expect(ja).toBe(t('ja', 'error.input.voiceUnlisted', { voice: UNLISTED }));
    expect(ja).toContain(UNLISTED);
    expect(ja).not.toBe(refusal);
    expect((await command(A, 'myvoice', 'show')).content).not.toContain(UNLISTED);

    expect((await command(ADMIN, 'preset', 'save', { name: 'ghost', voice: UNLISTED })).content).toBe(refusal);
    expect((await command(ADMIN, 'preset', 'list')).content).not.toContain('ghost');

    // What SayBot lists is saved: a documented voice, and one of the owner's own.
    expect((await command(B, 'myvoice', 'set', { voice: EXTRA })).content).toBe(
      `Your defaults in this server: \`${EXTRA}\`.`,
    );
    expect((await command(ADMIN, 'preset', 'save', { name: 'listed', voice: 'voice-b-en-m-01' })).content).toContain(
      'Saved preset "listed"',
    );
    await command(B, 'myvoice', 'clear');

    // Auto-read's pool keeps the same rule, in the same words.
    const shown = async () => (await command(ADMIN, 'autoread', 'show')).content;
    const before = await shown();
    expect((await command(ADMIN, 'autoread', 'voice_add', { voice: UNLISTED })).content).toBe(refusal);
    expect((await command(ADMIN, 'autoread', 'voice_add', { voice: UNLISTED }, 'ja')).content).toBe(ja);
    expect(await shown()).toBe(before);
    expect((await command(ADMIN, 'autoread', 'voice_add', { voice: EXTRA })).content).toContain(
      `Added \`${EXTRA}\` to the voice pool.`,
    );
    await command(ADMIN, 'autoread', 'voice_remove', { voice: EXTRA });

    // /say may still try it: the service decides, and bills nothing when it refuses.
    const [sent, billed] = [tts().length, h.sandbox.charactersBilled()];
    expect(await say(A, { voice: UNLISTED, output: 'file' })).toContain('The voice service refused this request');
    expect(tts().length).toBe(sent + 1);
    expect(h.sandbox.charactersBilled()).toBe(billed);
  });

  it('that the service refuses as unknown is named plainly, with where it came from and how to change it; nothing billed', async () => {
    await savedBefore(async (store) => {
      await store.memberDefaults.set(GUILD, C, { voice: UNLISTED });
      await store.presets.save({ guildId: GUILD, name: 'oldie', voice: UNLISTED, createdBy: ADMIN });
    });
    const billed = h.sandbox.charactersBilled();
    const said = `\`unknown voice: ${UNLISTED}\``;

    const change = 'Pick another: /myvoice set changes your default, /preset save (Manage Server) a preset.';
    const refused = (voice: string) =>
      `The voice service refused this request in the voice ${voice}: ${said}. ${change}`;
    const mine = await say(C, { output: 'file' });
    expect(mine).toBe(refused(`\`${UNLISTED}\` (your default)`));
    const preset = await say(A, { preset: 'oldie', output: 'file' });
    expect(preset).toBe(refused(`\`${UNLISTED}\` (preset "oldie")`));
    const chosen = await say(A, { voice: UNLISTED, output: 'file' });
    expect(chosen).toBe(refused(`\`${UNLISTED}\``));
    const ja = await say(C, { output: 'file' }, 'ja');
    const voice = t('ja', 'voice.why.member', { voice: `\`${UNLISTED}\`` });
    expect(ja).toBe(t('ja', 'error.api.voiceRefused', { voice, said }));
    for (const words of [mine, preset, chosen, ja]) expect(words).not.toContain('…');
    expect(h.sandbox.charactersBilled()).toBe(billed);
  });

  it("kept in auto-read's pool from before is never given to a member, and /autoread show says it is not read", async () => {
    await savedBefore(async (store) => {
      for (const voice of [UNLISTED, 'voice-b-en-m-01']) await store.autoReadMembers.addToPool(GUILD, voice, ADMIN, 25);
    });
    await startAutoRead(h, GUILD, ADMIN, { text: TEXT, voice: ROOM });
    const distinct = await runCommand(h, {
      guildId: GUILD,
      userId: ADMIN,
      name: 'autoread',
      subcommand: 'settings',
      options: { voices: 'distinct', say_name: false },
    });
    expect(distinct.content).toContain('voices: a voice of the pool per member');
    const from = h.sandbox.requests.length;
    h.discord.clearAudio(GUILD);
    const texts = ['Read me first.', 'Read me second.'];
    for (const [i, who] of [F, G].entries())
      expect(await postChat(h, { guildId: GUILD, channelId: TEXT }, member(who), texts[i] ?? '')).toBe(true);
    const seconds = texts.reduce((sum, text) => sum + h.sandbox.expectedDurationSeconds(text), 0);
    await h.discord.waitForAudio(GUILD, { minSeconds: seconds - 0.1, quietMs: 400 });
    const read = h.sandbox.requests.slice(from).filter((r) => r.endpoint === 'tts');
    expect(read.map((r) => [r.text, r.voice]).sort()).toEqual(texts.map((text) => [text, 'voice-b-en-m-01']));
    expect((await command(ADMIN, 'autoread', 'show')).content).toContain(
      `Voice pool: \`${UNLISTED}\` (kept but not read: this bot cannot use it now), \`voice-b-en-m-01\`.`,
    );
    await command(ADMIN, 'autoread', 'stop');
  });
});

describe('a cloned voice deleted', () => {
  it('tells its deleter the presets (a few by name) and the members whose saved voice went with it', async () => {
    const gone = await madeClone(h, GUILD, ADMIN, 'Gone');
    for (const name of ['echo', 'alpha', 'delta', 'charlie', 'bravo'])
      await command(ADMIN, 'preset', 'save', { name, voice: 'Gone' });
    await command(ADMIN, 'preset', 'save', { name: 'stays', voice: 'voice-b-en-m-01' });
    for (const who of [D, E]) await command(who, 'myvoice', 'set', { voice: 'Gone' });

    const deleted = await command(ADMIN, 'voices', 'delete', { voice: 'Gone' });
    expect(deleted.content).toBe(
      `Deleted the voice "Gone" (\`${gone}\`). Its 5 presets went too: "alpha", "bravo", "charlie", and 2 more. ` +
        "2 members had it as their voice (/myvoice): they now hear the server's default voice, and will be told so once.",
    );
    const list = (await command(ADMIN, 'preset', 'list')).content;
    expect(list).toContain('stays');
    expect(list).not.toContain('alpha');

    // In the deleter's language, one preset and nobody's /myvoice.
    const solo = await madeClone(h, GUILD, ADMIN, 'Solo');
    await command(ADMIN, 'preset', 'save', { name: 'lone', voice: 'Solo' });
    const ja = (await command(ADMIN, 'voices', 'delete', { voice: 'Solo' }, 'ja')).content;
    expect(ja).toBe(
      `${t('ja', 'voices.deleted', { name: 'Solo', id: `\`${solo}\`` })} ${t('ja', 'voices.deleted.presets', { count: 1, names: '"lone"' })}`,
    );
  });

  it("is told once to a member whose saved voice it was, at their next /say, which the server's default speaks", async () => {
    await madeClone(h, GUILD, ADMIN, 'Brief');
    await command(A, 'myvoice', 'set', { voice: 'Brief' });
    await command(B, 'myvoice', 'set', { voice: 'Brief' });
    await command(ADMIN, 'voices', 'delete', { voice: 'Brief' });

    h.discord.clearAudio(GUILD);
    const first = await say(A, {});
    expect(first).toContain('with `voice-b-en-f-01` (the server\'s default: your saved voice "Brief" was deleted).');
    const heard = await h.discord.waitForAudio(GUILD, { minSeconds: 0.5 });
    expect(Math.abs((pitchOf(heard) ?? 0) - (h.sandbox.voicePitchHz('voice-b-en-f-01') ?? -1))).toBeLessThan(4);
    const again = await say(A, { output: 'file' });
    expect(again).toContain("`voice-b-en-f-01` (the default for this server's language)");
    expect(again).not.toContain('Brief');

    const ja = await say(B, { output: 'file' }, 'ja');
    expect(ja).toContain(t('ja', 'voice.why.deleted', { voice: '`voice-b-en-f-01`', name: 'Brief' }));
    expect(await say(B, { output: 'file' }, 'ja')).not.toContain('Brief');
  });
});
