// Whose voice reads a message, against a real store (SQLite in memory, the same migrations as production).
import { DOCUMENTED_VOICES } from '../../../../src/core/voice-catalogue/voices.ts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { autoreadSpeechRequest } from '../../../../src/features/autoread/reading/voice.ts';
import { describePool } from '../../../../src/features/autoread/autoread-members.ts';
import type { Store } from '../../../../src/core/store/types.ts';
import type { SpeechRequest } from '../../../../src/core/order/pipeline.ts';
import { openSqliteStore } from '../../../../src/app/store.ts';

const G = '100000000000000001';
const MINA = '200000000000000001';
const BOB = '200000000000000002';
const guild = { id: G, preferredLocale: 'ko' };
/** As a pool voice is saved and picked: the documented presets, no engine, eSpeak NG's voices not members' to choose. */
const SAVING = { listed: DOCUMENTED_VOICES, engines: undefined, freeVoice: { espeak: true, chosen: false } };
let store: Store;

/** A request auto-read makes: always text to speech. */
function tts(request: SpeechRequest): Extract<SpeechRequest, { kind: 'tts' }> {
  if (request.kind !== 'tts') throw new Error(`not a tts request: ${request.kind}`);
  return request;
}

beforeEach(() => {
  store = openSqliteStore(':memory:');
});
afterEach(async () => {
  await store.close();
});

describe('autoreadSpeechRequest', () => {
  it("speaks in the built-in voice of the server's language when nobody chose one", async () => {
    expect(await autoreadSpeechRequest(store, guild, SAVING, MINA, '안녕')).toEqual({
      kind: 'tts',
      text: '안녕',
      voice: 'voice-b-ko-f-01',
      format: 'wav',
    });
    expect((await autoreadSpeechRequest(store, { id: G, preferredLocale: 'ja' }, SAVING, MINA, 'はい')).voice).toBe(
      'voice-b-ja-f-01',
    );
  });

  it("uses the member's /myvoice, else the server's default preset", async () => {
    await store.presets.save({ guildId: G, name: 'House', voice: 'voice-b-en-m-01', tone: 'calm', createdBy: BOB });
    await store.presets.setDefault(G, 'House');
    await store.memberDefaults.set(G, MINA, { voice: 'voice-b-ko-m-01', language: 'ko', format: 'mp3' });
    expect(await autoreadSpeechRequest(store, guild, SAVING, MINA, 'hi')).toEqual({
      kind: 'tts',
      text: 'hi',
      voice: 'voice-b-ko-m-01',
      language: 'ko',
      format: 'mp3',
      tone: 'calm',
    });
    expect(await autoreadSpeechRequest(store, guild, SAVING, BOB, 'hi')).toEqual({
      kind: 'tts',
      text: 'hi',
      voice: 'voice-b-en-m-01',
      tone: 'calm',
      format: 'wav',
    });
    // Join/leave lines: the server's voice, whoever joined.
    expect((await autoreadSpeechRequest(store, guild, SAVING, null, 'x')).voice).toBe('voice-b-en-m-01');
  });

  it('falls back to the built-in voice when the chosen one cannot be used any more', async () => {
    await store.memberDefaults.set(G, MINA, { voice: 'a-clone-that-was-deleted' });
    expect((await autoreadSpeechRequest(store, guild, SAVING, MINA, 'x')).voice).toBe('voice-b-ko-f-01');
  });

  it('voices:distinct: a member without a voice of their own is given one of the pool, kept; /myvoice still wins', async () => {
    const speakingNow = new Map<string, number>();
    for (const voice of ['voice-b-en-m-01', 'voice-b-ja-f-01'])
      await store.autoReadMembers.addToPool(G, voice, BOB, 25);
    const first = await autoreadSpeechRequest(store, guild, SAVING, MINA, 'hi', { speakingNow });
    expect(['voice-b-en-m-01', 'voice-b-ja-f-01']).toContain(first.voice);
    expect(await store.autoReadMembers.memberVoice(G, MINA)).toBe(first.voice);
    // Kept, even when others now speak in it.
    expect(
      (
        await autoreadSpeechRequest(store, guild, SAVING, MINA, 'hi', {
          speakingNow: new Map([[first.voice ?? '', 3]]),
        })
      ).voice,
    ).toBe(first.voice);
    // Bob speaks while Mina does: he is given the other voice.
    const bob = await autoreadSpeechRequest(store, guild, SAVING, BOB, 'hi', {
      speakingNow: new Map([[first.voice ?? '', 1]]),
    });
    expect(bob.voice).not.toBe(first.voice);
    // Join and leave lines stay in the server's voice; voices:one (no `distinct`) too.
    expect((await autoreadSpeechRequest(store, guild, SAVING, null, 'x', { speakingNow })).voice).toBe(
      'voice-b-ko-f-01',
    );
    expect((await autoreadSpeechRequest(store, guild, SAVING, MINA, 'x')).voice).toBe('voice-b-ko-f-01');
    await store.memberDefaults.set(G, MINA, { voice: 'voice-b-ja-m-01' });
    expect((await autoreadSpeechRequest(store, guild, SAVING, MINA, 'x', { speakingNow })).voice).toBe(
      'voice-b-ja-m-01',
    );
  });

  it('voices:distinct: a pool voice the saving rule refuses now is kept, never given, and said so; an engine not answered yet is tried', async () => {
    // voicevox:3's engine has not answered since start (what /say tries); speech:gone its engine does not list.
    const here = {
      ...SAVING,
      engines: { lists: (id: string) => (id === 'voicevox:3' ? undefined : false), recheck: async () => {} },
    };
    const refused = ['voice-b-en-f-99', 'speech:gone', 'free-en-f'];
    for (const voice of [...refused, 'voicevox:3']) await store.autoReadMembers.addToPool(G, voice, BOB, 25);
    for (const member of [MINA, BOB])
      expect((await autoreadSpeechRequest(store, guild, here, member, 'x', { speakingNow: new Map() })).voice).toBe(
        'voicevox:3',
      );
    const said = await describePool(store, guild, here, 'en-US');
    for (const voice of refused) expect(said).toContain(`\`${voice}\` (kept but not read: this bot cannot use it now)`);
    expect(said).toMatch(/, `voicevox:3`$/);
    expect(await store.autoReadMembers.pool(G)).toHaveLength(4);
  });

  it("voices:distinct: the default pool is every known preset in the server's language; a voice leaving the pool is replaced", async () => {
    const first = await autoreadSpeechRequest(store, guild, SAVING, MINA, 'x', { speakingNow: new Map() });
    expect(DOCUMENTED_VOICES.map((voice) => voice.id)).toContain(first.voice);
    expect(tts(first).language).toBe('ko');
    await store.autoReadMembers.addToPool(G, 'voice-b-en-m-01', BOB, 25);
    expect(await autoreadSpeechRequest(store, guild, SAVING, MINA, 'x', { speakingNow: new Map() })).toMatchObject({
      voice: 'voice-b-en-m-01',
      language: 'ko',
    });
  });

  it('voices:distinct: the default pool takes the cloned voices, then variants SayBot renders, each member another voice', async () => {
    await store.voiceLibrary.add({ guildId: G, name: 'Narrator', voiceId: 'cloned-1', createdBy: BOB, clipSeconds: 8 });
    const given = new Map<string, string>();
    const members = Array.from({ length: 9 }, (_, i) => `30000000000000010${i}`);
    const heardAs = async (member: string) => {
      const asked = tts(await autoreadSpeechRequest(store, guild, SAVING, member, 'x', { speakingNow: new Map() }));
      return JSON.stringify([asked.voice, asked.effects ?? null]);
    };
    for (const member of members) given.set(member, await heardAs(member));
    const voices = [...given.values()].map((v) => JSON.parse(v) as [string, { speed: number; pitch?: number } | null]);
    // Six presets and the cloned voice as they are, then two variants (a speed or a pitch): no two members share one.
    expect(new Set(given.values()).size).toBe(9);
    expect(
      voices
        .filter(([, effects]) => effects === null)
        .map(([voice]) => voice)
        .sort(),
    ).toEqual([...DOCUMENTED_VOICES.map((voice) => voice.id), 'cloned-1'].sort());
    const variants = voices.filter(([, effects]) => effects !== null);
    expect(variants).toHaveLength(2);
    for (const [, effects] of variants) expect(effects?.speed !== 1 || effects.pitch !== undefined).toBe(true);
    // The same member keeps theirs.
    for (const member of members) expect(await heardAs(member)).toBe(given.get(member));
  });
});
