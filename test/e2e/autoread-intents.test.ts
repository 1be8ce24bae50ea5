// Auto-read's gateway intents end to end: the real bot against the local Discord, which closes with 4014 an
// IDENTIFY asking for Message Content the application has not enabled, as Discord does.
import { Events, type Message } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { MESSAGE_CONTENT_WHERE } from '../../src/features/autoread/gateway-intents.ts';
import { useHarnessPerTest } from '../support/file-harness.ts';
import { defaultGuilds, runCommand, type Harness } from '../support/harness.ts';
import { postChat } from '../support/chat.ts';

const [seoul] = defaultGuilds() as [ReturnType<typeof defaultGuilds>[0]];
const SEOUL_CHAT = { guildId: seoul.id, channelId: seoul.textChannelId };
const MINJI = '300000000000000001';

const openHarness = useHarnessPerTest();

const logLines = (h: Harness) =>
  h
    .logs()
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('auto-read intents', () => {
  it('without Message Content enabled: starts without auto-read, says once where to enable it, and serves commands', async () => {
    const harness = await openHarness({ discord: { allowedPrivilegedIntents: 0 } });
    expect(harness.bot.autoreadAvailable).toBe(false);
    expect(harness.bot.client.isReady()).toBe(true);
    const missing = logLines(harness).filter((line) => line['code'] === 'autoread-intent-missing');
    expect(missing).toHaveLength(1);
    expect(missing[0]?.['msg']).toContain('Bot > Privileged Gateway Intents > Message Content');
    expect(missing[0]?.['where']).toBe(MESSAGE_CONTENT_WHERE);
    // One line in all about it: no "gateway disconnected" or error line beside it.
    expect(
      logLines(harness).filter((line) => line['code'] === 4014 || /disallowed/i.test(String(line['msg']))),
    ).toEqual([]);
    expect(logLines(harness).filter((line) => Number(line['level']) >= 50)).toEqual([]);
    // The session the bot kept has no GuildMessages: Discord sends it no chat at all.
    expect(
      await postChat(harness, SEOUL_CHAT, { id: MINJI, username: 'minji' }, 'hello', { id: '500000000000000001' }),
    ).toBe(false);
    const { content } = await runCommand(harness, {
      guildId: seoul.id,
      userId: MINJI,
      name: 'voices',
      subcommand: 'list',
    });
    expect(content).not.toBe('');
  });

  it('with Message Content enabled: auto-read is available and chat arrives with its text', async () => {
    const harness = await openHarness();
    expect(harness.bot.autoreadAvailable).toBe(true);
    expect(harness.logs()).not.toContain('autoread-intent-missing');
    const received = new Promise<Message>((resolve) => harness.bot.client.once(Events.MessageCreate, resolve));
    expect(
      await postChat(harness, SEOUL_CHAT, { id: MINJI, username: 'minji' }, 'read me', { id: '500000000000000002' }),
    ).toBe(true);
    expect((await received).content).toBe('read me');
  });

  it('keeps the fallback across a restart: the new bot logs the line again and still runs', async () => {
    const harness = await openHarness({ discord: { allowedPrivilegedIntents: 0 } });
    const bot = await harness.restart();
    expect(bot.autoreadAvailable).toBe(false);
    expect(bot.client.isReady()).toBe(true);
    expect(logLines(harness).filter((line) => line['code'] === 'autoread-intent-missing')).toHaveLength(2);
  });
});
