// An order accepted for voice is the member's to stop, skip or leave from the instant it is accepted, whatever the
// voice connection is doing (issue 56): while SayBot is still joining, /stop ends it, nothing more of it is asked for
// or paid once the /stop is answered, and the answer counts what was stopped; the rights are judged against the
// channel being joined. The local Discord holds SayBot's join unanswered for as long as the test needs
// (holdVoiceRequests), so nothing here hangs on timing.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PermissionFlagsBits } from 'discord.js';
import { answerOf, spentShown as spentShownTo } from '../support/books-shown.ts';
import { useFileHarness } from '../support/file-harness.ts';
import { DEFAULT_PERMISSIONS } from '@saybot/local-discord/state.ts';
import { runCommand } from '../support/harness.ts';
import { oneRoomGuild } from '../support/world.ts';
import { booksSettled } from '../support/books-settled.ts';
import { t } from '../../src/core/i18n/catalogue.ts';
import { countCharacters } from '../../src/core/characters.ts';
import { splitText } from '../../src/core/sourcing/part-request.ts';
import { previewScene, pressSceneButton } from '../support/scene-preview.ts';

const GUILD = '200000000000000056';
const TEXT = '210000000000000056';
const VOICE = '220000000000000056';
const SPEAKER = '300000000000000561'; // in voice, no rights over others
const NEIGHBOUR = '300000000000000562'; // in voice too, no rights over others
const OUTSIDE = '300000000000000563'; // not in voice, no rights
const MODERATOR = '300000000000000564'; // not in voice, Mute Members
const VOICE_ID = 'voice-b-en-f-01';
const CAST = `cast: Ann = ${VOICE_ID}, Ben = voice-b-en-m-01`;
const MAX_CHARS = 40;

const h = useFileHarness({
  guilds: [
    oneRoomGuild(GUILD, 'Joining', { text: TEXT, voice: VOICE }, [
      { id: SPEAKER, username: 'speaker', voiceChannelId: VOICE, locale: 'en-US' },
      { id: NEIGHBOUR, username: 'neighbour', voiceChannelId: VOICE, locale: 'en-US' },
      { id: OUTSIDE, username: 'outside', locale: 'en-US' },
      {
        id: MODERATOR,
        username: 'moderator',
        locale: 'en-US',
        permissions: DEFAULT_PERMISSIONS | PermissionFlagsBits.MuteMembers,
      },
    ]),
  ],
  // Parts of at most 40 characters, so that a short text is several parts (TTS_MAX_CHARS_PER_REQUEST's own floor is
  // 50).
  config: { maxCharsPerRequest: MAX_CHARS, voiceIdleTimeoutMs: 60_000 },
});

let release: (() => void) | undefined;
let serial = 0;

/** A text of four parts, new each time (a real request each, never the cache). */
function fourParts(): { text: string; parts: string[] } {
  const n = ++serial;
  const text = `First part ${n} is spoken right here. Second part ${n} follows it closely. Third part ${n} comes after that. Fourth part ${n} ends the order.`;
  const parts = splitText(text, MAX_CHARS);
  expect(parts.length).toBe(4);
  return { text, parts };
}

/** This order's requests at the service since `before`. */
function requestsFor(parts: readonly string[], before: number) {
  return h.sandbox.requests.slice(before).filter((r) => r.text !== undefined && parts.includes(r.text));
}

/** /say in voice by `userId`, answered once SayBot accepted it (its first response): the order is SayBot's now. */
async function sayAccepted(text: string, userId = SPEAKER) {
  const handle = await h.discord.command({
    guildId: GUILD,
    userId,
    name: 'say',
    options: [
      { name: 'text', value: text },
      { name: 'voice', value: VOICE_ID },
    ],
  });
  await expect.poll(() => handle.responses.length).toBeGreaterThan(0);
  return handle;
}

const outcomeOf = answerOf;

/** This server's characters spent this month, as /usage shows them. */
const spentShown = () => spentShownTo(h, GUILD, SPEAKER);

/** SayBot's join is answered and it has nothing left to play: from here nothing of a stopped order may come. */
async function joinedAndIdle(): Promise<void> {
  await expect.poll(() => h.discord.botVoiceChannel(GUILD)).toBe(VOICE);
  await expect
    .poll(() => {
      const player = h.bot.players.find(GUILD);
      return player?.state.kind === 'connected' && !player.busy;
    })
    .toBe(true);
}

beforeAll(() => {
  h.sandbox.setKeyUsed(h.apiKey, 0);
});

// Each test starts with SayBot out of voice and its joins answered at once.
beforeEach(async () => {
  if (h.discord.botVoiceChannel(GUILD) !== null) {
    await runCommand(h, { guildId: GUILD, userId: MODERATOR, name: 'leave' });
    await expect.poll(() => h.discord.botVoiceChannel(GUILD)).toBe(null);
  }
  h.discord.clearAudio(GUILD);
});
afterEach(() => {
  h.sandbox.clearFaults();
  h.sandbox.resumePaused();
  release?.();
  release = undefined;
});

/**
 * SayBot asked to join (an order of this guild was accepted and is being delivered): its request reaches the local
 * Discord on the gateway, beside the order's answer on REST, in either order.
 */
async function untilJoinAsked(): Promise<void> {
  await expect.poll(() => h.discord.heldVoiceRequestCount(GUILD)).toBeGreaterThan(0);
}

/** Holds SayBot's next join unanswered until the test lets it go. */
function holdJoin(): () => void {
  release = h.discord.holdVoiceRequests(GUILD);
  return release;
}

describe('while SayBot is joining voice', () => {
  /**
   * /say in voice by SPEAKER while the join is held, its first part's request at the service in `state`, then /stop.
   * Returns what the books and the service say of it once all has settled.
   */
  async function stopWhileFirstPart(state: 'answered' | 'held' | 'waiting') {
    const { text, parts } = fourParts();
    if (state === 'held') h.sandbox.injectFault({ kind: 'hold-after-charge', endpoint: 'tts' });
    if (state === 'waiting') h.sandbox.injectFault({ kind: 'hold-before-charge', endpoint: 'tts' });
    const outcome = { answered: 'complete', held: 'held', waiting: 'waiting' }[state];
    const letJoin = holdJoin();
    const before = h.sandbox.requests.length;
    const billedBefore = h.sandbox.charactersBilled();
    const spentBefore = await spentShown();
    const say = await sayAccepted(text);
    await untilJoinAsked();
    // The first part went out beside the join; the stop comes at a point of its request the test chose.
    await expect
      .poll(() => requestsFor(parts, before).some((r) => r.text === parts[0] && r.outcome === outcome))
      .toBe(true);
    const stop = await runCommand(h, { guildId: GUILD, userId: SPEAKER, name: 'stop' });
    // The first part is the one under way (as when it plays), the other three were waiting.
    expect(stop.content).toBe(t('en-US', 'stop.own', { count: parts.length - 1 }));
    const asked = requestsFor(parts, before).map((r) => r.text);
    expect(asked).toEqual([parts[0]]);
    if (state !== 'answered') {
      // Nobody waits for its answer any more and the service has not begun it: SayBot closes the request.
      await expect.poll(() => requestsFor(parts, before).map((r) => r.outcome)).toEqual(['client-aborted']);
    }
    h.sandbox.resumePaused();
    letJoin();
    expect(await outcomeOf(say)).toMatch(/^Stopped/);
    await joinedAndIdle();
    await booksSettled(h);
    expect(requestsFor(parts, before).map((r) => r.text)).toEqual(asked);
    expect(h.discord.heard(GUILD).seconds).toBe(0);
    return {
      first: countCharacters(parts[0] ?? ''),
      billed: h.sandbox.charactersBilled() - billedBefore,
      shown: (await spentShown()) - spentBefore,
    };
  }

  it('/stop ends the order: counted in the answer, nothing more asked for or paid, nothing heard', async () => {
    // The first part was answered before the stop: what was sent is paid and shown as paid, to the character.
    const { first, billed, shown } = await stopWhileFirstPart('answered');
    expect(billed).toBe(first);
    expect(shown).toBe(first);
  });

  it('/stop while the service holds the charged first part: closed, and shown as paid', async () => {
    const { first, billed, shown } = await stopWhileFirstPart('held');
    expect(billed).toBe(first);
    expect(shown).toBe(first);
  });

  it('/stop while the first part waits at the service uncharged: closed, and shown as it may have been paid', async () => {
    // SayBot cannot tell a request waiting uncharged from one charged whose answer is late: the part it closed is
    // counted as spent (a ceiling of what the service billed), never left out.
    const { first, billed, shown } = await stopWhileFirstPart('waiting');
    expect(billed).toBe(0);
    expect(shown).toBe(first);
  });

  it('/skip ends the order under way; an order behind it still plays', async () => {
    const first = fourParts();
    const letJoin = holdJoin();
    const before = h.sandbox.requests.length;
    const say = await sayAccepted(first.text);
    await untilJoinAsked();
    const next = await sayAccepted('The order behind it is heard.', NEIGHBOUR);
    const skip = await runCommand(h, { guildId: GUILD, userId: SPEAKER, name: 'skip' });
    expect(skip.content).toBe(t('en-US', 'skip.skipped'));
    letJoin();
    expect(await outcomeOf(say)).toMatch(/^Skipped/);
    expect(await outcomeOf(next)).toMatch(/^Spoke/);
    await booksSettled(h);
    expect(requestsFor(first.parts, before).every((r) => r.text === first.parts[0])).toBe(true);
  });

  it("the rights are judged against the channel being joined: others' orders are a voice moderator's to stop", async () => {
    const { text, parts } = fourParts();
    const letJoin = holdJoin();
    const before = h.sandbox.requests.length;
    const say = await sayAccepted(text);
    await untilJoinAsked();
    // Not in the channel being joined, and no moderator: refused, nothing changed.
    const outside = await runCommand(h, { guildId: GUILD, userId: OUTSIDE, name: 'stop' });
    expect(outside.content).toBe(t('en-US', 'player.notInChannel', { channel: `<#${VOICE}>` }));
    // In it, with nothing of their own there: nothing stopped.
    const neighbour = await runCommand(h, { guildId: GUILD, userId: NEIGHBOUR, name: 'stop' });
    expect(neighbour.content).toBe(t('en-US', 'stop.nothingOwn'));
    const notYours = await runCommand(h, { guildId: GUILD, userId: NEIGHBOUR, name: 'skip' });
    expect(notYours.content).toBe(t('en-US', 'skip.notYours'));
    // A voice moderator of that channel stops it, though not in voice.
    const moderator = await runCommand(h, { guildId: GUILD, userId: MODERATOR, name: 'stop' });
    expect(moderator.content).toBe(t('en-US', 'stop.stopped', { count: parts.length - 1 }));
    letJoin();
    expect(await outcomeOf(say)).toMatch(/^Stopped/);
    await joinedAndIdle();
    await booksSettled(h);
    expect(requestsFor(parts, before).every((r) => r.text === parts[0])).toBe(true);
    expect(h.discord.heard(GUILD).seconds).toBe(0);
  });

  it('/leave ends the order and the join: SayBot is not in voice once Discord answers', async () => {
    const { text, parts } = fourParts();
    const letJoin = holdJoin();
    const before = h.sandbox.requests.length;
    const say = await sayAccepted(text);
    await untilJoinAsked();
    const leave = await runCommand(h, { guildId: GUILD, userId: SPEAKER, name: 'leave' });
    expect(leave.content).toBe(t('en-US', 'leave.left', { channel: `<#${VOICE}>` }));
    letJoin();
    expect(await outcomeOf(say)).toMatch(/^Stopped/);
    await expect.poll(() => h.bot.players.find(GUILD)?.state.kind ?? 'disconnected').toBe('disconnected');
    expect(h.discord.botVoiceChannel(GUILD)).toBe(null);
    await booksSettled(h);
    expect(requestsFor(parts, before).every((r) => r.text === parts[0])).toBe(true);
    expect(h.discord.heard(GUILD).seconds).toBe(0);
  });

  it('/join given up by a /leave is answered so, and SayBot stays out of voice', async () => {
    const letJoin = holdJoin();
    const join = await h.discord.command({ guildId: GUILD, userId: SPEAKER, name: 'join' });
    await untilJoinAsked();
    const leave = await runCommand(h, { guildId: GUILD, userId: SPEAKER, name: 'leave' });
    expect(leave.content).toBe(t('en-US', 'leave.left', { channel: `<#${VOICE}>` }));
    expect((await join.waitFor((r) => r.content !== undefined, 60_000)).content).toBe(
      t('en-US', 'error.voice.leftWhileJoining', { channel: `<#${VOICE}>` }),
    );
    letJoin();
    await expect.poll(() => h.bot.players.find(GUILD)?.state.kind ?? 'disconnected').toBe('disconnected');
    expect(h.discord.botVoiceChannel(GUILD)).toBe(null);
  });

  it("a member's /leave is refused while another member's order waits for the join", async () => {
    const { text } = fourParts();
    const letJoin = holdJoin();
    const say = await sayAccepted(text);
    await untilJoinAsked();
    const leave = await runCommand(h, { guildId: GUILD, userId: NEIGHBOUR, name: 'leave' });
    expect(leave.content).toBe(t('en-US', 'leave.othersQueued', { channel: `<#${VOICE}>` }));
    letJoin();
    expect(await outcomeOf(say)).toMatch(/^Spoke/);
  });

  it('/scene: /stop ends it as one clip, no line after the first asked for', async () => {
    const n = ++serial;
    const lines = [`Ann: Scene ${n} line one is here.`, `Ben: Scene ${n} line two follows.`, `Ann: Scene ${n} ends.`];
    const texts = lines.map((line) => line.slice(5));
    const letJoin = holdJoin();
    const shown = await previewScene(h, GUILD, [CAST, ...lines].join('\n'), 'voice', { userId: SPEAKER });
    const before = h.sandbox.requests.length;
    const go = await pressSceneButton(h, GUILD, shown, shown.confirm, SPEAKER);
    await untilJoinAsked();
    // A scene is one clip: the one under way.
    const stop = await runCommand(h, { guildId: GUILD, userId: SPEAKER, name: 'stop' });
    expect(stop.content).toBe(t('en-US', 'stop.own', { count: 0 }));
    letJoin();
    await go.waitFor((r) => (r.content ?? '').startsWith('The scene was stopped'), 60_000);
    await joinedAndIdle();
    await booksSettled(h);
    expect(requestsFor(texts, before).every((r) => r.text === texts[0])).toBe(true);
    expect(h.discord.heard(GUILD).seconds).toBe(0);
  });

  it('the Speak menu: /stop ends its order too', async () => {
    const { text, parts } = fourParts();
    const letJoin = holdJoin();
    const before = h.sandbox.requests.length;
    const speak = await h.discord.messageCommand({
      guildId: GUILD,
      userId: SPEAKER,
      name: 'Speak',
      message: { author: { id: NEIGHBOUR, username: 'neighbour' }, content: text },
    });
    await expect.poll(() => speak.responses.length).toBeGreaterThan(0);
    await untilJoinAsked();
    const stop = await runCommand(h, { guildId: GUILD, userId: SPEAKER, name: 'stop' });
    expect(stop.content).toBe(t('en-US', 'stop.own', { count: parts.length - 1 }));
    letJoin();
    await speak.waitForFinal(60_000);
    await joinedAndIdle();
    await booksSettled(h);
    expect(requestsFor(parts, before).every((r) => r.text === parts[0])).toBe(true);
    expect(h.discord.heard(GUILD).seconds).toBe(0);
  });
});

describe('a file being made', { timeout: 120_000 }, () => {
  it("/stop ends the member's own: nothing more sent, what was made said as paid, the part held closed as may have been", async () => {
    const { text, parts } = fourParts();
    const before = h.sandbox.requests.length;
    const billedBefore = h.sandbox.charactersBilled();
    const spentBefore = await spentShown();
    // The first part answers at once; the second is charged and its answer held at the service.
    h.sandbox.injectFault({ kind: 'slow-headers', headersDelayMs: 0, endpoint: 'tts' });
    h.sandbox.injectFault({ kind: 'hold-after-charge', endpoint: 'tts' });
    const say = await h.discord.command({
      guildId: GUILD,
      userId: OUTSIDE,
      name: 'say',
      options: [
        { name: 'text', value: text },
        { name: 'voice', value: VOICE_ID },
        { name: 'output', value: 'file' },
      ],
    });
    await expect.poll(() => requestsFor(parts, before).some((r) => r.outcome === 'held')).toBe(true);
    const stop = await runCommand(h, { guildId: GUILD, userId: OUTSIDE, name: 'stop' });
    expect(stop.content).toBe(t('en-US', 'stop.files', { count: 1 }));
    const asked = requestsFor(parts, before).map((r) => r.text);
    expect(asked).toEqual(parts.slice(0, 2));
    // The second part's answer is held at the service after its charge: SayBot cannot tell that from one waiting
    // uncharged, so it closes it as nobody waits for it any more, and says it may have been counted.
    const paid = countCharacters(parts[0] ?? '');
    const unconfirmed = countCharacters(parts[1] ?? '');
    const answer = await say.waitFor((r) => r.content !== undefined && r.kind !== 'delete', 60_000);
    h.sandbox.resumePaused();
    expect(answer.content).toBe(t('en-US', 'error.renderStopped.paidClosed', { paid, unconfirmed }));
    expect(answer.files ?? []).toEqual([]);
    await booksSettled(h);
    expect(requestsFor(parts, before).map((r) => r.text)).toEqual(asked);
    expect(h.sandbox.charactersBilled() - billedBefore).toBe(paid + unconfirmed);
    expect((await spentShown()) - spentBefore).toBe(paid + unconfirmed);
  });

  it("/stop leaves another member's file alone", async () => {
    const { text, parts } = fourParts();
    const before = h.sandbox.requests.length;
    h.sandbox.injectFault({ kind: 'hold-after-charge', endpoint: 'tts' });
    const say = await h.discord.command({
      guildId: GUILD,
      userId: OUTSIDE,
      name: 'say',
      options: [
        { name: 'text', value: text },
        { name: 'voice', value: VOICE_ID },
        { name: 'output', value: 'file' },
      ],
    });
    await expect.poll(() => requestsFor(parts, before).some((r) => r.outcome === 'held')).toBe(true);
    const stop = await runCommand(h, { guildId: GUILD, userId: MODERATOR, name: 'stop' });
    // SayBot is in no voice channel: nothing was stopped, and a moderator is told just that.
    expect(stop.content).toBe(t('en-US', 'stop.nothing'));
    h.sandbox.resumePaused();
    const answer = await say.waitFor((r) => (r.files ?? []).length > 0, 60_000);
    expect(answer.files).toHaveLength(1);
    expect(requestsFor(parts, before)).toHaveLength(4);
  });
});

describe('in voice', () => {
  it('/stop of a long order is a normal outcome: no unhandled rejection, no error-level line', async () => {
    await runCommand(h, { guildId: GUILD, userId: SPEAKER, name: 'join' });
    const { text } = fourParts();
    const from = h.logs().split('\n').length;
    const say = await sayAccepted(text);
    await h.discord.waitForPacket(GUILD, (packet) => !packet.silence, 20_000);
    // Parts 2 to 4 were queued; the third and fourth were not yet asked for when the stop let them go.
    const stop = await runCommand(h, { guildId: GUILD, userId: SPEAKER, name: 'stop' });
    expect(stop.content).toBe(t('en-US', 'stop.own', { count: 3 }));
    expect(await outcomeOf(say)).toMatch(/^Stopped/);
    await booksSettled(h);
    const lines = h.logs().split('\n').slice(from).filter(Boolean);
    expect(lines.filter((line) => line.includes('unhandled promise rejection'))).toEqual([]);
    expect(lines.filter((line) => /"level":(50|60)/.test(line))).toEqual([]);
  });
});
