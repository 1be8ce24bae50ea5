import { describe, expect, it } from 'vitest';
import { chooseSeat, seatIsAvailable, type SeatView } from '../../../src/core/voice/seats.ts';

const C = 'channel-c';
const D = 'channel-d';
const E = 'channel-e';

/** A seat present in the server, out of voice, silent, free to join C. */
const seat = (index: number, more: Partial<SeatView> = {}): SeatView => ({
  index,
  present: true,
  channelId: undefined,
  speaking: false,
  listeners: 0,
  kept: false,
  mayJoin: true,
  ...more,
});

describe('the seat rule', () => {
  it('takes the seat already in the channel, whatever it does and whoever else is free', () => {
    const seats = [seat(0), seat(1, { channelId: C, speaking: true, listeners: 3 }), seat(2)];
    expect(chooseSeat(seats, C)).toEqual({ kind: 'seat', index: 1 });
  });

  it('takes the main bot when it is free: out of voice, or left with nobody but bots', () => {
    expect(chooseSeat([seat(0), seat(1)], C)).toEqual({ kind: 'seat', index: 0 });
    expect(chooseSeat([seat(0, { channelId: D, listeners: 0 }), seat(1)], C)).toEqual({ kind: 'seat', index: 0 });
  });

  it('never moves a seat that speaks or that someone listens to: the first free helper that may join goes', () => {
    const listened = seat(0, { channelId: D, listeners: 1 });
    const speaking = seat(1, { channelId: E, speaking: true });
    const barred = seat(2, { mayJoin: false });
    const absent = seat(3, { present: false });
    expect(chooseSeat([listened, speaking, barred, absent, seat(4), seat(5)], C)).toEqual({ kind: 'seat', index: 4 });
    // Speaking with nobody left listening is still speaking: not moved.
    expect(seatIsAvailable(seat(0, { channelId: D, speaking: true, listeners: 0 }))).toBe(false);
    // Kept where auto-read reads into: not moved either.
    expect(seatIsAvailable(seat(0, { channelId: D, kept: true }))).toBe(false);
  });

  it('passes over a free main bot that may not connect and speak in C for the first free helper that may', () => {
    expect(chooseSeat([seat(0, { mayJoin: false }), seat(1)], C)).toEqual({ kind: 'seat', index: 1 });
    expect(chooseSeat([seat(0, { mayJoin: false }), seat(1, { mayJoin: false }), seat(2)], C)).toEqual({
      kind: 'seat',
      index: 2,
    });
  });

  it('takes the free main bot when no free seat may join C, so the gate refuses it there in its usual words', () => {
    expect(chooseSeat([seat(0, { mayJoin: false }), seat(1, { mayJoin: false })], C)).toEqual({
      kind: 'seat',
      index: 0,
    });
    expect(chooseSeat([seat(0, { mayJoin: false })], C)).toEqual({ kind: 'seat', index: 0 });
    // A free helper barred there is never the answer; a busy main bot is never moved for it.
    const busyMain = seat(0, { channelId: D, listeners: 1 });
    expect(chooseSeat([busyMain, seat(1, { mayJoin: false })], C)).toEqual({ kind: 'busy', channels: [D] });
  });

  it('names the busy channels, each once, when no seat is free; an absent helper is no seat', () => {
    const seats = [
      seat(0, { channelId: D, listeners: 2 }),
      seat(1, { channelId: E, speaking: true }),
      seat(2, { channelId: D, speaking: true }),
      seat(3, { present: false, channelId: C }),
    ];
    expect(chooseSeat(seats, C)).toEqual({ kind: 'busy', channels: [D, E] });
    expect(chooseSeat([seat(0, { channelId: D, speaking: true })], C)).toEqual({ kind: 'busy', channels: [D] });
  });
});
