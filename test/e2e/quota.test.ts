import { readdir, readFile, truncate } from 'node:fs/promises';
import path from 'node:path';
import { MessageFlags, PermissionFlagsBits } from 'discord.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { analyseClip } from '../../src/core/audio/analysis/clip.ts';
import { countCharacters } from '../../src/core/characters.ts';
import type { FakeGuildSpec, InteractionHandle } from '@saybot/local-discord/types.ts';
import { fixture } from '../core/audio/fixtures.ts';
import { useFileHarness } from '../support/file-harness.ts';
import { letMembersUse } from '../support/command-access.ts';
import { pitchOf, runCommand, sayAndHear } from '../support/harness.ts';
import { oneRoomGuild } from '../support/world.ts';

const GUILD = '200000000000000061';
const VOICE = '220000000000000061';
const ADMIN = '300000000000000600'; // Manage Server, in voice
const SPENDER = '300000000000000601'; // not in voice: files
const WAITER = '300000000000000602'; // not in voice: files
const HASTY = '300000000000000603'; // not in voice: files
const READER = '300000000000000604'; // not in voice: files; only the /usage test of one's own day
/** Ten members outside voice, for ten identical requests at once. */
const CROWD = Array.from({ length: 10 }, (_, i) => `30000000000000062${i}`);
const VOICE_ID = 'voice-b-en-f-01';

const guilds: FakeGuildSpec[] = [
  oneRoomGuild(GUILD, 'Quota', { text: '210000000000000061', voice: VOICE, voiceName: 'hall' }, [
    { id: ADMIN, username: 'admin', permissions: PermissionFlagsBits.ManageGuild, voiceChannelId: VOICE },
    { id: SPENDER, username: 'spender' },
    { id: WAITER, username: 'waiter' },
    { id: HASTY, username: 'hasty' },
    { id: READER, username: 'reader' },
    ...CROWD.map((id, i) => ({ id, username: `crowd${i}` })),
  ]),
];

// The operator allows a server at most 100,000 characters a month; servers may only go lower.
const h = useFileHarness({
  guilds,
  env: { BUDGET_GUILD_MONTHLY_CHARS: '100000' },
  config: { voiceIdleTimeoutMs: 60_000 },
});
// Each test starts from the operator's budgets alone, whatever the one before it set (tests run shuffled).
afterEach(async () => {
  await runCommand(h, {
    guildId: GUILD,
    userId: ADMIN,
    name: 'budget',
    options: { server_monthly_chars: 0, member_daily_chars: 0, cooldown_seconds: 0 },
  });
});

const ephemeral = (handle: InteractionHandle) =>
  ((handle.responses.at(-1)?.flags ?? 0) & MessageFlags.Ephemeral) === MessageFlags.Ephemeral;
/** Successful TTS requests for a text of this length since request number `since` (the sandbox keeps no texts). */
const ttsRequests = (text: string, since: number) =>
  h.sandbox.requests
    .slice(since)
    .filter((r) => r.endpoint === 'tts' && r.status === 200 && r.charactersBilled === countCharacters(text)).length;

function sayFile(userId: string, text: string, options: Record<string, string> = {}) {
  return runCommand(h, {
    guildId: GUILD,
    userId,
    name: 'say',
    options: { text, voice: VOICE_ID, output: 'file', ...options },
  });
}

const sayInVoice = (text: string) => sayAndHear(h, GUILD, ADMIN, { text, voice: VOICE_ID });

/** The figures /usage shows, read back from its text. */
async function usage(userId = ADMIN) {
  const { handle, content } = await runCommand(h, { guildId: GUILD, userId, name: 'usage' });
  expect(ephemeral(handle)).toBe(true);
  const num = (re: RegExp) => Number((re.exec(content)?.[1] ?? 'NaN').replace(/,/g, ''));
  return {
    content,
    guildSpent: num(/This server: ([\d,]+) characters spent/),
    guildSaved: num(/This server: [\d,]+ characters spent, ([\d,]+) saved/),
    botUsed: num(/Whole bot: ([\d,]+) of/),
    botLimit: num(/Whole bot: [\d,]+ of ([\d,]+) used/),
    botRemaining: num(/([\d,]+) left; SayBot/),
    botSent: num(/SayBot sent ([\d,]+)/),
    botSaved: num(/the cache saved ([\d,]+)/),
    memberToday: num(/You today: ([\d,]+) characters/),
  };
}

/** Every cache entry file under the harness's cache directory, by voice folder. */
async function cacheFiles(): Promise<Array<{ voice: string; file: string }>> {
  const out: Array<{ voice: string; file: string }> = [];
  for (const voice of await readdir(h.cacheDir).catch(() => [] as string[])) {
    for (const name of await readdir(path.join(h.cacheDir, voice)).catch(() => [] as string[])) {
      if (name.endsWith('.sbc')) out.push({ voice, file: path.join(h.cacheDir, voice, name) });
    }
  }
  return out;
}

describe('the audio cache', () => {
  it('serves a repeated /say with no request and no characters, and it sounds the same', async () => {
    const text = 'Say this twice.';
    const since = h.sandbox.requests.length;
    const first = await sayInVoice(text);
    const billed = h.sandbox.charactersBilled();
    const requests = h.sandbox.requests.length;
    expect(ttsRequests(text, since)).toBe(1);

    const second = await sayInVoice(text);
    expect(h.sandbox.charactersBilled()).toBe(billed);
    expect(h.sandbox.requests.length).toBe(requests);
    const expected = h.sandbox.expectedDurationSeconds(text);
    for (const heard of [first, second]) {
      expect(Math.abs((pitchOf(heard) ?? 0) - (h.sandbox.voicePitchHz(VOICE_ID) ?? 0))).toBeLessThan(4);
      expect(heard.seconds).toBeGreaterThan(expected - 0.1);
      expect(heard.seconds).toBeLessThan(expected + 0.15);
    }
    // The same request with other spacing is the same request.
    const { content } = await sayFile(SPENDER, '  Say   this\ntwice. ');
    expect(content).toMatch(/^Here is/);
    expect(h.sandbox.requests.length).toBe(requests);
  });

  it('sends ten identical requests made at once to the service once', async () => {
    const text = 'All of us at once.';
    const since = h.sandbox.requests.length;
    const billed = h.sandbox.charactersBilled();
    const results = await Promise.all(CROWD.map((userId) => sayFile(userId, text)));
    expect(ttsRequests(text, since)).toBe(1);
    expect(h.sandbox.charactersBilled() - billed).toBe(countCharacters(text));
    // Every one of them got the whole file.
    for (const { handle } of results) {
      const file = handle.responses.find((r) => r.files.length > 0)?.files[0];
      const info = await analyseClip(file?.data ?? Buffer.alloc(0));
      expect(Math.abs(info.durationSeconds - h.sandbox.expectedDurationSeconds(text))).toBeLessThan(0.1);
    }
  });

  it('survives a restart, and a damaged entry is ignored and fetched again', async () => {
    const text = 'Kept on disk.';
    await sayFile(SPENDER, text);
    // A restart lets the cache finish the writes under way.
    await h.restart();
    const before = (await cacheFiles()).map((f) => f.file);
    const requests = h.sandbox.requests.length;
    const again = await sayFile(SPENDER, text);
    expect(again.content).toMatch(/^Here is/);
    expect(h.sandbox.requests.length).toBe(requests);

    // Cut every entry short, as a crash in the middle of a write without the rename would leave it.
    for (const file of before) await truncate(file, 100);
    await h.restart();
    const refetched = await sayFile(SPENDER, text);
    expect(h.sandbox.requests.length).toBe(requests + 1);
    const file = refetched.handle.responses.find((r) => r.files.length > 0)?.files[0];
    expect(
      Math.abs(
        (await analyseClip(file?.data ?? Buffer.alloc(0))).durationSeconds - h.sandbox.expectedDurationSeconds(text),
      ),
    ).toBeLessThan(0.1);
    // The damaged file was replaced by a whole one (the other damaged ones wait until they are asked for).
    await h.restart();
    const sizes = await Promise.all(
      before.map(async (name) => (await readFile(name).catch(() => Buffer.alloc(0))).length),
    );
    expect(sizes.filter((size) => size > 100)).toHaveLength(1);
  });

  it("purges a cloned voice's entries when the voice is deleted, and only those", async () => {
    const clip = fixture('tone-220hz-5s-48k.wav');
    const cloned = await runCommand(h, {
      guildId: GUILD,
      userId: ADMIN,
      name: 'clone',
      options: { text: 'A new voice.', name: 'Temp', consent: true, output: 'file' },
      attachments: [{ option: 'audio', data: clip, filename: 'me.wav', contentType: 'audio/wav' }],
    });
    const id = /`(clone_[^`]+)`/.exec(cloned.content)?.[1] ?? '';
    expect(id).not.toBe('');
    await sayFile(ADMIN, 'Cloned and kept.', { voice: id });
    // The entry is written once the whole part is in (the reply may come a moment before).
    await vi.waitFor(async () => expect((await cacheFiles()).some((f) => f.voice === id)).toBe(true), {
      timeout: 5_000,
    });
    const others = (await cacheFiles()).filter((f) => f.voice !== id).length;

    const deleted = await runCommand(h, {
      guildId: GUILD,
      userId: ADMIN,
      name: 'voices',
      subcommand: 'delete',
      options: { voice: id },
    });
    expect(deleted.content).toContain('Deleted the voice "Temp"');
    expect((await cacheFiles()).some((f) => f.voice === id)).toBe(false);
    expect((await cacheFiles()).length).toBe(others);
  });
});

describe('budgets', () => {
  it('refuse a request over the daily budget before any API call, naming it and its reset; cached audio still plays', async () => {
    const set = await runCommand(h, {
      guildId: GUILD,
      userId: ADMIN,
      name: 'budget',
      options: { member_daily_chars: 20 },
    });
    expect(set.content).toMatch(/a member's daily characters: 20 \(this server; operator: no limit\)/);
    expect(ephemeral(set.handle)).toBe(true);

    const allowed = await sayFile(WAITER, 'Fifteen chars!!');
    expect(allowed.content).toMatch(/^Here is/);
    const requests = h.sandbox.requests.length;
    const billed = h.sandbox.charactersBilled();
    const refused = await sayFile(WAITER, 'Fifteen more!!!');
    expect(refused.content).toMatch(
      /Your daily budget in this server is 20 characters: you used 15 today and this needs 15\. It resets \d{4}-\d{2}-\d{2} 00:00 UTC\./,
    );
    expect(ephemeral(refused.handle)).toBe(true);
    expect(h.sandbox.requests.length).toBe(requests);
    expect(h.sandbox.charactersBilled()).toBe(billed);
    // Audio from the cache spends nothing, so no budget applies to it.
    expect((await sayFile(WAITER, 'Fifteen chars!!')).content).toMatch(/^Here is/);
    expect(h.sandbox.requests.length).toBe(requests);
  });

  it('refuse a second spending request within the cooldown', async () => {
    await runCommand(h, {
      guildId: GUILD,
      userId: ADMIN,
      name: 'budget',
      options: { cooldown_seconds: 3600, member_daily_chars: 0 },
    });
    expect((await sayFile(HASTY, 'First of two.')).content).toMatch(/^Here is/);
    const requests = h.sandbox.requests.length;
    const { handle, content } = await sayFile(HASTY, 'Second of two.');
    expect(content).toMatch(/Please wait \d+ s: in this server a member may spend characters once every 3600 s\./);
    expect(ephemeral(handle)).toBe(true);
    expect(h.sandbox.requests.length).toBe(requests);
    await runCommand(h, { guildId: GUILD, userId: ADMIN, name: 'budget', options: { cooldown_seconds: 0 } });
  });

  it("may be lowered by Manage Server, never raised above the operator's, and not set by others", async () => {
    const above = await runCommand(h, {
      guildId: GUILD,
      userId: ADMIN,
      name: 'budget',
      options: { server_monthly_chars: 200_000 },
    });
    expect(above.content).toBe(
      "For the server's monthly characters, this server can set at most 100,000: that is the operator's limit, and a server may only lower it.",
    );
    expect(ephemeral(above.handle)).toBe(true);
    const asked = {
      guildId: GUILD,
      userId: SPENDER,
      name: 'budget',
      options: { server_monthly_chars: 10 },
      locale: 'ko',
    };
    // Discord offers /budget only to Manage Server (its default member permissions) and sends nothing else.
    await expect(runCommand(h, asked)).rejects.toThrow(/ManageGuild/);
    // A server that lets a member see it (Integrations) still has SayBot refuse them.
    letMembersUse(h.discord, GUILD, 'budget', [SPENDER]);
    try {
      const member = await runCommand(h, asked);
      expect(member.content).toContain('서버 관리 권한이 필요합니다');
    } finally {
      letMembersUse(h.discord, GUILD, 'budget', []);
    }
    const lowered = await runCommand(h, {
      guildId: GUILD,
      userId: ADMIN,
      name: 'budget',
      options: { server_monthly_chars: 50_000 },
    });
    expect(lowered.content).toContain("the server's monthly characters: 50,000 (this server; operator: 100,000)");
  });

  it("refuse what would pass the server's monthly budget", async () => {
    const { guildSpent } = await usage();
    await runCommand(h, {
      guildId: GUILD,
      userId: ADMIN,
      name: 'budget',
      options: { server_monthly_chars: guildSpent + 5 },
    });
    const requests = h.sandbox.requests.length;
    const { content } = await sayFile(SPENDER, 'Over the month.', {});
    expect(content).toMatch(
      new RegExp(
        `This server's monthly budget is ${guildSpent + 5} characters: ${guildSpent} are used and this needs 15\\. It resets \\d{4}-\\d{2}-01\\.`,
      ),
    );
    expect(h.sandbox.requests.length).toBe(requests);
    await runCommand(h, { guildId: GUILD, userId: ADMIN, name: 'budget', options: { server_monthly_chars: 0 } });
  });
});

describe('/usage', () => {
  it("equals the sandbox's own counters, and counts what the cache saved", async () => {
    // This test's own spend and saving: one new text fetched, then served twice from the cache.
    const text = 'Counted by both sides.';
    const before = await usage();
    const entries = (await cacheFiles()).length;
    expect((await sayFile(SPENDER, text)).content).toMatch(/^Here is/);
    // The entry is written once the whole part is in (the reply may come a moment before): then the repeats hit it.
    await vi.waitFor(async () => expect((await cacheFiles()).length).toBeGreaterThan(entries), { timeout: 30_000 });
    expect((await sayFile(CROWD[0] ?? '', text)).content).toMatch(/^Here is/);
    expect((await sayFile(CROWD[1] ?? '', text)).content).toMatch(/^Here is/);
    const billed = h.sandbox.charactersBilled();
    expect(billed).toBeGreaterThanOrEqual(countCharacters(text));
    const u = await usage();
    // Every character this bot spent was spent in this one server, so the totals agree whatever ran before.
    expect(u.guildSpent).toBe(billed);
    expect(u.botSent).toBe(billed);
    // The service's own count (X-RateLimit-Used) of a key that started the month at 0.
    expect(u.botUsed).toBe(billed);
    expect(u.content).toMatch(/\(the service's count as of \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC\)/);
    expect(u.botLimit).toBe(300_000);
    expect(u.botRemaining).toBe(300_000 - billed);
    expect(u.guildSpent - before.guildSpent).toBe(countCharacters(text));
    expect(u.guildSaved - before.guildSaved).toBe(2 * countCharacters(text));
    expect(u.botSaved - before.botSaved).toBe(2 * countCharacters(text));
    expect(u.content).toMatch(/\(resets \d{4}-\d{2}-01\)/);
  });

  it("shows the caller's own day against their budget, in their language, mentioning no one", async () => {
    await runCommand(h, { guildId: GUILD, userId: ADMIN, name: 'budget', options: { member_daily_chars: 1000 } });
    // READER's only spend today, 15 characters (a text no other test sends, so not a cache hit).
    expect((await sayFile(READER, 'Reader spends!!')).content).toMatch(/^Here is/);
    const { handle, content } = await runCommand(h, { guildId: GUILD, userId: READER, name: 'usage', locale: 'ja' });
    expect(content).toContain('今日のあなた: 15 文字; 1 日の予算 1,000 文字、残り 985 文字');
    expect(ephemeral(handle)).toBe(true);
    for (const r of handle.responses) expect(r.mentioned).toEqual({ users: [], roles: [], everyone: false });
  });
});
