// A member's paid call is being written ahead (the store write held by the test) while another member's identical line
// waits for it, counted free (queued behind it); the first member stops, so its order gives back its budget hold. No
// budget may then be passed: the line is paid by the order still waiting for it, as a part it counted free and gone
// since (its budgets checked then), and the member who stopped pays nothing for a line sent only for another.
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { answerOf, spentShown, until } from '../support/books-shown.ts';
import { booksSettled } from '../support/books-settled.ts';
import { useHarnessPerTest } from '../support/file-harness.ts';
import { runCommand, type Harness } from '../support/harness.ts';
import { HOLD_DEADLINE, heldWriteAhead } from '../support/held-write-ahead.ts';
import { oneRoomGuild } from '../support/world.ts';

const GUILD = '200000000000000981';
const VC = '220000000000000981';
const [A, B, C] = ['300000000000009811', '300000000000009812', '300000000000009813'];
const VOICE = 'voice-b-en-f-01';
const TEXT = 'The very same line asked by two members at once.'; // 48 characters
const SIXTY = 'A third member asks for a line of its own, sixty characters.'.padEnd(60, 'x');
const THIRTEEN = 'Short and new'; // 13 characters
// Each line lasts its shortest: the held write-ahead is released well inside the store's deadline.
const SHORT_LINES = { secondsPerCharacter: 0.01 };
// The cache off (the joiner's line is fetched, not found); the held write-ahead outlives no store deadline.
const HELD = { CACHE_MAX_MB: '0', ...HOLD_DEADLINE };
const guilds = [
  oneRoomGuild(
    GUILD,
    'Window',
    { text: '210000000000000981', voice: VC },
    [A, B, C].map((id, i) => ({ id, username: `m${i}`, locale: 'en-US', voiceChannelId: VC })),
  ),
];
const harnessFor = useHarnessPerTest();
const say = (h: Harness, userId: string, text: string, output?: string) =>
  h.discord.command({
    guildId: GUILD,
    userId,
    name: 'say',
    options: [
      { name: 'text', value: text },
      { name: 'voice', value: VOICE },
      ...(output === undefined ? [] : [{ name: 'output', value: output }]),
    ],
  });
/** The guild's budget holds left in the store (the stop gave its back once there are none). */
function holds(h: Harness): number {
  const db = new DatabaseSync(h.databasePath, { readOnly: true });
  try {
    return Number(db.prepare('SELECT count(*) n FROM budget_holds WHERE guild_id = ?').get(GUILD)?.['n']);
  } finally {
    db.close();
  }
}
const memberSpent = async (h: Harness, userId: string) => {
  const { content } = await runCommand(h, { guildId: GUILD, userId, name: 'usage' });
  return Number(/You today: ([\d,]+) characters/.exec(content)?.[1]?.replace(/,/g, '') ?? 'NaN');
};

describe('the leader stops while its call is written ahead for a joiner', () => {
  for (const [budget, env, refused] of [
    ['the server month', { BUDGET_GUILD_MONTHLY_CHARS: '100' }, /monthly budget is 100 characters/],
    ['the bot month', { BUDGET_BOT_MONTHLY_CHARS: '100' }, /SayBot has reached the monthly limit/],
  ] as const)
    it(`${budget} of 100: another member's 60 accepted meanwhile, the joiner's line is not sent past it`, async () => {
      const gate = heldWriteAhead(TEXT.length);
      const config = { voiceIdleTimeoutMs: 60_000, maxCharsPerRequest: 60 };
      const h = await harnessFor({
        guilds,
        config,
        env: { ...HELD, ...env },
        wrapStore: gate.wrap,
        sandbox: SHORT_LINES,
      });
      const a = await say(h, A, TEXT);
      await gate.reached;
      const b = await say(h, B, TEXT);
      await b.waitFor((r) => /^Queued/.test(r.content ?? ''), 20_000);
      await runCommand(h, { guildId: GUILD, userId: A, name: 'stop' });
      await until(() => holds(h) === 0);
      const c = await say(h, C, SIXTY, 'file');
      await c.waitFor((r) => r.files.length > 0 || r.content !== undefined, 30_000);
      gate.release();
      const stopped = await answerOf(a, 30_000);
      expect(stopped).toMatch(/^Stopped/);
      expect(stopped).not.toMatch(/spent|counted/);
      expect(await answerOf(b, 30_000)).toMatch(refused);
      await booksSettled(h);
      expect(h.sandbox.charactersBilled()).toBe(SIXTY.length);
      expect(await spentShown(h, GUILD, A)).toBe(SIXTY.length);
      expect(await memberSpent(h, A)).toBe(0);
    });

  it("a member's day of 60: the member who stopped pays nothing for the joiner's line, the joiner hears it", async () => {
    const gate = heldWriteAhead(TEXT.length);
    const config = { voiceIdleTimeoutMs: 60_000, maxCharsPerRequest: 60 };
    const env = { ...HELD, BUDGET_MEMBER_DAILY_CHARS: '60' };
    const h = await harnessFor({ guilds, config, env, wrapStore: gate.wrap, sandbox: SHORT_LINES });
    const a = await say(h, A, TEXT);
    await gate.reached;
    const b = await say(h, B, TEXT);
    await b.waitFor((r) => /^Queued/.test(r.content ?? ''), 20_000);
    await runCommand(h, { guildId: GUILD, userId: A, name: 'stop' });
    await until(() => holds(h) === 0);
    const again = await say(h, A, THIRTEEN, 'file');
    await again.waitFor((r) => r.files.length > 0, 30_000);
    gate.release();
    const stopped = await answerOf(a, 30_000);
    expect(stopped).toMatch(/^Stopped/);
    expect(stopped).not.toMatch(/spent|counted/);
    expect(await answerOf(b, 30_000)).toMatch(/^Spoke/);
    await booksSettled(h);
    expect(h.sandbox.charactersBilled()).toBe(TEXT.length + THIRTEEN.length);
    expect(await memberSpent(h, A)).toBe(THIRTEEN.length);
    expect(await memberSpent(h, B)).toBe(TEXT.length);
  });
});
