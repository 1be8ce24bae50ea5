import { MessageFlags, PermissionFlagsBits } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { analyseClip, dominantPitchHz } from '../../src/core/audio/analysis/clip.ts';
import { loadCommandModules } from '../../src/app/command-modules.ts';
import { FormRefusal } from '@saybot/local-discord';
import type { FakeGuildSpec, FakeUpload, InteractionHandle } from '@saybot/local-discord/types.ts';
import { letMembersUse } from '../support/command-access.ts';
import { useFileHarness } from '../support/file-harness.ts';
import { pitchOf, runCommand } from '../support/harness.ts';

import { fixture } from '../core/audio/fixtures.ts';
import { oneRoomGuild } from '../support/world.ts';
import { t } from '../../src/core/i18n/catalogue.ts';

const GUILD = '200000000000000007';
const OTHER_GUILD = '200000000000000008';
const VOICE_CHANNEL = '220000000000000071';
const ADMIN = '300000000000000071'; // Manage Server, in voice
const MEMBER = '300000000000000072'; // no special permissions, not in voice

const guilds: FakeGuildSpec[] = [
  oneRoomGuild(GUILD, 'Studio', { text: '210000000000000071', voice: VOICE_CHANNEL, voiceName: 'booth' }, [
    { id: ADMIN, username: 'admin', permissions: PermissionFlagsBits.ManageGuild, voiceChannelId: VOICE_CHANNEL },
    { id: MEMBER, username: 'member' },
  ]),
  oneRoomGuild(OTHER_GUILD, 'Elsewhere', { text: '210000000000000081', voice: '220000000000000081' }, [
    { id: '300000000000000081', username: 'visitor', voiceChannelId: '220000000000000081' },
  ]),
];

const h = useFileHarness({ guilds });

function clone(clip: Buffer, filename: string, options: Record<string, string | boolean> = {}, userId = ADMIN) {
  return runCommand(h, {
    guildId: GUILD,
    userId,
    name: 'clone',
    options: { text: 'Hello, this is me.', name: 'Tone', consent: true, ...options },
    attachments: [{ option: 'audio', data: clip, filename, contentType: 'audio/wav' }],
  });
}

const ephemeral = (flags: number | undefined) => ((flags ?? 0) & MessageFlags.Ephemeral) === MessageFlags.Ephemeral;

/** A cloned voice of GUILD made by ADMIN for the test that needs it (as a file: nothing to wait for in voice). */
async function madeClone(name: string): Promise<string> {
  const { content } = await clone(fixture('tone-220hz-5s-48k.wav'), `${name}.wav`, { name, output: 'file' });
  const id = /`(clone_[^`]+)`/.exec(content)?.[1];
  if (id === undefined) throw new Error(`no clone made: ${content}`);
  return id;
}

describe('/clone', () => {
  it('clones a 220 Hz clip, speaks the first line with it, and /say then speaks at that pitch', async () => {
    h.discord.clearAudio(GUILD);
    const before = h.sandbox.requests.length;
    const { handle } = await clone(fixture('tone-220hz-5s-48k.wav'), 'me.wav');
    const spoke = await handle.waitFor((r) => (r.content ?? '').startsWith('Spoke'), 15_000);
    expect(spoke.content).toMatch(/with the new voice "Tone" \(`(clone_[^`]+)`, from a 5\.0 s clip\)/);
    const cloneId = /`(clone_[^`]+)`/.exec(spoke.content ?? '')?.[1] ?? '';
    expect(Math.abs((pitchOf(await h.discord.waitForAudio(GUILD)) ?? 0) - 220)).toBeLessThan(4);
    // The clone's own audio spoke the line: one call, no second request for the same text.
    expect(
      h.sandbox.requests
        .slice(before)
        .filter((r) => r.endpoint !== undefined)
        .map((r) => r.endpoint),
    ).toEqual(['voice-clone']);

    h.discord.clearAudio(GUILD);
    const say = await runCommand(h, {
      guildId: GUILD,
      userId: ADMIN,
      name: 'say',
      options: { text: 'Now with my voice.', voice: cloneId },
    });
    await say.handle.waitFor((r) => (r.content ?? '').startsWith('Spoke'), 15_000);
    expect(Math.abs((pitchOf(await h.discord.waitForAudio(GUILD)) ?? 0) - 220)).toBeLessThan(4);
  });

  it('a clone paid, then its first line refused in voice by a mute: the voice is made, never "Nothing was spent"', async () => {
    const before = { requests: h.sandbox.requests.length, billed: h.sandbox.charactersBilled() };
    const held = () => h.sandbox.requests.slice(before.requests).some((r) => r.outcome === 'held');
    // The clone is charged at the service, then held there while a moderator server-mutes the member.
    h.sandbox.injectFault({ kind: 'hold-after-charge', endpoint: 'voice-clone' });
    try {
      const asked = h.discord.command({
        guildId: GUILD,
        userId: ADMIN,
        name: 'clone',
        options: [
          { name: 'text', value: 'Muted after paying.' },
          { name: 'name', value: 'Hushed' },
          { name: 'consent', value: true },
        ],
        attachments: [
          { option: 'audio', data: fixture('tone-220hz-5s-48k.wav'), filename: 'me.wav', contentType: 'audio/wav' },
        ],
      });
      await expect.poll(held, { timeout: 20_000 }).toBe(true);
      h.discord.setVoiceState(GUILD, ADMIN, VOICE_CHANNEL, { mute: true });
      h.sandbox.resumePaused();
      const answer = await (await asked).waitFor((r) => /made and saved|^Spoke/.test(r.content ?? ''), 60_000);
      const words = answer.content ?? '';
      // Paid once, for the clone and its line together.
      expect(h.sandbox.charactersBilled() - before.billed).toBe('Muted after paying.'.length);
      expect(words).toMatch(
        /^The new voice "Hushed" \(`clone_[0-9a-f]+`\) is made and saved, and its characters were spent/,
      );
      expect(words).toContain('Its first line was not spoken: ');
      expect(words).toMatch(/server-muted/);
      // What was paid for is never called unpaid.
      expect(words).not.toMatch(/nothing was (spent|paid|charged)/i);
      expect(ephemeral(answer.flags)).toBe(true);
    } finally {
      h.sandbox.resumePaused();
      h.sandbox.clearFaults();
      h.discord.setVoiceState(GUILD, ADMIN, VOICE_CHANNEL, { mute: false });
    }
  });

  it('a clone answered 200 without a voice ID: told it may have been made and charged, with no ID to use, never "far more audio"', async () => {
    // The service billed it (its 2xx), and its voice, if it made one, has no name SayBot was given: cloning again
    // would pay again, so the member is told so, not that the service sent too much audio.
    h.sandbox.injectFault({ kind: 'clone-without-voice-id', endpoint: 'voice-clone' });
    const billed = h.sandbox.charactersBilled();
    const { handle, content } = await clone(fixture('tone-220hz-5s-48k.wav'), 'noid.wav', {
      name: 'Nameless',
      output: 'file',
      // Its audio (about 2.5 s) is more than a clone's JSON answer may be: what the tester met.
      text: 'Hello, this is my own voice speaking now.',
    });
    expect(h.sandbox.requests.at(-1)).toMatchObject({ endpoint: 'voice-clone', status: 200 });
    expect(h.sandbox.charactersBilled()).toBeGreaterThan(billed);
    expect(content).not.toMatch(/far more audio|broke off|try again/);
    expect(content).toBe(t('en-US', 'error.api.cloneWithoutVoiceId'));
    expect(ephemeral(handle.responses.at(-1)?.flags)).toBe(true);
  });

  it('posts the new voice as a file when asked, and refuses a name already taken', async () => {
    const { handle, content } = await clone(fixture('tone-330hz-5s-vbr.mp3'), 'me.mp3', {
      name: 'Higher',
      output: 'file',
    });
    expect(content).toMatch(/^Here is the new voice "Higher"/);
    const file = handle.responses.find((r) => r.files.length > 0)?.files[0];
    const info = await analyseClip(file?.data ?? Buffer.alloc(0));
    expect(Math.abs((dominantPitchHz(info.samples ?? new Float32Array(), info.sampleRate) ?? 0) - 330)).toBeLessThan(4);

    const before = h.sandbox.requests.length;
    const again = await clone(fixture('tone-220hz-5s-48k.wav'), 'again.wav', { name: 'higher' });
    expect(again.content).toBe(
      'This server already has a voice called "higher". Choose another name, or delete that voice first.',
    );
    expect(h.sandbox.requests.length).toBe(before);
  });

  it.each([
    ['too-short-2s.wav', 'The clip lasts 2.00 s; it must last 3 to 60 seconds.'],
    ['too-long-61s.mp3', 'The clip lasts 61.00 s; it must last 3 to 60 seconds.'],
    ['silent-5s.wav', 'The clip is silent (-∞ dBFS). Attach a recording of the person speaking.'],
    [
      'ogg-renamed-as.wav',
      'The clip is OGG, not WAV, MP3 or M4A (whatever its name says). Please attach one of those.',
    ],
    ['truncated.mp3', 'The clip is damaged or cut short. Please export it again and attach the new file.'],
  ])('refuses %s privately, with the figure found, and calls no API', async (name, message) => {
    const before = h.sandbox.requests.length;
    const { handle, content } = await clone(fixture(name), name, { name: 'Bad' });
    expect(content).toBe(message);
    expect(ephemeral(handle.responses.at(-1)?.flags)).toBe(true);
    expect(h.sandbox.requests.length).toBe(before);
  });

  it('refuses without consent before downloading anything', async () => {
    const downloads = h.discord.cdnLog.length;
    const { content } = await clone(fixture('tone-220hz-5s-48k.wav'), 'me.wav', { consent: false, name: 'Nope' });
    expect(content).toBe(
      'Cloning a voice needs the consent of the person speaking. Set consent to True only if they agreed.',
    );
    expect(h.discord.cdnLog.length).toBe(downloads);
  });

  it('refuses a clip over the size cap and a clip from a host not on the allow-list', async () => {
    const before = h.sandbox.requests.length;
    const cap = h.config.clipDownload.maxBytes;
    h.config.clipDownload.maxBytes = 100_000;
    try {
      const big = await clone(fixture('tone-220hz-5s-48k.wav'), 'big.wav', { name: 'Big' });
      expect(big.content).toBe('The clip is 0.5 MB; the limit is 0.1 MB. Attach a shorter clip (3 to 60 seconds).');
    } finally {
      h.config.clipDownload.maxBytes = cap;
    }
    // As in production: only Discord's own attachment hosts, so the fake's CDN is not on the list.
    const hosts = h.config.clipDownload.allowedHosts;
    h.config.clipDownload.allowedHosts = ['cdn.discordapp.com', 'media.discordapp.net'];
    try {
      const foreign = await clone(fixture('tone-220hz-5s-48k.wav'), 'x.wav', { name: 'Foreign' });
      expect(foreign.content).toBe(
        `Attach the clip to the command itself; I only download attachments from Discord (not from ${new URL(h.discord.restUrl).host}).`,
      );
    } finally {
      h.config.clipDownload.allowedHosts = hosts;
    }
    expect(h.sandbox.requests.length).toBe(before);
  });

  it('keeps the voice in its server: another server cannot use its ID', async () => {
    const cloneId = await madeClone('Homebound');
    const { content } = await runCommand(h, {
      guildId: OTHER_GUILD,
      userId: '300000000000000081',
      name: 'say',
      options: { text: 'Borrowed?', voice: cloneId },
    });
    expect(content).toBe(`There is no voice "${cloneId}". Pick one from the list.`);
  });

  it('/voices delete: refused to a member who neither made it nor manages the server; done by its creator', async () => {
    const cloneId = await madeClone('Doomed');
    const refused = await runCommand(h, {
      guildId: GUILD,
      userId: MEMBER,
      name: 'voices',
      subcommand: 'delete',
      options: { voice: 'Doomed' },
    });
    expect(refused.content).toBe(
      'Only the member who cloned this voice, or someone with Manage Server, can delete it.',
    );
    const done = await runCommand(h, {
      guildId: GUILD,
      userId: ADMIN,
      name: 'voices',
      subcommand: 'delete',
      options: { voice: 'Doomed' },
    });
    expect(done.content).toBe(`Deleted the voice "Doomed" (\`${cloneId}\`).`);
    const after = await runCommand(h, {
      guildId: GUILD,
      userId: ADMIN,
      name: 'say',
      options: { text: 'Gone?', voice: cloneId, output: 'file' },
    });
    expect(after.content).toBe(`There is no voice "${cloneId}". Pick one from the list.`);
  });

  it('is for Manage Server members by default (servers can widen it)', async () => {
    const definition = (await loadCommandModules()).get('clone')?.data.toJSON();
    expect(definition?.default_member_permissions).toBe(PermissionFlagsBits.ManageGuild.toString());
    // Discord neither offers nor sends it to a member without Manage Server.
    const asked = () =>
      clone(fixture('tone-220hz-5s-48k.wav'), 'me.wav', { consent: false, name: 'Widened', output: 'file' }, MEMBER);
    await expect(asked()).rejects.toThrow(/ManageGuild/);
    // A server that widens it (Integrations) has SayBot answer the member: it checks nothing more (here, consent).
    letMembersUse(h.discord, GUILD, 'clone', [MEMBER]);
    try {
      expect((await asked()).content).toBe(
        'Cloning a voice needs the consent of the person speaking. Set consent to True only if they agreed.',
      );
    } finally {
      letMembersUse(h.discord, GUILD, 'clone', []);
    }
  });
});

/** The Label components of a modal, by their child's custom_id. */
function fieldsOf(
  modal: Record<string, unknown> | undefined,
): Map<string, { label: string; description?: string; component: Record<string, unknown> }> {
  const labels =
    (modal?.components as
      Array<{ type: number; label: string; description?: string; component: Record<string, unknown> }> | undefined) ??
    [];
  return new Map(labels.filter((c) => c.type === 18).map((c) => [String(c.component.custom_id), c]));
}

/** Runs /clone with these options (none: the form) and waits for the form it opens. */
async function openForm(options: Record<string, string | boolean> = {}, locale?: string): Promise<InteractionHandle> {
  const handle = await h.discord.command({
    guildId: GUILD,
    userId: ADMIN,
    name: 'clone',
    options: Object.entries(options).map(([name, value]) => ({ name, value })),
    ...(locale === undefined ? {} : { locale }),
  });
  await handle.waitFor((r) => r.kind === 'callback' && r.type === 9);
  return handle;
}

/** Submits the form as the member and waits for SayBot's answer to the submit. */
async function submitForm(
  form: InteractionHandle,
  values: Record<string, string | boolean | FakeUpload[]>,
  unchecked = false,
) {
  const submit = await h.discord.submitModal({ on: form, values, unchecked });
  const final = await submit.waitFor((r) => r.kind !== 'delete' && r.content !== undefined, 60_000);
  return { submit, content: final.content ?? '' };
}

const clones = () => h.sandbox.requests.filter((r) => r.endpoint === 'voice-clone').length;

describe('/clone as a form', () => {
  it('without options opens a form: name, first line, an audio upload (WAV, MP3, M4A) and the consent box', async () => {
    const form = await openForm();
    expect(form.modal?.title).toBe('Clone a voice');
    const fields = fieldsOf(form.modal);
    expect([...fields.keys()]).toEqual(['name', 'text', 'clip', 'consent']);
    expect(fields.get('clip')?.component).toMatchObject({
      type: 19,
      min_values: 1,
      max_values: 1,
      file_types: ['.wav', '.mp3', '.m4a'],
    });
    expect(fields.get('consent')?.component).toMatchObject({ type: 23 });
    // The box says what the slash option says.
    expect(fields.get('consent')?.description).toBe(
      'I confirm the person speaking in the clip agreed to have their voice cloned',
    );
    // In Korean and Japanese too, within Discord's limits (the local Discord refuses a modal over them).
    for (const locale of ['ko', 'ja']) expect((await openForm({}, locale)).modal?.title).not.toBe('Clone a voice');
  });

  it('a WAV with the box ticked clones once, through the same checks and reply as the slash command', async () => {
    const before = clones();
    const form = await openForm({ output: 'file' });
    const { content } = await submitForm(form, {
      name: 'Formed',
      text: 'Hello from the form.',
      consent: true,
      clip: [{ data: fixture('tone-220hz-5s-48k.wav'), filename: 'me.wav', contentType: 'audio/wav' }],
    });
    expect(content).toMatch(/^Here is the new voice "Formed" \(`clone_[^`]+`, from a 5\.0 s clip\)/);
    expect(clones()).toBe(before + 1);
  });

  it('the box left unticked: refused privately before anything is downloaded or paid', async () => {
    const [before, downloads] = [clones(), h.discord.cdnLog.length];
    const form = await openForm();
    const { submit, content } = await submitForm(form, {
      name: 'Unasked',
      text: 'Hello.',
      consent: false,
      clip: [{ data: fixture('tone-220hz-5s-48k.wav'), filename: 'me.wav' }],
    });
    expect(content).toBe('Cloning a voice needs the consent of the person speaking. Tick the box only if they agreed.');
    expect(ephemeral(submit.responses.at(-1)?.flags)).toBe(true);
    expect([clones(), h.discord.cdnLog.length]).toEqual([before, downloads]);
  });

  it('a file that is not audio: the form takes none; one that gets through is refused by its name before any download', async () => {
    const [before, downloads] = [clones(), h.discord.cdnLog.length];
    const form = await openForm();
    const values = {
      name: 'Notes',
      text: 'Hello.',
      consent: true,
      clip: [{ data: Buffer.from('not a clip'), filename: 'notes.txt', contentType: 'text/plain' }],
    };
    await expect(h.discord.submitModal({ on: form, values })).rejects.toThrow(FormRefusal);
    const { content } = await submitForm(form, values, true);
    expect(content).toBe('notes.txt is not a WAV, MP3 or M4A file. Please upload one of those.');
    expect([clones(), h.discord.cdnLog.length]).toEqual([before, downloads]);
  });

  it("the slash command's attachment option takes only WAV, MP3 and M4A", async () => {
    const definition = (await loadCommandModules()).get('clone')?.data.toJSON();
    expect(definition).toMatchObject({
      options: expect.arrayContaining([
        expect.objectContaining({ name: 'audio', file_types: ['.wav', '.mp3', '.m4a'] }),
      ]),
    });
    await expect(clone(Buffer.from('text'), 'notes.txt')).rejects.toThrow(FormRefusal);
  });

  it('a clip without its name, line or consent: refused privately, with a "Clone a voice" button that opens the form', async () => {
    const before = clones();
    const { handle, content } = await runCommand(h, {
      guildId: GUILD,
      userId: ADMIN,
      name: 'clone',
      attachments: [{ option: 'audio', data: fixture('tone-220hz-5s-48k.wav'), filename: 'me.wav' }],
    });
    expect(content).toBe(
      'With a clip, give its name, text and consent too; or run /clone without options to fill in a form.',
    );
    const reply = handle.responses.at(-1);
    expect(ephemeral(reply?.flags)).toBe(true);
    const press = await h.discord.pressButton({
      guildId: GUILD,
      userId: ADMIN,
      messageId: String(reply?.message?.id),
      customId: 'clone:open',
    });
    await press.waitFor((r) => r.kind === 'callback' && r.type === 9);
    expect([...fieldsOf(press.modal).keys()]).toEqual(['name', 'text', 'clip', 'consent']);
    expect(clones()).toBe(before);
  });

  it('/voices list offers the form to a manager, not to other members', async () => {
    const forManager = await runCommand(h, { guildId: GUILD, userId: ADMIN, name: 'voices', subcommand: 'list' });
    expect(JSON.stringify(forManager.handle.responses.at(-1)?.raw)).toContain('"custom_id":"clone:open"');
    const forMember = await runCommand(h, { guildId: GUILD, userId: MEMBER, name: 'voices', subcommand: 'list' });
    expect(JSON.stringify(forMember.handle.responses.at(-1)?.raw)).not.toContain('clone:open');
  });
});
