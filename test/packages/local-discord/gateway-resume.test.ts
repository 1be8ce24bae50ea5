// The local Discord's gateway keeps sessions for RESUME, and sends op 7 Reconnect and op 9 Invalid Session.
import { describe, expect, it } from 'vitest';
import { Events } from 'discord.js';
import type { FakeDiscord } from '@saybot/local-discord';
import { guildSpec, useLoggedInClient } from './helpers.ts';

const g1 = guildSpec(1);
const alice = g1.members[0]!;

describe('FakeDiscord gateway: RESUME, op 7 and op 9 with a real discord.js client', () => {
  const rig = useLoggedInClient({ guilds: [g1] });

  /** The next interaction id the client receives. */
  const nextInteractionId = () =>
    new Promise<string>((resolve) => rig.client.once(Events.InteractionCreate, (i) => resolve(i.id)));
  const next = (event: Events.ShardResume | Events.ShardReady) =>
    new Promise<void>((resolve) => rig.client.once(event, () => resolve()));

  for (const [name, drop] of [
    ['closed with 4000', (f: FakeDiscord) => f.dropGateway(g1.id, 4000)],
    ['cut without a close frame', (f: FakeDiscord) => f.dropGateway(g1.id)],
  ] as const) {
    it(`a socket ${name}: the client resumes, and an interaction sent while it was away arrives then`, async () => {
      const resumed = next(Events.ShardResume);
      const received = nextInteractionId();
      drop(rig.fake);
      const handle = await rig.fake.command({ guildId: g1.id, userId: alice.id, name: 'say' });
      await resumed;
      expect(await received).toBe(handle.id);
    });
  }

  it('op 7 Reconnect: the client reconnects and resumes; commands keep arriving', async () => {
    const resumed = next(Events.ShardResume);
    rig.fake.requestGatewayReconnect(g1.id);
    await resumed;
    const received = nextInteractionId();
    const handle = await rig.fake.command({ guildId: g1.id, userId: alice.id, name: 'say' });
    expect(await received).toBe(handle.id);
  });

  it('op 9 resumable: the client resumes on the same socket', async () => {
    const resumed = next(Events.ShardResume);
    rig.fake.invalidateGatewaySession(g1.id, true);
    await resumed;
    const received = nextInteractionId();
    const handle = await rig.fake.command({ guildId: g1.id, userId: alice.id, name: 'say' });
    expect(await received).toBe(handle.id);
  });

  it('op 9 not resumable: the client identifies afresh (READY again), and commands reach the new session', async () => {
    const ready = next(Events.ShardReady);
    rig.fake.invalidateGatewaySession(g1.id, false);
    await ready;
    const received = nextInteractionId();
    const handle = await rig.fake.command({ guildId: g1.id, userId: alice.id, name: 'say' });
    expect(await received).toBe(handle.id);
  });
});
