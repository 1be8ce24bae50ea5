// Discord failing the way Discord does: the bot survives each failure and tells users the truth.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Events, MessageFlags } from 'discord.js';
import { dominantPitchHz } from '../../src/core/audio/analysis/clip.ts';
import {
  autocomplete,
  defaultGuilds,
  inTime,
  monoOf,
  runCommand,
  startHarness,
  type Harness,
} from '../support/harness.ts';
import { ALICE } from '../support/world.ts';
import { slowReads } from '../support/slow-store.ts';

const [, london] = defaultGuilds() as [ReturnType<typeof defaultGuilds>[0], ReturnType<typeof defaultGuilds>[0]];

/** The bot's JSON log lines that carry `code`. */
function loggedCodes(h: Harness): Array<Record<string, unknown>> {
  return h
    .logs()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((l) => typeof l.code === 'string');
}

/** Error and fatal log lines, of the whole run or from a mark (h.logs().length) on. */
function loggedErrors(h: Harness, since = 0): string[] {
  return h
    .logs()
    .slice(since)
    .split('\n')
    .filter((line) => /"level":(50|60)/.test(line));
}

describe('an interaction token that expires while its reply waits in the queue', () => {
  // Discord's tokens live 15 minutes; the local Discord's live one here, on its own clock, which the test moves on past
  // it once the queued line's "Queued" is in. That edit comes after the /say was accepted and deferred: a busy host
  // may take seconds over it, and a token gone first would refuse the very reply the case waits for.
  const LIFETIME_MS = 60_000;
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      discord: { interactionTokenLifetimeMs: LIFETIME_MS },
      config: { voiceIdleTimeoutMs: 60_000 },
    });
  });
  afterAll(async () => {
    await h?.close();
  });

  let clips = 0;
  /**
   * A /say queued behind a clip whose Voice API answer the sandbox holds (charged, its audio not yet sent) until
   * Discord's clock has moved past the queued one's token: it outlives its token by an event, not by the first clip's
   * length. Resolves with its handle and the channel message replacing its reply.
   */
  async function queuedBehindLongClip(secondVoice: string, firstVoice: string) {
    clips += 1;
    const first = `The clip ahead, number ${clips}.`;
    h.discord.clearAudio(london.id);
    const sentAt = h.discord.channelMessages().length;
    h.sandbox.injectFault({ kind: 'hold-after-charge', endpoint: 'tts' });
    let queued: Awaited<ReturnType<typeof h.discord.command>>;
    try {
      const ahead = await h.discord.command({
        guildId: london.id,
        userId: ALICE,
        name: 'say',
        options: [
          { name: 'text', value: first },
          { name: 'voice', value: firstVoice },
        ],
      });
      await expect.poll(() => h.sandbox.requests.some((r) => r.text === first && r.outcome === 'held')).toBe(true);
      // Acknowledged (as it is once accepted, before its audio is asked for): Discord's 3 s are behind it.
      await ahead.waitFor((r) => r.kind === 'callback', 10_000);
      queued = await h.discord.command({
        guildId: london.id,
        userId: ALICE,
        name: 'say',
        options: [
          { name: 'text', value: 'Queued behind it.' },
          { name: 'voice', value: secondVoice },
        ],
      });
      await queued.waitFor((r) => (r.content ?? '').startsWith('Queued'), 60_000);
      h.discord.advanceClock(2 * LIFETIME_MS);
    } finally {
      h.sandbox.clearFaults();
      h.sandbox.resumePaused();
    }
    const posted = await h.discord.waitForChannelMessage(
      (m) =>
        h.discord.channelMessages().indexOf(m) >= sentAt &&
        m.channelId === london.textChannelId &&
        String(m.message.content).includes(secondVoice) &&
        String(m.message.content).includes('Spoke'),
      30_000,
    );
    return { queued, posted };
  }

  it('reaches the requester as a channel message that names them without a ping, tried once, and the bot keeps serving', async () => {
    const mark = h.logs().length;
    const secondVoice = 'voice-b-en-m-01';
    const { queued, posted } = await queuedBehindLongClip(secondVoice, 'voice-b-en-f-01');
    expect(String(posted.message.content)).toMatch(
      new RegExp(`^<@${ALICE}> Spoke \\d+\\.\\d s in <#220000000000000003> with \`${secondVoice}\``),
    );
    expect((posted.raw as { allowed_mentions?: unknown }).allowed_mentions).toEqual({ parse: [] });
    expect(queued.tokenExpired).toBe(true);

    // One refused request for the expired token, then no more: the bot does not retry a dead token.
    const refused = h.discord.restLog.filter((e) => e.path.includes(queued.token) && e.status === 401);
    expect(refused).toHaveLength(1);
    const expiredLines = loggedCodes(h).filter(
      (l) => l.code === 'discord-token-expired' && l.interactionId === queued.id,
    );
    expect(expiredLines).toHaveLength(1);
    expect(loggedErrors(h, mark)).toEqual([]);

    // Still serving: a fresh interaction is answered as usual.
    const { content } = await runCommand(h, { guildId: london.id, userId: ALICE, name: 'voices', subcommand: 'list' });
    expect(content).toContain('Cloned voices in this server');
  });

  it('a global 429 (X-RateLimit-Global) on that channel message: it is retried after retry_after and still arrives', async () => {
    const mark = h.logs().length;
    const globalLimited = () =>
      h.discord.restLog.filter((e) => e.status === 429 && e.path.includes('/channels/')).length;
    const before = globalLimited();
    // Interaction routes are exempt from the global limit; the bot-token request that follows is not.
    h.discord.rateLimit({ global: true, retryAfterMs: 300 });
    const { posted } = await queuedBehindLongClip('voice-b-en-m-02', 'voice-b-en-f-01');
    expect(String(posted.message.content)).toContain(`<@${ALICE}>`);
    expect(globalLimited()).toBe(before + 1);
    expect(loggedErrors(h, mark)).toEqual([]);
  });
});

describe("Discord's 3-second deadline with a slow store", () => {
  // Longer than Discord's 3 s on its own: a command that waited for it before acknowledging would be too late.
  const slow = slowReads(3200);
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ wrapStore: slow.wrap, config: { voiceIdleTimeoutMs: 60_000 } });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('/say is acknowledged in time, publicly, and its reply and audio then arrive', async () => {
    slow.state.slowNext = 1;
    const before = slow.state.slowed;
    h.discord.clearAudio(london.id);
    try {
      const handle = await h.discord.command({
        guildId: london.id,
        userId: ALICE,
        name: 'say',
        options: [{ name: 'text', value: 'Slow store, quick answer.' }],
      });
      const done = await handle.waitFor((r) => (r.content ?? '').startsWith('Spoke'), 60_000);
      expect(done.content).toMatch(/Spoke \d+\.\d s in <#220000000000000003>/);
      expect(slow.state.slowed).toBe(before + 1);
      expect(handle.problems).toEqual([]);
      const first = handle.responses[0];
      expect(first?.kind).toBe('callback');
      expect(first?.type).toBe(5);
      expect((first?.flags ?? 0) & MessageFlags.Ephemeral).toBe(0);
    } finally {
      slow.state.slowNext = 0;
    }
    const heard = await h.discord.waitForAudio(london.id, { minSeconds: 0.5 });
    expect(heard.seconds).toBeGreaterThan(h.sandbox.expectedDurationSeconds('Slow store, quick answer.') - 0.1);
    expect(loggedErrors(h)).toEqual([]);
  });

  it('autocomplete, which cannot be deferred, answers in time (no choices) instead of failing', async () => {
    slow.state.slowNext = 1;
    const before = slow.state.slowed;
    const problems = h.discord.problems.length;
    try {
      const choices = await autocomplete(h, {
        guildId: london.id,
        userId: ALICE,
        name: 'say',
        options: { text: 'hi' },
        focus: { name: 'voice', value: 'voice' },
      });
      expect(choices).toEqual([]);
      expect(slow.state.slowed).toBe(before + 1);
      expect(h.discord.problems.slice(problems)).toEqual([]);
    } finally {
      slow.state.slowNext = 0;
    }
    // Without the slow read, the same question gets real choices (once answered in time: a busy host may be late too).
    const choices = await inTime(h, () =>
      autocomplete(h, {
        guildId: london.id,
        userId: ALICE,
        name: 'say',
        options: { text: 'hi' },
        focus: { name: 'voice', value: 'voice' },
      }),
    );
    expect(choices.length).toBeGreaterThan(0);
  });

  it('a private command (/voices list) is acknowledged in time, privately, and its answer then arrives', async () => {
    slow.state.slowNext = 1;
    const before = slow.state.slowed;
    try {
      const { handle, content } = await runCommand(h, {
        guildId: london.id,
        userId: ALICE,
        name: 'voices',
        subcommand: 'list',
      });
      expect(content).toContain('Cloned voices in this server');
      expect(slow.state.slowed).toBe(before + 1);
      expect(handle.problems).toEqual([]);
      const first = handle.responses[0];
      expect(first?.type).toBe(5);
      expect((first?.flags ?? 0) & MessageFlags.Ephemeral).toBe(MessageFlags.Ephemeral);
    } finally {
      slow.state.slowNext = 0;
    }
  });
});

describe('REST 429s, per route and global, with retry_after and the X-RateLimit headers', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ config: { voiceIdleTimeoutMs: 60_000 } });
  });
  afterAll(async () => {
    await h?.close();
  });

  /** The 429s the fake answered on requests naming this interaction (its id or its token). */
  const limited = (handle: { id: string; token: string }) =>
    h.discord.restLog.filter((e) => e.status === 429 && (e.path.includes(handle.id) || e.path.includes(handle.token)));

  let mark = 0;
  beforeEach(() => {
    mark = h.logs().length;
  });

  function expectNoSurfacedError(handle: { problems: ReadonlyArray<string> }) {
    expect(handle.problems).toEqual([]);
    expect(loggedErrors(h, mark)).toEqual([]);
    expect(h.logs().slice(mark)).not.toContain('"msg":"command failed"');
  }

  it('a 429 on the interaction callback: the private answer still arrives', async () => {
    h.discord.rateLimit({ route: 'interaction-callback', retryAfterMs: 200 });
    const { handle, content } = await runCommand(h, {
      guildId: london.id,
      userId: ALICE,
      name: 'voices',
      subcommand: 'list',
    });
    expect(content).toContain('Cloned voices in this server');
    expect(limited(handle)).toHaveLength(1);
    expectNoSurfacedError(handle);
  });

  it('429s on the webhook edits of /say in voice: "speaking" and "spoke" still arrive and the clip is heard', async () => {
    const text = 'Rate limits do not stop me.';
    h.discord.clearAudio(london.id);
    h.discord.rateLimit({ route: 'webhook-edit', retryAfterMs: 200, times: 2 });
    const handle = await h.discord.command({
      guildId: london.id,
      userId: ALICE,
      name: 'say',
      options: [{ name: 'text', value: text }],
    });
    await handle.waitFor((r) => (r.content ?? '').startsWith('Speaking'), 60_000);
    await handle.waitFor((r) => (r.content ?? '').startsWith('Spoke'), 60_000);
    const heard = await h.discord.waitForAudio(london.id, { minSeconds: 0.5 });
    expect(heard.seconds).toBeGreaterThan(h.sandbox.expectedDurationSeconds(text) - 0.1);
    expect(limited(handle)).toHaveLength(2);
    expectNoSurfacedError(handle);
  });

  it('a 429 on the upload of a file (/say output:file): the file still arrives', async () => {
    h.discord.rateLimit({ route: 'webhook-edit', retryAfterMs: 200 });
    const { handle, content } = await runCommand(h, {
      guildId: london.id,
      userId: ALICE,
      name: 'say',
      options: { text: 'A file despite the limit.', output: 'file' },
    });
    expect(content).toMatch(/^Here is/);
    const final = handle.responses.find((r) => r.files.length > 0);
    expect(final?.files).toHaveLength(1);
    expect(final?.files[0]?.data.length).toBeGreaterThan(1000);
    expect(limited(handle)).toHaveLength(1);
    expectNoSurfacedError(handle);
  });

  it('a 429 on the private follow-up that carries a failure: the user is still told', async () => {
    h.sandbox.injectFault({
      kind: 'service-error',
      status: 400,
      body: '{"error":{"message":"text is not speakable"}}',
      contentType: 'application/json',
    });
    h.discord.rateLimit({ route: 'webhook-follow-up', retryAfterMs: 200 });
    const { handle, content } = await runCommand(h, {
      guildId: london.id,
      userId: ALICE,
      name: 'say',
      options: { text: 'Refused, then limited.', output: 'file' },
    });
    expect(content).toMatch(/refused this request: `text is not speakable`/);
    expect((handle.responses.at(-1)?.flags ?? 0) & MessageFlags.Ephemeral).toBe(MessageFlags.Ephemeral);
    expect(limited(handle)).toHaveLength(1);
    expect(handle.problems).toEqual([]);
    expect(loggedErrors(h, mark)).toEqual([]);
  });
});

describe('the gateway drops, asks to reconnect, or invalidates the session', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ config: { voiceIdleTimeoutMs: 60_000 } });
  });
  afterAll(async () => {
    await h?.close();
  });

  const next = (event: Events.ShardResume | Events.ShardReady) =>
    new Promise<void>((resolve) => h.bot.client.once(event, () => resolve()));

  it('an interaction sent while the gateway socket was down is delivered after RESUME and answered', async () => {
    const mark = h.logs().length;
    const resumed = next(Events.ShardResume);
    h.discord.dropGateway(london.id);
    // Sent while the bot has no socket: the local Discord buffers it for the session, as Discord does.
    const handle = await h.discord.command({
      guildId: london.id,
      userId: ALICE,
      name: 'voices',
      options: [{ name: 'list', type: 1, options: [] }],
    });
    await resumed;
    const answer = await handle.waitForFinal(10_000);
    expect(answer.content).toContain('Cloned voices in this server');
    expect(handle.problems).toEqual([]);
    expect(loggedErrors(h, mark)).toEqual([]);
    // One line for the operator: the session was resumed (with the events it had missed).
    expect(
      h
        .logs()
        .slice(mark)
        .match(/"code":"gateway-resumed"/g),
    ).toHaveLength(1);
    // And one warning that it was lost: only a stop asked for is silent (test/deploy/signals.test.ts).
    expect(
      h
        .logs()
        .slice(mark)
        .match(/"level":40,[^\n]*"code":"gateway-reconnecting"/g),
    ).toHaveLength(1);
  });

  const disruptions: Array<{ name: string; event: Events.ShardResume | Events.ShardReady; disrupt: () => void }> = [
    {
      name: 'a dropped socket (RESUME)',
      event: Events.ShardResume,
      disrupt: () => h.discord.dropGateway(london.id, 4000),
    },
    {
      name: 'op 7 Reconnect (RESUME)',
      event: Events.ShardResume,
      disrupt: () => h.discord.requestGatewayReconnect(london.id),
    },
    {
      name: 'op 9 Invalid Session (a new IDENTIFY)',
      event: Events.ShardReady,
      disrupt: () => h.discord.invalidateGatewaySession(london.id, false),
    },
  ];
  for (const d of disruptions) {
    it(`${d.name} while a guild is speaking keeps its voice connection and queue: the clip is heard whole, the queued one plays`, async () => {
      const mark = h.logs().length;
      // The disruption comes as soon as the second is queued, well inside the first (the reconnection may outlast it).
      const firstText = 'The gateway goes away while this plays.';
      const secondText = 'And this one waited.';
      const [firstVoice, secondVoice] = ['voice-b-en-m-02', 'voice-b-en-f-01'];
      h.discord.clearAudio(london.id);
      const first = await h.discord.command({
        guildId: london.id,
        userId: ALICE,
        name: 'say',
        options: [
          { name: 'text', value: firstText },
          { name: 'voice', value: firstVoice },
        ],
      });
      await h.discord.waitForPacket(london.id, (p) => !p.silence);
      const second = await h.discord.command({
        guildId: london.id,
        userId: ALICE,
        name: 'say',
        options: [
          { name: 'text', value: secondText },
          { name: 'voice', value: secondVoice },
        ],
      });
      await second.waitFor((r) => (r.content ?? '').startsWith('Queued'));

      const back = next(d.event);
      d.disrupt();
      await back;

      await first.waitFor((r) => (r.content ?? '').startsWith('Spoke'), 30_000);
      await second.waitFor((r) => (r.content ?? '').startsWith('Spoke'), 30_000);
      const [d1, d2] = [h.sandbox.expectedDurationSeconds(firstText), h.sandbox.expectedDurationSeconds(secondText)];
      const heard = await h.discord.waitForAudio(london.id, { minSeconds: d1 + d2 - 0.2 });
      expect(heard.seconds).toBeGreaterThan(d1 + d2 - 0.15);
      expect(heard.seconds).toBeLessThan(d1 + d2 + 0.3);
      // Each part at its voice's pitch: the first clip went on through the disruption, then the queued one.
      const mono = monoOf(heard);
      const pitchFirst = dominantPitchHz(mono.subarray(0, Math.floor((d1 - 0.2) * 48_000)), 48_000);
      const pitchSecond = dominantPitchHz(mono.subarray(Math.floor((d1 + 0.2) * 48_000)), 48_000);
      expect(Math.abs((pitchFirst ?? 0) - (h.sandbox.voicePitchHz(firstVoice) ?? 0))).toBeLessThan(4);
      expect(Math.abs((pitchSecond ?? 0) - (h.sandbox.voicePitchHz(secondVoice) ?? 0))).toBeLessThan(4);
      expect(h.discord.botVoiceChannel(london.id)).toBe('220000000000000003');
      expect([...first.problems, ...second.problems]).toEqual([]);
      expect(loggedErrors(h, mark)).toEqual([]);
    });
  }
});
