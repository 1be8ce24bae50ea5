// Several voice channels of one server at once (issue 93): the main bot and two helper bots, each a seat, each heard
// only in its own channel; no seat free; a listened-to seat never moved; one set of books; a failing helper.
import { PermissionFlagsBits } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { t } from '../../src/core/i18n/catalogue.ts';
import { APP_ID, pitchOf, runCommand, startHarness, type Harness } from '../support/harness.ts';
import { booksSettled } from '../support/books-settled.ts';
import type { FakeGuildSpec } from '@saybot/local-discord';

const GUILD = '200000000000000931';
const TEXT = '210000000000000931';
const [LOUNGE, STUDY, GAMES, QUIET] = [
  '220000000000000931',
  '220000000000000932',
  '220000000000000933',
  '220000000000000934',
];
const [ANN, BEN, CAT, DAN] = ['300000000000000931', '300000000000000932', '300000000000000933', '300000000000000934'];

function guilds(): FakeGuildSpec[] {
  return [
    {
      id: GUILD,
      name: 'Rooms',
      textChannelId: TEXT,
      voiceChannels: [
        { id: LOUNGE, name: 'lounge' },
        { id: STUDY, name: 'study' },
        { id: GAMES, name: 'games' },
        { id: QUIET, name: 'quiet' },
      ],
      members: [
        { id: ANN, username: 'ann', voiceChannelId: LOUNGE, locale: 'en-US' },
        { id: BEN, username: 'ben', voiceChannelId: STUDY, locale: 'en-US' },
        { id: CAT, username: 'cat', voiceChannelId: GAMES, locale: 'en-US' },
        { id: DAN, username: 'dan', voiceChannelId: QUIET, locale: 'en-US' },
      ],
    },
  ];
}

const start = (helpers = 2) => startHarness({ guilds: guilds(), helpers, config: { voiceIdleTimeoutMs: 60_000 } });

const say = (h: Harness, userId: string, text: string, voice: string) =>
  runCommand(h, { guildId: GUILD, userId, name: 'say', options: { text, voice } });

/** Where each bot sits: the main bot, then the helpers. */
const seating = (h: Harness) => [
  h.discord.botVoiceChannel(GUILD, APP_ID),
  ...h.helpers.map((helper) => h.discord.botVoiceChannel(GUILD, helper.userId)),
];

const LINES = [
  { member: ANN, channel: LOUNGE, voice: 'voice-b-en-m-01', text: 'The lounge hears the first of three voices.' },
  { member: BEN, channel: STUDY, voice: 'voice-b-en-f-01', text: 'The study hears a second voice at the same time.' },
  { member: CAT, channel: GAMES, voice: 'voice-b-ko-f-01', text: 'The games room hears a third one meanwhile.' },
];

describe('seats: several voice channels of one server at once', () => {
  it('three channels speak at once, each on its own bot and heard only in its own channel', async () => {
    const h = await start();
    try {
      h.sandbox.setPacing({ realtimeFactor: 1 });
      const asked = [];
      for (const line of LINES) {
        const said = await say(h, line.member, line.text, line.voice);
        // Speaking before the next asks: the next never finds the seat free, so each takes a seat of its own.
        await said.handle.waitFor((r) => (r.content ?? '').includes('Speaking'), 30_000);
        asked.push(said);
      }
      expect(seating(h)).toEqual([LOUNGE, STUDY, GAMES]);
      for (const said of asked) await said.handle.waitFor((r) => (r.content ?? '').startsWith('Spoke'), 30_000);
      for (const line of LINES) {
        const heard = await h.discord.waitForAudio(
          { guildId: GUILD, channelId: line.channel },
          { minSeconds: h.sandbox.expectedDurationSeconds(line.text) - 0.1 },
        );
        // Its own line whole, and nothing of the others': its own voice's pitch, its own length.
        expect(heard.seconds).toBeLessThan(h.sandbox.expectedDurationSeconds(line.text) + 0.3);
        expect(Math.abs((pitchOf(heard) ?? 0) - (h.sandbox.voicePitchHz(line.voice) ?? 0))).toBeLessThan(4);
      }
      expect(h.discord.heard({ guildId: GUILD, channelId: QUIET }).seconds).toBe(0);
      await booksSettled(h);
    } finally {
      await h.close();
    }
  });

  it('two channels: /join names the helper that joined, and a line made for one seat is replayed from the cache by another', async () => {
    const h = await start(1);
    try {
      const text = 'Said once, heard in two rooms.';
      const first = await say(h, ANN, text, 'voice-b-en-m-01');
      await first.handle.waitFor((r) => (r.content ?? '').startsWith('Spoke'), 30_000);
      const requests = h.sandbox.requests.length;
      const joined = await runCommand(h, { guildId: GUILD, userId: BEN, name: 'join' });
      const helper = h.helpers[0]!;
      expect(joined.content).toContain(
        t('en-US', 'join.joinedAs', { bot: `<@${helper.userId}>`, channel: `<#${STUDY}>` }),
      );
      expect(seating(h)).toEqual([LOUNGE, STUDY]);
      h.discord.clearAudio({ guildId: GUILD, channelId: STUDY });
      const again = await say(h, BEN, text, 'voice-b-en-m-01');
      await again.handle.waitFor((r) => (r.content ?? '').startsWith('Spoke'), 30_000);
      const heard = await h.discord.waitForAudio(
        { guildId: GUILD, channelId: STUDY },
        { minSeconds: h.sandbox.expectedDurationSeconds(text) - 0.1 },
      );
      expect(heard.seconds).toBeGreaterThan(h.sandbox.expectedDurationSeconds(text) - 0.1);
      // One set of books and one cache per server, whatever bot speaks: nothing asked of the service again.
      expect(h.sandbox.requests.length).toBe(requests);
    } finally {
      await h.close();
    }
  });

  it("QUEUE_MAX_* bound each seat's queue: a full queue in the lounge never refuses the study, whose free helper speaks", async () => {
    const h = await startHarness({
      guilds: guilds(),
      helpers: 1,
      env: { QUEUE_MAX_CLIPS: '1' },
      config: { voiceIdleTimeoutMs: 60_000 },
    });
    try {
      h.sandbox.setPacing({ realtimeFactor: 1 });
      const ann = await say(h, ANN, 'The lounge fills its one clip of queue for a while.', 'voice-b-en-m-01');
      await ann.handle.waitFor((r) => (r.content ?? '').includes('Speaking'), 30_000);
      const ben = await say(h, BEN, 'The study has its own.', 'voice-b-en-f-01');
      const end = await ben.handle.waitFor(
        (r) => r.kind !== 'delete' && !(r.content ?? 'Speaking').includes('Speaking'),
        60_000,
      );
      expect(end.content).toMatch(/^Spoke/);
      expect(seating(h)).toEqual([LOUNGE, STUDY]);
    } finally {
      await h.close();
    }
  });

  it('a free main bot denied Connect in the study is passed over: the free helper that may speak there takes it', async () => {
    const world = guilds();
    world[0]!.voiceChannels[1] = {
      id: STUDY,
      name: 'study',
      overwrites: [{ id: APP_ID, type: 1, deny: PermissionFlagsBits.Connect }],
    };
    const h = await startHarness({ guilds: world, helpers: 1, config: { voiceIdleTimeoutMs: 60_000 } });
    try {
      const said = await say(h, BEN, 'Helper, please.', 'voice-b-en-f-01');
      const end = await said.handle.waitFor(
        (r) => r.kind !== 'delete' && !(r.content ?? 'Speaking').includes('Speaking'),
        30_000,
      );
      expect(end.content).toMatch(/^Spoke/);
      expect(seating(h)).toEqual([null, STUDY]);
    } finally {
      await h.close();
    }
  });

  it('no seat free: a private answer naming the busy channels and offering a file, nothing asked or held', async () => {
    const h = await start(1);
    try {
      await runCommand(h, { guildId: GUILD, userId: ANN, name: 'join' });
      await runCommand(h, { guildId: GUILD, userId: BEN, name: 'join' });
      expect(seating(h)).toEqual([LOUNGE, STUDY]);
      const requests = h.sandbox.requests.length;
      const refused = await say(h, CAT, 'Anyone free?', 'voice-b-en-m-01');
      expect(refused.content).toBe(t('en-US', 'error.voice.noSeat', { channels: `<#${LOUNGE}>, <#${STUDY}>` }));
      expect(refused.content).toContain('output: file');
      expect(h.sandbox.requests.length).toBe(requests);
      // Listened to, neither seat moved.
      expect(seating(h)).toEqual([LOUNGE, STUDY]);
      const file = await runCommand(h, {
        guildId: GUILD,
        userId: CAT,
        name: 'say',
        options: { text: 'Anyone free?', output: 'file' },
      });
      await file.handle.waitFor((r) => (r.files ?? []).length > 0, 30_000);
    } finally {
      await h.close();
    }
  });

  it('no seat free for the Speak menu or /join: the refusal offers no `output: file`, which neither has', async () => {
    const h = await start(1);
    try {
      await runCommand(h, { guildId: GUILD, userId: ANN, name: 'join' });
      await runCommand(h, { guildId: GUILD, userId: BEN, name: 'join' });
      const message = { author: { id: ANN, username: 'ann' }, content: 'Read me out.' };
      const menu = await h.discord.messageCommand({ guildId: GUILD, userId: CAT, name: 'Speak', message });
      const refused = await menu.waitFor((r) => r.kind !== 'delete' && (r.content ?? '').includes('busy'), 30_000);
      const joined = await runCommand(h, { guildId: GUILD, userId: CAT, name: 'join' });
      for (const content of [refused.content, joined.content]) {
        expect(content).not.toContain('output');
        expect(content).toBe(t('en-US', 'error.voice.noSeat.voiceOnly', { channels: `<#${LOUNGE}>, <#${STUDY}>` }));
      }
      expect(seating(h)).toEqual([LOUNGE, STUDY]);
    } finally {
      await h.close();
    }
  });

  it('a refusal for a helper seat names that bot, not "me": the helper server-muted in the study', async () => {
    const h = await start(1);
    try {
      const helper = `<@${h.helpers[0]!.userId}>`;
      await runCommand(h, { guildId: GUILD, userId: ANN, name: 'join' });
      await runCommand(h, { guildId: GUILD, userId: BEN, name: 'join' });
      expect(seating(h)).toEqual([LOUNGE, STUDY]);
      h.discord.setVoiceState(GUILD, h.helpers[0]!.userId, STUDY, { mute: true });
      // Asked until the helper's own client has the mute (the gate reads that bot's view).
      await expect
        .poll(async () => (await say(h, BEN, 'Muted?', 'voice-b-en-m-01')).content, { timeout: 20_000 })
        .toContain('server-muted');
      const requests = h.sandbox.requests.length;
      const refused = await say(h, BEN, 'Muted?', 'voice-b-en-m-01');
      expect(refused.content).toContain(helper);
      expect(refused.content).not.toMatch(/\bme\b/);
      expect(refused.content).toBe(t('en-US', 'error.voice.botMuted.helper', { bot: helper, channel: `<#${STUDY}>` }));
      expect(h.sandbox.requests.length).toBe(requests);
    } finally {
      await h.close();
    }
  });

  it('a helper\'s voice join that fails names that bot, not "me", in the member\'s language (ja), pinging nobody', async () => {
    const h = await start(1);
    try {
      const helper = `<@${h.helpers[0]!.userId}>`;
      await runCommand(h, { guildId: GUILD, userId: ANN, name: 'join' });
      // The guild's next voice session, the helper's in the study, fails as a join: @discordjs/voice throws on it.
      h.discord.setDaveProposalsBeforeClientsConnect(GUILD);
      const { handle } = await runCommand(h, {
        guildId: GUILD,
        userId: BEN,
        name: 'say',
        options: { text: 'Helper, join the study.', voice: 'voice-b-en-f-01' },
        locale: 'ja',
      });
      const failed = await handle.waitFor((r) => (r.content ?? '').includes('参加できませんでした'), 30_000);
      expect(failed.content).toContain(helper);
      expect(failed.content).toContain(
        t('ja', 'error.voice.joinFailed.helper', { bot: helper, channel: `<#${STUDY}>` }),
      );
      expect(failed.mentioned).toEqual({ users: [], roles: [], everyone: false });
      expect(h.discord.botVoiceChannel(GUILD, APP_ID)).toBe(LOUNGE);
    } finally {
      await h.close();
    }
  });

  it('a helper\'s voice join Discord refuses with a close code (4021) names that bot, not "me", pinging nobody', async () => {
    const h = await start(1);
    try {
      const helper = `<@${h.helpers[0]!.userId}>`;
      await runCommand(h, { guildId: GUILD, userId: ANN, name: 'join' });
      // The guild's next voice sessions, the helper's in the study, are closed with 4021: no retry, the join fails.
      h.discord.refuseNextVoiceIdentify(GUILD, 4021, 3);
      const { handle } = await runCommand(h, {
        guildId: GUILD,
        userId: BEN,
        name: 'say',
        options: { text: 'Helper, join the study.', voice: 'voice-b-en-f-01' },
      });
      const failed = await handle.waitFor((r) => (r.content ?? '').includes('rate limited'), 30_000);
      expect(failed.content).toContain(
        t('en-US', 'error.voice.rateLimited.helper', { bot: helper, channel: `<#${STUDY}>` }),
      );
      expect(failed.content).not.toMatch(/\b(me|my)\b/);
      expect(failed.mentioned).toEqual({ users: [], roles: [], everyone: false });
      expect(h.discord.botVoiceChannel(GUILD, APP_ID)).toBe(LOUNGE);
    } finally {
      await h.close();
    }
  });

  it('a helper server-muted mid-line: its member is told nobody hears that bot, not "me", in their language (ko)', async () => {
    const h = await start(1);
    try {
      const helper = h.helpers[0]!;
      h.sandbox.setPacing({ realtimeFactor: 1 });
      await runCommand(h, { guildId: GUILD, userId: ANN, name: 'join' });
      const { handle } = await runCommand(h, {
        guildId: GUILD,
        userId: BEN,
        name: 'say',
        options: { text: 'A long line the helper is muted in the middle of saying.', voice: 'voice-b-en-f-01' },
        locale: 'ko',
      });
      await handle.waitFor((r) => (r.content ?? '').includes(`<#${STUDY}>`) && r.kind !== 'delete', 30_000);
      expect(h.discord.botVoiceChannel(GUILD, helper.userId)).toBe(STUDY);
      // Muted while it is heard: the line is cut, not ended.
      await expect
        .poll(() => h.discord.heard({ guildId: GUILD, channelId: STUDY }).seconds, { timeout: 20_000 })
        .toBeGreaterThan(0.2);
      h.discord.setVoiceState(GUILD, helper.userId, STUDY, { mute: true });
      const told = await handle.waitFor((r) => (r.content ?? '').includes('멈췄습니다'), 30_000);
      expect(told.content).toContain(`<@${helper.userId}>`);
      expect(told.content).toContain(
        t('ko', 'error.revoked.bot-unheard.helper', { bot: `<@${helper.userId}>`, channel: `<#${STUDY}>` }),
      );
      expect(told.mentioned).toEqual({ users: [], roles: [], everyone: false });
    } finally {
      await h.close();
    }
  });

  it('a helper removed from the server mid-line: its member is told, the main bot goes on, and it is a seat again once back', async () => {
    const h = await start(1);
    try {
      const helper = h.helpers[0]!;
      h.sandbox.setPacing({ realtimeFactor: 1 });
      const main = await say(h, ANN, LINES[0]!.text, LINES[0]!.voice);
      await main.handle.waitFor((r) => (r.content ?? '').includes('Speaking'), 30_000);
      const cut = await say(h, BEN, 'A long line the helper will not finish saying to the study.', 'voice-b-en-f-01');
      await cut.handle.waitFor((r) => (r.content ?? '').includes('Speaking'), 30_000);
      h.discord.removeBot(GUILD, helper.userId);
      // Its voice connection closed with it (4014): what it was saying is cut off, and its member told where.
      const told = await cut.handle.waitFor((r) => (r.content ?? '').includes('cut off'), 30_000);
      expect(told.content).toContain(`<#${STUDY}>`);
      await main.handle.waitFor((r) => (r.content ?? '').startsWith('Spoke'), 30_000);
      const logs = h.logs();
      expect(logs).toMatch(/"code":"helper-removed"/);
      expect(logs).not.toContain(helper.token);
      h.sandbox.setPacing({ realtimeFactor: 0 });
      h.discord.addBotBack(GUILD, helper.userId);
      await expect.poll(() => h.bot.seats.seatFor(h.bot.client.guilds.cache.get(GUILD)!, STUDY).kind).toBe('seat');
      const back = await runCommand(h, { guildId: GUILD, userId: BEN, name: 'join' });
      expect(back.content).toContain(`<@${helper.userId}>`);
      expect(seating(h)).toEqual([LOUNGE, STUDY]);
    } finally {
      await h.close();
    }
  });

  it('"Play in my voice channel" on a helper cut off mid-replay names that bot, not "me"', async () => {
    const h = await start(1);
    try {
      const helper = h.helpers[0]!;
      await runCommand(h, { guildId: GUILD, userId: ANN, name: 'join' });
      const text = 'A reply played again in the study, by the helper, which is taken away before its end.';
      const { handle } = await runCommand(h, {
        guildId: GUILD,
        userId: BEN,
        name: 'say',
        options: { text, voice: 'voice-b-en-f-01', output: 'file' },
      });
      const reply = await handle.waitFor((r) => r.files.length > 0, 30_000);
      const rows = (reply.message?.components ?? []) as Array<{ components: Array<{ custom_id: string }> }>;
      const play = rows.flatMap((row) => row.components).find((b) => b.custom_id.startsWith('sb1:play:'))!;
      h.sandbox.setPacing({ realtimeFactor: 1 });
      const heard = h.discord.waitForPacket({ guildId: GUILD, channelId: STUDY }, (p) => !p.silence, 20_000);
      const press = await h.discord.pressButton({
        guildId: GUILD,
        userId: BEN,
        messageId: String(reply.message?.id),
        customId: play.custom_id,
      });
      await heard;
      expect(h.discord.botVoiceChannel(GUILD, helper.userId)).toBe(STUDY);
      h.discord.removeBot(GUILD, helper.userId);
      const final = await press.waitForFinal(30_000);
      expect(final.content).toContain('cut off');
      expect(final.content).toContain(`<@${helper.userId}>`);
      expect(final.content).not.toContain('I lost');
      expect(final.mentioned).toEqual({ users: [], roles: [], everyone: false });
    } finally {
      await h.close();
    }
  });

  it('a helper whose token Discord refuses (4004) is left out with one line naming it; the main bot and the other helper go on', async () => {
    const h = await startHarness({
      guilds: guilds(),
      helpers: 2,
      config: { voiceIdleTimeoutMs: 60_000 },
      // The first helper's token was reset in the Developer Portal: the one in HELPER_BOT_TOKENS is refused.
      beforeStart: (discord, helpers) => void discord.resetBotToken(helpers[0]!.userId),
    });
    try {
      const [refused, working] = h.helpers as [(typeof h.helpers)[0], (typeof h.helpers)[0]];
      const lines = h
        .logs()
        .split('\n')
        .filter((line) => line.includes('"code":"helper-token-refused"'));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/helper bot 1/);
      expect(h.logs()).not.toContain(refused.token);
      await runCommand(h, { guildId: GUILD, userId: ANN, name: 'join' });
      const joined = await runCommand(h, { guildId: GUILD, userId: BEN, name: 'join' });
      expect(joined.content).toContain(`<@${working.userId}>`);
      expect(seating(h)).toEqual([LOUNGE, null, STUDY]);
    } finally {
      await h.close();
    }
  });

  it("a helper's gateway drops and resumes: the main bot speaks meanwhile, and the helper is a seat again", async () => {
    const h = await start(1);
    try {
      const helper = h.helpers[0]!;
      await runCommand(h, { guildId: GUILD, userId: ANN, name: 'join' });
      h.discord.dropGateway(GUILD, 4000, helper.userId);
      const meanwhile = await say(h, ANN, 'The main bot goes on.', 'voice-b-en-m-01');
      await meanwhile.handle.waitFor((r) => (r.content ?? '').startsWith('Spoke'), 30_000);
      await expect.poll(() => h.discord.gatewayConnected(GUILD, helper.userId), { timeout: 20_000 }).toBe(true);
      const joined = await runCommand(h, { guildId: GUILD, userId: BEN, name: 'join' });
      expect(joined.content).toContain(`<@${helper.userId}>`);
      expect(seating(h)).toEqual([LOUNGE, STUDY]);
    } finally {
      await h.close();
    }
  });

  it("a helper's token reset while it speaks: its member is told, one line names it (never its token), the others go on", async () => {
    const h = await start(1);
    try {
      const helper = h.helpers[0]!;
      h.sandbox.setPacing({ realtimeFactor: 1 });
      await runCommand(h, { guildId: GUILD, userId: ANN, name: 'join' });
      const cut = await say(h, BEN, 'A long line the helper will not finish saying to the study.', 'voice-b-en-f-01');
      await cut.handle.waitFor((r) => (r.content ?? '').includes('Speaking'), 30_000);
      h.discord.resetBotToken(helper.userId);
      const told = await cut.handle.waitFor(
        (r) => (r.content ?? '').includes(t('en-US', 'error.voice.seatLost')) || (r.content ?? '').includes('cut off'),
        30_000,
      );
      expect(told.content).toMatch(/cut off|lost its connection/);
      await expect.poll(() => h.logs()).toMatch(/"code":"helper-token-refused"/);
      expect(h.logs()).not.toContain(helper.token);
      h.sandbox.setPacing({ realtimeFactor: 0 });
      const main = await say(h, ANN, 'Still here.', 'voice-b-en-m-01');
      await main.handle.waitFor((r) => (r.content ?? '').startsWith('Spoke'), 30_000);
      // No seat free for the study now: the lounge is listened to, the helper is gone.
      const refused = await say(h, BEN, 'Anyone?', 'voice-b-en-m-01');
      expect(refused.content).toBe(t('en-US', 'error.voice.noSeat', { channels: `<#${LOUNGE}>` }));
    } finally {
      await h.close();
    }
  });
});
