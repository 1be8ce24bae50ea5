import { PermissionFlagsBits } from 'discord.js';
import { describe, expect, it } from 'vitest';
import type { FakeGuildSpec } from '@saybot/local-discord/types.ts';
import { useFileHarness } from '../support/file-harness.ts';
import { runCommand } from '../support/harness.ts';
import { longMp3, mp3WithHiddenHours } from '../../fixtures/long-mp3.ts';
import { oneRoomGuild } from '../support/world.ts';
import { watchPacketOrder } from '../support/packet-order.ts';
import { holdReplyNearItsEnd } from '../support/held-say.ts';

// One server's admin sends a 20 MB MP3 at 8 kb/s (5.6 hours) to /clone while another server listens to
// SayBot. The clip is refused as too long from its headers, and the other server hears every packet, in order. (How
// late they come is npm run bench's figure: a test that times them measures the machine.)

const STUDIO = '200000000000000231';
const CAFE = '200000000000000232';
const ADMIN = '300000000000000231';
const LISTENER = '300000000000000232';
const CAFE_VOICE = '220000000000000232';

const guilds: FakeGuildSpec[] = [
  oneRoomGuild(STUDIO, 'Studio', { text: '210000000000000231', voice: '220000000000000231', voiceName: 'booth' }, [
    {
      id: ADMIN,
      username: 'admin',
      permissions: PermissionFlagsBits.ManageGuild,
      voiceChannelId: '220000000000000231',
    },
  ]),
  oneRoomGuild(CAFE, 'Cafe', { text: '210000000000000232', voice: CAFE_VOICE, voiceName: 'lounge' }, [
    { id: LISTENER, username: 'listener', voiceChannelId: CAFE_VOICE },
  ]),
];

const h = useFileHarness({ guilds });

describe('/clone with a clip of hours', () => {
  it('is refused as too long from its headers while another server hears every packet of its reply', async () => {
    const huge = longMp3(20_000_000);
    h.discord.clearAudio(CAFE);
    const text =
      'This reply keeps playing in the cafe while the studio sends a clip of several hours to clone, and nobody here should hear a gap.';
    holdReplyNearItsEnd(h, text);
    const say = await runCommand(h, { guildId: CAFE, userId: LISTENER, name: 'say', options: { text } });
    await h.discord.waitForPacket(CAFE, (p) => !p.silence);
    const watch = watchPacketOrder();

    const clone = await runCommand(h, {
      guildId: STUDIO,
      userId: ADMIN,
      name: 'clone',
      options: { text: 'Hello, this is me.', name: 'Hours', consent: true },
      attachments: [{ option: 'audio', data: huge, filename: 'hours.mp3', contentType: 'audio/mpeg' }],
    });
    expect(clone.content).toBe('The clip lasts 19999.44 s; it must last 3 to 60 seconds.');
    expect(h.sandbox.requests.filter((r) => r.endpoint === 'voice-clone')).toHaveLength(0);
    // The cafe was still listening when the refusal came: the clip was checked while its reply played.
    expect(say.handle.responses.some((r) => (r.content ?? '').startsWith('Spoke'))).toBe(false);
    h.sandbox.resumePaused();

    await say.handle.waitFor((r) => (r.content ?? '').startsWith('Spoke'), 30_000);
    const heard = h.discord.heard(CAFE);
    expect(heard.seconds).toBeGreaterThan(h.sandbox.expectedDurationSeconds(text) - 0.5);
    expect(watch.order(heard.packets)).toEqual({ outOfOrder: 0, missing: 0 });
  });

  it("sends every packet of another server's reply in order while a 19 MB clip is downloaded and refused", async () => {
    // Its headers say 5 s (frames hidden behind junk): only the decoder finds it too long, so all 19 MB go to it.
    // Hosted before the cafe's reply starts: Discord's CDN is not in SayBot's process, as this test's is.
    const huge = h.discord.hostAttachment(mp3WithHiddenHours(5, 19_000_000), 'long.mp3', 'audio/mpeg');
    h.discord.clearAudio(CAFE);
    const text =
      'The cafe hears this whole reply in time while the studio sends a clip of nineteen megabytes, and the packets keep their pace.';
    holdReplyNearItsEnd(h, text);
    const say = await runCommand(h, { guildId: CAFE, userId: LISTENER, name: 'say', options: { text } });
    await h.discord.waitForPacket(CAFE, (p) => !p.silence);
    const watch = watchPacketOrder();
    const clone = await runCommand(h, {
      guildId: STUDIO,
      userId: ADMIN,
      name: 'clone',
      options: { text: 'Hello, this is me.', name: 'Nineteen', consent: true },
      attachments: [{ option: 'audio', attachment: huge }],
    });
    expect(clone.content).toMatch(/^The clip lasts \d+\.\d\d s; it must last 3 to 60 seconds\.$/);
    expect(say.handle.responses.some((r) => (r.content ?? '').startsWith('Spoke'))).toBe(false);
    h.sandbox.resumePaused();
    await say.handle.waitFor((r) => (r.content ?? '').startsWith('Spoke'), 30_000);
    const heard = h.discord.heard(CAFE);
    expect(heard.seconds).toBeGreaterThan(h.sandbox.expectedDurationSeconds(text) - 0.5);
    expect(watch.order(heard.packets)).toEqual({ outOfOrder: 0, missing: 0 });
  });
});
