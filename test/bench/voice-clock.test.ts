// The voice clock under fake timers: when each voice's packets go out, voices leaving, and one voice's failure.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { VoiceClock, type ClockVoice } from '../../bench/senders/voice-clock.ts';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
});
afterEach(() => {
  vi.useRealTimers();
});

/** A voice that notes the (fake) time of each of its packets and has `packets` of them. */
function voice(packets = Number.POSITIVE_INFINITY) {
  const at: number[] = [];
  const v: ClockVoice & { at: number[] } = {
    at,
    tick: () => {
      at.push(performance.now());
      return at.length < packets;
    },
  };
  return v;
}

describe('VoiceClock', () => {
  it("sends a voice's first packet as it joins and the next ones every 20 ms after, in its own phase", () => {
    const clock = new VoiceClock();
    vi.advanceTimersByTime(3);
    const a = voice();
    clock.join(a);
    vi.advanceTimersByTime(7);
    const b = voice();
    clock.join(b);
    vi.advanceTimersByTime(60);
    expect(a.at).toEqual([3, 23, 43, 63]);
    expect(b.at).toEqual([10, 30, 50, 70]);
    expect(clock.stats().packets).toBe(8);
  });

  it('a voice with nothing more to send leaves; with no voice left the clock stops its timer', () => {
    const clock = new VoiceClock();
    const short = voice(3);
    const handle = clock.join(voice());
    clock.join(short);
    vi.advanceTimersByTime(100);
    expect(short.at).toEqual([0, 20, 40]);
    expect(clock.voices).toBe(1);
    handle.leave();
    expect(clock.voices).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a voice that throws leaves the clock; the others keep their pace', () => {
    const clock = new VoiceClock();
    const good = voice();
    let calls = 0;
    clock.join({
      tick: () =>
        ++calls < 2 ||
        (() => {
          throw new Error('broken guild');
        })(),
    });
    clock.join(good);
    vi.advanceTimersByTime(80);
    expect(calls).toBe(2);
    expect(good.at).toEqual([0, 20, 40, 60, 80]);
    expect(clock.voices).toBe(1);
  });

  it('voices joined at one moment are sent in the same turn, and a voice joined later in another', () => {
    const clock = new VoiceClock();
    const turns: number[][] = [[], [], []];
    const tracked = (i: number): ClockVoice => ({ tick: () => (turns[i]!.push(clock.turn), true) });
    clock.join(tracked(0));
    clock.join(tracked(1));
    vi.advanceTimersByTime(5);
    clock.join(tracked(2));
    vi.advanceTimersByTime(20);
    expect(turns[0]![1]).toBe(turns[1]![1]);
    expect(turns[2]![1]).not.toBe(turns[0]![1]);
  });
});
