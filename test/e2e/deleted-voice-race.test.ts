// A deleted cloned voice stays deleted, end to end against the local Discord and the sandbox: `/autoread voice_add`
// racing `/voices delete` never leaves it in auto-read's pool, and a pool row naming it (however it got there) is
// never read in, before or after a restart. Checked by what the Voice API was asked (never the deleted voice) and
// what the channel heard.
import { DatabaseSync } from 'node:sqlite';
import { PermissionFlagsBits } from 'discord.js';
import { describe, expect, it, vi } from 'vitest';
import type { FakeGuildSpec } from '@saybot/local-discord/types.ts';
import type { Store } from '../../src/core/store/types.ts';
import { t } from '../../src/core/i18n/catalogue.ts';
import { useHarnessPerTest } from '../support/file-harness.ts';
import { runCommand, type Harness, type HarnessOptions } from '../support/harness.ts';
import { postChat, spoken, startAutoRead } from '../support/chat.ts';
import { madeClone } from '../support/clones.ts';
import {
  ALICE as ALICE_ID,
  GENERAL as VOICE,
  LONDON as GUILD,
  LONDON_TEXT as TEXT,
  londonWith,
} from '../support/world.ts';

const ALICE = { id: ALICE_ID, username: 'alice' }; // Manage Server, in voice
const CAROL = { id: '300000000000000713', username: 'carol' }; // plain member, in voice, no /myvoice

function guilds(): FakeGuildSpec[] {
  return [
    londonWith([
      { ...ALICE, voiceChannelId: VOICE, locale: 'en-US', permissions: PermissionFlagsBits.ManageGuild },
      { ...CAROL, voiceChannelId: VOICE, locale: 'en-US' },
    ]),
  ];
}

const openHarness = useHarnessPerTest();

async function startReading(options: HarnessOptions = {}): Promise<Harness> {
  const h = await openHarness({ guilds: guilds(), config: { voiceIdleTimeoutMs: 60_000 }, ...options });
  await startAutoRead(h, GUILD, ALICE.id, { text: TEXT, voice: VOICE });
  return h;
}

/** A cloned voice of the guild, made by Alice with /clone (its first line as a file: nothing to wait for in voice). */
const deleteVoice = (h: Harness, voiceId: string) =>
  runCommand(h, {
    guildId: GUILD,
    userId: ALICE.id,
    name: 'voices',
    subcommand: 'delete',
    options: { voice: voiceId },
  });

const distinctVoices = (h: Harness) =>
  runCommand(h, {
    guildId: GUILD,
    userId: ALICE.id,
    name: 'autoread',
    subcommand: 'settings',
    options: { voices: 'distinct', say_name: false },
  });

/** Restarts the bot on the same store (nothing of the deletion kept in memory) and waits until it reads again. */
async function restarted(h: Harness): Promise<void> {
  await h.restart();
  expect(h.logs()).toContain('"code":"autoread-resumed"');
}

/** Carol (no voice of her own) writes; resolves with the voice the Voice API was asked to read her in. */
async function carolsVoice(h: Harness, text: string): Promise<string | undefined> {
  const from = h.sandbox.requests.length;
  h.discord.clearAudio(GUILD);
  expect(await postChat(h, { guildId: GUILD, channelId: TEXT }, CAROL, text)).toBe(true);
  await h.discord.waitForAudio(GUILD, { minSeconds: h.sandbox.expectedDurationSeconds(text) - 0.1, quietMs: 400 });
  expect(spoken(h, from)).toEqual([text]);
  return h.sandbox.requests.slice(from).find((r) => r.text === text)?.voice;
}

/**
 * The store the bot gets, with `autoReadMembers.addToPool` held at its start until `release` is called: the moment
 * between `/autoread voice_add`'s check of the voice and its insert, where a deletion may land.
 */
function heldPoolAdds(): { wrap: (store: Store) => Store; reached: Promise<void>; release: () => void } {
  let reachedNow: () => void = () => undefined;
  let release: () => void = () => undefined;
  const reached = new Promise<void>((resolve) => (reachedNow = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  const wrap = (store: Store): Store => {
    const members = store.autoReadMembers;
    const heldMembers = new Proxy(members, {
      get(target, key) {
        if (key !== 'addToPool') {
          const value: unknown = Reflect.get(target, key, target);
          return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
        }
        return async (...args: Parameters<typeof members.addToPool>) => {
          reachedNow();
          await released;
          return target.addToPool(...args);
        };
      },
    });
    return new Proxy(store, {
      get(target, key) {
        if (key === 'autoReadMembers') return heldMembers;
        const value: unknown = Reflect.get(target, key, target);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
  };
  return { wrap, reached, release };
}

describe('a deleted cloned voice', () => {
  it('never comes back through /autoread voice_add racing /voices delete, before or after a restart', async () => {
    const held = heldPoolAdds();
    let store: Store | undefined;
    const h = await startReading({
      wrapStore: (s) => {
        store = s;
        return held.wrap(s);
      },
    });
    const cloned = await madeClone(h, GUILD, ALICE.id, 'Racer');
    expect((await distinctVoices(h)).content).toContain('voices: a voice of the pool per member');
    // voice_add checks the voice, then waits at its insert while /voices delete runs whole.
    const adding = runCommand(h, {
      guildId: GUILD,
      userId: ALICE.id,
      name: 'autoread',
      subcommand: 'voice_add',
      options: { voice: cloned },
    });
    await held.reached;
    expect((await deleteVoice(h, cloned)).content).toBe(
      t('en-US', 'voices.deleted', { name: 'Racer', id: `\`${cloned}\`` }),
    );
    held.release();
    expect((await adding).content).not.toContain('Added');
    expect(await store?.autoReadMembers.pool(GUILD)).not.toContain(cloned);
    const from = h.sandbox.requests.length;
    expect(await carolsVoice(h, 'Read me in a voice that exists.')).not.toBe(cloned);
    await restarted(h);
    expect(await carolsVoice(h, 'And again after the restart.')).not.toBe(cloned);
    expect(h.sandbox.requests.slice(from).filter((r) => r.voice === cloned)).toEqual([]);
  });

  it('is never read in from a pool row left naming it, after a restart: the store is the truth', async () => {
    const h = await startReading();
    const cloned = await madeClone(h, GUILD, ALICE.id, 'Gone');
    expect((await deleteVoice(h, cloned)).content).toBe(
      t('en-US', 'voices.deleted', { name: 'Gone', id: `\`${cloned}\`` }),
    );
    expect((await distinctVoices(h)).content).toContain('voices: a voice of the pool per member');
    // Rows naming the deleted voice, as a race of an earlier version could leave them: the only voice of the pool,
    // and Carol's given voice.
    const db = new DatabaseSync(h.databasePath);
    try {
      db.prepare('INSERT INTO auto_read_voice_pool (guild_id, voice, added_by, added_at) VALUES (?, ?, ?, ?)').run(
        GUILD,
        cloned,
        ALICE.id,
        Date.now(),
      );
      db.prepare('INSERT INTO auto_read_member_voices (guild_id, user_id, voice, assigned_at) VALUES (?, ?, ?, ?)').run(
        GUILD,
        CAROL.id,
        cloned,
        Date.now(),
      );
    } finally {
      db.close();
    }
    await restarted(h);
    const from = h.sandbox.requests.length;
    const voice = await carolsVoice(h, 'Not in a deleted voice, please.');
    expect(voice).not.toBe(cloned);
    expect(voice).toMatch(/^voice-/);
    expect(h.sandbox.requests.slice(from).filter((r) => r.voice === cloned)).toEqual([]);
  });

  it('deleted while its paid call is at the service, not yet charged: closed before its charge, its member told the characters are counted as spent', async () => {
    const h = await openHarness({ guilds: guilds(), config: { voiceIdleTimeoutMs: 60_000 } });
    const cloned = await madeClone(h, GUILD, ALICE.id, 'Held');
    const text = 'Said in a voice deleted while it was made.';
    const asked = () => h.sandbox.requests.filter((r) => r.endpoint === 'tts' && r.text === text);
    h.sandbox.injectFault({ kind: 'hold-before-charge', endpoint: 'tts' });
    const said = await h.discord.command({
      guildId: GUILD,
      userId: ALICE.id,
      name: 'say',
      options: [
        { name: 'text', value: text },
        { name: 'voice', value: cloned },
      ],
    });
    await vi.waitFor(() => expect(asked()[0]?.outcome).toBe('waiting'), { timeout: 20_000, interval: 20 });
    expect((await deleteVoice(h, cloned)).content).toBe(
      t('en-US', 'voices.deleted', { name: 'Held', id: `\`${cloned}\`` }),
    );
    await vi.waitFor(() => expect(asked()[0]?.outcome).toBe('client-aborted'), { timeout: 20_000, interval: 20 });
    h.sandbox.resumePaused();
    const told = await said.waitFor((r) => r.content !== undefined && !/^(Speaking|Queued)/.test(r.content), 60_000);
    // Closed by the deletion before its charge, as a /stop closes it: maybe charged, and said so; never "no characters
    // were spent".
    expect(asked().map((r) => r.charactersBilled)).toEqual([0]);
    expect(told.content).not.toBe(t('en-US', 'error.input.voiceDeleted', { voice: cloned }));
    const unconfirmed = text.length;
    expect(told.content).toBe(t('en-US', 'error.maybePaid.voiceDeleted', { voice: cloned, unconfirmed }));
  });
});
