// One server floods the owner's VOICEVOX engine while another server asks for one line, end to end: the real bot, the
// local Discord, the sandbox Voice API (which must hear nothing) and the VOICEVOX double over real HTTP, made slow
// (`slow:` on /synthesis) so that lines overlap. The engine's queue serves servers in turn: the other server's line is
// sent at the next free slot, ahead of the flood's lines still waiting, and its file is posted before the flood's
// last; the flood past its server's share is told busy in its members' language, never sent nor charged; and the bot
// keeps answering both. Only the order of events is asserted (the times are npm run bench's figure 25).
import { afterAll, describe, expect, it } from 'vitest';
import { startVoicevoxDouble, type VoicevoxDouble } from '@saybot/engine-doubles';
import { ENGINE_QUEUE } from '../../src/core/engines/engines.ts';
import { ja } from '../../src/features/speaking/strings/ja.ts';
import { useFileHarness } from '../support/file-harness.ts';
import { runCommand, type Harness } from '../support/harness.ts';
import { oneRoomGuild } from '../support/world.ts';

const FLOOD = '200000000000000761';
const CAFE = '200000000000000762';
/** Two files each (a member's share of files under way), twice the engine's share of a server. */
const FLOODERS = Array.from({ length: ENGINE_QUEUE.perOwner }, (_, i) => `30000000000000076${i}`);
const LISTENER = '300000000000000770';
const FLOOD_STYLE = 0;
const CAFE_STYLE = 10;
/**
 * Each of the flood's renders: the cafe's line must reach the engine's queue before the first of them ends (a bound,
 * generous for a busy host, where an interaction reaches the queue within a few hundred ms).
 */
const RENDER_MS = 3000;
const WAIT_MS = 60_000;

let voicevox: VoicevoxDouble | undefined;
afterAll(async () => {
  await voicevox?.close();
});

const h = useFileHarness(async () => {
  voicevox = await startVoicevoxDouble();
  return {
    guilds: [
      oneRoomGuild(
        FLOOD,
        'Flood',
        { text: '210000000000000761', voice: '220000000000000761' },
        FLOODERS.map((id, i) => ({ id, username: `flooder${i}`, voiceChannelId: '220000000000000761', locale: 'ja' })),
      ),
      oneRoomGuild(CAFE, 'Cafe', { text: '210000000000000762', voice: '220000000000000762' }, [
        { id: LISTENER, username: 'listener', voiceChannelId: '220000000000000762', locale: 'en-US' },
      ]),
    ],
    config: { voiceIdleTimeoutMs: 60_000 },
    env: { VOICEVOX_URL: voicevox.url },
  };
});

/** Asks for a file in a VOICEVOX style; resolves with its first answer in words or with the file. */
async function askFile(harness: Harness, guildId: string, userId: string, text: string, style: number) {
  const handle = await harness.discord.command({
    guildId,
    userId,
    name: 'say',
    options: [
      { name: 'text', value: text },
      { name: 'voice', value: `voicevox:${style}` },
      { name: 'output', value: 'file' },
    ],
  });
  return handle.waitFor(
    (r) =>
      r.kind !== 'delete' && (r.files.length > 0 || ((r.content ?? '') !== '' && !/^Thinking/.test(r.content ?? ''))),
    WAIT_MS,
  );
}

/**
 * Until `count` requests to `path` have come, or the generous bound. Counted by path alone: the double reads a
 * request's speaker once its `slow:` pause is over.
 */
async function untilRequests(path: string, count: number): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  while (voicevox!.requests.filter((r) => r.path === path).length < count) {
    if (Date.now() > deadline) throw new Error(`the engine did not get ${count} ${path}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("a flood of one server's engine lines", () => {
  it("lets another server's line through at the next free slot, and tells the flood busy in its language", async () => {
    voicevox!.faults.set({ fault: `slow:${RENDER_MS}`, path: '/synthesis' });
    voicevox!.clearRequests();
    const sandboxRequests = h.sandbox.requests.length;
    const billed = h.sandbox.charactersBilled();
    /** Who got a file, in the order the files were posted. */
    const posted: string[] = [];
    const flood = FLOODERS.flatMap((userId, i) =>
      [0, 1].map(async (k) => {
        const answer = await askFile(h, FLOOD, userId, `洪水の行 ${i} の ${k} です。`, FLOOD_STYLE);
        if (answer.files.length > 0) posted.push('flood');
        return answer;
      }),
    );
    // The flood's first lines are being rendered (so the rest of its share waits) before the cafe asks.
    await untilRequests('/synthesis', ENGINE_QUEUE.slots);
    const cafe = await askFile(h, CAFE, LISTENER, 'The cafe asks for one line.', CAFE_STYLE);
    expect(cafe.files).toHaveLength(1);
    posted.push('cafe');
    const answers = await Promise.all(flood);

    // The flood had its share of the engine: the rest were refused in Japanese, before anything was sent.
    const files = answers.filter((a) => a.files.length > 0);
    const busy = answers.filter((a) => (a.content ?? '').includes(ja['error.engine.busy']));
    expect(files).toHaveLength(ENGINE_QUEUE.perOwner);
    expect(busy).toHaveLength(answers.length - ENGINE_QUEUE.perOwner);
    const floodSynthesis = voicevox!.requests.filter((r) => r.path === '/synthesis' && r.speaker === FLOOD_STYLE);
    expect(floodSynthesis).toHaveLength(ENGINE_QUEUE.perOwner);

    // The cafe's line went to the engine at the next free slot: ahead of the flood's lines still waiting, so its file
    // was posted before the flood's last one. (An /audio_query's speaker is read at once: it meets no pause.)
    const queries = voicevox!.requests.filter((r) => r.path === '/audio_query');
    const cafeAt = queries.findIndex((r) => r.speaker === CAFE_STYLE);
    expect(cafeAt).toBeGreaterThanOrEqual(ENGINE_QUEUE.slots);
    expect(cafeAt).toBeLessThan(queries.length - 1);
    expect(posted.indexOf('cafe')).toBeLessThan(posted.length - 1);

    // Nothing reached the Voice API, nothing was charged.
    expect(h.sandbox.requests.length).toBe(sandboxRequests);
    expect(h.sandbox.charactersBilled()).toBe(billed);

    // The bot keeps answering both servers once the flood is over.
    voicevox!.faults.set('none');
    const again = await askFile(h, FLOOD, FLOODERS[0]!, '洪水のあとの行です。', FLOOD_STYLE);
    expect(again.files).toHaveLength(1);
    const cafeAgain = await runCommand(h, { guildId: CAFE, userId: LISTENER, name: 'voices', subcommand: 'list' });
    expect(cafeAgain.content).toContain(`voicevox:${CAFE_STYLE}`);
  });
});
