// Who speaks each part of a scene, against a real store (SQLite in memory, the same migrations as production).
import { DOCUMENTED_VOICES, type PresetVoice } from '../../../src/core/voice-catalogue/voices.ts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveCast } from '../../../src/features/scenes/cast.ts';
import type { Speaker } from '../../../src/features/scenes/scene-types.ts';
import { parseScript } from '../../../src/features/scenes/script.ts';
import type { Store } from '../../../src/core/store/types.ts';
import { openSqliteStore } from '../../../src/app/store.ts';
import { UserError } from '../../../src/core/interactions/failures.ts';

const G = '100000000000000001';
const OTHER_GUILD = '100000000000000002';
const ADMIN = '200000000000000001';
const MINA = '200000000000000002';
const BOB = '200000000000000003';
let store: Store;

beforeEach(() => {
  store = openSqliteStore(':memory:');
});
afterEach(async () => {
  await store.close();
});

function cast(
  source: string,
  options: { locale?: string | null; presets?: readonly PresetVoice[]; guildId?: string } = {},
): Promise<Map<string, Speaker>> {
  return resolveCast(parseScript(source), {
    store,
    guildId: options.guildId ?? G,
    guildLocale: options.locale ?? null,
    presets: options.presets ?? DOCUMENTED_VOICES,
  });
}

/** The speaker of `key` (the test fails when there is none). */
function speaker(speakers: ReadonlyMap<string, Speaker>, key: string): Speaker {
  const found = speakers.get(key);
  if (found === undefined) throw new Error(`no speaker "${key}" in ${JSON.stringify([...speakers.keys()])}`);
  return found;
}

/** The voice as heard: the voice ID with the pitch and speed it is rendered at. */
const heard = (s: Speaker) => `${s.settings.voice} pitch ${s.settings.pitch} speed ${s.settings.speed}`;

/** The UserError `promise` rejects with (the test fails when it resolves or rejects with something else). */
async function userError(promise: Promise<unknown>): Promise<UserError> {
  const error = await promise.then(
    () => new Error('resolved without an error'),
    (e: unknown) => e,
  );
  if (error instanceof UserError) return error;
  throw error;
}

const EN_TWO = DOCUMENTED_VOICES.filter((voice) => voice.language === 'en');

describe('resolveCast: cast lines', () => {
  it('gives a speaker cast with a preset voice ID that voice, as cast', async () => {
    const speakers = await cast('cast: Alice = voice-b-ja-m-01\nAlice: Hello.');
    expect(speaker(speakers, 'alice')).toMatchObject({
      name: 'Alice',
      settings: { voice: 'voice-b-ja-m-01' },
      from: { kind: 'cast' },
    });
  });

  it("gives a speaker cast with a server preset's name that preset's settings, whatever its case", async () => {
    await store.presets.save({
      guildId: G,
      name: 'Old Narrator',
      voice: 'voice-b-en-m-01',
      pitch: -2,
      speed: 0.9,
      tone: 'slow and grave',
      createdBy: ADMIN,
    });
    const speakers = await cast('cast: Alice = old narrator\nAlice: Once upon a time.');
    const alice = speaker(speakers, 'alice');
    expect(alice.from).toEqual({ kind: 'cast' });
    expect(alice.settings).toMatchObject({
      voice: 'voice-b-en-m-01',
      pitch: -2,
      speed: 0.9,
      tone: 'slow and grave',
    });
    expect(alice.settings.sources.voice).toEqual({ kind: 'preset', preset: 'Old Narrator' });
  });

  it("gives a speaker cast with a cloned voice's name in this server that voice's ID", async () => {
    await store.voiceLibrary.add({
      guildId: G,
      name: 'Grandpa',
      voiceId: 'clone-grandpa',
      createdBy: MINA,
      clipSeconds: 9,
    });
    const speakers = await cast('Alice: Hi grandpa.\ncast: Gramps = grandpa\nGramps: Hello, dear.');
    expect(speaker(speakers, 'gramps')).toMatchObject({ settings: { voice: 'clone-grandpa' }, from: { kind: 'cast' } });
    // A speaker not cast still gets a voice, and not the cloned one.
    expect(speaker(speakers, 'alice').settings.voice).not.toBe('clone-grandpa');
  });

  it("refuses another server's cloned voice, by name or by ID, as an unknown voice, naming the line and the speaker", async () => {
    await store.voiceLibrary.add({
      guildId: OTHER_GUILD,
      name: 'Grandpa',
      voiceId: 'clone-elsewhere',
      createdBy: MINA,
      clipSeconds: 9,
    });
    const byName = await userError(cast('Alice: Hi.\n\ncast: Gramps = Grandpa\nGramps: Hello.'));
    expect(byName.userMessage).toEqual({
      key: 'scene.unknownCast',
      params: { line: 3, name: 'Gramps', voice: 'Grandpa' },
    });
    const byId = await userError(cast('cast: Gramps = clone-elsewhere\nGramps: Hello.'));
    expect(byId.userMessage).toEqual({
      key: 'scene.unknownCast',
      params: { line: 1, name: 'Gramps', voice: 'clone-elsewhere' },
    });
    // In the server that owns it, the same cast line is that voice.
    const there = await cast('cast: Gramps = Grandpa\nGramps: Hello.', { guildId: OTHER_GUILD });
    expect(speaker(there, 'gramps').settings.voice).toBe('clone-elsewhere');
  });

  it('refuses a name that is no voice, preset or cloned voice at all', async () => {
    const error = await userError(cast('cast: Alice = nobody-knows-this\nAlice: Hi.'));
    expect(error.userMessage).toEqual({
      key: 'scene.unknownCast',
      params: { line: 1, name: 'Alice', voice: 'nobody-knows-this' },
    });
  });

  it("gives a mentioned member's speaker their /myvoice settings", async () => {
    await store.memberDefaults.set(G, MINA, { voice: 'voice-b-ja-f-01', speed: 1.2, language: 'ja' });
    const speakers = await cast(`cast: Mina = <@${MINA}>\nMina: こんにちは。`);
    const mina = speaker(speakers, 'mina');
    expect(mina.from).toEqual({ kind: 'member', userId: MINA });
    expect(mina.settings).toMatchObject({ voice: 'voice-b-ja-f-01', speed: 1.2, language: 'ja' });
  });

  it("gives a mentioned member's speaker their /myvoice cloned voice in this server", async () => {
    await store.voiceLibrary.add({ guildId: G, name: 'Me', voiceId: 'clone-mina', createdBy: MINA, clipSeconds: 9 });
    await store.memberDefaults.set(G, MINA, { voice: 'clone-mina' });
    const speakers = await cast(`cast: Mina = <@${MINA}>\nMina: Hi.`);
    expect(speaker(speakers, 'mina').settings.voice).toBe('clone-mina');
  });

  it('gives a mentioned member whose /myvoice was a cloned voice deleted since a distinct voice, not an error', async () => {
    await store.memberDefaults.set(G, MINA, { voice: 'clone-gone' });
    const speakers = await cast(`cast: Mina = <@${MINA}>\nMina: Hi.`);
    expect(speaker(speakers, 'mina').from).toEqual({ kind: 'distinct' });
    expect(speaker(speakers, 'mina').settings.voice).not.toBe('clone-gone');
  });

  it('gives a mentioned member without a voice of their own a distinct voice, not the cast ones', async () => {
    // Bob keeps a /myvoice speed but no voice: he has no voice of his own.
    await store.memberDefaults.set(G, BOB, { speed: 1.5 });
    const speakers = await cast(
      `cast: Alice = voice-b-en-f-01, Bob = <@${BOB}>, Carol = <@${MINA}>\nAlice: Hi.\nBob: Hello.\nCarol: Hey.`,
      { locale: 'en-US' },
    );
    expect(speaker(speakers, 'bob').from).toEqual({ kind: 'distinct' });
    expect(speaker(speakers, 'carol').from).toEqual({ kind: 'distinct' });
    const voices = [...speakers.values()].map((s) => s.settings.voice);
    expect(new Set(voices).size).toBe(3);
  });
});

describe('resolveCast: distinct voices for speakers not cast', () => {
  it("gives each a voice of the server's language first, none a cast voice nor another's", async () => {
    const speakers = await cast(
      'cast: Narrator = voice-b-ko-f-01\nNarrator: 옛날 옛적에.\nBob: 안녕.\nCarol: 네.\nDan: 아니요.',
      { locale: 'ko' },
    );
    expect(speaker(speakers, 'narrator').from).toEqual({ kind: 'cast' });
    // The pool: the Korean presets first, then the others in the catalogue's order; the cast one is skipped.
    expect(['bob', 'carol', 'dan'].map((key) => speaker(speakers, key).settings.voice)).toEqual([
      'voice-b-ko-m-01',
      'voice-b-ja-f-01',
      'voice-b-ja-m-01',
    ]);
    for (const key of ['bob', 'carol', 'dan']) {
      expect(speaker(speakers, key).from).toEqual({ kind: 'distinct' });
      // Each spoken in the server's language, whatever language the preset was made for.
      expect(speaker(speakers, key).settings.language).toBe('ko');
      expect(speaker(speakers, key).settings.pitch).toBe(0);
    }
  });

  it('keeps the names as first written, in order of first appearance', async () => {
    const speakers = await cast('Mary  Ann: one\nBOB: two\nmary ann: three');
    expect([...speakers.entries()].map(([key, s]) => [key, s.name])).toEqual([
      ['mary ann', 'Mary Ann'],
      ['bob', 'BOB'],
    ]);
  });

  it("considers the server's cloned voices after its presets", async () => {
    await store.voiceLibrary.add({ guildId: G, name: 'Zed', voiceId: 'clone-zed', createdBy: MINA, clipSeconds: 9 });
    await store.voiceLibrary.add({
      guildId: OTHER_GUILD,
      name: 'Elsewhere',
      voiceId: 'clone-elsewhere',
      createdBy: MINA,
      clipSeconds: 9,
    });
    const speakers = await cast('A: 1\nB: 2\nC: 3', { locale: 'en-US', presets: EN_TWO });
    expect([...speakers.values()].map((s) => s.settings.voice)).toEqual([
      'voice-b-en-f-01',
      'voice-b-en-m-01',
      'clone-zed',
    ]);
  });

  it('gives variants (pitch, then speed) once every plain voice is given', async () => {
    const one = DOCUMENTED_VOICES.filter((voice) => voice.id === 'voice-b-en-m-01');
    const speakers = await cast('A: 1\nB: 2\nC: 3\nD: 4\nE: 5', { locale: 'en-US', presets: one });
    expect([...speakers.values()].map(heard)).toEqual([
      'voice-b-en-m-01 pitch 0 speed 1',
      'voice-b-en-m-01 pitch 3 speed 1',
      'voice-b-en-m-01 pitch -3 speed 1',
      'voice-b-en-m-01 pitch 0 speed 1.25',
      'voice-b-en-m-01 pitch 0 speed 0.8',
    ]);
    for (const s of speakers.values()) expect(s.from).toEqual({ kind: 'distinct' });
  });

  it('gives more speakers than plain presets each a different voice as heard', async () => {
    const speakers = await cast('A: 1\nB: 2\nC: 3\nD: 4', { locale: 'en-US', presets: EN_TWO });
    expect([...speakers.values()].map(heard)).toEqual([
      'voice-b-en-f-01 pitch 0 speed 1',
      'voice-b-en-m-01 pitch 0 speed 1',
      'voice-b-en-f-01 pitch 3 speed 1',
      'voice-b-en-m-01 pitch 3 speed 1',
    ]);
  });

  it("never gives a speaker exactly a cast speaker's voice while a variant is left", async () => {
    // Alice has en-f-01 as cast; B gets the one plain voice left; C must get a variant, not Alice's voice as it is.
    const speakers = await cast('cast: Alice = voice-b-en-f-01\nAlice: 1\nB: 2\nC: 3', {
      locale: 'en-US',
      presets: EN_TWO,
    });
    expect([...speakers.values()].map(heard)).toEqual([
      'voice-b-en-f-01 pitch 0 speed 1',
      'voice-b-en-m-01 pitch 0 speed 1',
      'voice-b-en-f-01 pitch 3 speed 1',
    ]);
  });

  it("lets the server's default preset through for what the distinct voice does not set", async () => {
    await store.presets.save({ guildId: G, name: 'House', voice: 'voice-b-en-m-01', tone: 'warm', createdBy: ADMIN });
    await store.presets.setDefault(G, 'House');
    const speakers = await cast('A: 1\nB: 2', { locale: 'en-US', presets: EN_TWO });
    expect([...speakers.values()].map((s) => [s.settings.voice, s.settings.tone])).toEqual([
      ['voice-b-en-f-01', 'warm'],
      ['voice-b-en-m-01', 'warm'],
    ]);
  });
});
