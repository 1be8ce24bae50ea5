// Private stays private, whatever the clock. The host's clock runs 20 minutes ahead of the local
// Discord's (interaction IDs are that much older than Date.now()), as on a VM back from sleep: every interaction is
// still answered within Discord's 3 s, private replies stay in the interaction, files reach the reply. And when a
// private reply's token is really gone (Discord's own clock moved past its 15 minutes), the member gets it by DM,
// or, with DMs closed, it is dropped with one log line; never posted in the channel.
import { MessageFlags, PermissionFlagsBits } from 'discord.js';
import { describe, expect, it } from 'vitest';
import type {
  FakeGuildSpec,
  InteractionHandle,
  InteractionResponse,
  SentChannelMessage,
} from '@saybot/local-discord/types.ts';
import { useFileHarness } from '../support/file-harness.ts';
import { runCommand, type CommandInput } from '../support/harness.ts';

const TWENTY_MINUTES = 20 * 60_000;
const FIFTEEN_MINUTES = 15 * 60_000;
const ALICE = '300000000000000041'; // in voice, Manage Server
const BOB = '300000000000000042'; // not in voice
const CAROL = '300000000000000043'; // in voice
const VOICE = '220000000000000041';
const guild: FakeGuildSpec = {
  id: '200000000000000041',
  name: 'Skewed',
  preferredLocale: 'en-US',
  textChannelId: '210000000000000041',
  voiceChannels: [{ id: VOICE, name: 'general' }],
  members: [
    {
      id: ALICE,
      username: 'alice',
      voiceChannelId: VOICE,
      locale: 'en-US',
      permissions: PermissionFlagsBits.ManageGuild,
    },
    { id: BOB, username: 'bob', locale: 'en-US' },
    { id: CAROL, username: 'carol', voiceChannelId: VOICE, locale: 'en-US' },
  ],
};

const h = useFileHarness({
  guilds: [guild],
  discord: { hostClockAheadMs: TWENTY_MINUTES },
  config: { voiceIdleTimeoutMs: 60_000 },
});

const isPrivate = (r: InteractionResponse | undefined) =>
  ((r?.flags ?? 0) & MessageFlags.Ephemeral) === MessageFlags.Ephemeral;

/** What the bot posted in the guild's channels (not DMs) from a mark on. */
const channelPostsSince = (mark: number): SentChannelMessage[] => h.discord.channelMessages().slice(mark);

/** The bot's JSON log lines (from a mark on) that carry `code`. */
function loggedCodes(since = 0): Array<Record<string, unknown>> {
  return h
    .logs()
    .slice(since)
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((l) => typeof l.code === 'string');
}

/** Polls the bot's log (a real condition, not a sleep) until a line from `since` on matches. */
async function waitForLog(
  match: (line: Record<string, unknown>) => boolean,
  since: number,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const lines = h
      .logs()
      .slice(since)
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    if (lines.some(match)) return;
    if (performance.now() > deadline) throw new Error('no such log line');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Discord took the first response (a callback, within its 3 s, not refused) and nothing else was refused. */
function answeredInTime(handle: InteractionHandle): void {
  expect(handle.problems).toEqual([]);
  expect(handle.responses[0]?.kind).toBe('callback');
  expect(handle.tokenExpired).toBe(false);
}

/** Runs a command expected to answer privately: the answer is in the interaction, ephemeral, and nothing in the channel. */
async function expectPrivateAnswer(input: Omit<CommandInput, 'guildId'>, expected: RegExp): Promise<InteractionHandle> {
  const mark = h.discord.channelMessages().length;
  const dmMark = h.discord.directMessages().length;
  const { handle, content } = await runCommand(h, { ...input, guildId: guild.id });
  expect(content).toMatch(expected);
  answeredInTime(handle);
  for (const response of handle.responses.filter((r) => r.kind === 'callback' || r.kind === 'follow-up'))
    expect(isPrivate(response)).toBe(true);
  expect(channelPostsSince(mark)).toEqual([]);
  expect(h.discord.directMessages().slice(dmMark)).toEqual([]);
  return handle;
}

describe('the host clock 20 minutes ahead of Discord', () => {
  it('a refusal ("Join a voice channel first.") stays private, answered in the interaction in time', async () => {
    await expectPrivateAnswer(
      { userId: BOB, name: 'say', options: { text: 'Nobody hears me.', output: 'voice' } },
      /^Join a voice channel first\./,
    );
  });

  it('/usage stays private', async () => {
    await expectPrivateAnswer({ userId: BOB, name: 'usage' }, /Usage in/);
  });

  it('/budget stays private', async () => {
    await expectPrivateAnswer(
      { userId: ALICE, name: 'budget', options: { member_daily_chars: 50_000 } },
      /^Budgets in this server now/,
    );
  });

  it('/myvoice stays private', async () => {
    await expectPrivateAnswer(
      { userId: BOB, name: 'myvoice', subcommand: 'set', options: { voice: 'voice-b-en-f-01' } },
      /^Your defaults in this server/,
    );
  });

  it('/output show stays private', async () => {
    await expectPrivateAnswer({ userId: BOB, name: 'output', subcommand: 'show' }, /^Outside voice you get/);
  });

  it('/dictionary export stays private, its file in the private reply', async () => {
    const handle = await expectPrivateAnswer(
      { userId: BOB, name: 'dictionary', subcommand: 'export' },
      /^The dictionary is attached/,
    );
    expect(handle.responses.find((r) => r.files.length > 0)?.files[0]?.name).toBe('dictionary.json');
  });

  it("/say output:file: the file reaches the interaction's reply, not the channel", async () => {
    const mark = h.discord.channelMessages().length;
    const { handle, content } = await runCommand(h, {
      guildId: guild.id,
      userId: BOB,
      name: 'say',
      options: { text: 'A file for the reply.', output: 'file' },
    });
    expect(content).toMatch(/^Here is/);
    answeredInTime(handle);
    const withFile = handle.responses.find((r) => r.files.length > 0);
    expect(withFile?.files[0]?.data.length).toBeGreaterThan(1000);
    expect(channelPostsSince(mark)).toEqual([]);
  });

  it('/say in voice: "Spoke" is the interaction\'s own (public) reply, not a channel message', async () => {
    const mark = h.discord.channelMessages().length;
    const handle = await h.discord.command({
      guildId: guild.id,
      userId: CAROL,
      name: 'say',
      options: [{ name: 'text', value: 'Said in voice.' }],
    });
    await handle.waitFor((r) => (r.content ?? '').startsWith('Spoke'), 30_000);
    answeredInTime(handle);
    expect(isPrivate(handle.responses[0])).toBe(false);
    expect(channelPostsSince(mark)).toEqual([]);
  });
});

describe("a private reply whose token really expired (Discord's clock past its 15 minutes)", () => {
  /**
   * Carol's public /say goes first, its Voice API answer held by the sandbox (charged, its audio not yet sent); alice's
   * Speak (private) queues behind it, is told "Queued", then Discord's clock moves past both tokens' 15 minutes and
   * carol's line is let go. Queued behind by an event, not by a clip's length. Resolves once the Speak is done.
   */
  async function speakOutlivingItsToken(): Promise<{
    handle: InteractionHandle;
    logMark: number;
    channelMark: number;
  }> {
    const logMark = h.logs().length;
    const channelMark = h.discord.channelMessages().length;
    const first = `Carol goes first, ${channelMark}.`;
    h.discord.clearAudio(guild.id);
    h.sandbox.injectFault({ kind: 'hold-after-charge', endpoint: 'tts' });
    try {
      await h.discord.command({
        guildId: guild.id,
        userId: CAROL,
        name: 'say',
        options: [{ name: 'text', value: first }],
      });
      await expect.poll(() => h.sandbox.requests.some((r) => r.text === first && r.outcome === 'held')).toBe(true);
      const handle = await h.discord.messageCommand({
        guildId: guild.id,
        userId: ALICE,
        name: 'Speak',
        message: { author: { id: BOB, username: 'bob' }, content: 'Read this after the first one.' },
      });
      await handle.waitFor((r) => (r.content ?? '').startsWith('Queued'), 60_000);
      expect(isPrivate(handle.responses[0])).toBe(true);
      h.discord.advanceClock(FIFTEEN_MINUTES + 1_000);
      h.sandbox.resumePaused();
      await waitForLog((l) => l.msg === 'command done' && l.command === 'Speak', logMark);
      return { handle, logMark, channelMark };
    } finally {
      h.sandbox.clearFaults();
      h.sandbox.resumePaused();
    }
  }

  it('reaches the member by DM, never the channel (the public reply of the clip before it may go there)', async () => {
    const dmsBefore = h.discord.directMessages(ALICE).length;
    const { handle, channelMark } = await speakOutlivingItsToken();
    expect(handle.tokenExpired).toBe(true);
    const dm = await h.discord.waitForDirectMessage(
      (m) =>
        m.userId === ALICE &&
        h.discord.directMessages(ALICE).indexOf(m) >= dmsBefore &&
        String(m.message.content).includes('Spoke'),
    );
    // The outcome only: "Speaking…", a step that mattered only in the interaction, is not sent after it.
    expect(h.discord.directMessages(ALICE).slice(dmsBefore)).toEqual([dm]);
    expect((dm.raw as { allowed_mentions?: unknown }).allowed_mentions).toEqual({ parse: [] });
    expect(String(dm.message.content)).toMatch(/^About Speak in Skewed:\n/);
    // Carol's public reply, whose token expired too, may still fall back to the channel, naming her without a ping.
    const carols = await h.discord.waitForChannelMessage(
      (m) =>
        h.discord.channelMessages().indexOf(m) >= channelMark &&
        String(m.message.content).startsWith(`<@${CAROL}> Spoke`),
    );
    expect(carols.message.mentions).toEqual([]);
    const posts = channelPostsSince(channelMark);
    for (const post of posts) expect(String(post.message.content)).toMatch(new RegExp(`^<@${CAROL}> `));
    expect(posts.some((p) => String(p.message.content).includes(`<@${ALICE}>`))).toBe(false);
  });

  it("with the member's DMs closed: dropped with exactly one log line (no message body), never in the channel", async () => {
    h.discord.setDirectMessages(ALICE, false);
    try {
      const dmsBefore = h.discord.directMessages(ALICE).length;
      const { handle, logMark, channelMark } = await speakOutlivingItsToken();
      expect(handle.tokenExpired).toBe(true);
      const dropped = loggedCodes(logMark).filter(
        (l) => l.interactionId === handle.id && l.code === 'private-reply-dropped',
      );
      expect(dropped).toHaveLength(1);
      expect(JSON.stringify(dropped[0])).not.toContain('Spoke');
      expect(h.discord.directMessages(ALICE).length).toBe(dmsBefore);
      expect(channelPostsSince(channelMark).some((p) => String(p.message.content).includes(`<@${ALICE}>`))).toBe(false);
    } finally {
      h.discord.setDirectMessages(ALICE, true);
    }
  });
});
