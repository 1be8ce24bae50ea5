import { MessageFlags } from 'discord.js';
import { readdir } from 'node:fs/promises';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { PermissionFlagsBits } from 'discord.js';
import { useFileHarness } from '../support/file-harness.ts';
import { defaultGuilds, runCommand } from '../support/harness.ts';
import { ALICE, BOB } from '../support/world.ts';
import { t } from '../../src/core/i18n/catalogue.ts';
import { booksSettled } from '../support/books-settled.ts';
import { spentShown } from '../support/books-shown.ts';

// A server where the bot may see and write but not connect to voice; its member may connect and speak there.
const noVoice = {
  id: '200000000000000003',
  name: 'No voice',
  textChannelId: '210000000000000003',
  voiceChannels: [
    {
      id: '220000000000000009',
      name: 'locked',
      overwrites: [
        { id: '300000000000000021', type: 1 as const, allow: PermissionFlagsBits.Connect | PermissionFlagsBits.Speak },
      ],
    },
  ],
  members: [{ id: '300000000000000021', username: 'carol', voiceChannelId: '220000000000000009' }],
  everyonePermissions:
    PermissionFlagsBits.ViewChannel | PermissionFlagsBits.SendMessages | PermissionFlagsBits.UseApplicationCommands,
  botPermissions: PermissionFlagsBits.ViewChannel | PermissionFlagsBits.SendMessages | PermissionFlagsBits.AttachFiles,
};

const london = defaultGuilds()[1] as ReturnType<typeof defaultGuilds>[0];

// The client's deadlines are short enough for the cases that wait them out (headers held, a body paced past the total)
// and long enough for every other line, and for a body the test holds (pause-after), on a busy host: in this process an
// event loop stalled past a deadline fires its timer before it reads the answer waiting behind it (400 ms were).
const h = useFileHarness({
  guilds: [...defaultGuilds(), noVoice],
  clientTimeouts: { headersMs: 3_000, bodyIdleMs: 10_000, totalMs: 10_000 },
});
beforeEach(() => {
  h.sandbox.clearFaults();
  h.sandbox.setKeyActive(h.apiKey, true);
});

async function sayAsFile(text = 'Just a short line.', locale = 'en-US') {
  return runCommand(h, { guildId: london.id, userId: BOB, name: 'say', options: { text, output: 'file' }, locale });
}

let served = 0;
/** After any failure, the very next command is served normally (a new text each time: a real request, not the cache). */
async function expectStillServing() {
  h.sandbox.clearFaults();
  h.sandbox.setKeyActive(h.apiKey, true);
  const before = h.sandbox.requests.length;
  const { handle, content } = await sayAsFile(`Still here, ${++served}.`);
  expect(h.sandbox.requests.length - before).toBe(1);
  expect(content).toMatch(/^Here is/);
  expect(handle.responses.some((r) => r.files.length === 1)).toBe(true);
}

/** The audio cache's entry files (one folder per voice). */
async function cacheEntries(): Promise<string[]> {
  const entries = await readdir(h.cacheDir, { recursive: true }).catch(() => [] as string[]);
  return entries.filter((name) => name.endsWith('.sbc'));
}

function expectEphemeral(handle: Awaited<ReturnType<typeof sayAsFile>>['handle']) {
  const last = handle.responses.at(-1);
  expect((last?.flags ?? 0) & MessageFlags.Ephemeral).toBe(MessageFlags.Ephemeral);
}

const cases: Array<{ name: string; arrange: () => void; message: RegExp; requests: number; logCode: string }> = [
  {
    name: '400 invalid request',
    arrange: () =>
      h.sandbox.injectFault({
        kind: 'service-error',
        status: 400,
        body: '{"error":{"message":"text is not speakable"}}',
        contentType: 'application/json',
      }),
    message: /refused this request: `text is not speakable`/,
    requests: 1,
    logCode: 'api-bad-request',
  },
  {
    name: '401 key deactivated',
    arrange: () => h.sandbox.setKeyActive(h.apiKey, false),
    message: /Voice API key is invalid or deactivated\. Please tell the server owner/,
    requests: 1,
    logCode: 'api-key-rejected',
  },
  {
    name: '403 plan without API access',
    // The service's own answer: its error body and headers.
    arrange: () => h.sandbox.injectFault({ kind: 'service-error', status: 403, message: 'plan has no API access' }),
    message: /plan does not include API access/,
    requests: 1,
    logCode: 'api-plan-without-access',
  },
  {
    name: "the service's own 5xx: sent once (nothing on it proves it the service's)",
    arrange: () => h.sandbox.injectFault({ kind: 'service-error', status: 503 }),
    message: /failing right now \(503\)/,
    requests: 1,
    logCode: 'api-server-error',
  },
  {
    name: "a gateway's HTML 503: sent once, the member told it may have been charged",
    arrange: () =>
      h.sandbox.injectFault({
        kind: 'response',
        status: 503,
        body: '<html><body>Service Unavailable</body></html>',
        contentType: 'text/html',
        times: 3,
      }),
    message:
      /^The voice service did not answer this request itself: 503 came back .* It may have counted its characters/,
    requests: 1,
    logCode: 'api-server-error',
  },
  {
    name: 'timeout waiting for headers',
    arrange: () => h.sandbox.injectFault({ kind: 'slow-headers', headersDelayMs: 60_000, times: 3 }),
    message: /^The voice service took too long to answer, after the request had left\. It may have made it/,
    // Not retried: the service may already be synthesising (and billing) the first attempt.
    requests: 1,
    logCode: 'api-timeout-headers',
  },
];

describe('every Voice API failure ends in a clear private message, and the bot keeps serving', () => {
  for (const c of cases) {
    it(c.name, async () => {
      c.arrange();
      const before = h.sandbox.requests.length;
      const { handle, content } = await sayAsFile();
      expect(content).toMatch(c.message);
      expectEphemeral(handle);
      expect(h.sandbox.requests.length - before).toBe(c.requests);
      expect(h.logs()).toContain(`"code":"${c.logCode}"`);
      await expectStillServing();
    });
  }

  it('429 monthly quota: said with the reset date; while the service still refuses, each request asks it once; its first acceptance ends the mark', async () => {
    // Something in the cache before the quota runs out, to replay after.
    const cached = 'Cached before the quota ran out.';
    const entries = (await cacheEntries()).length;
    expect((await sayAsFile(cached)).content).toMatch(/^Here is/);
    await vi.waitFor(async () => expect((await cacheEntries()).length).toBeGreaterThan(entries), { timeout: 30_000 });

    // The service refuses twice, then (the operator bought characters) accepts again.
    // The service's own answer: its error body, its request ID (a 429's only mark of the service's: a rate limiter in
    // front of it sends usage figures too) and its usage figures (none left).
    h.sandbox.injectFault({
      kind: 'response',
      status: 429,
      body: '{"error":{"message":"monthly usage limit exceeded"}}',
      contentType: 'application/json',
      headers: {
        'X-Request-Id': 'req_quota_1',
        'X-RateLimit-Limit': '500000',
        'X-RateLimit-Used': '500000',
        'X-RateLimit-Remaining': '0',
      },
      times: 2,
    });
    const before = h.sandbox.requests.length;
    const first = await sayAsFile('The quota ends here.');
    expect(first.content).toMatch(/monthly character quota .* used up\. It resets \d{4}-\d{2}-01/);
    expectEphemeral(first.handle);
    expect(h.logs()).toContain('"code":"api-quota-exhausted"');
    expect(h.logs()).toContain('"code":"quota-used-up"');
    expect(h.sandbox.requests.length - before).toBe(1);

    // Marked used up: the next request is the one that asks whether it is over (a 429 bills nothing); still no.
    const reset = /It resets (\d{4}-\d{2}-01)/.exec(first.content)?.[1];
    const refused = await sayAsFile('Another line to say.', 'ja');
    expect(refused.content).toContain(`上限に達しました。${reset} にリセットされます`);
    expectEphemeral(refused.handle);
    expect(h.sandbox.requests.length - before).toBe(2);
    // What the cache already holds spends nothing, so it still plays, and asks nothing.
    expect((await sayAsFile(cached)).content).toMatch(/^Here is/);
    expect(h.sandbox.requests.length - before).toBe(2);

    // The service accepts the next one: the mark ends at once, well before the reset date.
    const after = await sayAsFile('After the top-up.');
    expect(after.content).toMatch(/^Here is/);
    expect(h.sandbox.requests.length - before).toBe(3);
    expect(h.logs()).toContain('"code":"quota-available-again"');
    await expectStillServing();
  });

  it("a gateway's HTML 429 (nothing of the service's own) is a failure on the way: the month is not marked used up", async () => {
    // A rate-limiting proxy in front of the service: its page, none of the service's figures or its JSON error body.
    // Only the service itself may say the month is used up (src/core/api/response.ts proves whose an answer is).
    h.sandbox.injectFault({
      kind: 'response',
      status: 429,
      body: '<html><head><title>429 Too Many Requests</title></head><body>Too Many Requests</body></html>',
      contentType: 'text/html',
    });
    const logFrom = h.logs().length;
    const before = h.sandbox.requests.length;
    const { handle, content } = await sayAsFile('Refused by a proxy, not by the service.');
    // Not the service's own, it may have passed the request on first (bb11): told it may have been charged, never busy.
    expect(content).toBe(t('en-US', 'error.api.refusedOnTheWay.maybeCharged', { status: 429 }));
    expectEphemeral(handle);
    expect(h.sandbox.requests.length - before).toBe(1);
    const logs = h.logs().slice(logFrom);
    expect(logs).not.toContain('"code":"quota-used-up"');
    expect(logs).not.toContain('"code":"api-quota-exhausted"');
    // Two members at once: both served, neither refused as "used up" nor made to wait for a probe.
    const [one, two] = await Promise.all([
      runCommand(h, {
        guildId: london.id,
        userId: BOB,
        name: 'say',
        options: { text: 'First at once.', output: 'file' },
        locale: 'en-US',
      }),
      runCommand(h, {
        guildId: london.id,
        userId: ALICE,
        name: 'say',
        options: { text: 'Second at once.', output: 'file' },
        locale: 'en-US',
      }),
    ]);
    expect(one.content).toMatch(/^Here is/);
    expect(two.content).toMatch(/^Here is/);
    expect(h.logs().slice(logFrom)).not.toContain('"code":"quota-used-up"');
  });

  // The outside check's shapes: a gateway's or firewall's own answer, none of the service's headers (no request ID of
  // the service's, no usage figures), whatever its body says. Only the service may speak for the key, the plan or the
  // month, and only its own answer may say nothing was charged (src/core/api/response.ts).
  it.each([
    ["nginx's HTML 401", 401, '<html><head><title>401 Authorization Required</title></head></html>', 'text/html'],
    ["a firewall's HTML 403", 403, '<html><body>Access denied by Cloudflare</body></html>', 'text/html'],
    ['a plain-text 403', 403, 'Forbidden', 'text/plain'],
    ["a proxy's 429 in the service's JSON shape", 429, '{"error":{"code":"quota_exceeded"}}', 'application/json'],
  ] as const)(
    '%s without the service headers is refused on the way: never the key, plan or month, sent once',
    async (_what, status, body, contentType) => {
      h.sandbox.injectFault({ kind: 'response', status, body, contentType });
      const logFrom = h.logs().length;
      const before = h.sandbox.requests.length;
      const { handle, content } = await sayAsFile('Refused in front of the service.');
      // A 429 too (bb11): not the service's own, it may have passed the request on first.
      expect(content).toBe(t('en-US', 'error.api.refusedOnTheWay.maybeCharged', { status }));
      expectEphemeral(handle);
      expect(h.sandbox.requests.length - before).toBe(1);
      expect(h.logs().slice(logFrom)).not.toMatch(
        /"code":"(quota-used-up|api-quota-exhausted|api-key-rejected|api-plan-refused)"/,
      );
      await expectStillServing();
    },
  );

  // bb7: a 2xx comes only once the service accepted the request, which bills it; the sandbox billed its "not audio" 200
  // nothing, so the books (a 2xx booked charged) and the service disagreed. Now both count it, the same figure.
  it("a 200 that is not audio (a gateway's page in its place): the service bills it, and the books count what it billed", async () => {
    const text = 'A page came back in place of the audio.';
    const billed = h.sandbox.charactersBilled();
    const spent = await spentShown(h, london.id, ALICE);
    h.sandbox.injectFault({ kind: 'response', status: 200, body: '<html>gateway</html>', contentType: 'text/html' });
    const { handle, content } = await sayAsFile(text);
    expect(content).toBe(t('en-US', 'error.api.chargedNotAudio'));
    expectEphemeral(handle);
    await booksSettled(h);
    expect(h.sandbox.charactersBilled() - billed).toBe(text.length);
    expect((await spentShown(h, london.id, ALICE)) - spent).toBe(text.length);
    await expectStillServing();
  });

  it("a gateway's 500 in the service's JSON shape, without the service headers, is maybe charged: sent once", async () => {
    h.sandbox.injectFault({
      kind: 'response',
      status: 500,
      body: '{"error":{"code":"internal_error"}}',
      contentType: 'application/json',
    });
    const before = h.sandbox.requests.length;
    const { handle, content } = await sayAsFile('A gateway answered in the service’s shape.');
    expect(content).toBe(t('en-US', 'error.api.maybeCharged.gateway', { status: 500 }));
    expectEphemeral(handle);
    expect(h.sandbox.requests.length - before).toBe(1);
    await expectStillServing();
  });

  it("a body the client's total timeout cuts after the service answered 200 is told as answered, charged and cut", async () => {
    // Paced slower than the client's total timeout (10 s) allows, though never idle long enough for the idle timer:
    // the service answered 200 and billed it, so whichever timer fires, its words are the charged ones.
    const pacing = { ...h.sandbox.pacing };
    h.sandbox.setPacing({ realtimeFactor: 8, chunkBytes: 1024 });
    try {
      const billed = h.sandbox.charactersBilled();
      const { handle, content } = await sayAsFile('A slow answer the total timeout cuts.', 'en-US');
      const paid = h.sandbox.charactersBilled() - billed;
      expect(content).toBe(t('en-US', 'error.api.undelivered.paid', { paid }));
      expectEphemeral(handle);
      expect(h.sandbox.requests.at(-1)).toMatchObject({ status: 200 });
      expect(h.sandbox.charactersBilled()).toBeGreaterThan(billed);
      expect(h.logs()).toContain('"code":"api-cut-off"');
    } finally {
      h.sandbox.setPacing(pacing);
    }
    await expectStillServing();
  });

  it('in voice too: the total timeout after the 200 is told as answered, charged and cut, not "stopped part-way … took too long"', async () => {
    const pacing = { ...h.sandbox.pacing };
    h.sandbox.setPacing({ realtimeFactor: 8, chunkBytes: 1024 });
    try {
      const billed = h.sandbox.charactersBilled();
      const handle = await h.discord.command({
        guildId: london.id,
        userId: ALICE,
        name: 'say',
        options: [{ name: 'text', value: 'A slow answer in voice that the total timeout cuts.' }],
      });
      const failure = await handle.waitFor(
        (r) => r.kind !== 'delete' && r.content !== undefined && !/^(Speaking|Queued)/.test(r.content ?? ''),
        60_000,
      );
      const paid = h.sandbox.charactersBilled() - billed;
      expect(failure.content).toBe(t('en-US', 'error.api.undelivered.paid', { paid }));
      expect(h.sandbox.requests.at(-1)).toMatchObject({ status: 200 });
      expect(h.sandbox.charactersBilled()).toBeGreaterThan(billed);
    } finally {
      h.sandbox.setPacing(pacing);
    }
    await expectStillServing();
  });

  it('a reset in the middle of the audio, before its first packet, is told as what the service did: answered, charged, cut', async () => {
    // The body stops at 1,024 bytes (the client's head, less than one 20 ms frame of audio, so no packet can be
    // made of it) and is reset there when the test says: the reset provably comes before the first packet, whatever
    // the host's load. Its words follow what the service did (it answered 200 and charged), never "could not reach".
    h.discord.clearAudio(london.id);
    h.sandbox.injectFault({ kind: 'pause-after', bytes: 1024, then: 'reset', endpoint: 'tts' });
    const billed = h.sandbox.charactersBilled();
    const handle = await h.discord.command({
      guildId: london.id,
      userId: ALICE,
      name: 'say',
      options: [{ name: 'text', value: 'This one will be cut off part of the way.' }],
    });
    await vi.waitFor(() => expect(h.sandbox.requests.at(-1)?.outcome).toBe('paused'), { timeout: 15_000 });
    expect(h.discord.heardPackets(london.id)).toEqual([]);
    h.sandbox.resumePaused();
    const failure = await handle.waitFor(
      (r) => r.kind !== 'delete' && r.content !== undefined && !/^(Speaking|Queued)/.test(r.content ?? ''),
      15_000,
    );
    const paid = h.sandbox.charactersBilled() - billed;
    expect(failure.content).toBe(t('en-US', 'error.api.undelivered.paid', { paid }));
    expect((failure.flags ?? 0) & MessageFlags.Ephemeral).toBe(MessageFlags.Ephemeral);
    expect(h.sandbox.requests.at(-1)).toMatchObject({ outcome: 'reset', status: 200 });
    expect(h.sandbox.charactersBilled()).toBeGreaterThan(billed);
    await expectStillServing();
  });

  it("says so at once when it may not connect to the caller's channel, spending nothing", async () => {
    const before = h.sandbox.requests.length;
    const { handle, content } = await runCommand(h, {
      guildId: noVoice.id,
      userId: '300000000000000021',
      name: 'say',
      options: { text: 'hello' },
    });
    expect(content).toBe(
      'I could not join <#220000000000000009>. Check that I may connect and speak there, then try again.',
    );
    expectEphemeral(handle);
    expect(h.sandbox.requests.length).toBe(before);
    expect(h.discord.botVoiceChannel(noVoice.id)).toBeNull();
  });

  it('speaks Korean to a Korean client', async () => {
    h.sandbox.setKeyActive(h.apiKey, false);
    const { content } = await sayAsFile('안녕', 'ko');
    expect(content).toContain('서버 관리자에게 알려 주세요');
  });
});

describe('secrets', () => {
  it('never sends the bot token or the API key in a REST payload, and never logs them', async () => {
    // Its own traffic, whichever tests ran before: a reply that works and one that fails on the key.
    const restBefore = h.discord.restLog.length;
    const logBefore = h.logs().length;
    await expectStillServing();
    h.sandbox.setKeyActive(h.apiKey, false);
    expect((await sayAsFile('Refused for the key.')).content).toMatch(/Voice API key is invalid or deactivated/);
    expect(h.discord.restLog.length).toBeGreaterThanOrEqual(restBefore + 4);
    for (const entry of h.discord.restLog) {
      expect(entry.body).not.toContain(h.token);
      expect(entry.body).not.toContain(h.apiKey);
      expect(entry.path).not.toContain(h.apiKey);
    }
    const logs = h.logs();
    expect(logs.length).toBeGreaterThan(logBefore);
    expect(logs).toContain('"code":"api-key-rejected"');
    expect(logs).not.toContain(h.token);
    expect(logs).not.toContain(h.apiKey);
  });
});
