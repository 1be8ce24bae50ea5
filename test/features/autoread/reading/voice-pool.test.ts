// Which pool voice a member is given (voices:distinct) and the memory of who speaks now: pure rules, one row each.
import { DOCUMENTED_VOICES } from '../../../../src/core/voice-catalogue/voices.ts';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_POOL_MAX,
  RecentSpeakers,
  VARIANTS,
  chooseVoice,
  defaultPool,
  parsePoolEntry,
  poolEntry,
  poolLanguage,
} from '../../../../src/features/autoread/reading/voice-pool.ts';

const POOL = ['voice-b-en-m-02', 'voice-b-en-m-01', 'voice-b-en-f-02', 'voice-b-en-f-01'];
const none = new Map<string, number>();
const members = Array.from({ length: 40 }, (_, i) => `3000000000000${String(i).padStart(5, '0')}`);

describe('the default pool', () => {
  const ids = (language: string) => DOCUMENTED_VOICES.filter((v) => v.language === language).map((v) => v.id);
  it("is every known preset (the server language's first), the cloned voices, then each preset at the variant speeds", () => {
    const pool = defaultPool('en-US', DOCUMENTED_VOICES, ['cloned-1']);
    const plain = [...ids('en'), ...ids('ko'), ...ids('ja')];
    expect(pool).toEqual([
      ...plain,
      'cloned-1',
      ...VARIANTS.flatMap((variant) => plain.map((voice) => poolEntry({ voice, ...variant }))),
    ]);
    expect(defaultPool('ko', DOCUMENTED_VOICES, []).slice(0, 2)).toEqual(ids('ko'));
    expect(defaultPool(null, DOCUMENTED_VOICES, [])).toEqual(defaultPool('en-GB', DOCUMENTED_VOICES, []));
    expect(poolLanguage('zh-CN')).toBe('zh');
    expect(poolLanguage(null)).toBe('en');
  });

  it('is bounded however many presets the operator lists', () => {
    const many = Array.from({ length: 200 }, (_, i) => ({
      id: `voice-b-de-f-${String(i % 100).padStart(2, '0')}`,
      language: 'de',
      gender: 'f' as const,
      character: 'x',
    }));
    expect(defaultPool('de', many, []).length).toBe(DEFAULT_POOL_MAX);
  });

  it('reads a variant back as its preset and speed', () => {
    expect(parsePoolEntry(poolEntry({ voice: 'voice-b-en-f-01', speed: 1.25 }))).toEqual({
      voice: 'voice-b-en-f-01',
      speed: 1.25,
    });
    expect(parsePoolEntry(poolEntry({ voice: 'voice-b-en-f-01', pitch: -3 }))).toEqual({
      voice: 'voice-b-en-f-01',
      pitch: -3,
    });
    expect(poolEntry({ voice: 'voice-b-en-f-01', pitch: 3 })).toBe('voice-b-en-f-01~pitch+3');
    expect(parsePoolEntry('voice-b-en-f-01')).toEqual({ voice: 'voice-b-en-f-01' });
    expect(parsePoolEntry('some-clone~speed1.2')).toEqual({ voice: 'some-clone~speed1.2' });
  });
});

describe('choosing a pool voice', () => {
  it("is the member's own, whatever the pool's order", () => {
    for (const member of members) {
      const chosen = chooseVoice(member, POOL, none, none);
      expect(chosen).toBeDefined();
      expect(chooseVoice(member, [...POOL].reverse(), none, none)).toBe(chosen);
      expect(chooseVoice(member, [POOL[2], POOL[0], POOL[3], POOL[1]] as string[], none, none)).toBe(chosen);
    }
    // And differs between members: the ranking is each member's own.
    expect(new Set(members.map((member) => chooseVoice(member, POOL, none, none))).size).toBe(POOL.length);
  });

  it('gives a variant only once every voice as it is was given as often', () => {
    const pool = [...POOL, ...POOL.map((voice) => poolEntry({ voice, speed: 1.25 }))];
    for (const member of members)
      expect(parsePoolEntry(chooseVoice(member, pool, none, none) ?? '').speed).toBeUndefined();
    const onceEach = new Map(POOL.map((voice) => [voice, 1]));
    const chosen = chooseVoice(members[0] as string, pool, none, onceEach) ?? '';
    expect(parsePoolEntry(chosen).speed).toBe(1.25);
    // A variant of a preset speaking now is as busy as the preset: another is chosen.
    const busy = new Map([[parsePoolEntry(chosen).voice, 1]]);
    const other = chooseVoice(members[0] as string, pool, busy, onceEach) ?? '';
    expect(parsePoolEntry(other).voice).not.toBe(parsePoolEntry(chosen).voice);
  });

  it('takes a voice nobody speaking now has, then the one fewest were given', () => {
    const member = members[0] as string;
    const own = chooseVoice(member, POOL, none, none) as string;
    const busy = new Map([[own, 1]]);
    const next = chooseVoice(member, POOL, busy, none) as string;
    expect(next).not.toBe(own);
    // Fewest given among the free ones wins over the member's ranking.
    const given = new Map(POOL.map((voice) => [voice, voice === 'voice-b-en-f-01' ? 0 : 5]));
    expect(chooseVoice(member, POOL, new Map([['voice-b-en-f-01', 1]]), given)).not.toBe('voice-b-en-f-01');
    expect(chooseVoice(member, POOL, none, given)).toBe('voice-b-en-f-01');
    // Every voice taken: the one fewest speakers now share.
    const crowded = new Map(POOL.map((voice) => [voice, voice === 'voice-b-en-m-01' ? 1 : 2]));
    expect(chooseVoice(member, POOL, crowded, none)).toBe('voice-b-en-m-01');
  });

  it('gives three members speaking together three different voices', () => {
    const recent = new RecentSpeakers();
    const voices = members.slice(0, 3).map((member, i) => {
      const voice = chooseVoice(member, POOL.slice(0, 3), recent.voicesBesides(member, 1000 + i), none) as string;
      recent.heard(member, voice, 1000 + i);
      return voice;
    });
    expect(new Set(voices).size).toBe(3);
  });

  it('has nothing to give from an empty pool', () => {
    expect(chooseVoice(members[0] as string, [], none, none)).toBeUndefined();
  });
});

describe('who speaks now', () => {
  it('counts the other members read within the window, in their voices', () => {
    const recent = new RecentSpeakers(60_000, 10);
    recent.heard('a', 'v1', 0);
    recent.heard('b', 'v1', 30_000);
    recent.heard('c', 'v2', 50_000);
    expect(recent.voicesBesides('c', 55_000)).toEqual(new Map([['v1', 2]]));
    // a was last read more than a minute ago.
    expect(recent.voicesBesides('x', 70_000)).toEqual(
      new Map([
        ['v1', 1],
        ['v2', 1],
      ]),
    );
    recent.forget('b');
    expect(recent.voicesBesides('x', 70_000)).toEqual(new Map([['v2', 1]]));
  });

  it('remembers at most its bound, the longest quiet forgotten first', () => {
    const recent = new RecentSpeakers(60_000, 2);
    recent.heard('a', 'v1', 0);
    recent.heard('b', 'v2', 1);
    recent.heard('a', 'v1', 2);
    recent.heard('c', 'v3', 3);
    expect(recent.voicesBesides('x', 4)).toEqual(
      new Map([
        ['v1', 1],
        ['v3', 1],
      ]),
    );
  });
});
