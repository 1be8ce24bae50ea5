// A /say in voice that fails after some of it was heard and paid is answered with what was spent and why the rest was
// not made, in the member's language; the log line of that failure names the cause by its code, never by those words
// (logs hold codes and identifiers, not member-facing sentences). The sandbox makes the first part and holds its
// answer (in voice the next part is asked for only once the one before it is heard); the second part then meets the
// service's own 503, every try.
import { afterEach, describe, expect, it } from 'vitest';
import { useHarnessPerTest } from '../support/file-harness.ts';
import type { Harness } from '../support/harness.ts';
import { oneRoomGuild } from '../support/world.ts';
import { t } from '../../src/core/i18n/catalogue.ts';
import { splitText } from '../../src/core/sourcing/part-request.ts';

const GUILD = '200000000000000093';
const VOICE = '220000000000000093';
const SPEAKER = '300000000000000931';
const MAX_CHARS = 40;

const openHarness = useHarnessPerTest();
let h: Harness | undefined;
afterEach(() => {
  h?.sandbox.clearFaults();
  h?.sandbox.resumePaused();
});

const lines = (from: number) => (h?.logs() ?? '').slice(from).split('\n').filter(Boolean);

describe('a failure after some audio was heard', () => {
  it("is told what was spent and its cause in the member's language, and logged by the cause's code, not its words", async () => {
    h = await openHarness({
      guilds: [
        oneRoomGuild(GUILD, 'Cut', { text: '210000000000000093', voice: VOICE }, [
          { id: SPEAKER, username: 'speaker', voiceChannelId: VOICE, locale: 'en-US' },
        ]),
      ],
      // Parts of at most 40 characters, so that a short text is several parts.
      config: { maxCharsPerRequest: MAX_CHARS },
    });
    const harness = h;
    const text = 'First part is spoken in full here. Second part is spoken too. Third part meets a failing service.';
    const parts = splitText(text, MAX_CHARS);
    expect(parts.length).toBe(3);
    const from = harness.logs().length;
    harness.sandbox.injectFault({ kind: 'hold-after-charge', endpoint: 'tts' });
    const handle = await harness.discord.command({
      guildId: GUILD,
      userId: SPEAKER,
      name: 'say',
      locale: 'en-US',
      options: [{ name: 'text', value: text }],
    });
    // The first part is made and charged; only then does the service start failing, for the second's tries.
    const held = (part: string | undefined) =>
      harness.sandbox.requests.some((r) => r.text === part && r.outcome === 'held');
    await expect.poll(() => held(parts[0])).toBe(true);
    harness.sandbox.injectFault({ kind: 'service-error', status: 503, endpoint: 'tts', times: Infinity });
    harness.sandbox.resumePaused();
    const failure = await handle.waitFor(
      (r) => r.kind !== 'delete' && r.content !== undefined && !/^(Speaking|Queued)/.test(r.content ?? ''),
      20_000,
    );
    // The service's own 503 for the rest, after the first part was paid: what was spent is said, not "nothing was
    // charged" (true of the part refused only).
    const words = t('en-US', 'error.paidPartWay.failing', { paid: parts[0]?.length ?? 0, status: 503 });
    expect(failure.content).toBe(words);
    await expect.poll(() => lines(from).some((l) => l.includes('"command failed"'))).toBe(true);
    const logged = lines(from);
    const failed = logged.find((l) => l.includes('"command failed"')) ?? '';
    // Named by the cause's code, with what was paid.
    expect(JSON.parse(failed)).toMatchObject({
      code: 'api-server-error',
      command: 'say',
      err: { paid: parts[0]?.length },
    });
    // Never the member's words.
    expect(logged.filter((l) => l.includes(words))).toEqual([]);
  });
});
