// /scene and the member's rights, end to end against the local Discord and the sandbox Voice API: SayBot never posts
// or says a scene where its member may not (voice messages, files, a mute before or during the scene), what it posts
// names the member without pinging anyone, a cast cannot reach another server's cloned voice, the member reads every
// answer in their language, /privacy delete takes their saved scenes, a bad script file costs nothing, and only its
// author or a manager deletes a saved scene.
import { MessageFlags, PermissionFlagsBits as P } from 'discord.js';
import { beforeEach, describe, expect, it } from 'vitest';
import type { FakeGuildSpec, InteractionHandle, InteractionResponse } from '@saybot/local-discord/types.ts';
import { t } from '../../src/core/i18n/catalogue.ts';
import { countCharacters } from '../../src/core/characters.ts';
import '../../src/features/scenes/strings.ts';
import { parseSrtTimes } from '../support/srt-times.ts';
import { hearVoiceMessage } from '../core/voice-message/helpers.ts';
import { useFileHarness } from '../support/file-harness.ts';
import { runCommand, voiceStateSeen, WITH_VOICE_MESSAGES, type Harness } from '../support/harness.ts';
import { FormRefusal } from '@saybot/local-discord';
import { madeClone } from '../support/clones.ts';
import { letMembersUse } from '../support/command-access.ts';
import {
  ALICE,
  BOB,
  GENERAL as VOICE,
  LONDON as GUILD,
  LONDON_ADMIN as MANAGER,
  LONDON_TEXT as TEXT,
  londonWith,
  oneRoomGuild,
} from '../support/world.ts';

const CAROL = '300000000000000911'; // plain member, in voice (muted by a test)
const NO_VOICE_MESSAGES = '300000000000000912'; // plain member, not in voice, denied Send Voice Messages by a test
const NO_FILES = '300000000000000913'; // plain member, not in voice, denied Attach Files by a test
const JIWOO = '300000000000000914'; // plain member, not in voice, Korean client
const DAN = '300000000000000915'; // plain member, not in voice, English client
// BOB: plain member, not in voice, Japanese client. ALICE: plain member, in voice. MANAGER: Manage Server.

const ELSEWHERE = '200000000000000091';
const VISITOR = '300000000000000916'; // a member of the other server, who clones a voice there

function guilds(): FakeGuildSpec[] {
  return [
    {
      ...londonWith([
        { id: ALICE, username: 'alice', voiceChannelId: VOICE, locale: 'en-US' },
        { id: BOB, username: 'bob', locale: 'ja' },
        { id: CAROL, username: 'carol', voiceChannelId: VOICE, locale: 'en-US' },
        { id: NO_VOICE_MESSAGES, username: 'novm', locale: 'en-US' },
        { id: NO_FILES, username: 'nofiles', locale: 'en-US' },
        { id: JIWOO, username: 'jiwoo', locale: 'ko' },
        { id: DAN, username: 'dan', locale: 'en-US' },
        { id: MANAGER, username: 'alex', locale: 'en-US', permissions: P.ManageGuild },
      ]),
      everyonePermissions: WITH_VOICE_MESSAGES,
      botPermissions: WITH_VOICE_MESSAGES,
    },
    oneRoomGuild(ELSEWHERE, 'Elsewhere', { text: '210000000000000091', voice: '220000000000000091' }, [
      { id: VISITOR, username: 'visitor', locale: 'en-US' },
    ]),
  ];
}

const h = useFileHarness({ guilds: guilds(), config: { voiceIdleTimeoutMs: 60_000 } });

beforeEach(async () => {
  h.discord.setChannelOverwrites(GUILD, TEXT, []);
  h.discord.setSlowmode(GUILD, TEXT, 0);
  if (h.discord.voiceChannelOf(GUILD, CAROL) !== VOICE || isMuted(CAROL)) await unmute(CAROL);
});

const VOICES = { Ann: 'voice-b-en-f-01', Ben: 'voice-b-en-m-01', Kei: 'voice-b-ja-m-01' } as const;
const CAST = `cast: Ann = ${VOICES.Ann}, Ben = ${VOICES.Ben}, Kei = ${VOICES.Kei}`;
const SCRIPT = [CAST, 'Ann: Hello there.', 'Ben: Hello to you.', 'Kei: And hello from me.'].join('\n');

const mutedMembers = new Set<string>();
const isMuted = (userId: string) => mutedMembers.has(userId);

async function mute(userId: string): Promise<void> {
  mutedMembers.add(userId);
  await voiceStateSeen(h, userId, () => h.discord.setVoiceState(GUILD, userId, VOICE, { mute: true }));
}
async function unmute(userId: string): Promise<void> {
  mutedMembers.delete(userId);
  await voiceStateSeen(h, userId, () => h.discord.setVoiceState(GUILD, userId, VOICE, { mute: false }));
}

const isPrivate = (response: InteractionResponse | undefined) =>
  ((response?.flags ?? 0) & MessageFlags.Ephemeral) === MessageFlags.Ephemeral;
const isVoiceMessage = (message: Record<string, unknown> | undefined) =>
  ((Number(message?.flags) || 0) & MessageFlags.IsVoiceMessage) !== 0;
/** Every call the Voice API was asked for since `from` (an index into the sandbox's requests). */
const apiCalls = (from: number) => h.sandbox.requests.slice(from).filter((r) => r.endpoint !== undefined);
const ttsSince = (from: number) => apiCalls(from).filter((r) => r.endpoint === 'tts' || r.endpoint === 'emotion-tts');

interface Preview {
  userId: string;
  /** The preview, or the member's answer of why not. */
  shown: InteractionResponse;
  messageId: string;
  confirm: string | undefined;
  cancel: string | undefined;
}

function previewOf(userId: string, shown: InteractionResponse): Preview {
  const rows = (shown.message?.components ?? []) as Array<{ components: Array<{ custom_id: string }> }>;
  const ids = rows.flatMap((row) => row.components.map((button) => button.custom_id));
  return {
    userId,
    shown,
    messageId: String(shown.message?.id),
    confirm: ids.find((id) => id.startsWith('scene:go:')),
    cancel: ids.find((id) => id.startsWith('scene:no:')),
  };
}

/** `/scene new` by `userId`, its form filled with `script`: the preview (or refusal) the member is shown. */
async function preview(
  userId: string,
  script: string,
  output?: 'voice' | 'file' | 'voice-message',
  harness: Harness = h,
): Promise<Preview> {
  const form = await harness.discord.command({
    guildId: GUILD,
    userId,
    name: 'scene',
    options: [{ name: 'new', type: 1, options: output === undefined ? [] : [{ name: 'output', value: output }] }],
  });
  await form.waitFor((r) => r.kind === 'callback' && r.type === 9);
  const submit = await harness.discord.submitModal({ on: form, values: { script } });
  return previewOf(userId, await submit.waitFor((r) => r.kind !== 'delete' && r.content !== undefined, 60_000));
}

async function press(shown: Preview, customId = shown.confirm): Promise<InteractionHandle> {
  if (customId === undefined) throw new Error(`no such button under: ${shown.shown.content ?? ''}`);
  return h.discord.pressButton({ guildId: GUILD, userId: shown.userId, messageId: shown.messageId, customId });
}

/** A script as a .txt attachment option's value (hosted on the local Discord's CDN). */
const scriptFile = (data: Buffer | string, name = 'scene.txt', type = 'text/plain') => ({
  type: 11,
  value: h.discord.hostAttachment(typeof data === 'string' ? Buffer.from(data) : data, name, type).id,
});

const sceneCommand = (userId: string, subcommand: string, options: Parameters<typeof runCommand>[1]['options']) =>
  runCommand(h, { guildId: GUILD, userId, name: 'scene', subcommand, ...(options ? { options } : {}) });

/** The text of `key` in `locale` up to its first placeholder: what a message filled in any way starts with. */
function opening(locale: string, key: Parameters<typeof t>[1]): string {
  const mark = '\u0000';
  const filled = t(locale, key, new Proxy({}, { get: () => mark }) as Record<string, string>);
  return filled.split(mark)[0] ?? '';
}

describe('output: voice-message', () => {
  it('is posted in the channel as a voice message under a line naming the member, pinging no one; the .srt comes privately', async () => {
    // Lines of its own, so that whatever ran before, each is requested here.
    const own = [CAST, 'Ann: Hello, as a voice message.', 'Ben: Posted in the channel.', 'Kei: With subtitles.'];
    const shown = await preview(ALICE, own.join('\n'), 'voice-message');
    expect(shown.shown.content).toContain(t('en-US', 'scene.preview.asVoiceMessage'));
    const from = h.discord.channelMessages(TEXT).length;
    const before = h.sandbox.requests.length;
    const pressed = await press(shown);
    const done = await pressed.waitFor((r) => (r.content ?? '').startsWith('🎬 Posted the scene as a voice'), 30_000);
    expect(done.content).toMatch(
      /^🎬 Posted the scene as a voice message: \d+\.\d s\. Its subtitles are attached here\.$/,
    );
    expect(isPrivate(done)).toBe(true);
    expect(done.files.map((file) => file.name)).toEqual(['saybot-scene.srt']);
    const cues = parseSrtTimes(done.files[0]?.data.toString('utf8') ?? '');
    expect(cues.map((cue) => cue.speaker)).toEqual(['Ann', 'Ben', 'Kei']);

    const posted = h.discord.channelMessages(TEXT).slice(from);
    expect(posted).toHaveLength(2);
    const [header, voiceMessage] = posted;
    expect(header?.message.content).toMatch(new RegExp(`^🎬 <@${ALICE}>'s scene: 3 voices, \\d+\\.\\d s$`));
    expect(header?.message.mentions).toEqual([]);
    expect(header?.message.mention_everyone).toBe(false);
    expect(isVoiceMessage(voiceMessage?.message)).toBe(true);
    expect(voiceMessage?.files.map((file) => file.contentType)).toEqual(['audio/ogg']);
    const heard = await hearVoiceMessage(voiceMessage?.files[0]?.data ?? Buffer.alloc(0));
    expect(heard.declaredSeconds).toBeGreaterThan((cues.at(-1)?.end ?? 99) - 0.1);
    // Nothing of it is an answer to the button in the channel: the preview stays the member's.
    expect(pressed.responses.filter((r) => r.kind === 'follow-up')).toHaveLength(0);
    expect(ttsSince(before).map((r) => r.voice)).toEqual([VOICES.Ann, VOICES.Ben, VOICES.Kei]);
  });

  it('comes privately (the .ogg and the .srt) to a member without Send Voice Messages there, and nothing is posted', async () => {
    h.discord.setChannelOverwrites(GUILD, TEXT, [{ id: NO_VOICE_MESSAGES, type: 1, deny: P.SendVoiceMessages }]);
    const shown = await preview(NO_VOICE_MESSAGES, SCRIPT, 'voice-message');
    const from = h.discord.channelMessages(TEXT).length;
    const pressed = await press(shown);
    const done = await pressed.waitFor((r) => r.files.length > 0, 30_000);
    // Why, in the member's words: not "you may not post files" (they may).
    expect(done.content?.startsWith(opening('en-US', 'voiceMessage.fallback.member-no-permission'))).toBe(true);
    expect(isPrivate(done)).toBe(true);
    expect(done.files.map((file) => file.name).sort()).toEqual(['saybot-scene.ogg', 'saybot-scene.srt']);
    expect(h.discord.channelMessages(TEXT).slice(from)).toHaveLength(0);
    expect(pressed.responses.filter((r) => r.kind === 'follow-up')).toHaveLength(0);
    const ogg = done.files.find((file) => file.name.endsWith('.ogg'));
    expect((await hearVoiceMessage(ogg?.data ?? Buffer.alloc(0))).declaredSeconds).toBeGreaterThan(1);
  });

  it("in a slowmode channel, a member's first scene is posted (its header and voice message: slowmode holds no bot) and the preview did not use up their turn", async () => {
    h.discord.setSlowmode(GUILD, TEXT, 600);
    const shown = await preview(DAN, SCRIPT, 'voice-message');
    const from = h.discord.channelMessages(TEXT).length;
    const pressed = await press(shown);
    const done = await pressed.waitFor((r) => r.files.length > 0, 30_000);
    expect(done.content).toMatch(/^🎬 Posted the scene as a voice message/);
    expect(
      h.discord
        .channelMessages(TEXT)
        .slice(from)
        .filter((m) => isVoiceMessage(m.message)),
    ).toHaveLength(1);
    // The second within the slowmode comes to the member alone.
    const again = await preview(DAN, SCRIPT, 'voice-message');
    const second = await (await press(again)).waitFor((r) => r.files.length > 0, 30_000);
    expect(second.files.map((file) => file.name).sort()).toEqual(['saybot-scene.ogg', 'saybot-scene.srt']);
    expect(
      h.discord
        .channelMessages(TEXT)
        .slice(from)
        .filter((m) => isVoiceMessage(m.message)),
    ).toHaveLength(1);
  });
});

describe('output: file', () => {
  it('comes privately (the WAV and the .srt) to a member without Attach Files there, and nothing is posted', async () => {
    h.discord.setChannelOverwrites(GUILD, TEXT, [{ id: NO_FILES, type: 1, deny: P.AttachFiles }]);
    const shown = await preview(NO_FILES, SCRIPT, 'file');
    const from = h.discord.channelMessages(TEXT).length;
    const pressed = await press(shown);
    const done = await pressed.waitFor((r) => r.files.length > 0, 30_000);
    expect(done.content).toMatch(
      new RegExp(
        `^${t('en-US', 'scene.postedPrivately', { seconds: 'X' }).replace(/[.()]/g, '\\$&').replace('X', '\\d+\\.\\d')}$`,
      ),
    );
    expect(isPrivate(done)).toBe(true);
    expect(done.files.map((file) => file.name).sort()).toEqual(['saybot-scene.srt', 'saybot-scene.wav']);
    expect(pressed.responses.filter((r) => r.kind === 'follow-up')).toHaveLength(0);
    expect(h.discord.channelMessages(TEXT).slice(from)).toHaveLength(0);
  });
});

describe('in voice', () => {
  it('refuses a server-muted member privately before the form opens: no script is written only to be lost', async () => {
    await mute(CAROL);
    const before = h.sandbox.requests.length;
    const muted = t('en-US', 'error.voice.memberMuted', { channel: `<#${VOICE}>` });
    // output: voice, and no output at all (in voice, the scene is for the voice channel).
    for (const options of [{ output: 'voice' }, {}]) {
      const refused = await sceneCommand(CAROL, 'new', options);
      expect(refused.content).toBe(muted);
      expect(isPrivate(refused.handle.responses.at(-1))).toBe(true);
      expect(refused.handle.responses.some((r) => r.type === 9)).toBe(false);
    }
    // The same from a .txt.
    const fromFile = await sceneCommand(CAROL, 'new', { script: scriptFile(SCRIPT), output: 'voice' });
    expect(fromFile.content).toBe(muted);
    expect(apiCalls(before)).toHaveLength(0);
  });

  it('refuses a member muted while writing the form privately, before any preview: nothing is requested', async () => {
    const before = h.sandbox.requests.length;
    const form = await h.discord.command({
      guildId: GUILD,
      userId: CAROL,
      name: 'scene',
      options: [{ name: 'new', type: 1, options: [{ name: 'output', value: 'voice' }] }],
    });
    await form.waitFor((r) => r.kind === 'callback' && r.type === 9);
    await mute(CAROL);
    const submit = await h.discord.submitModal({ on: form, values: { script: SCRIPT } });
    const refused = previewOf(CAROL, await submit.waitFor((r) => r.kind !== 'delete' && r.content !== undefined));
    expect(refused.shown.content).toBe(t('en-US', 'error.voice.memberMuted', { channel: `<#${VOICE}>` }));
    expect(isPrivate(refused.shown)).toBe(true);
    expect(refused.confirm).toBeUndefined();
    expect(apiCalls(before)).toHaveLength(0);
  });

  it('muted after confirming, mid-scene: the line playing ends, the rest is dropped and never requested', async () => {
    const lines = [
      'Ann: This first line is long enough to be heard for a while.',
      'Ben: The second line follows it and is just as long as that.',
      'Kei: A third line that nobody should hear after the mute.',
      'Ann: And a fourth one, which must never be sent or paid for.',
    ];
    const shown = await preview(CAROL, [CAST, ...lines].join('\n'), 'voice');
    expect(shown.confirm).toBeDefined();
    const before = h.sandbox.requests.length;
    h.discord.clearAudio(GUILD);
    const pressed = await press(shown);
    await h.discord.waitForPacket(GUILD, (packet) => !packet.silence, 20_000);
    await mute(CAROL);
    const told = await pressed.waitFor((r) => (r.content ?? '').includes('server-muted'), 60_000);
    // The characters the books confirmed: the first line's, or the second's too where it came back before the mute.
    const said = (paid: number) =>
      t('en-US', 'error.revoked.spent', {
        reason: { key: 'error.revoked.muted', params: { channel: `<#${VOICE}>` } },
        paid,
      });
    const [first = 0, second = 0] = lines.map((line) => countCharacters(line.slice(5)));
    expect([said(first), said(first + second)]).toContain(told.content);
    expect(isPrivate(told)).toBe(true);
    // The line playing is cut where the mute reached SayBot (test/e2e/rights-mid-part.test.ts: how soon).
    const heard = await h.discord.waitForAudio(GUILD, { minSeconds: 0.02, quietMs: 1_500 });
    expect(heard.seconds).toBeLessThan(h.sandbox.expectedDurationSeconds(lines[0]?.slice(5) ?? ''));
    const asked = ttsSince(before).map((r) => r.text);
    expect(asked.length).toBeLessThanOrEqual(2);
    for (const line of lines.slice(2)) expect(asked).not.toContain(line.slice(line.indexOf(':') + 2));
  });
});

describe('the cast', () => {
  it("refuses another server's cloned voice, by name or ID, like an unknown one; uses this server's", async () => {
    // That server lets its members clone (Integrations): /clone is for Manage Server by default.
    letMembersUse(h.discord, ELSEWHERE, 'clone', [VISITOR]);
    const faraway = await madeClone(h, ELSEWHERE, VISITOR, 'Faraway');
    const homegrown = await madeClone(h, GUILD, MANAGER, 'Homegrown');
    const before = h.sandbox.requests.length;
    for (const voice of ['Faraway', faraway, 'Nobody']) {
      const refused = await preview(ALICE, [`cast: Ann = ${voice}`, 'Ann: Who am I?'].join('\n'), 'file');
      expect(refused.shown.content).toBe(t('en-US', 'scene.unknownCast', { line: 1, name: 'Ann', voice }));
      expect(isPrivate(refused.shown)).toBe(true);
      expect(refused.confirm).toBeUndefined();
    }
    expect(apiCalls(before)).toHaveLength(0);

    const shown = await preview(ALICE, ['cast: Ann = homegrown', 'Ann: I am from here.'].join('\n'), 'file');
    expect(shown.shown.content).toContain(`**Ann** \`${homegrown}\``);
    const pressed = await press(shown);
    await pressed.waitFor((r) => r.kind === 'follow-up' && r.files.length === 2, 30_000);
    expect(ttsSince(before).map((r) => r.voice)).toEqual([homegrown]);
  });
});

describe("the member's language", () => {
  it('a Korean and a Japanese member read the preview and its buttons in theirs', async () => {
    for (const [userId, locale] of [
      [JIWOO, 'ko'],
      [BOB, 'ja'],
    ] as const) {
      // Lines of their own: nothing made yet, so the cost is in characters to pay.
      const shown = await preview(userId, `${CAST}\nAnn: Said for ${locale} only.\nBen: Nobody made this yet.`, 'file');
      const content = shown.shown.content ?? '';
      expect(content.startsWith(opening(locale, 'scene.preview'))).toBe(true);
      expect(content).toContain(t(locale, 'scene.preview.asFile'));
      expect(content).toContain(t(locale, 'scene.budget.none'));
      expect(content).toContain(opening(locale, 'scene.cost.paid'));
      const rows = (shown.shown.message?.components ?? []) as Array<{ components: Array<{ label: string }> }>;
      const labels = rows.flatMap((row) => row.components.map((button) => button.label));
      expect(labels).toContain(t(locale, 'scene.button.cancel'));
      expect(labels.some((label) => label.startsWith(opening(locale, 'scene.button.confirm')))).toBe(true);
      await press(shown, shown.cancel);
    }
  });

  it('a Korean and a Japanese member read what is wrong with a script in theirs, and nothing is requested', async () => {
    const before = h.sandbox.requests.length;
    // A line after a blank one starts a turn: without `Name:` it is not one.
    const unreadable = await preview(JIWOO, 'Ann: Fine.\n\nno speaker here', 'file');
    expect(unreadable.shown.content).toBe(t('ko', 'scene.script.unreadable-line', { line: 3 }));
    const unknown = await preview(BOB, 'cast: Ann = nobody\nAnn: Hello.', 'file');
    expect(unknown.shown.content).toBe(t('ja', 'scene.unknownCast', { line: 1, name: 'Ann', voice: 'nobody' }));
    const notText = await sceneCommand(BOB, 'new', { script: scriptFile(Buffer.from([0xff, 0xfe, 0x41, 0x00])) });
    expect(notText.content).toBe(t('ja', 'scene.notText'));
    expect(apiCalls(before)).toHaveLength(0);
  });
});

describe('saved scenes', () => {
  const list = async (userId = DAN) => (await sceneCommand(userId, 'list', undefined)).content;

  it("/privacy delete deletes the scenes the member saved; another member's stay", async () => {
    const saved = await sceneCommand(CAROL, 'save', { name: 'Carols Tale', script: scriptFile(SCRIPT) });
    expect(saved.content).toBe(t('en-US', 'scene.saved', { name: 'Carols Tale', lines: 3 }));
    await sceneCommand(DAN, 'save', { name: 'Dans Tale', script: scriptFile(SCRIPT) });
    expect(await list()).toContain('**Carols Tale**');
    const deleted = await runCommand(h, { guildId: GUILD, userId: CAROL, name: 'privacy', subcommand: 'delete' });
    expect(deleted.content).toMatch(/^Deleted what SayBot kept about you in this server/);
    const after = await list();
    expect(after).not.toContain('Carols Tale');
    expect(after).toContain(t('en-US', 'scene.list.line', { name: 'Dans Tale', member: `<@${DAN}>` }));
    const gone = await sceneCommand(CAROL, 'play', { name: 'Carols Tale', output: 'file' });
    expect(gone.content).toBe(t('en-US', 'scene.unknown', { name: 'Carols Tale' }));
    await sceneCommand(DAN, 'delete', { name: 'Dans Tale' });
  });

  it('another plain member may not delete or replace a saved scene; a manager may delete it', async () => {
    await sceneCommand(DAN, 'save', { name: 'Keep Me', script: scriptFile(SCRIPT) });
    const notYours = t('en-US', 'scene.notYoursToChange', { name: 'Keep Me' });
    const refused = await sceneCommand(CAROL, 'delete', { name: 'Keep Me' });
    expect(refused.content).toBe(notYours);
    expect(isPrivate(refused.handle.responses.at(-1))).toBe(true);
    const replaced = await sceneCommand(CAROL, 'save', { name: 'Keep Me', script: scriptFile('Ann: Mine now.') });
    expect(replaced.content).toBe(notYours);
    expect(await list()).toContain(t('en-US', 'scene.list.line', { name: 'Keep Me', member: `<@${DAN}>` }));
    const removed = await sceneCommand(MANAGER, 'delete', { name: 'Keep Me' });
    expect(removed.content).toBe(t('en-US', 'scene.deleted', { name: 'Keep Me' }));
    expect(await list()).not.toContain('Keep Me');
  });
});

describe('a script file it cannot take', () => {
  it('is declared to Discord as .txt only (its client offers no other file)', () => {
    const commands = h.discord.registeredCommands() as Array<{
      name: string;
      options?: Array<{ name: string; options?: Array<{ name: string; file_types?: string[] }> }>;
    }>;
    const scene = commands.find((command) => command.name === 'scene');
    for (const sub of ['new', 'save']) {
      const option = scene?.options?.find((o) => o.name === sub)?.options?.find((o) => o.name === 'script');
      expect(option?.file_types, sub).toEqual(['.txt']);
    }
  });

  it("never reaches SayBot as a .pdf from Discord's own client, which offers only .txt", async () => {
    const before = h.sandbox.requests.length;
    await expect(
      runCommand(h, {
        guildId: GUILD,
        userId: DAN,
        name: 'scene',
        subcommand: 'new',
        attachments: [{ option: 'script', data: Buffer.from('%PDF-1.4'), filename: 'scene.pdf' }],
      }),
    ).rejects.toThrow(FormRefusal);
    expect(h.sandbox.requests.length).toBe(before);
  });

  it('gets a clear private answer, with nothing downloaded that need not be, and nothing requested', async () => {
    const before = h.sandbox.requests.length;
    const max = 16_000 * 4;
    const downloads = h.discord.cdnLog.length;
    const big = await sceneCommand(DAN, 'new', { script: scriptFile(Buffer.alloc(max + 1, 'a')) });
    expect(big.content).toBe(t('en-US', 'scene.fileTooLarge', { size: max + 1, max }));
    expect(isPrivate(big.handle.responses.at(-1))).toBe(true);
    // Refused from the size Discord gives, before the download.
    expect(h.discord.cdnLog.length).toBe(downloads);

    // A client that ignores file_types (Discord's does not) still gets an answer.
    const pdf = await sceneCommand(DAN, 'new', { script: scriptFile('%PDF-1.4', 'scene.pdf', 'application/pdf') });
    expect(pdf.content).toBe(t('en-US', 'scene.notTxt'));
    expect(isPrivate(pdf.handle.responses.at(-1))).toBe(true);

    // UTF-16 with its byte order mark, as an editor may save it: not UTF-8.
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Ann: Hello.', 'utf16le')]);
    const notText = await sceneCommand(DAN, 'save', { name: 'Wide', script: scriptFile(utf16) });
    expect(notText.content).toBe(t('en-US', 'scene.notText'));
    expect(isPrivate(notText.handle.responses.at(-1))).toBe(true);
    expect(await sceneCommand(DAN, 'list', undefined).then((r) => r.content)).not.toContain('Wide');
    expect(apiCalls(before)).toHaveLength(0);
  });
});
