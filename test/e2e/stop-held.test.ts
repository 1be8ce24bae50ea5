// /stop while a /say's paid request waits at the service, not yet charged: SayBot closes it, so the service (which
// bills at its answer) bills nothing for it; nothing is heard; the books keep what was written ahead (it may have
// been charged an instant before the close: the documented over-count, never under); the member is not told
// "nothing was spent".
import { describe, expect, it } from 'vitest';
import { t } from '../../src/core/i18n/catalogue.ts';
import { countCharacters } from '../../src/core/characters.ts';
import { booksSettled } from '../support/books-settled.ts';
import { spentShown as spentShownTo, until } from '../support/books-shown.ts';
import { useHarnessPerTest } from '../support/file-harness.ts';
import { defaultGuilds, runCommand, type Harness } from '../support/harness.ts';
import { ALICE } from '../support/world.ts';

const [, london] = defaultGuilds() as [unknown, ReturnType<typeof defaultGuilds>[0]];
const GUILD = london.id;
const TEXT =
  'The first sentence waits at the service when the stop comes. The second one is never asked for. Nor the third.';

const harnessFor = useHarnessPerTest();
const tts = (h: Harness) => h.sandbox.requests.filter((r) => r.endpoint === 'tts');

const spentShown = (h: Harness) => spentShownTo(h, GUILD, ALICE);

describe('/stop while a paid request waits at the service, uncharged', () => {
  it('closes it: billed nothing for it, nothing heard, nothing asked for after, /usage keeps it as may have been charged', async () => {
    const h = await harnessFor({ config: { voiceIdleTimeoutMs: 60_000, maxCharsPerRequest: 60 } });
    // In voice already, so that the order's clip is the one playing (opening) when its first part is held.
    expect((await runCommand(h, { guildId: GUILD, userId: ALICE, name: 'join' })).content).toMatch(/^Joined/);
    h.sandbox.injectFault({ kind: 'hold-before-charge', endpoint: 'tts' });
    h.discord.clearAudio(GUILD);
    const said = await h.discord.command({
      guildId: GUILD,
      userId: ALICE,
      name: 'say',
      options: [{ name: 'text', value: TEXT }],
    });
    await until(() => tts(h)[0]?.outcome === 'waiting');
    const held = tts(h)[0];
    const stopped = await runCommand(h, { guildId: GUILD, userId: ALICE, name: 'stop' });
    expect(stopped.content).toMatch(/^Stopped/);
    const answer = await said.waitFor((r) => (r.content ?? '').startsWith('Stopped'), 60_000);
    // SayBot closed the connection while the request waited, before the service charged it.
    await until(() => held?.outcome === 'client-aborted');
    h.sandbox.resumePaused();
    await booksSettled(h);
    expect(held?.charactersBilled).toBe(0);
    expect(h.sandbox.charactersBilled()).toBe(0);
    expect(tts(h)).toHaveLength(1);
    expect(h.discord.heardPackets(GUILD).filter((packet) => !packet.silence)).toEqual([]);
    // The books keep what was written ahead: the service could have charged it an instant before the close. Above
    // what it billed by that request's characters, never below.
    expect(await spentShown(h)).toBe(h.sandbox.charactersBilled() + countCharacters(held?.text ?? ''));
    // The member is told it stopped, never that nothing was spent.
    expect(answer.content).not.toMatch(/nothing (was )?(spent|charged)|not charged/i);
    // It was sent, and may have been charged: it counts, as /usage shows.
    expect(answer.content).toContain(t('en-US', 'say.stoppedSpent'));
  });

  it('stopped while it plays: told that what was asked of the service counts, as /usage shows', async () => {
    const h = await harnessFor({ config: { voiceIdleTimeoutMs: 60_000, maxCharsPerRequest: 60 } });
    expect((await runCommand(h, { guildId: GUILD, userId: ALICE, name: 'join' })).content).toMatch(/^Joined/);
    h.discord.clearAudio(GUILD);
    const said = await h.discord.command({
      guildId: GUILD,
      userId: ALICE,
      name: 'say',
      options: [{ name: 'text', value: TEXT }],
    });
    await until(() => h.discord.heardPackets(GUILD).some((packet) => !packet.silence));
    expect((await runCommand(h, { guildId: GUILD, userId: ALICE, name: 'stop' })).content).toMatch(/^Stopped/);
    const answer = await said.waitFor((r) => (r.content ?? '').startsWith('Stopped'), 60_000);
    await booksSettled(h);
    const paid = h.sandbox.charactersBilled();
    expect(paid).toBeGreaterThan(0);
    expect(answer.content).toContain(t('en-US', 'say.stoppedSpent'));
    // The books hold what the service billed, and a next part closed unanswered as maybe spent (never less).
    expect(await spentShown(h)).toBeGreaterThanOrEqual(paid);
    expect(await spentShown(h)).toBeLessThanOrEqual(countCharacters(TEXT));
  });
});
