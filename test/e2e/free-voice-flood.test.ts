// A flood of free lines in one server while another listens, end to end: the free voice speaks off the main thread
// in a bounded pool, so the other server hears every packet of its reply, in order, and the flooding server's lines
// past its share are refused at once, privately. (The gaps between the packets are npm run bench's figure.)
import { describe, expect, it } from 'vitest';
import type { FakeGuildSpec } from '@saybot/local-discord/types.ts';
import { useFileHarness } from '../support/file-harness.ts';
import { runCommand } from '../support/harness.ts';
import { oneRoomGuild } from '../support/world.ts';
import { watchPacketOrder } from '../support/packet-order.ts';
import { FREE_LINES_PER_GUILD } from '../../src/core/audio/workers/fair-shares.ts';

const FLOOD = '200000000000000241';
const CAFE = '200000000000000242';
const FLOODERS = Array.from({ length: 12 }, (_, i) => `3000000000000002${String(41 + i)}`);
const LISTENER = '300000000000000260';
const FLOOD_VOICE = '220000000000000241';
const CAFE_VOICE = '220000000000000242';

const guilds: FakeGuildSpec[] = [
  oneRoomGuild(
    FLOOD,
    'Flood',
    { text: '210000000000000241', voice: FLOOD_VOICE },
    FLOODERS.map((id, i) => ({ id, username: `flooder${i}`, voiceChannelId: FLOOD_VOICE })),
  ),
  oneRoomGuild(CAFE, 'Cafe', { text: '210000000000000242', voice: CAFE_VOICE, voiceName: 'lounge' }, [
    { id: LISTENER, username: 'listener', voiceChannelId: CAFE_VOICE },
  ]),
];

const h = useFileHarness({ guilds, config: { voiceIdleTimeoutMs: 60_000, freeRequestsPerMinute: 0 } });

describe('a flood of free lines', () => {
  it("sends every packet of another server's reply in order, and refuses the flood past its share", async () => {
    h.discord.clearAudio(CAFE);
    const text = 'The cafe hears every word of this reply in time, while another server floods the free voice.';
    const say = await runCommand(h, { guildId: CAFE, userId: LISTENER, name: 'say', options: { text } });
    await h.discord.waitForPacket(CAFE, (p) => !p.silence);
    const watch = watchPacketOrder();
    const flood = await Promise.all(
      FLOODERS.map((userId, i) =>
        runCommand(h, {
          guildId: FLOOD,
          userId,
          name: 'say',
          options: { text: `Flood line number ${i}, in the free voice.`, voice: 'free-en-m', output: 'file' },
        }),
      ),
    );
    await say.handle.waitFor((r) => (r.content ?? '').startsWith('Spoke'), 30_000);
    const heard = h.discord.heard(CAFE);
    expect(heard.seconds).toBeGreaterThan(h.sandbox.expectedDurationSeconds(text) - 0.5);
    expect(watch.order(heard.packets)).toEqual({ outOfOrder: 0, missing: 0 });
    const files = flood.filter((said) => said.handle.responses.some((r) => r.files.length > 0));
    const busy = flood.filter((said) => /^This server already has 4 pieces of audio being prepared/.test(said.content));
    expect(files.length).toBeGreaterThanOrEqual(FREE_LINES_PER_GUILD);
    expect(busy.length).toBeGreaterThan(0);
    expect(files.length + busy.length).toBe(FLOODERS.length);
    expect(h.sandbox.requests.filter((r) => r.text?.startsWith('Flood line'))).toHaveLength(0);
  });
});
