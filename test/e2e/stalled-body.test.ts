// A reply in voice whose Voice API body goes quiet after its first bytes (answered 200, so charged; then the socket
// stays open and sends nothing) is not told as spoken: the sender ends the clip once nothing came for
// MAX_MISSED_FRAMES slots (15 s), as if its audio had ended, and that end must not read "Spoke 0.1 s". The member is
// told the audio broke off after its characters were counted, with the figure /usage shows. The client's own body
// timeout is set far beyond the sender's, so that the clip's end is always what meets the stall first (with the
// default 15 s each, which came first was a race: issue 68's outside check).
import { describe, expect, it } from 'vitest';
import { useFileHarness } from '../support/file-harness.ts';
import { answerOf, spentShown } from '../support/books-shown.ts';
import { booksSettled } from '../support/books-settled.ts';
import { oneRoomGuild } from '../support/world.ts';
import { t } from '../../src/core/i18n/catalogue.ts';

const GUILD = '200000000000000098';
const VOICE = '220000000000000098';
const SPEAKER = '300000000000000981';

const h = useFileHarness({
  guilds: [
    oneRoomGuild(GUILD, 'Stalled', { text: '210000000000000098', voice: VOICE }, [
      { id: SPEAKER, username: 'speaker', voiceChannelId: VOICE, locale: 'en-US' },
    ]),
  ],
  clientTimeouts: { bodyIdleMs: 120_000 },
});

let serial = 0;
async function say(text: string) {
  const handle = await h.discord.command({
    guildId: GUILD,
    userId: SPEAKER,
    name: 'say',
    locale: 'en-US',
    options: [{ name: 'text', value: text }],
  });
  // Past the voice output's 15 s wait for audio that stopped coming.
  return answerOf(handle, 60_000);
}

describe('a Voice API body that stalls after its first bytes, in voice', () => {
  it('is told as audio that broke off after its characters were counted, never as spoken', async () => {
    // A reply spoken before on the same connection, as in the outside check.
    expect(await say(`A clean reply first, number ${++serial}.`)).toMatch(/^Spoke /);
    await booksSettled(h);
    const spentBefore = await spentShown(h, GUILD, SPEAKER);
    const logsFrom = h.logs().length;
    const before = h.sandbox.requests.length;
    h.sandbox.injectFault({ kind: 'stall-after', bytes: 3_000, endpoint: 'tts' });
    const content = await say(`A second reply ${++serial}, whose body goes quiet at the service after a few words.`);
    const made = h.sandbox.requests.slice(before);
    expect(made.map((r) => [r.status, r.outcome])).toEqual([[200, 'stalled']]);
    const paid = made[0]?.charactersBilled ?? 0;
    expect(paid).toBeGreaterThan(0);
    expect(content).toBe(t('en-US', 'error.api.undelivered.paid', { paid }));
    // What the service billed, as /usage shows it (the body itself is let go of only at the client's own timeout).
    expect((await spentShown(h, GUILD, SPEAKER)) - spentBefore).toBe(paid);
    // Its failure is logged once, by its code.
    const failed = h
      .logs()
      .slice(logsFrom)
      .split('\n')
      .filter((line) => line.includes('"command failed"'));
    expect(failed).toHaveLength(1);
    expect(JSON.parse(failed[0] ?? '{}')).toMatchObject({ code: 'audio-stalled', command: 'say' });
  }, 120_000);
});
