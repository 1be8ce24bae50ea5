import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { t } from '../../src/core/i18n/catalogue.ts';
import { APP_ID, defaultGuilds, runCommand, startHarness, type Harness } from '../support/harness.ts';
import { finishedClips } from '../support/clips-finished.ts';
import { ALICE, GENERAL } from '../support/world.ts';

const london = defaultGuilds()[1] as ReturnType<typeof defaultGuilds>[0];

let h: Harness;

/** Resolves once `check` holds (true, or a value), with what it returned; throws after `timeoutMs`. */
async function until<T>(check: () => T | false | undefined, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== false && value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

// The cases below join and then act again (a second /join, a /leave, a /say from another channel) while the bot must
// still be there: the idle timeout is far past any gap a busy host leaves between two commands. The idle leave has a
// case of its own, with a short one.
beforeAll(async () => {
  h = await startHarness({ config: { voiceIdleTimeoutMs: 60_000 } });
});
afterAll(async () => {
  await h?.close();
});

// Each test starts with the bot in no voice channel and Alice in hers, whatever the test before did (shuffled).
beforeEach(async () => {
  if (h.discord.voiceChannelOf(london.id, ALICE) !== GENERAL) h.discord.setVoiceState(london.id, ALICE, GENERAL);
  for (const [guildId, userId] of [
    [london.id, ALICE],
    ['200000000000000001', '300000000000000001'],
  ] as const) {
    if (h.discord.botVoiceChannel(guildId) === null) continue;
    await runCommand(h, { guildId, userId, name: 'leave' });
    await until(() => h.discord.botVoiceChannel(guildId) === null);
  }
});

const say = (text: string) => runCommand(h, { guildId: london.id, userId: ALICE, name: 'say', options: { text } });

describe('voice player', () => {
  it('/join joins the caller, and says so when already there', async () => {
    expect((await runCommand(h, { guildId: london.id, userId: ALICE, name: 'join' })).content).toBe(
      `Joined <#${GENERAL}>.`,
    );
    expect(h.discord.botVoiceChannel(london.id)).toBe(GENERAL);
    expect((await runCommand(h, { guildId: london.id, userId: ALICE, name: 'join' })).content).toBe(
      `I am already in <#${GENERAL}>.`,
    );
  });

  it('/skip ends the current clip only; the next one plays', async () => {
    h.discord.clearAudio(london.id);
    const first = await say('This is a long clip that will be skipped soon enough.');
    const second = await say('Then this one.');
    // No voice was chosen, so the reply says why this one speaks.
    expect(second.content).toMatch(
      /^Queued: `voice-b-en-f-01` \(the default for this server's language\), 1 part\(s\)\. I will start after the 1 clip\(s\) ahead\./,
    );
    await h.discord.waitForAudio(london.id, { minSeconds: 0.4, quietMs: 0 });
    expect((await runCommand(h, { guildId: london.id, userId: ALICE, name: 'skip' })).content).toBe(
      'Skipped the current clip.',
    );
    const skipped = await first.handle.waitFor((r) => (r.content ?? '').startsWith('Skipped after'));
    const skippedAt = Number(/after (\d+\.\d) s/.exec(skipped.content ?? '')?.[1]);
    expect(skippedAt).toBeLessThan(
      h.sandbox.expectedDurationSeconds('This is a long clip that will be skipped soon enough.'),
    );
    await second.handle.waitFor((r) => (r.content ?? '').startsWith('Spoke'));
    const heard = await h.discord.waitForAudio(london.id);
    expect(heard.seconds).toBeLessThan(skippedAt + h.sandbox.expectedDurationSeconds('Then this one.') + 0.3);
  });

  it('/skip ends a reply of several parts: nothing after the part skipped is heard', async () => {
    // Parts of at most 40 characters, so that a short text is three.
    const own = await startHarness({ config: { voiceIdleTimeoutMs: 60_000, maxCharsPerRequest: 40 } });
    try {
      const text = 'First part number one is spoken here. Second part number two follows it. Third part ends.';
      const handle = await own.discord.command({
        guildId: london.id,
        userId: ALICE,
        name: 'say',
        options: [{ name: 'text', value: text }],
      });
      await own.discord.waitForPacket(london.id, (packet) => !packet.silence, 20_000);
      expect((await runCommand(own, { guildId: london.id, userId: ALICE, name: 'skip' })).content).toBe(
        'Skipped the current clip.',
      );
      await handle.waitFor((r) => (r.content ?? '').startsWith('Skipped after'), 60_000);
      // The order ended at the part skipped: no part after it was handed to the player, so none was heard.
      const clips = finishedClips(own.logs()).map((clip) => ({
        part: /#\d+$/.exec(clip.label)?.[0],
        status: clip.status,
      }));
      expect(clips).toEqual([{ part: '#1', status: 'skipped' }]);
    } finally {
      await own.close();
    }
  });

  it("/stop ends the member's clip and clears their queued ones", async () => {
    const first = await say('A clip that the stop command will cut short.');
    const second = await say('A queued clip that never plays.');
    await first.handle.waitFor((r) => (r.content ?? '').startsWith('Speaking'));
    expect((await runCommand(h, { guildId: london.id, userId: ALICE, name: 'stop' })).content).toBe(
      t('en-US', 'stop.own', { count: 1 }),
    );
    await first.handle.waitFor((r) => (r.content ?? '').startsWith('Stopped'));
    await second.handle.waitFor((r) => (r.content ?? '').startsWith('Stopped'));
    expect((await runCommand(h, { guildId: london.id, userId: ALICE, name: 'skip' })).content).toBe(
      'Nothing is playing.',
    );
  });

  it('/leave leaves the channel', async () => {
    expect((await runCommand(h, { guildId: london.id, userId: ALICE, name: 'join' })).content).toBe(
      `Joined <#${GENERAL}>.`,
    );
    expect((await runCommand(h, { guildId: london.id, userId: ALICE, name: 'leave' })).content).toBe(
      `Left <#${GENERAL}>.`,
    );
    await until(() => h.discord.botVoiceChannel(london.id) === null);
    expect((await runCommand(h, { guildId: london.id, userId: ALICE, name: 'leave' })).content).toBe(
      'I am not in a voice channel in this server.',
    );
  });

  it('leaves by itself after the idle timeout', async () => {
    const idle = await startHarness({ config: { voiceIdleTimeoutMs: 1_500 } });
    try {
      const { handle } = await runCommand(idle, {
        guildId: london.id,
        userId: ALICE,
        name: 'say',
        options: { text: 'Short.' },
      });
      // Spoken in the caller's channel, then gone by itself: the order of events, not the moment it is looked at.
      const spoke = await handle.waitFor((r) => (r.content ?? '').startsWith('Spoke'));
      expect(spoke.content).toContain(`<#${GENERAL}>`);
      await until(() => idle.discord.botVoiceChannel(london.id) === null, 30_000);
      const lines = idle.logs().split('\n');
      const finished = lines.findIndex((line) => line.includes('"msg":"clip finished"'));
      const left = lines.findIndex((line) => line.includes('"msg":"left voice channel"'));
      expect(finished).toBeGreaterThanOrEqual(0);
      expect(left).toBeGreaterThan(finished);
      expect(lines[left]).toContain('"reason":"idle"');
    } finally {
      await idle.close();
    }
  });

  it('leaves when no human is left in the channel', async () => {
    await runCommand(h, { guildId: london.id, userId: ALICE, name: 'join' });
    expect(h.discord.botVoiceChannel(london.id)).toBe(GENERAL);
    h.discord.setVoiceState(london.id, ALICE, null);
    await until(() => h.discord.botVoiceChannel(london.id) === null, 30_000);
    h.discord.setVoiceState(london.id, ALICE, GENERAL);
  });

  it('stays with a member who listens: a caller in another channel is told where it is, nothing asked or paid', async () => {
    const seoul = defaultGuilds()[0] as ReturnType<typeof defaultGuilds>[0];
    await runCommand(h, { guildId: seoul.id, userId: '300000000000000001', name: 'join' });
    expect(h.discord.botVoiceChannel(seoul.id)).toBe('220000000000000001');
    const requests = h.sandbox.requests.length;
    const refused = await runCommand(h, {
      guildId: seoul.id,
      userId: '300000000000000003',
      name: 'say',
      options: { text: 'Come over here.' },
    });
    expect(refused.content).toBe(t('en-US', 'error.voice.noSeat', { channels: '<#220000000000000001>' }));
    expect(refused.content).toContain('output: file');
    expect(h.sandbox.requests.length).toBe(requests);
    expect(h.discord.botVoiceChannel(seoul.id)).toBe('220000000000000001');
  });

  it('goes to a caller in another channel once nobody is left to hear it where it was', async () => {
    const seoul = defaultGuilds()[0] as ReturnType<typeof defaultGuilds>[0];
    await runCommand(h, { guildId: seoul.id, userId: '300000000000000001', name: 'join' });
    expect(h.discord.botVoiceChannel(seoul.id)).toBe('220000000000000001');
    h.discord.setVoiceState(seoul.id, '300000000000000001', null);
    onTestFinished(() => h.discord.setVoiceState(seoul.id, '300000000000000001', '220000000000000001'));
    h.discord.clearAudio(seoul.id);
    const { handle } = await runCommand(h, {
      guildId: seoul.id,
      userId: '300000000000000003',
      name: 'say',
      options: { text: 'Moved over here.' },
    });
    await handle.waitFor((r) => (r.content ?? '').startsWith('Spoke'));
    expect(h.discord.botVoiceChannel(seoul.id)).toBe('220000000000000002');
    // Heard whole: at least its length, however late a busy host sends a packet (a gap is not its end).
    const whole = h.sandbox.expectedDurationSeconds('Moved over here.') - 0.1;
    const heard = await h.discord.waitForAudio(seoul.id, { minSeconds: whole });
    expect(heard.seconds).toBeGreaterThan(whole);
  });

  it('recovers from being kicked out of voice: the next /say joins again and is heard', async () => {
    await runCommand(h, { guildId: london.id, userId: ALICE, name: 'join' });
    expect(h.discord.botVoiceChannel(london.id)).toBe(GENERAL);
    h.discord.setVoiceState(london.id, APP_ID, null); // a moderator disconnects the bot
    await until(() => h.discord.botVoiceChannel(london.id) === null);
    await until(() => h.bot.players.find(london.id)?.state.kind === 'disconnected', 10_000);
    h.discord.clearAudio(london.id);
    const { handle } = await say('Back again.');
    await handle.waitFor((r) => (r.content ?? '').startsWith('Spoke'));
    const whole = h.sandbox.expectedDurationSeconds('Back again.') - 0.1;
    expect((await h.discord.waitForAudio(london.id, { minSeconds: whole })).seconds).toBeGreaterThan(whole);
  });
});
