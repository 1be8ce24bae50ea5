// Work that spends no characters is bounded too, end to end against the local Discord and the sandbox: speed and
// volume come in the steps a listener hears (shown so), and requests served free (cache hits here) count against a
// per-member rate: past it a private refusal in the member's language saying when to retry, nothing sent or queued.
import { MessageFlags } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { t } from '../../src/core/i18n/catalogue.ts';
import type { FakeGuildSpec } from '@saybot/local-discord/types.ts';
import { runCommand, startHarness, type Harness } from '../support/harness.ts';

const GUILD = '200000000000000321';
const MEMBER = '300000000000000321'; // Korean client
const OTHER = '300000000000000322';
const RATE = 3;

const guilds: FakeGuildSpec[] = [
  {
    id: GUILD,
    name: 'Rations',
    textChannelId: '210000000000000321',
    voiceChannels: [{ id: '220000000000000321', name: 'room' }],
    members: [
      { id: MEMBER, username: 'member', locale: 'ko' },
      { id: OTHER, username: 'other', locale: 'en-US' },
    ],
  },
];

let h: Harness;
let clock = Date.now();
beforeAll(async () => {
  h = await startHarness({ guilds, env: { BUDGET_MEMBER_FREE_PER_MINUTE: String(RATE) }, now: () => new Date(clock) });
});
afterAll(async () => {
  await h?.close();
});

const sayFile = (userId: string, locale: string) =>
  runCommand(h, {
    guildId: GUILD,
    userId,
    name: 'say',
    locale,
    options: { text: 'Served from the cache, again and again.', voice: 'voice-b-en-f-01', output: 'file' },
  });

describe('free work', () => {
  it('speed and volume are kept, and shown, in audible steps', async () => {
    const { content } = await runCommand(h, {
      guildId: GUILD,
      userId: OTHER,
      name: 'myvoice',
      subcommand: 'set',
      locale: 'en-US',
      options: { speed: 1.234, volume: -1.26 },
    });
    expect(content).toContain(t('en-US', 'settings.speed', { value: 1.25 }));
    expect(content).toContain(t('en-US', 'settings.volume', { value: '-1.5' }));
  });

  it(`past ${RATE} free requests a minute, the member is refused privately in Korean with when to retry; nothing is sent`, async () => {
    // The first is paid (cooldown and budgets apply to it, not this rate); the next are cache hits.
    expect((await sayFile(MEMBER, 'ko')).handle.responses.some((r) => r.files.length > 0)).toBe(true);
    const requests = h.sandbox.requests.length;
    for (let i = 0; i < RATE; i += 1)
      expect((await sayFile(MEMBER, 'ko')).handle.responses.some((r) => r.files.length > 0)).toBe(true);
    const refused = await sayFile(MEMBER, 'ko');
    expect(refused.content).toBe(t('ko', 'budget.refused.freeRate', { limit: RATE, seconds: 60 }));
    expect((refused.handle.responses.at(-1)?.flags ?? 0) & MessageFlags.Ephemeral).toBe(MessageFlags.Ephemeral);
    expect(refused.handle.responses.some((r) => r.files.length > 0)).toBe(false);
    expect(h.sandbox.requests.length).toBe(requests);
    expect(h.logs()).toContain('"code":"free-rate"');
    // Another member is not held to this one's count; and a minute later this one is served again.
    expect((await sayFile(OTHER, 'en-US')).handle.responses.some((r) => r.files.length > 0)).toBe(true);
    clock += 61_000;
    expect((await sayFile(MEMBER, 'ko')).handle.responses.some((r) => r.files.length > 0)).toBe(true);
    expect(h.sandbox.requests.length).toBe(requests);
  });
});
