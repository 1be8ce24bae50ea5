// The owner decides where the key is spent, end to end against the local Discord: with ALLOWED_GUILDS, SayBot serves
// nothing in a server off the list, a user install in such a server included; it leaves one it is added to while
// running, but one it is in at start-up only with ALLOWED_GUILDS_LEAVE=1 (a mistyped list must not make it leave the
// owner's servers); BUDGET_BOT_MONTHLY_CHARS holds the whole bot's month across servers; and a Public Bot without a
// list is one warning line at start-up.
import { MessageFlags } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FakeGuildSpec, InteractionHandle } from '@saybot/local-discord/types.ts';
import { t } from '../../src/core/i18n/catalogue.ts';
import { openSqliteStore } from '../../src/app/store.ts';
import { countCharacters } from '../../src/core/characters.ts';
import { runCommand, startHarness, type Harness } from '../support/harness.ts';
import { postChat } from '../support/chat.ts';

const ANN = '300000000000000321';
const BEN = '300000000000000322';
const OLGA = '300000000000000323';
const ADA = '300000000000000324';
const guild = (n: number, member: string): FakeGuildSpec => ({
  id: `20000000000000032${n}`,
  name: `Server ${n}`,
  textChannelId: `21000000000000032${n}`,
  voiceChannels: [{ id: `22000000000000032${n}`, name: 'voice' }],
  members: [{ id: member, username: `member${n}` }],
});
const ALLOWED_A = guild(1, ANN);
const ALLOWED_B = guild(2, BEN);
/** SayBot is in it at start-up, but the owner did not list it. */
const OTHER = guild(3, OLGA);
/** Someone adds SayBot to it while it runs. */
const ADDED = guild(4, ADA);
/** A server SayBot is not in, where a member uses the user-installed app. */
const FOREIGN = '200000000000000325';
const BOT_MONTH = 40;

const ephemeral = (handle: InteractionHandle) =>
  ((handle.responses.at(-1)?.flags ?? 0) & MessageFlags.Ephemeral) === MessageFlags.Ephemeral;

describe('ALLOWED_GUILDS and the bot-wide budget', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      guilds: [ALLOWED_A, ALLOWED_B, OTHER],
      // Public, but with a list: nothing to warn about.
      discord: { botPublic: true },
      env: {
        ALLOWED_GUILDS: `${ALLOWED_A.id},${ALLOWED_B.id}`,
        BUDGET_BOT_MONTHLY_CHARS: String(BOT_MONTH),
        USER_INSTALL: 'everyone',
      },
    });
  });
  afterAll(async () => {
    await h?.close();
  });

  const left = (guildId: string) =>
    h.discord.restLog.filter(
      (e) => e.method === 'DELETE' && decodeURIComponent(e.path).endsWith(`/users/@me/guilds/${guildId}`),
    );
  const leftLines = (guildId: string) =>
    h
      .logs()
      .split('\n')
      .filter((l) => l.includes('"code":"guild-not-allowed-left"') && l.includes(guildId));

  it('leaves no server it is in at start-up without ALLOWED_GUILDS_LEAVE: one warning naming those off the list, none of them served', async () => {
    const kept = () =>
      h
        .logs()
        .split('\n')
        .filter((l) => l.includes('"code":"guild-not-allowed-kept"'));
    await vi.waitFor(() => expect(kept()).toHaveLength(1), { timeout: 10_000 });
    const line = JSON.parse(kept()[0] ?? '{}') as { level: number; msg: string; guilds: unknown };
    expect(line.level).toBe(40);
    expect(line.guilds).toEqual([{ id: OTHER.id, name: OTHER.name }]);
    expect(line.msg).toMatch(/ALLOWED_GUILDS_LEAVE=1/);
    // Only the servers it was in at start-up: another test here adds one while running, which is left.
    expect([ALLOWED_A, ALLOWED_B, OTHER].flatMap((g) => left(g.id))).toEqual([]);
    expect([...h.bot.client.guilds.cache.keys()].sort()).toEqual([ALLOWED_A.id, ALLOWED_B.id, OTHER.id]);
    expect(h.logs()).not.toContain('"code":"public-bot"');
    // Still in it, and still serving nothing there.
    const from = h.sandbox.requests.length;
    const say = await runCommand(h, { guildId: OTHER.id, userId: OLGA, name: 'say', options: { text: 'Hello?' } });
    expect(say.content).toBe(t('en-US', 'error.guildNotAllowed'));
    expect(ephemeral(say.handle)).toBe(true);
    expect(h.sandbox.requests.length).toBe(from);
  });

  it('leaves a server it is added to while running, and refuses its /say privately with nothing paid', async () => {
    const from = h.sandbox.requests.length;
    h.discord.addGuild(ADDED);
    // Sent right behind GUILD_CREATE, while SayBot is still in the server.
    const handle = await h.discord.command({
      guildId: ADDED.id,
      userId: ADA,
      name: 'say',
      locale: 'ja',
      options: [{ name: 'text', value: "Spend the owner's month." }],
    });
    const reply = await handle.waitFor((r) => r.content !== undefined, 10_000);
    expect(reply.content).toBe(t('ja', 'error.guildNotAllowed'));
    expect(ephemeral(handle)).toBe(true);
    await vi.waitFor(() => expect(leftLines(ADDED.id)).toHaveLength(1), { timeout: 10_000 });
    expect(leftLines(ADDED.id)[0]).toContain('"when":"added"');
    expect(left(ADDED.id).map((e) => e.status)).toEqual([204]);
    expect(h.bot.client.guilds.cache.has(ADDED.id)).toBe(false);
    expect(h.sandbox.requests.length).toBe(from);
  });

  it('refuses the user-installed app in a server off the list, and still answers in a DM (USER_INSTALL decides there)', async () => {
    const from = h.sandbox.requests.length;
    const foreign = await h.discord.privateCommand({
      userId: ANN,
      name: 'say',
      context: 0,
      guild: { id: FOREIGN, memberPermissions: 0xffffn, everyonePermissions: 0xffffn },
      options: [{ name: 'text', value: 'From a server the owner never chose.' }],
    });
    expect((await foreign.waitForFinal(10_000)).content).toBe(t('en-US', 'error.guildNotAllowed'));
    expect(ephemeral(foreign)).toBe(true);
    expect(h.sandbox.requests.length).toBe(from);
    const dm = await h.discord.privateCommand({ userId: ANN, name: 'usage', context: 1 });
    expect((await dm.waitForFinal(10_000)).content).toContain(t('en-US', 'usage.outside.where'));
  });

  it('holds the whole bot to BUDGET_BOT_MONTHLY_CHARS across two servers, refusing privately before paying', async () => {
    const first = 'Thirty characters from one...';
    const second = 'Twenty from another.';
    expect(countCharacters(first)).toBeLessThanOrEqual(BOT_MONTH);
    expect(countCharacters(first) + countCharacters(second)).toBeGreaterThan(BOT_MONTH);
    const from = h.sandbox.requests.length;
    const spent = await runCommand(h, {
      guildId: ALLOWED_A.id,
      userId: ANN,
      name: 'say',
      options: { text: first, output: 'file' },
    });
    await spent.handle.waitFor((r) => r.files.length > 0, 60_000);
    // Another server, with no server or member budget of its own: the bot's month is what is full.
    const refused = await runCommand(h, {
      guildId: ALLOWED_B.id,
      userId: BEN,
      name: 'say',
      locale: 'ko',
      options: { text: second, output: 'file' },
    });
    expect(refused.content).toMatch(
      new RegExp(
        `^${t('ko', 'budget.refused.botMonth', { reset: 'RESET' }).replace('RESET', '\\d{4}-\\d{2}-01').replace(/[.()]/g, '\\$&')}$`,
      ),
    );
    expect(ephemeral(refused.handle)).toBe(true);
    expect(h.sandbox.requests.slice(from).filter((r) => r.endpoint === 'tts')).toHaveLength(1);
    expect(h.sandbox.charactersBilled()).toBe(countCharacters(first));
  });
});

describe('ALLOWED_GUILDS_LEAVE=1', () => {
  let h: Harness;
  afterAll(async () => {
    await h?.close();
  });

  it('leaves a server off the list that it is in at start-up, with one log line, and stays in the listed ones', async () => {
    h = await startHarness({
      guilds: [ALLOWED_A, ALLOWED_B, OTHER],
      env: { ALLOWED_GUILDS: `${ALLOWED_A.id},${ALLOWED_B.id}`, ALLOWED_GUILDS_LEAVE: '1' },
    });
    const leftLines = () =>
      h
        .logs()
        .split('\n')
        .filter((l) => l.includes('"code":"guild-not-allowed-left"') && l.includes(OTHER.id));
    await vi.waitFor(() => expect(leftLines()).toHaveLength(1), { timeout: 10_000 });
    expect(leftLines()[0]).toContain('"when":"ready"');
    const deletes = h.discord.restLog.filter((e) => e.method === 'DELETE' && e.path.includes('/users/@me/guilds/'));
    expect(deletes.map((e) => [decodeURIComponent(e.path).split('/').at(-1), e.status])).toEqual([[OTHER.id, 204]]);
    expect([...h.bot.client.guilds.cache.keys()].sort()).toEqual([ALLOWED_A.id, ALLOWED_B.id]);
    expect(h.logs()).not.toContain('"code":"guild-not-allowed-kept"');
  });
});

describe('a server off the list that SayBot cannot leave', () => {
  /** A member in voice there, so an auto-read binding kept from before the list would be resumed at start-up. */
  const KEPT: FakeGuildSpec = {
    ...guild(6, OLGA),
    members: [{ id: OLGA, username: 'olga', voiceChannelId: '220000000000000326' }],
  };
  let h: Harness;
  afterAll(async () => {
    h?.discord.clearRefusals();
    await h?.close();
  });

  it('is never served meanwhile: its auto-read binding is not resumed and its commands are refused, nothing paid', async () => {
    h = await startHarness({
      guilds: [ALLOWED_A, KEPT],
      env: { ALLOWED_GUILDS: ALLOWED_A.id, ALLOWED_GUILDS_LEAVE: '1' },
    });
    await vi.waitFor(() => expect(h.bot.client.guilds.cache.has(KEPT.id)).toBe(false), { timeout: 10_000 });
    // Reading there from before the list; Discord now does not take the leave; SayBot is added back and restarted.
    const store = openSqliteStore(h.databasePath);
    await store.autoRead.start(KEPT.id, {
      textChannelId: KEPT.textChannelId,
      voiceChannelId: '220000000000000326',
      startedBy: OLGA,
    });
    await store.close();
    h.discord.refuse({ route: 'leave-guild', status: 403, code: 50001, message: 'Missing Access', times: 10 });
    h.discord.addBotBack(KEPT.id);
    await h.restart();
    // The new start's READY: one failed leave (the running bot's GUILD_CREATE may or may not have been seen before it
    // stopped).
    const failedAtReady = () =>
      h
        .logs()
        .split('\n')
        .filter((l) => l.includes('"code":"guild-not-allowed-leave-failed"') && l.includes('"when":"ready"'));
    await vi.waitFor(() => expect(failedAtReady()).toHaveLength(1), { timeout: 10_000 });
    expect(h.bot.client.guilds.cache.has(KEPT.id)).toBe(true);
    expect(h.bot.isReading(KEPT.id)).toBe(false);
    expect(h.discord.botVoiceChannel(KEPT.id)).toBeNull();
    expect(h.logs()).toMatch(new RegExp(`"code":"autoread-not-resumed"[^\\n]*"guildId":"${KEPT.id}"`));

    const from = h.sandbox.requests.length;
    expect(
      await postChat(
        h,
        { guildId: KEPT.id, channelId: KEPT.textChannelId },
        { id: OLGA, username: 'olga' },
        'Read me aloud.',
        {
          id: '900000000000000326',
        },
      ),
    ).toBe(true);
    const say = await h.discord.command({
      guildId: KEPT.id,
      userId: OLGA,
      name: 'say',
      options: [{ name: 'text', value: 'Still here?' }],
    });
    expect((await say.waitFor((r) => r.content !== undefined, 10_000)).content).toBe(
      t('en-US', 'error.guildNotAllowed'),
    );
    expect(h.sandbox.requests.length).toBe(from);
  });
});

describe('a Public Bot without ALLOWED_GUILDS', () => {
  let h: Harness;
  afterAll(async () => {
    await h?.close();
  });

  it('is one warning line at start-up naming both fixes', async () => {
    h = await startHarness({ guilds: [ALLOWED_A], discord: { botPublic: true } });
    const lines = h
      .logs()
      .split('\n')
      .filter((l) => l.includes('"code":"public-bot"'));
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0] ?? '{}') as { level: number; msg: string };
    expect(line.level).toBe(40);
    expect(line.msg).toMatch(/Public Bot.*ALLOWED_GUILDS/);
    expect(line.msg).toContain('Developer Portal');
    // Warned, not refused: it still serves the server it is in.
    expect(h.bot.client.guilds.cache.has(ALLOWED_A.id)).toBe(true);
  });
});
