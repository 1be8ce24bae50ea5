import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Events, type Client, type Interaction } from 'discord.js';
import { FakeDiscord } from '@saybot/local-discord';
import { APP_ID, TOKEN, loginClient } from './helpers.ts';

// Guild ids chosen so that (id >> 22) % 2 puts one guild on each shard.
const onShard0 = {
  id: String(2n << 22n),
  name: 'Even',
  textChannelId: '510000000000000001',
  voiceChannels: [{ id: '520000000000000001', name: 'V' }],
  members: [{ id: '530000000000000001', username: 'erin' }],
};
const onShard1 = {
  id: String(3n << 22n),
  name: 'Odd',
  textChannelId: '510000000000000002',
  voiceChannels: [{ id: '520000000000000002', name: 'V' }],
  members: [{ id: '530000000000000002', username: 'oscar' }],
};

describe('FakeDiscord sharding', () => {
  let fake: FakeDiscord;
  let client: Client;

  beforeAll(async () => {
    fake = await FakeDiscord.start({
      token: TOKEN,
      applicationId: APP_ID,
      guilds: [onShard0, onShard1],
      shards: 2,
      log: () => {},
    });
    client = await loginClient(fake, { shards: 'auto' });
  });

  afterAll(async () => {
    await client?.destroy();
    await fake?.close();
  });

  it('two shards: each guild arrives on its own shard and interactions are routed to it', async () => {
    expect(client.guilds.cache.get(onShard0.id)?.shardId).toBe(0);
    expect(client.guilds.cache.get(onShard1.id)?.shardId).toBe(1);
    const seen: Array<[string | null, number]> = [];
    const listener = (i: Interaction): void => {
      if (!i.isChatInputCommand()) return;
      seen.push([i.guildId, i.guild?.shardId ?? -1]);
      void i.reply({ content: 'ok' });
    };
    client.on(Events.InteractionCreate, listener);
    const a = await fake.command({ guildId: onShard0.id, userId: onShard0.members[0]!.id, name: 'say' });
    const b = await fake.command({ guildId: onShard1.id, userId: onShard1.members[0]!.id, name: 'say' });
    await Promise.all([a.waitForFinal(), b.waitForFinal()]);
    client.off(Events.InteractionCreate, listener);
    expect(seen.sort()).toEqual(
      [
        [onShard0.id, 0],
        [onShard1.id, 1],
      ].sort(),
    );
  });
});
