// Clone names are held in the store before the paid call: of two /clone of one name at once,
// exactly one reaches the service; a clone whose paid call fails gives its name back.
import { PermissionFlagsBits } from 'discord.js';
import { beforeEach, describe, expect, it } from 'vitest';
import { encodeWav, toneSamples } from '@saybot/voice-sandbox/synth.ts';
import type { FakeGuildSpec } from '@saybot/local-discord/types.ts';
import { useFileHarness } from '../support/file-harness.ts';
import { runCommand } from '../support/harness.ts';
import { oneRoomGuild } from '../support/world.ts';

const GUILD = '200000000000000097';
const FIRST = '300000000000000971';
const SECOND = '300000000000000972';

const guilds: FakeGuildSpec[] = [
  oneRoomGuild(GUILD, 'Race', { text: '210000000000000097', voice: '220000000000000097' }, [
    { id: FIRST, username: 'first', permissions: PermissionFlagsBits.ManageGuild },
    { id: SECOND, username: 'second', permissions: PermissionFlagsBits.ManageGuild },
  ]),
];

const h = useFileHarness({ guilds });
beforeEach(() => {
  h.sandbox.clearFaults();
});

const clip = (pitchHz: number) =>
  Buffer.from(encodeWav(toneSamples({ pitchHz, seconds: 3.5, amplitude: 0.5, sampleRate: 24_000 }), 24_000, 'exact'));
const clones = () => h.sandbox.requests.filter((r) => r.endpoint === 'voice-clone');

function clone(userId: string, name: string, pitchHz: number) {
  return runCommand(h, {
    guildId: GUILD,
    userId,
    name: 'clone',
    options: { text: 'Hello there.', name, consent: true, output: 'file' },
    attachments: [{ option: 'audio', data: clip(pitchHz), filename: 'me.wav', contentType: 'audio/wav' }],
  });
}

describe('/clone of one name twice at once', () => {
  it('pays once: the loser is refused before any call, and the library holds one voice of that name', async () => {
    // The service is slow to answer, so the first clone is still paying when the second one checks the name.
    // (A delay before the audio starts, as a synthesiser has; a fault would not be billed.)
    h.sandbox.setPacing({ startDelayMs: 1000 });
    const before = clones().length;
    const billed = h.sandbox.charactersBilled();
    let a, b;
    try {
      [a, b] = await Promise.all([clone(FIRST, 'Twin', 180), clone(SECOND, 'twin', 240)]);
    } finally {
      h.sandbox.setPacing({ startDelayMs: 0 });
    }
    const replies = [a.content, b.content];
    expect(replies.filter((c) => /^Here is the new voice "(Twin|twin)"/.test(c))).toHaveLength(1);
    expect(replies.filter((c) => /already has a voice called "(Twin|twin)"/.test(c))).toHaveLength(1);
    expect(clones().length - before).toBe(1);
    expect(h.sandbox.charactersBilled() - billed).toBe('Hello there.'.length);
    const listing = (await runCommand(h, { guildId: GUILD, userId: FIRST, name: 'voices', subcommand: 'list' }))
      .content;
    expect(listing.match(/twin/gi)?.length).toBe(1);
  });

  it('gives the name back when the paid call fails, so the next /clone of it goes through', async () => {
    h.sandbox.injectFault({
      kind: 'service-error',
      status: 400,
      body: '{"error":{"message":"ref_audio rejected"}}',
      contentType: 'application/json',
      endpoint: 'voice-clone',
    });
    const failed = await clone(FIRST, 'Phoenix', 200);
    expect(failed.content).toContain('ref_audio rejected');
    const again = await clone(SECOND, 'Phoenix', 200);
    expect(again.content).toMatch(/^Here is the new voice "Phoenix"/);
  });
});
