// Never paid twice, end to end: the real bot, the local Discord and the sandbox, which bills at
// acceptance. A 2xx whose body breaks is sent once, recorded once as spent and undelivered, and the member is told
// in their language; a clone whose audio breaks keeps its voice instead of cloning (and paying) again.
import { readdirSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { PermissionFlagsBits } from 'discord.js';
import { PLAN_LIMITS } from '@saybot/voice-sandbox';
import { describe, expect, it } from 'vitest';
import { t } from '../../src/core/i18n/catalogue.ts';
import { echoCode } from '../../src/core/interactions/safe-text.ts';
import type { FakeGuildSpec } from '@saybot/local-discord/types.ts';
import { useFileHarness } from '../support/file-harness.ts';
import { runCommand } from '../support/harness.ts';
import { fixture } from '../core/audio/fixtures.ts';
import { oneRoomGuild } from '../support/world.ts';

const GUILD = '200000000000000023';
const ADMIN = '300000000000000231'; // Manage Server, Korean client
const MEMBER = '300000000000000232'; // Japanese client
const LISTENER = '300000000000000233'; // in voice, English client

const guilds: FakeGuildSpec[] = [
  oneRoomGuild(GUILD, 'Ledger', { text: '210000000000000231', voice: '220000000000000231' }, [
    { id: ADMIN, username: 'admin', permissions: PermissionFlagsBits.ManageGuild, locale: 'ko' },
    { id: MEMBER, username: 'member', locale: 'ja' },
    { id: LISTENER, username: 'listener', locale: 'en-US', voiceChannelId: '220000000000000231' },
  ]),
];

const h = useFileHarness({ guilds });

/** Rows the bot wrote, read from its own SQLite file. */
function rows<T>(sql: string): T[] {
  const db = new DatabaseSync(h.databasePath, { readOnly: true });
  try {
    return db.prepare(sql).all() as T[];
  } finally {
    db.close();
  }
}
const spends = () =>
  rows<{ endpoint: string; characters: number; cached: number; undelivered: number; request_id: string | null }>(
    'SELECT endpoint, characters, cached, undelivered, request_id FROM spends ORDER BY id',
  ).map((r) => ({ ...r }));

/** The undelivered marks of the spends written after the first `count`, in order. */
const undeliveredSince = (count: number) =>
  spends()
    .slice(count)
    .map((row) => row.undelivered);

/** A proxy that lets the request through (the service bills it), then answers `status` with a JSON error of its own
 * and the service's headers forwarded. */
function proxyAfterCharge(status: number): void {
  h.sandbox.injectFault({
    kind: 'gateway-after-charge',
    status,
    body: '{"error":{"code":"internal_error","message":"Upstream unavailable"}}',
    contentType: 'application/json',
    serviceHeaders: true,
    endpoint: 'tts',
  });
}

describe('a 2xx whose body breaks before its audio', () => {
  it('/say: one request, recorded once as spent and undelivered, the member told in Japanese, one log line', async () => {
    const before = h.sandbox.requests.length;
    const spentBefore = spends().length;
    h.sandbox.injectFault({ kind: 'reset-after', bytes: 100, endpoint: 'tts' });
    const text = 'A line the service charged and never delivered.';
    const { handle, content } = await runCommand(h, {
      guildId: GUILD,
      userId: MEMBER,
      name: 'say',
      locale: 'ja',
      options: { text, voice: 'voice-b-en-f-01', output: 'file' },
    });
    expect(handle.responses.some((r) => r.files.length > 0)).toBe(false);
    const requests = h.sandbox.requests.slice(before).filter((r) => r.endpoint === 'tts');
    expect(content).toBe(t('ja', 'error.api.undelivered.paid', { paid: requests[0]?.charactersBilled ?? NaN }));
    expect(requests).toHaveLength(1);
    // Written once when the service accepted it, then settled as undelivered (no second row).
    await expect.poll(() => undeliveredSince(spentBefore)).toEqual([1]);
    expect(spends().at(-1)).toEqual({
      endpoint: 'tts',
      characters: requests[0]?.charactersBilled,
      cached: 0,
      undelivered: 1,
      request_id: requests[0]?.id,
    });
    expect(
      h
        .logs()
        .split('\n')
        .filter((l) => l.includes('"code":"api-undelivered"') && l.includes(requests[0]?.id ?? '?')).length,
    ).toBeGreaterThanOrEqual(1);
  });

  it('/clone: the voice the service made is kept, paid once, the member told in Korean; no second clone, no second line', async () => {
    const before = h.sandbox.requests.length;
    // Only this test's spends: another test of this file may have made a clone before it (the order is shuffled).
    const spentBefore = spends().length;
    h.sandbox.injectFault({ kind: 'reset-after', bytes: 200, endpoint: 'voice-clone' });
    const { content } = await runCommand(h, {
      guildId: GUILD,
      userId: ADMIN,
      name: 'clone',
      locale: 'ko',
      options: { text: 'Hello, this is me.', name: 'Kept', consent: true, output: 'file' },
      attachments: [
        { option: 'audio', data: fixture('tone-220hz-5s-48k.wav'), filename: 'me.wav', contentType: 'audio/wav' },
      ],
    });
    const calls = h.sandbox.requests.slice(before).filter((r) => r.endpoint !== undefined);
    expect(calls.map((r) => r.endpoint)).toEqual(['voice-clone']);
    const voiceId = calls[0]?.clonedVoiceId ?? '?';
    expect(content).toBe(t('ko', 'clone.audioLost', { name: 'Kept', id: `\`${voiceId}\`` }));
    expect(
      rows<{ name: string }>(`SELECT name FROM voice_library WHERE voice_id = '${voiceId}'`).map((r) => r.name),
    ).toEqual(['Kept']);
    const ours = () =>
      spends()
        .slice(spentBefore)
        .filter((s) => s.endpoint === 'voice-clone');
    await expect.poll(() => ours().length).toBe(1);
    expect(ours()).toEqual([
      {
        endpoint: 'voice-clone',
        characters: calls[0]?.charactersBilled,
        cached: 0,
        undelivered: 0,
        request_id: calls[0]?.id,
      },
    ]);
  });
});

/** What /usage shows as this server's characters spent this month. */
async function spentShownByUsage(): Promise<number> {
  const { content } = await runCommand(h, { guildId: GUILD, userId: ADMIN, name: 'usage', locale: 'en-US' });
  const figure = /This server: ([\d,]+) characters spent/.exec(content)?.[1] ?? expect.fail(`no figure in: ${content}`);
  return Number(figure.replace(/,/g, ''));
}

let heardSerial = 0;
/** A line made into a file: the bot has heard the service's usage figures since it started. */
async function figuresHeard(): Promise<void> {
  const text = `Heard before the proxy, line ${++heardSerial}.`;
  const options = { text, voice: 'voice-b-en-f-01', output: 'file' };
  await runCommand(h, { guildId: GUILD, userId: ADMIN, name: 'say', locale: 'en-US', options });
  expect(h.sandbox.requests.at(-1)).toMatchObject({ endpoint: 'tts', status: 200 });
}

describe('a request charged whose answer never came', () => {
  it('/say: sent once, paid once, and /usage counts at least what the service charged', async () => {
    const before = { requests: h.sandbox.requests.length, billed: h.sandbox.charactersBilled() };
    const usageBefore = await spentShownByUsage();
    h.sandbox.injectFault({ kind: 'reset-after-charge', endpoint: 'tts' });
    const text = 'Charged by the service, and its answer lost on the way back.';
    const { content } = await runCommand(h, {
      guildId: GUILD,
      userId: MEMBER,
      name: 'say',
      locale: 'ja',
      options: { text, voice: 'voice-b-en-f-01', output: 'file' },
    });
    const billed = h.sandbox.charactersBilled() - before.billed;
    expect(billed).toBe(text.length);
    expect(h.sandbox.requests.slice(before.requests).filter((r) => r.endpoint === 'tts')).toHaveLength(1);
    // Not "could not reach": it did reach the service, which may have charged it.
    expect(content).toBe(t('ja', 'error.api.maybeCharged.connection'));
    await expect.poll(async () => (await spentShownByUsage()) - usageBefore).toBeGreaterThanOrEqual(billed);
  });

  it.each([
    [
      504,
      'ja',
      'A gateway answered 504 in place of the voice service, which had already charged every one of these 120 characters. Paid.',
    ],
  ] as const)(
    "/say charged, then a gateway's HTML %i (none of the service's headers): sent once, billed once, on /usage, the member told (%s) it may have been charged",
    async (status, locale, text) => {
      const before = { requests: h.sandbox.requests.length, billed: h.sandbox.charactersBilled() };
      const usageBefore = await spentShownByUsage();
      h.sandbox.injectFault({ kind: 'gateway-after-charge', status, endpoint: 'tts' });
      const { content } = await runCommand(h, {
        guildId: GUILD,
        userId: MEMBER,
        name: 'say',
        locale,
        options: { text, voice: 'voice-b-en-f-01', output: 'file' },
      });
      // A 429 is never among them: it is a refusal, never a charge (issue 94; test/e2e/gateway-rate-limit.test.ts).
      expect(content).toBe(t(locale, 'error.api.maybeCharged.gateway', { status }));
      expect(h.sandbox.requests.slice(before.requests).filter((r) => r.endpoint === 'tts')).toHaveLength(1);
      expect(h.sandbox.charactersBilled() - before.billed).toBe(text.length);
      await expect.poll(async () => (await spentShownByUsage()) - usageBefore).toBe(text.length);
    },
  );

  // Nothing on an answer proves whose it is: a proxy that let the request through (billed) may answer in the service's
  // place with its headers forwarded and a JSON error, which pass for the service's own. Never sent again. Its
  // forwarded figures went up by the line since the bot last heard them (a line made first): on /usage as billed, the
  // member told the service's words and that it may have counted the line (bb12: told it failed, booked nothing).
  it.each([
    ['file', 503, MEMBER, 'ja'],
    ['voice', 503, LISTENER, 'en-US'],
    ['file', 408, MEMBER, 'ja'],
  ] as const)(
    "/say (%s) charged, then a proxy's JSON %i with the service's headers forwarded: sent once, billed once, on /usage, told it may have been charged",
    async (output, status, userId, locale) => {
      await figuresHeard();
      const before = { requests: h.sandbox.requests.length, billed: h.sandbox.charactersBilled() };
      const usageBefore = await spentShownByUsage();
      proxyAfterCharge(status);
      const text = `Let through and billed, then a proxy's ${status} in ${output}: paid once, never twice.`;
      const { handle, content: first } = await runCommand(h, {
        guildId: GUILD,
        userId,
        name: 'say',
        locale,
        options: { text, voice: 'voice-b-en-f-01', output },
      });
      // In voice, the reply that ends it: what it spoke, or why not.
      const content =
        output === 'file'
          ? first
          : ((
              await handle.waitFor(
                (r) => r.kind !== 'delete' && r.content !== undefined && !/^(Speaking|Queued|Making)/.test(r.content),
                40_000,
              )
            ).content ?? '');
      const calls = h.sandbox.requests.slice(before.requests).filter((r) => r.endpoint === 'tts');
      expect(calls.map((r) => r.status)).toEqual([status]);
      expect(h.sandbox.charactersBilled() - before.billed).toBe(text.length);
      const said = echoCode('Upstream unavailable', 200);
      expect(content).toBe(t(locale, 'error.api.maybeCharged.service', { status, said }));
      await expect.poll(async () => (await spentShownByUsage()) - usageBefore).toBe(text.length);
    },
  );

  // bb14: the same proxy on the month's last characters (the line's charge leaves fewer than its own size): only a 429
  // is the month's own refusal, so a 503 or a 408 whose forwarded figures rose by the line is maybe charged whatever
  // is left, never "Nothing was charged" with the books under the bill.
  it.each([503, 408] as const)(
    "/say charged on the month's last characters, then a proxy's JSON %i with the service's headers forwarded: on /usage as billed, told it may have been charged",
    async (status) => {
      const first = `The line before the last (${status}), fifty long....`;
      const last = `The last line of the month (${status}), 48 long.`;
      const usageBefore = await spentShownByUsage();
      const billedBefore = h.sandbox.charactersBilled();
      h.sandbox.setKeyUsed(h.sandbox.testKey, PLAN_LIMITS.creator - first.length - last.length);
      try {
        const say = (text: string) =>
          runCommand(h, {
            guildId: GUILD,
            userId: MEMBER,
            name: 'say',
            locale: 'ja',
            options: { text, voice: 'voice-b-en-f-01', output: 'file' },
          });
        expect((await say(first)).handle.responses.some((r) => r.files.length > 0)).toBe(true);
        proxyAfterCharge(status);
        const { content } = await say(last);
        expect(h.sandbox.charactersBilled() - billedBefore).toBe(first.length + last.length);
        const said = echoCode('Upstream unavailable', 200);
        expect(content).toBe(t('ja', 'error.api.maybeCharged.service', { status, said }));
        await expect.poll(async () => (await spentShownByUsage()) - usageBefore).toBe(first.length + last.length);
      } finally {
        h.sandbox.setKeyUsed(h.sandbox.testKey, 0);
      }
    },
  );

  it("/clone charged (its voice made), then a gateway's HTML 502: one voice made, not cloned again, on the books, told in Korean", async () => {
    const before = { requests: h.sandbox.requests.length, spent: spends().length };
    h.sandbox.injectFault({ kind: 'gateway-after-charge', status: 502, endpoint: 'voice-clone' });
    const { content } = await runCommand(h, {
      guildId: GUILD,
      userId: ADMIN,
      name: 'clone',
      locale: 'ko',
      options: { text: 'Made once, whatever the gateway says.', name: 'Gated', consent: true, output: 'file' },
      attachments: [
        { option: 'audio', data: fixture('tone-220hz-5s-48k.wav'), filename: 'me.wav', contentType: 'audio/wav' },
      ],
    });
    expect(content).toBe(t('ko', 'error.api.maybeCharged.gateway', { status: 502 }));
    const calls = h.sandbox.requests.slice(before.requests).filter((r) => r.endpoint !== undefined);
    expect(calls.map((r) => r.endpoint)).toEqual(['voice-clone']);
    expect(calls.filter((r) => r.clonedVoiceId !== undefined)).toHaveLength(1);
    await expect
      .poll(() =>
        spends()
          .slice(before.spent)
          .filter((s) => s.endpoint === 'voice-clone'),
      )
      .toEqual([
        {
          endpoint: 'voice-clone',
          characters: calls[0]?.charactersBilled,
          cached: 0,
          undelivered: 1,
          request_id: null,
        },
      ]);
  });
});

// bb14 GAP 3: the file made and paid, then Discord's post of it failing past its retries (500): the member is told its
// characters were spent, in their language, never "something went wrong on my side ... please try again".
describe('a paid file Discord will not take', () => {
  it.each([
    [MEMBER, 'ja'],
    [ADMIN, 'ko'],
  ] as const)('/say file (%s, %s): billed once, on /usage, told its characters were spent', async (userId, locale) => {
    const text = `Made, paid, and then not taken by Discord (${locale}).`;
    const usageBefore = await spentShownByUsage();
    const billedBefore = h.sandbox.charactersBilled();
    h.discord.refuse({ route: 'webhook-edit', status: 500, code: 0, message: 'Internal Server Error', times: 20 });
    try {
      const options = { text, voice: 'voice-b-en-f-01', output: 'file' };
      const { handle, content } = await runCommand(h, { guildId: GUILD, userId, name: 'say', locale, options });
      // The refusals were the /say's: /usage's own reply below (deferred on a busy host) must be taken.
      h.discord.clearRefusals();
      expect(handle.responses.some((r) => r.files.length > 0)).toBe(false);
      expect(h.sandbox.charactersBilled() - billedBefore).toBe(text.length);
      expect(content).toBe(t(locale, 'error.discord.uploadFailed.spent', { paid: text.length }));
      await expect.poll(async () => (await spentShownByUsage()) - usageBefore).toBe(text.length);
    } finally {
      h.discord.clearRefusals();
    }
  });
});

describe('free work and broken upstreams stay bounded', () => {
  /** Files in the bot's audio cache (each entry is one file). */
  const cacheFiles = () =>
    readdirSync(h.cacheDir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;

  it('30 volume variants of one text (-1.001 … -1.030 dB) share one render and one cache entry besides the original', async () => {
    const text = 'Thirty volumes a listener cannot tell apart.';
    const before = { files: cacheFiles(), requests: h.sandbox.requests.length };
    for (let i = 1; i <= 30; i += 1) {
      const volume = -1 - i / 1000;
      const { content } = await runCommand(h, {
        guildId: GUILD,
        userId: MEMBER,
        name: 'say',
        locale: 'en-US',
        options: { text, voice: 'voice-b-en-f-01', output: 'file', volume },
      });
      expect(content, `volume ${volume}`).toMatch(/^Here is/);
    }
    expect(h.sandbox.requests.length - before.requests).toBe(1);
    // The original and the one -1 dB render (today: one entry per float, 31).
    await expect.poll(() => cacheFiles() - before.files).toBeLessThanOrEqual(3);
  });

  it('a 200 whose WAV never ends: cut, recorded once as spent and undelivered, the member told in Japanese, memory within +100 MB', async () => {
    const before = h.sandbox.requests.length;
    const spentBefore = spends().length;
    h.sandbox.injectFault({ kind: 'endless-body', endpoint: 'tts' });
    const rssBefore = process.memoryUsage().rss;
    let peak = rssBefore;
    let sampler: NodeJS.Timeout | undefined;
    // Fails at once past the bound rather than letting an unbounded body take the machine's memory.
    const overBound = new Promise<never>((_, reject) => {
      sampler = setInterval(() => {
        peak = Math.max(peak, process.memoryUsage().rss);
        if (peak - rssBefore >= 100 * 1024 * 1024)
          reject(new Error(`RSS grew by ${Math.round((peak - rssBefore) / 1e6)} MB`));
      }, 10);
    });
    let content: string | undefined;
    try {
      ({ content } = await Promise.race([
        runCommand(h, {
          guildId: GUILD,
          userId: MEMBER,
          name: 'say',
          locale: 'ja',
          options: { text: 'A line whose audio never ends.', voice: 'voice-b-en-f-01', output: 'file' },
        }),
        overBound,
      ]));
    } finally {
      clearInterval(sampler);
    }
    peak = Math.max(peak, process.memoryUsage().rss);
    console.log(
      `endless body: RSS ${Math.round(rssBefore / 1e6)} MB before, peak +${Math.round((peak - rssBefore) / 1e6)} MB`,
    );
    expect(peak - rssBefore).toBeLessThan(100 * 1024 * 1024);
    expect(content).toBe(t('ja', 'error.api.oversized'));
    const requests = h.sandbox.requests.slice(before).filter((r) => r.endpoint === 'tts');
    expect(requests).toHaveLength(1);
    await expect.poll(() => h.sandbox.requests.at(-1)?.outcome).toBe('client-aborted');
    // Written once when the service accepted it, then settled as undelivered (no second row).
    await expect.poll(() => undeliveredSince(spentBefore)).toEqual([1]);
    expect(spends().at(-1)).toEqual({
      endpoint: 'tts',
      characters: requests[0]?.charactersBilled,
      cached: 0,
      undelivered: 1,
      request_id: requests[0]?.id,
    });
    expect(h.logs()).toContain('"code":"api-audio-too-long"');
  });
});
