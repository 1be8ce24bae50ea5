import { engineOf } from '../../../src/core/voice-catalogue/voices.ts';
import { describe, expect, it } from 'vitest';
import {
  cleanName,
  kokoroLanguage,
  listedNames,
  MAX_VOICES_PER_ENGINE,
  speechVoices,
  voicevoxVoices,
} from '../../../src/core/engines/engine-clients.ts';
import { SPEAKERS } from './fake-engine.ts';

describe('engine voice IDs', () => {
  it('tells an engine voice ID, and which engine, from its text alone', () => {
    expect(engineOf('voicevox:3')).toEqual({ engine: 'voicevox', engineVoice: '3' });
    expect(engineOf('speech:af_heart')).toEqual({ engine: 'speech', engineVoice: 'af_heart' });
    expect(engineOf('speech:af_bella(2)+af_sky(1)')?.engine).toBe('speech');
    for (const id of [
      'voicevox:',
      'voicevox:x',
      'voicevox:-1',
      'voicevox:99999999999',
      'speech:',
      'speech:a b',
      'speech:a/b',
      'free-en-f',
      'voice-b-ko-f-01',
      'VOICEVOX:3',
      `speech:${'a'.repeat(65)}`,
    ])
      expect(engineOf(id), id).toBeUndefined();
  });

  it("reads a Kokoro voice's language from its first letter, else none", () => {
    expect(
      ['af_heart', 'bm_george', 'ef_dora', 'ff_siwis', 'hf_alpha', 'if_sara', 'jf_alpha', 'pf_dora', 'zf_xiaobei'].map(
        kokoroLanguage,
      ),
    ).toEqual(['en', 'en', 'es', 'fr', 'hi', 'it', 'ja', 'pt', 'zh']);
    expect(kokoroLanguage('alloy')).toBeUndefined();
    expect(kokoroLanguage('xf_someone')).toBeUndefined();
  });
});

describe("VOICEVOX's speakers as voices", () => {
  it('makes a voice of each talking style, named by speaker and style, in Japanese, credited', () => {
    expect(voicevoxVoices(SPEAKERS)).toEqual([
      {
        id: 'voicevox:2',
        engine: 'voicevox',
        engineVoice: '2',
        name: '四国めたん (ノーマル)',
        language: 'ja',
        credit: 'VOICEVOX:四国めたん',
      },
      {
        id: 'voicevox:0',
        engine: 'voicevox',
        engineVoice: '0',
        name: '四国めたん (あまあま)',
        language: 'ja',
        credit: 'VOICEVOX:四国めたん',
      },
      {
        id: 'voicevox:3',
        engine: 'voicevox',
        engineVoice: '3',
        name: 'ずんだもん (ノーマル)',
        language: 'ja',
        credit: 'VOICEVOX:ずんだもん',
      },
    ]);
  });

  it('treats the answer as untrusted: control characters removed, names cut, malformed entries left out, at most 500', () => {
    const hostile = [
      { name: 'Evil\u0000\u202e\nName <@everyone>' + 'x'.repeat(200), styles: [{ name: 'a\tb', id: 1 }] },
      { name: 'NoStyles' },
      { name: 42, styles: [{ name: 'x', id: 5 }] },
      {
        name: 'BadIds',
        styles: [
          { name: 'a', id: -1 },
          { name: 'b', id: 1.5 },
          { name: 'c', id: '7' },
          { name: 'dup', id: 1 },
        ],
      },
    ];
    const voices = voicevoxVoices(hostile);
    expect(voices.map((v) => v.id)).toEqual(['voicevox:1']);
    expect([...voices[0]!.name].some((c) => c.charCodeAt(0) < 0x20 || c === '\u202e')).toBe(false);
    expect([...voices[0]!.name].length).toBeLessThanOrEqual(80);
    const many = [{ name: 'Many', styles: Array.from({ length: 2000 }, (_, id) => ({ name: `s${id}`, id })) }];
    expect(voicevoxVoices(many)).toHaveLength(MAX_VOICES_PER_ENGINE);
    expect(voicevoxVoices({ not: 'a list' })).toEqual([]);
  });

  it('cleans a name: controls and format characters out, spaces folded, cut with an ellipsis', () => {
    expect(cleanName('  a\u0007b\u200bc  d ')).toBe('a b c d');
    expect(cleanName('あ'.repeat(100), 10)).toBe(`${'あ'.repeat(9)}…`);
    expect(cleanName(undefined)).toBe('');
  });
});

describe("a speech server's voices", () => {
  it('reads its list in either shape, keeping only names of the voice shape', () => {
    expect(listedNames({ voices: ['af_heart', 'bad name', 'x/y', 'jf_alpha'] })).toEqual(['af_heart', 'jf_alpha']);
    expect(listedNames([{ id: 'a1' }, { voice_id: 'b2' }, { name: 'c3' }, 7])).toEqual(['a1', 'b2', 'c3']);
    expect(listedNames('nonsense')).toEqual([]);
  });

  it("offers the server's list with Kokoro's languages, restricted to and labelled by the owner's list when set", () => {
    expect(speechVoices(['af_heart', 'alloy'], undefined).map((v) => [v.id, v.language])).toEqual([
      ['speech:af_heart', 'en'],
      ['speech:alloy', undefined],
    ]);
    const owners = [{ name: 'alloy', language: 'de' }, { name: 'jf_alpha' }, { name: 'not_listed', language: 'fr' }];
    expect(speechVoices(['af_heart', 'alloy', 'jf_alpha'], owners).map((v) => [v.id, v.language])).toEqual([
      ['speech:alloy', 'de'],
      ['speech:jf_alpha', 'ja'],
    ]);
  });

  it("offers the owner's list alone when the server lists none (404)", () => {
    expect(
      speechVoices(undefined, [{ name: 'alloy', language: 'en' }]).map((v) => [v.id, v.language, v.credit]),
    ).toEqual([['speech:alloy', 'en', undefined]]);
    expect(speechVoices(undefined, undefined)).toEqual([]);
  });
});
