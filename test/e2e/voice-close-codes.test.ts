// Voice close codes Discord says must not be retried: 4021 (rate limited) and 4022 (call
// terminated) end that connection. @discordjs/voice 0.19.2 rejoins on them (fixed upstream in discord.js #11567,
// unreleased); SayBot makes one join attempt, writes one log line, and tells the requester privately.
import { MessageFlags } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { t } from '../../src/core/i18n/catalogue.ts';
import { useFileHarness } from '../support/file-harness.ts';
import { defaultGuilds } from '../support/harness.ts';
import { ALICE, MINJI } from '../support/world.ts';

const [seoul, london] = defaultGuilds() as [
  ReturnType<typeof defaultGuilds>[number],
  ReturnType<typeof defaultGuilds>[number],
];

const h = useFileHarness();

const ephemeral = (flags: number | undefined) => ((flags ?? 0) & MessageFlags.Ephemeral) === MessageFlags.Ephemeral;

describe('voice close codes that must not be retried', () => {
  it.each([
    {
      code: 4021,
      guild: seoul,
      userId: MINJI,
      locale: 'ko',
      key: 'error.voice.rateLimited',
      logCode: 'voice-rate-limited',
    },
    {
      code: 4022,
      guild: london,
      userId: ALICE,
      locale: 'en-US',
      key: 'error.voice.callTerminated',
      logCode: 'voice-call-terminated',
    },
  ] as const)(
    "$code at the join: one join attempt, one log line, a private message in the member's language",
    async ({ code, guild, userId, locale, key, logCode }) => {
      const channelId = guild.voiceChannels[0]?.id ?? '';
      // The join is what is tested: SayBot must not already be in the channel (the mid-reply test may have left it
      // there, whichever order the suite runs in).
      if (h.discord.botVoiceChannel(guild.id) !== null) {
        const left = await h.discord.command({ guildId: guild.id, userId, name: 'leave', locale });
        await left.waitForFinal(60_000);
        await expect.poll(() => h.discord.botVoiceChannel(guild.id)).toBeNull();
      }
      const linesBefore = h.logs().split('\n').length;
      // Refused more than once, so that a client that rejoins is seen rejoining.
      h.discord.refuseNextVoiceIdentify(guild.id, code, 3);
      const identifiesBefore = h.discord.voiceIdentifies(guild.id);
      const joinsBefore = h.discord.voiceJoinRequests(guild.id);
      const closesBefore = h.discord.voiceCloses(guild.id).filter((c) => c.code === code).length;
      const handle = await h.discord.command({
        guildId: guild.id,
        userId,
        name: 'say',
        locale,
        options: [{ name: 'text', value: 'Anyone there?' }],
      });
      // The first part's request leaves beside the join: once the service counted it, the words say so first.
      const refused = { key, params: { channel: `<#${channelId}>` } };
      const told = await handle.waitFor(
        (r) =>
          r.content === t(locale, key, refused.params) ||
          r.content === t(locale, 'outcome.failedAfterPaying', { paid: 'Anyone there?'.length, detail: refused }),
        60_000,
      );
      expect(ephemeral(told.flags) || ephemeral(told.message?.['flags'] as number | undefined)).toBe(true);
      await expect.poll(() => h.discord.botVoiceChannel(guild.id)).toBeNull();
      expect(h.discord.voiceJoinRequests(guild.id) - joinsBefore).toBe(1);
      expect(h.discord.voiceIdentifies(guild.id) - identifiesBefore).toBe(1);
      expect(h.discord.voiceCloses(guild.id).filter((c) => c.code === code).length - closesBefore).toBe(1);
      const lines = h
        .logs()
        .split('\n')
        .slice(linesBefore - 1)
        .filter((l) => l.includes(`"closeCode":${code}`));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`"code":"${logCode}"`);
      h.discord.refuseNextVoiceIdentify(guild.id, code, 0);
    },
  );

  it('4022 mid-reply: cut off with the seconds heard, no rejoin, one log line; the next /say joins again and is heard', async () => {
    const channelId = london.voiceChannels[0]?.id ?? '';
    const text =
      'This reply is ended by Discord terminating the call part of the way through, and must not come back by itself.';
    const handle = await h.discord.command({
      guildId: london.id,
      userId: ALICE,
      name: 'say',
      locale: 'en-US',
      options: [{ name: 'text', value: text }],
    });
    await h.discord.waitForPacket(
      london.id,
      () => h.discord.heardPackets(london.id).filter((p) => !p.silence).length >= 25,
    );
    const joinsBefore = h.discord.voiceJoinRequests(london.id);
    const linesBefore = h.logs().split('\n').length;
    h.discord.closeVoiceSession(london.id, 4022);
    const cut = await handle.waitFor((r) => (r.content ?? '').startsWith('The reply was cut off'), 60_000);
    expect(cut.content).toContain(`<#${channelId}>`);
    await expect.poll(() => h.discord.botVoiceChannel(london.id)).toBeNull();
    expect(h.discord.voiceJoinRequests(london.id)).toBe(joinsBefore);
    const lines = h
      .logs()
      .split('\n')
      .slice(linesBefore - 1)
      .filter((l) => l.includes('"closeCode":4022'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('"code":"voice-connection-lost"');

    h.discord.clearAudio(london.id);
    const again = await h.discord.command({
      guildId: london.id,
      userId: ALICE,
      name: 'say',
      locale: 'en-US',
      options: [{ name: 'text', value: 'Back again.' }],
    });
    await again.waitFor((r) => (r.content ?? '').startsWith('Spoke'), 60_000);
    expect(h.discord.voiceJoinRequests(london.id)).toBe(joinsBefore + 1);
    expect((await h.discord.waitForAudio(london.id, { minSeconds: 0.3 })).seconds).toBeGreaterThan(0.3);
  });
});
