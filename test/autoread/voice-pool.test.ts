// Which pool voice a member is given (voices:distinct) and the memory of who speaks now: pure rules, one row each.
import { describe, expect, it } from 'vitest';
import { RecentSpeakers, chooseVoice, defaultPool } from '../../src/features/autoread/reading/voice-pool.ts';

const POOL = ['voice-b-en-m-02', 'voice-b-en-m-01', 'voice-b-en-f-02', 'voice-b-en-f-01'];
const none = new Map<string, number>();
const members = Array.from({ length: 40 }, (_, i) => `3000000000000${String(i).padStart(5, '0')}`);

describe('the default pool', () => {
  it("is the documented presets of the server's language, else English's", () => {
    expect(defaultPool('en-US')).toEqual(['voice-b-en-f-01', 'voice-b-en-m-01']);
    expect(defaultPool('ko')).toEqual(['voice-b-ko-f-01', 'voice-b-ko-m-01']);
    expect(defaultPool('ja')).toEqual(['voice-b-ja-f-01', 'voice-b-ja-m-01']);
    expect(defaultPool('de')).toEqual(defaultPool('en-GB'));
    expect(defaultPool(null)).toEqual(['voice-b-en-f-01', 'voice-b-en-m-01']);
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
