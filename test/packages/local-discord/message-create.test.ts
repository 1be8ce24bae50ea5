import { describe, expect, it } from 'vitest';
import { Events, GatewayIntentBits, type Message } from 'discord.js';
import { FakeDiscord } from '@saybot/local-discord';
import { APP_ID, TOKEN, guildSpec, loginClient } from './helpers.ts';
import { GUILD_MESSAGES_INTENT, messageCreatePayload } from '@saybot/local-discord/message-create.ts';
import type { ChatMessage } from '@saybot/local-discord/message-create.ts';
import { GatewayIntent } from '@saybot/local-discord/state.ts';

const BOT = '900';
const message: ChatMessage = {
  id: '1',
  channelId: '10',
  guildId: '100',
  author: { id: '5', username: 'mina' },
  member: { nick: 'Mina', roles: ['7'] },
  content: 'hello <@6>',
  mentions: [{ id: '6', username: 'minsu' }],
  attachments: [{ id: '2', filename: 'a.png', content_type: 'image/png', size: 3, url: 'http://127.0.0.1/a.png' }],
  stickers: [{ id: '3', name: 'Wave', format_type: 1 }],
};

describe('MESSAGE_CREATE payloads', () => {
  it('carries content, attachments, member and mentions with MessageContent', () => {
    const payload = messageCreatePayload(message, GUILD_MESSAGES_INTENT | GatewayIntent.MessageContent, BOT);
    expect(payload.content).toBe('hello <@6>');
    expect(payload.attachments).toHaveLength(1);
    expect(payload.member).toMatchObject({ nick: 'Mina', roles: ['7'] });
    expect(payload.mentions).toMatchObject([{ id: '6' }]);
    expect(payload.sticker_items).toMatchObject([{ name: 'Wave' }]);
  });

  it('empties content and attachments without the privileged MessageContent intent', () => {
    const payload = messageCreatePayload(message, GUILD_MESSAGES_INTENT, BOT);
    expect(payload.content).toBe('');
    expect(payload.attachments).toEqual([]);
    expect(payload.mentions).toMatchObject([{ id: '6' }]); // metadata stays
  });

  it('keeps content of a message that mentions the bot, as Discord does', () => {
    const mentioning = { ...message, mentions: [{ id: BOT, username: 'saybot', bot: true }] };
    expect(messageCreatePayload(mentioning, GUILD_MESSAGES_INTENT, BOT).content).toBe('hello <@6>');
  });

  it('marks webhooks and bots and replies', () => {
    const hook = messageCreatePayload(
      {
        ...message,
        member: undefined,
        webhookId: '44',
        author: { id: '44', username: 'hook', bot: true },
        reference: { message_id: '0', channel_id: '10', guild_id: '100' },
      },
      GUILD_MESSAGES_INTENT | GatewayIntent.MessageContent,
      BOT,
    );
    expect(hook.webhook_id).toBe('44');
    expect(hook.member).toBeUndefined();
    expect(hook.author).toMatchObject({ bot: true });
    expect(hook.type).toBe(19);
  });
});

describe('MESSAGE_CREATE through the gateway to a real discord.js client', () => {
  const guild = guildSpec(1);
  const author = guild.members[0]!;
  const chat = (content: string): ChatMessage => ({
    id: '500000000000000001',
    channelId: guild.textChannelId,
    guildId: guild.id,
    author: { id: author.id, username: author.username },
    member: { roles: [] },
    content,
  });

  it('refuses a login asking for MessageContent the application lacks (4014 disallowed intents)', async () => {
    const fake = await FakeDiscord.start({ token: TOKEN, applicationId: APP_ID, guilds: [guild], log: () => {} });
    try {
      await expect(
        loginClient(fake, {
          intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.MessageContent],
        }),
      ).rejects.toThrow(/disallowed intents/i);
    } finally {
      await fake.close();
    }
  });

  it('reaches a client with GuildMessages + MessageContent, content included', async () => {
    const fake = await FakeDiscord.start({
      token: TOKEN,
      applicationId: APP_ID,
      guilds: [guild],
      log: () => {},
      allowedPrivilegedIntents: GatewayIntent.MessageContent,
    });
    const client = await loginClient(fake, {
      intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.MessageContent],
    });
    try {
      const received = new Promise<Message>((resolve) => client.once(Events.MessageCreate, resolve));
      expect(await fake.postMessage(chat('hello there'))).toBe(true);
      const message = await received;
      expect(message.content).toBe('hello there');
      expect(message.author.id).toBe(author.id);
    } finally {
      await client.destroy();
      await fake.close();
    }
  });

  it('arrives with empty content at a client with GuildMessages but without MessageContent', async () => {
    const fake = await FakeDiscord.start({ token: TOKEN, applicationId: APP_ID, guilds: [guild], log: () => {} });
    const client = await loginClient(fake, { intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages] });
    try {
      const received = new Promise<Message>((resolve) => client.once(Events.MessageCreate, resolve));
      expect(await fake.postMessage(chat('secret words'))).toBe(true);
      expect((await received).content).toBe('');
    } finally {
      await client.destroy();
      await fake.close();
    }
  });

  it('is not sent to a client without GuildMessages', async () => {
    const fake = await FakeDiscord.start({ token: TOKEN, applicationId: APP_ID, guilds: [guild], log: () => {} });
    const client = await loginClient(fake);
    try {
      expect(await fake.postMessage(chat('hello'))).toBe(false);
    } finally {
      await client.destroy();
      await fake.close();
    }
  });
});
