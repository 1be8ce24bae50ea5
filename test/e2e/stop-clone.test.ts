// /stop reaches a /clone from its acceptance (issue 56, H2): before, /stop said "Nothing you asked for is playing or
// queued" until the clone's audio arrived, and the clone was billed and played all the same. Stopped while its
// request waits at the service, uncharged, it is closed: nothing made, billed nothing, the books keep it as may have
// been charged (the documented over-count), and the member is told so truly. Stopped once the service answered (the
// voice exists, its ID came), the voice is kept and said as made, its characters spent, and its first line is
// neither played nor posted; never "nothing of it was charged".
import { PermissionFlagsBits } from 'discord.js';
import { describe, expect, it } from 'vitest';
import type { InteractionHandle } from '@saybot/local-discord/types.ts';
import { countCharacters } from '../../src/core/characters.ts';
import { fixture } from '../core/audio/fixtures.ts';
import { booksSettled } from '../support/books-settled.ts';
import { spentShown as spentShownTo, until } from '../support/books-shown.ts';
import { useHarnessPerTest } from '../support/file-harness.ts';
import { runCommand, type Harness } from '../support/harness.ts';
import { oneRoomGuild } from '../support/world.ts';
import { t } from '../../src/core/i18n/catalogue.ts';

const GUILD = '200000000000000057';
const VOICE_CHANNEL = '220000000000000057';
const ADMIN = '300000000000000571'; // Manage Server, in voice

const guilds = [
  oneRoomGuild(GUILD, 'Studio', { text: '210000000000000057', voice: VOICE_CHANNEL, voiceName: 'booth' }, [
    { id: ADMIN, username: 'admin', permissions: PermissionFlagsBits.ManageGuild, voiceChannelId: VOICE_CHANNEL },
  ]),
];

const harnessFor = useHarnessPerTest();
const TEXT = 'Hello, this is my own voice, stopped on its way.';
const clones = (h: Harness) => h.sandbox.requests.filter((r) => r.endpoint === 'voice-clone');

const spentShown = (h: Harness) => spentShownTo(h, GUILD, ADMIN);

async function voicesListed(h: Harness): Promise<number> {
  const { content } = await runCommand(h, { guildId: GUILD, userId: ADMIN, name: 'voices', subcommand: 'list' });
  return (content.match(/clone_[0-9a-f]+/g) ?? []).length;
}

function clone(h: Harness, output: 'voice' | 'file'): Promise<InteractionHandle> {
  return h.discord.command({
    guildId: GUILD,
    userId: ADMIN,
    name: 'clone',
    options: [
      { name: 'text', value: TEXT },
      { name: 'name', value: 'Stopped' },
      { name: 'consent', value: true },
      ...(output === 'file' ? [{ name: 'output', value: 'file' }] : []),
    ],
    attachments: [
      { option: 'audio', data: fixture('tone-220hz-5s-48k.wav'), filename: 'me.wav', contentType: 'audio/wav' },
    ],
  });
}

describe('/stop of a /clone', () => {
  for (const output of ['voice', 'file'] as const) {
    it(`while its request waits at the service uncharged (${output}): closed, nothing made, billed nothing, told truly`, async () => {
      const h = await harnessFor({ guilds });
      h.sandbox.injectFault({ kind: 'hold-before-charge', endpoint: 'voice-clone' });
      h.discord.clearAudio(GUILD);
      const asked = await clone(h, output);
      await until(() => clones(h)[0]?.outcome === 'waiting');
      const held = clones(h)[0];
      const stopped = await runCommand(h, { guildId: GUILD, userId: ADMIN, name: 'stop' });
      expect(stopped.content).toContain(t('en-US', 'stop.clones', { count: 1 }));
      const answer = await asked.waitFor((r) => /^Stopped/.test(r.content ?? ''), 60_000);
      // SayBot closed the connection while the request waited, before the service charged it.
      await until(() => held?.outcome === 'client-aborted');
      h.sandbox.resumePaused();
      await booksSettled(h);
      expect(h.sandbox.charactersBilled()).toBe(0);
      expect(clones(h)).toHaveLength(1);
      expect(await voicesListed(h)).toBe(0);
      expect(h.discord.heardPackets(GUILD).filter((packet) => !packet.silence)).toEqual([]);
      expect(asked.responses.flatMap((r) => r.files)).toEqual([]);
      // The books keep it: the service could have charged it an instant before the close.
      expect(await spentShown(h)).toBe(countCharacters(TEXT));
      expect(answer.content).toMatch(/may have counted/);
      expect(answer.content).not.toMatch(/nothing (of it )?(was )?(spent|charged)|not charged/i);
    });
  }

  it('stopped while its clip is still being downloaded (its reply already "thinking…"): nothing sent, nothing made', async () => {
    const h = await harnessFor({ guilds });
    const release = h.discord.holdAttachmentDownloads();
    const asked = await clone(h, 'file');
    await asked.waitFor((r) => r.kind === 'callback', 60_000);
    await until(() => h.discord.heldAttachmentDownloads() > 0);
    const stopped = await runCommand(h, { guildId: GUILD, userId: ADMIN, name: 'stop' });
    expect(stopped.content).toContain(t('en-US', 'stop.clones', { count: 1 }));
    release();
    const answer = await asked.waitFor((r) => r.kind !== 'callback' && r.content !== undefined, 60_000);
    await booksSettled(h);
    expect(clones(h)).toEqual([]);
    expect(h.sandbox.charactersBilled()).toBe(0);
    expect(await voicesListed(h)).toBe(0);
    expect(asked.responses.flatMap((r) => r.files)).toEqual([]);
    expect(await spentShown(h)).toBe(0);
    expect(answer.content).not.toMatch(/may have counted|spent/);
  });

  it('while its answer is held after the charge (voice): closed all the same, as SayBot cannot tell; on the books as billed', async () => {
    // Before its status SayBot cannot tell a request charged from one waiting uncharged: it closes it as in voice
    // (stop-held.test.ts), so no voice ID comes and none is saved; the service billed it, and so do the books.
    const h = await harnessFor({ guilds });
    h.sandbox.injectFault({ kind: 'hold-after-charge', endpoint: 'voice-clone' });
    h.discord.clearAudio(GUILD);
    const asked = await clone(h, 'voice');
    await until(() => clones(h)[0]?.outcome === 'held');
    const stopped = await runCommand(h, { guildId: GUILD, userId: ADMIN, name: 'stop' });
    expect(stopped.content).toContain(t('en-US', 'stop.clones', { count: 1 }));
    const answer = await asked.waitFor((r) => /^Stopped/.test(r.content ?? ''), 60_000);
    h.sandbox.resumePaused();
    await booksSettled(h);
    expect(h.sandbox.charactersBilled()).toBe(countCharacters(TEXT));
    expect(await spentShown(h)).toBe(countCharacters(TEXT));
    expect(await voicesListed(h)).toBe(0);
    expect(h.discord.heardPackets(GUILD).filter((packet) => !packet.silence)).toEqual([]);
    expect(answer.content).toMatch(/may have counted/);
  });

  it('once the service answered (its voice ID came, its audio under way), as a file: the voice kept and said as made and paid, its line not posted', async () => {
    const h = await harnessFor({ guilds });
    h.sandbox.injectFault({ kind: 'pause-after', bytes: 4000, endpoint: 'voice-clone' });
    const asked = await clone(h, 'file');
    await until(() => clones(h)[0]?.outcome === 'paused');
    const stopped = await runCommand(h, { guildId: GUILD, userId: ADMIN, name: 'stop' });
    expect(stopped.content).not.toMatch(/^Nothing/);
    h.sandbox.resumePaused();
    const answer = await asked.waitFor((r) => /made and saved/.test(r.content ?? ''), 60_000);
    await booksSettled(h);
    expect(h.sandbox.charactersBilled()).toBe(countCharacters(TEXT));
    expect(await spentShown(h)).toBe(countCharacters(TEXT));
    expect(await voicesListed(h)).toBe(1);
    expect(asked.responses.flatMap((r) => r.files)).toEqual([]);
    expect(answer.content).toMatch(/characters were spent/);
    expect(answer.content).not.toMatch(/nothing (of it )?(was )?(spent|charged)|not charged/i);
  });
});
