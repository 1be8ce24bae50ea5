// A spend the store cannot write (disk full, read-only file) stops further spending with a clear private message
// and an operator error line, until writes succeed again; nothing is sent that is not on the books, nothing the
// service billed is lost.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/core/store/types.ts';
import type { FakeGuildSpec } from '@saybot/local-discord/types.ts';
import { runCommand, startHarness, type Harness } from '../support/harness.ts';
import { withFailingSpendWrites } from '../core/store/failing-store.ts';
import { oneRoomGuild } from '../support/world.ts';

const GUILD = '200000000000000099';
const MEMBER = '300000000000000991';
const VOICE_ID = 'voice-b-ko-f-01';

const guilds: FakeGuildSpec[] = [
  oneRoomGuild(GUILD, 'Full disk', { text: '210000000000000099', voice: '220000000000000099' }, [
    { id: MEMBER, username: 'member', locale: 'en-US' },
  ]),
];

/** Whether the store refuses writes of spends now, as a full disk would; with `landing`, writes them and then loses
 * the answer, as a network database whose connection dropped after its COMMIT does. */
let failWrites = false;
let landing = false;
const failingWrites = (store: Store): Store =>
  withFailingSpendWrites(
    store,
    () => failWrites,
    ['record'],
    () => landing,
  );

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ guilds, wrapStore: failingWrites });
});
afterEach(() => {
  failWrites = false;
  landing = false;
});
afterAll(async () => {
  await h?.close();
});

const sayFile = (text: string) =>
  runCommand(h, { guildId: GUILD, userId: MEMBER, name: 'say', options: { text, voice: VOICE_ID, output: 'file' } });
const usage = async (figure: RegExp) =>
  Number(
    figure
      .exec((await runCommand(h, { guildId: GUILD, userId: MEMBER, name: 'usage' })).content)?.[1]
      ?.replace(/,/g, '') ?? 'NaN',
  );
const spentShown = () => usage(/This server: ([\d,]+) characters spent/);

describe('a spend that cannot be recorded', () => {
  it('stops spending with a clear message until the store takes writes again; every billed character is then counted', async () => {
    expect((await sayFile('Cached while the disk had room.')).content).toMatch(/^Here is/);

    failWrites = true;
    // A paid request is written down before its first byte leaves: with the disk full it is not sent at all, and the
    // member is told why; the operator gets the error line.
    const before = h.sandbox.requests.length;
    const unsent = await sayFile('The disk fills up now.');
    expect(unsent.content).toContain('I cannot write down what the voice service bills right now');
    expect(h.sandbox.requests.length).toBe(before);
    expect(h.logs()).toContain('"code":"spend-not-recorded"');
    // Cached audio spends nothing, so it is still served; its saving waits in memory for the store.
    expect((await sayFile('Cached while the disk had room.')).content).toMatch(/^Here is/);
    expect(h.sandbox.requests.length).toBe(before);
    // While something waits to be written, a request that would spend is refused at its check.
    const refused = await sayFile('Anything new to say.');
    expect(refused.content).toContain('I cannot write down what the voice service bills right now');
    expect(h.sandbox.requests.length).toBe(before);
    expect(h.logs()).toContain('"code":"quota.recordFailed"');

    failWrites = false;
    const again = await sayFile('Room on the disk again.');
    expect(again.content).toMatch(/^Here is/);
    expect(h.logs()).toContain('"code":"spends-recorded-again"');
    // Nothing lost: the server's spent characters are exactly what the service billed.
    expect(await spentShown()).toBe(h.sandbox.charactersBilled());
  });

  it('a write ahead that lands but whose answer is lost: not sent, taken back before the member is told, counted nowhere', async () => {
    const [billed, today] = [h.sandbox.charactersBilled(), await usage(/You today: ([\d,]+) character/)];
    failWrites = true;
    landing = true;
    const before = h.sandbox.requests.length;
    const unsent = await sayFile('Written down, and then the answer was lost.');
    expect(unsent.content).toContain('I cannot write down what the voice service bills right now');
    expect(h.sandbox.requests.length).toBe(before);
    // Nothing left that went nowhere: the server's month and the member's day count only what was billed.
    expect(await spentShown()).toBe(billed);
    expect(await usage(/You today: ([\d,]+) character/)).toBe(today);
    failWrites = false;
    landing = false;
    expect((await sayFile('The store answers again.')).content).toMatch(/^Here is/);
    expect(await spentShown()).toBe(h.sandbox.charactersBilled());
  });
});
