// The service's figure of what is left is a hint, not a wall, end to end against the sandbox: after it said too few
// characters are left for a line and the owner topped up (the sandbox's key given characters back), the next /say,
// /emote, /clone, preset and cached line are served, a restart in between or not; while the figure says too few, one
// request at a time still goes out to find out, and the others are told the figure without asking.
import { PermissionFlagsBits } from 'discord.js';
import { beforeEach, describe, expect, it } from 'vitest';
import { PLAN_LIMITS } from '@saybot/voice-sandbox';
import type { FakeGuildSpec } from '@saybot/local-discord/types.ts';
import { fixture } from '../core/audio/fixtures.ts';
import { until } from '../support/books-shown.ts';
import { useFileHarness } from '../support/file-harness.ts';
import { numberValue, runCommand } from '../support/harness.ts';
import { oneRoomGuild } from '../support/world.ts';

const GUILD = '200000000000000861';
const OWNER = '300000000000008611'; // Manage Server, outside voice: files; sees the plan's figures
/** Another server, where a member's /say in voice waits behind a long line. */
const VOICE_GUILD = '200000000000000862';
const LISTENER = '300000000000008621'; // in its voice channel
const VOICE_ID = 'voice-b-en-f-01';
const FEW = 5;

const guilds: FakeGuildSpec[] = [
  oneRoomGuild(GUILD, 'Topped up', { text: '210000000000000861', voice: '220000000000000861' }, [
    { id: OWNER, username: 'owner', permissions: PermissionFlagsBits.ManageGuild },
  ]),
  oneRoomGuild(VOICE_GUILD, 'Queued', { text: '210000000000000862', voice: '220000000000000862' }, [
    { id: LISTENER, username: 'listener', voiceChannelId: '220000000000000862', locale: 'en-US' },
  ]),
];

const h = useFileHarness({ guilds, env: { VOICE_API_PLAN: 'creator' } });

let serial = 0;
const line = (words: string) => `${words}, line number ${++serial}.`;
const run = (name: string, options: Record<string, unknown>) =>
  runCommand(h, { guildId: GUILD, userId: OWNER, name, options: { output: 'file', ...options } });
const sayFile = (text: string, options: Record<string, string> = {}) =>
  run('say', { text, voice: VOICE_ID, ...options });

/** The key has only FEW characters left, and a /say of a longer line is refused by the service saying so. */
async function tooFewLeft(): Promise<void> {
  h.sandbox.setKeyUsed(h.apiKey, PLAN_LIMITS.creator - FEW);
  const before = h.sandbox.requests.length;
  const refused = await sayFile(line('Far longer than the few characters left'));
  expect(refused.content).toMatch(new RegExp(`only ${FEW} characters left this month and this needs \\d+`));
  expect(h.sandbox.requests.slice(before).map((r) => r.status)).toEqual([429]);
}

/** The owner buys characters at the service: fewer counted as used under the same plan. */
const topUp = () => h.sandbox.setKeyUsed(h.apiKey, 0);

beforeEach(async () => {
  h.sandbox.clearFaults();
  h.sandbox.setKeyPlan(h.apiKey, 'creator');
  topUp();
  // A test before may have left a figure of too few: a line that fits goes and has the service's count now.
  expect((await sayFile(String(++serial))).content).toMatch(/^Here is/);
});

const served = /^Here is/;

describe('after too few characters left and a top-up', () => {
  it('the next /say is served, sent to the service', async () => {
    await tooFewLeft();
    topUp();
    const before = h.sandbox.requests.length;
    expect((await sayFile(line('Served after the top-up'))).content).toMatch(served);
    expect(h.sandbox.requests.slice(before).map((r) => r.status)).toEqual([200]);
  });

  it('the next /emote is served', async () => {
    await tooFewLeft();
    topUp();
    const { content } = await run('emote', { text: line('Glad to be heard again'), exaggeration: numberValue(0.7) });
    expect(content).toMatch(served);
  });

  it('the next /clone is served', async () => {
    await tooFewLeft();
    topUp();
    const { content } = await runCommand(h, {
      guildId: GUILD,
      userId: OWNER,
      name: 'clone',
      options: {
        text: line('Hello, this is my voice after the top-up'),
        name: `Topped ${serial}`,
        consent: true,
        output: 'file',
      },
      attachments: [
        { option: 'audio', data: fixture('tone-220hz-5s-48k.wav'), filename: 'me.wav', contentType: 'audio/wav' },
      ],
    });
    expect(content).toMatch(/clone_/);
    expect(content).not.toMatch(/characters left/);
  });

  it('a line in a preset is served', async () => {
    const saved = await runCommand(h, {
      guildId: GUILD,
      userId: OWNER,
      name: 'preset',
      subcommand: 'save',
      options: { name: 'Bright', voice: VOICE_ID },
    });
    expect(saved.content).toContain('"Bright"');
    await tooFewLeft();
    topUp();
    expect((await run('say', { text: line('Said in the preset'), preset: 'Bright' })).content).toMatch(served);
  });

  it('a cached line is served, and a line with it too', async () => {
    const cached = line('Kept in the cache from before');
    expect((await sayFile(cached)).content).toMatch(served);
    await tooFewLeft();
    topUp();
    expect((await sayFile(cached)).content).toMatch(served);
    expect((await sayFile(`${cached} ${line('And something new')}`)).content).toMatch(served);
  });

  it('a restart in between changes nothing: the figure from before it is not taken as still true', async () => {
    await tooFewLeft();
    await h.restart();
    topUp();
    expect((await sayFile(line('Served after a restart and the top-up'))).content).toMatch(served);
    await tooFewLeft();
    topUp();
    await h.restart();
    expect((await sayFile(line('Served after the top-up and a restart'))).content).toMatch(served);
  });
});

describe('while the figure says too few', () => {
  it('one request at a time goes out to find out; another meanwhile is told the figure without asking', async () => {
    await tooFewLeft();
    // Still too few: the next that cannot fit asks the service once more, and is told what it says.
    let before = h.sandbox.requests.length;
    expect((await sayFile(line('This one asks the service again'))).content).toMatch(
      new RegExp(`only ${FEW} characters left this month and this needs \\d+`),
    );
    expect(h.sandbox.requests.slice(before).map((r) => r.status)).toEqual([429]);
    // Topped up: the one that asks is held at the service until the other has been answered (an event, not a delay).
    topUp();
    h.sandbox.injectFault({ kind: 'hold-before-charge', endpoint: 'tts' });
    before = h.sandbox.requests.length;
    const asking = sayFile(line('This one asks the service once more'));
    await until(() => h.sandbox.requests.slice(before).some((r) => r.outcome === 'waiting'));
    const told = await sayFile(line('This one is told the figure meanwhile'));
    expect(told.content).toMatch(new RegExp(`only ${FEW} characters left this month and this needs \\d+`));
    expect(h.sandbox.requests.length - before).toBe(1);
    h.sandbox.resumePaused();
    expect((await asking).content).toMatch(served);
    // Its answer gave the service's count now: the next goes as any other.
    expect((await sayFile(line('Served as usual'))).content).toMatch(served);
  });
});

describe('an order waiting in a queue holds no probe', () => {
  it("another server's /say after the top-up goes out and is served; the waiting one is served at its turn", async () => {
    // Two lines already in the cache (said to a file): played again in voice they cost nothing and take no probe. The
    // first plays for a good while; the paid line waits behind both, so nothing of it is asked for until its turn nears.
    const long = line(
      'A long line already made, that plays from the cache for a good while in the other server, long enough for the owner of the first server to ask for a line of their own while it still plays',
    );
    const short = line('Short, made already');
    expect(h.sandbox.expectedDurationSeconds(long)).toBeGreaterThan(10);
    const sayIn = (text: string) =>
      h.discord.command({
        guildId: VOICE_GUILD,
        userId: LISTENER,
        name: 'say',
        options: [
          { name: 'text', value: text },
          { name: 'voice', value: VOICE_ID },
        ],
      });
    for (const text of [long, short]) {
      const options = { text, voice: VOICE_ID, output: 'file' };
      const cached = await runCommand(h, { guildId: VOICE_GUILD, userId: LISTENER, name: 'say', options });
      expect(cached.content).toMatch(served);
    }
    await tooFewLeft();
    // The long line plays; the short one and a paid line wait behind it, accepted while the figure says too few.
    h.discord.clearAudio(VOICE_GUILD);
    const playing = await sayIn(long);
    await h.discord.waitForPacket(VOICE_GUILD, (packet) => !packet.silence, 60_000);
    const next = await sayIn(short);
    await next.waitFor((r) => (r.content ?? '').startsWith('Queued'), 60_000);
    const waitingText = line('Waiting behind them');
    const waiting = await sayIn(waitingText);
    await waiting.waitFor((r) => (r.content ?? '').startsWith('Queued'), 60_000);
    topUp();
    // The other server's /say is not refused for a probe nobody is using: it goes out, and is served.
    const before = h.sandbox.requests.length;
    const other = await sayFile(line('Asked in another server while the paid line waits'));
    expect(other.content).toMatch(served);
    expect(h.sandbox.requests.slice(before).map((r) => r.status)).toEqual([200]);
    // Nothing of the waiting line was sent meanwhile; at its turn it is served.
    expect(h.sandbox.requests.some((r) => r.text === waitingText)).toBe(false);
    await runCommand(h, { guildId: VOICE_GUILD, userId: LISTENER, name: 'skip' });
    await playing.waitFor((r) => (r.content ?? '').startsWith('Skipped'), 60_000);
    await waiting.waitFor((r) => (r.content ?? '').startsWith('Spoke'), 60_000);
    expect(h.sandbox.requests.filter((r) => r.text === waitingText).map((r) => r.status)).toEqual([200]);
  });

  // Issue 94 item 2, from its outside check: a paid line waiting right behind the last clip of a long line would be
  // fetched at once, while the books still say the month is used up or too few are left; its request took the one
  // turn to find out ~30 s before its turn, and its 429 from before the top-up was its answer at its turn.
  const fewTold = new RegExp(`only ${FEW} characters left this month and this needs \\d+`);
  const usedUpTold = /monthly character quota of the voice service is used up/;
  it.each([
    { left: FEW, told: fewTold, front: 'say' },
    { left: 0, told: usedUpTold, front: 'say' },
    { left: 0, told: usedUpTold, front: 'emote' },
    { left: 0, told: usedUpTold, front: 'Speak' },
  ] as const)(
    '$left left, $front: a paid line right behind a playing one is not asked for before its turn, and is served at it',
    async ({ left, told, front }) => {
      const long = line(
        'A long line already made, that plays from the cache for a good while in the other server, long enough for a paid line to wait behind it while the owner of the first server finds out and then tops up',
      );
      expect(h.sandbox.expectedDurationSeconds(long)).toBeGreaterThan(10);
      const options = { text: long, voice: VOICE_ID, output: 'file' };
      expect((await runCommand(h, { guildId: VOICE_GUILD, userId: LISTENER, name: 'say', options })).content).toMatch(
        served,
      );
      const sayIn = (text: string) =>
        h.discord.command({
          guildId: VOICE_GUILD,
          userId: LISTENER,
          name: 'say',
          options: [
            { name: 'text', value: text },
            { name: 'voice', value: VOICE_ID },
          ],
        });
      const finding = async () => {
        const before = h.sandbox.requests.length;
        const refused = await sayFile(line('Far longer than what is left this month, asked to find out'));
        expect(refused.content).toMatch(told);
        expect(h.sandbox.requests.slice(before).map((r) => r.status)).toEqual([429]);
      };
      h.sandbox.setKeyUsed(h.apiKey, PLAN_LIMITS.creator - left);
      await finding();
      h.discord.clearAudio(VOICE_GUILD);
      const playing = await sayIn(long);
      await h.discord.waitForPacket(VOICE_GUILD, (packet) => !packet.silence, 60_000);
      // Short: what is asserted is when it is asked for, and it is heard whole before its reply says so.
      const waitingText = line(`Waiting behind (${front})`);
      const message = { author: { id: LISTENER, username: 'listener' }, content: waitingText };
      const waiting =
        front === 'say'
          ? await sayIn(waitingText)
          : front === 'Speak'
            ? await h.discord.messageCommand({ guildId: VOICE_GUILD, userId: LISTENER, name: front, message })
            : await h.discord.command({
                guildId: VOICE_GUILD,
                userId: LISTENER,
                name: front,
                options: [{ name: 'text', value: waitingText }],
              });
      await waiting.waitFor((r) => (r.content ?? '').startsWith('Queued'), 60_000);
      // the probe is free for a request that is due: the owner's goes out, and hears the service itself.
      await finding();
      topUp();
      const before = h.sandbox.requests.length;
      expect((await sayFile(line('Asked after the top-up while the paid line waits'))).content).toMatch(served);
      expect(h.sandbox.requests.slice(before).map((r) => r.status)).toEqual([200]);
      const asked = () => h.sandbox.requests.filter((r) => r.text?.includes(waitingText) === true);
      expect(asked()).toEqual([]);
      await runCommand(h, { guildId: VOICE_GUILD, userId: LISTENER, name: 'skip' });
      await playing.waitFor((r) => (r.content ?? '').startsWith('Skipped'), 60_000);
      await waiting.waitFor((r) => (r.content ?? '').startsWith('Spoke'), 60_000);
      expect(asked().map((r) => r.status)).toEqual([200]);
    },
  );
});
