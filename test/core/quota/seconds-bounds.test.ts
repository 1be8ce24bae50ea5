// The queue bounds' bookkeeping (src/core/quota/capacity.ts' QueueBook, src/core/characters.ts' estimates): what is counted, what refuses, what is released.
import { describe, expect, it } from 'vitest';
import { Refusal } from '../../../src/core/refusal.ts';
import { QueueBook } from '../../../src/core/quota/capacity.ts';

const { enforcementFor } = QueueBook;
import {
  estimateRequestSeconds,
  estimateSpeechSeconds,
  freeLine,
  estimateFreeLineSeconds,
} from '../../../src/core/characters.ts';

const ALL = { guild: true, member: true };
const reasonOf = (admit: () => unknown) => {
  try {
    admit();
  } catch (error) {
    if (error instanceof Refusal) return error.reason;
    throw error;
  }
  return undefined;
};

describe('estimateSpeechSeconds', () => {
  it('reads alphabetic text at 15 characters a second and Korean, Japanese and Chinese at 7', () => {
    expect(estimateSpeechSeconds('a'.repeat(150))).toBeCloseTo(10, 5);
    expect(estimateSpeechSeconds('가'.repeat(70))).toBeCloseTo(10, 5);
    expect(estimateSpeechSeconds('こんにちは世界')).toBeCloseTo(1, 5);
    expect(estimateSpeechSeconds('')).toBe(0);
  });
});

describe('estimateRequestSeconds', () => {
  const korean = '가'.repeat(550);
  it("reads a free voice's line at the free voice's own rate, so a scene of free lines is estimated as eSpeak NG speaks", () => {
    const free = estimateRequestSeconds({ kind: 'tts', text: korean, voice: 'free-ko-f', format: 'mp3' }, korean);
    expect(free).toBeCloseTo(estimateFreeLineSeconds(korean, 'free-ko-f'), 5);
    // eSpeak NG reads Hangul slower than the paid voices' 7 a second.
    expect(free).toBeGreaterThan(estimateSpeechSeconds(korean));
  });

  it("reads an engine's line at its own rate (natural speech's), never eSpeak NG's: a Japanese VOICEVOX line is not timed as Chinese", () => {
    const japanese = '今日は良い天気ですね、散歩に行きましょう。'.repeat(10);
    for (const voice of ['voicevox:3', 'speech:jf_alpha']) {
      const engine = estimateRequestSeconds({ kind: 'tts', text: japanese, voice, format: 'wav' }, japanese);
      expect(engine).toBeCloseTo(estimateSpeechSeconds(japanese), 5);
    }
  });

  it("splits and caps an engine's line at that same rate (found by an outside reader: the split took eSpeak NG's)", () => {
    // 104 s at natural speech's 7 a second: one line, under the free line's ceiling; at eSpeak NG's rate for Han
    // (a VOICEVOX voice has no eSpeak language) it was measured otherwise and split or refused.
    const japanese = '今日は良い天気ですね'.repeat(73);
    for (const voice of ['voicevox:3', 'speech:jf_alpha']) {
      expect(freeLine(voice).measure(japanese)).toBeCloseTo(estimateSpeechSeconds(japanese), 5);
      expect(freeLine(voice).fits(japanese)).toBe(true);
    }
    expect(freeLine('free-ja-f').measure(japanese)).toBeCloseTo(estimateFreeLineSeconds(japanese, 'free-ja-f'), 5);
  });

  it("stretches by SayBot's own speed, and takes a paid voice at the paid rate", () => {
    const paid = {
      kind: 'tts',
      text: korean,
      voice: 'voice-b-ko-f-01',
      format: 'mp3',
      effects: { speed: 0.5, volumeDb: 0 },
    } as const;
    expect(estimateRequestSeconds(paid, korean)).toBeCloseTo(2 * estimateSpeechSeconds(korean), 5);
  });
});

describe('QueueBook', () => {
  it("refuses a member's request past the member bound, in any target, and takes it again once one is released", () => {
    const book = new QueueBook({ guildSeconds: 0, guildClips: 0, memberRequests: 2 });
    const first = book.admit({ guildId: 'G', userId: 'U', queued: { seat: 0, clips: 1, seconds: 1 }, enforce: ALL });
    book.admit({ guildId: 'G', userId: 'U', enforce: ALL });
    expect(reasonOf(() => book.admit({ guildId: 'G', userId: 'U', enforce: ALL }))).toEqual({
      code: 'queue-member-full',
      limit: 2,
      queued: 2,
    });
    // Another member, and the same member in another server, are counted apart.
    expect(reasonOf(() => book.admit({ guildId: 'G', userId: 'V', enforce: ALL }))).toBeUndefined();
    expect(reasonOf(() => book.admit({ guildId: 'H', userId: 'U', enforce: ALL }))).toBeUndefined();
    first.leave();
    first.leave(); // idempotent: a second leave frees nothing more
    expect(reasonOf(() => book.admit({ guildId: 'G', userId: 'U', enforce: ALL }))).toBeUndefined();
    expect(reasonOf(() => book.admit({ guildId: 'G', userId: 'U', enforce: ALL }))).toMatchObject({
      code: 'queue-member-full',
    });
  });

  it("bounds a server's voice queue in clips and seconds, lets a lone request in, and forgets a guild once empty", () => {
    const book = new QueueBook({ guildSeconds: 10, guildClips: 3, memberRequests: 0 });
    const lone = book.admit({ guildId: 'G', userId: 'U', queued: { seat: 0, clips: 5, seconds: 30 }, enforce: ALL });
    expect(
      reasonOf(() =>
        book.admit({ guildId: 'G', userId: 'V', queued: { seat: 0, clips: 1, seconds: 1 }, enforce: ALL }),
      ),
    ).toEqual({ code: 'queue-guild-full', bound: 'clips', limit: 3, queued: 5 });
    // A file is not in the voice queue.
    expect(reasonOf(() => book.admit({ guildId: 'G', userId: 'V', enforce: ALL }).leave())).toBeUndefined();
    lone.leave();
    expect(book.voiceQueue('G', 0)).toEqual({ clips: 0, seconds: 0 });
    const a = book.admit({ guildId: 'G', userId: 'U', queued: { seat: 0, clips: 1, seconds: 6 }, enforce: ALL });
    expect(
      reasonOf(() =>
        book.admit({ guildId: 'G', userId: 'V', queued: { seat: 0, clips: 1, seconds: 5 }, enforce: ALL }),
      ),
    ).toEqual({ code: 'queue-guild-full', bound: 'seconds', limit: 10, queued: 6 });
    const b = book.admit({ guildId: 'G', userId: 'V', queued: { seat: 0, clips: 1, seconds: 4 }, enforce: ALL });
    expect(book.voiceQueue('G', 0)).toEqual({ clips: 2, seconds: 10 });
    a.leave();
    b.leave();
    expect(book.voiceQueue('G', 0)).toEqual({ clips: 0, seconds: 0 });
  });

  it("bounds each seat's voice queue apart: a full queue on one seat of a server never refuses another seat", () => {
    const book = new QueueBook({ guildSeconds: 10, guildClips: 1, memberRequests: 0 });
    book.admit({ guildId: 'G', userId: 'U', queued: { seat: 0, clips: 1, seconds: 5 }, enforce: ALL });
    expect(
      reasonOf(() =>
        book.admit({ guildId: 'G', userId: 'V', queued: { seat: 0, clips: 1, seconds: 1 }, enforce: ALL }),
      ),
    ).toMatchObject({ code: 'queue-guild-full', bound: 'clips' });
    const helper = book.admit({ guildId: 'G', userId: 'V', queued: { seat: 1, clips: 1, seconds: 1 }, enforce: ALL });
    expect(book.voiceQueue('G', 0)).toEqual({ clips: 1, seconds: 5 });
    expect(book.voiceQueue('G', 1)).toEqual({ clips: 1, seconds: 1 });
    helper.leave();
    expect(book.voiceQueue('G', 1)).toEqual({ clips: 0, seconds: 0 });
  });

  it('counts but never refuses what is already paid or bounds itself (auto-read)', () => {
    expect(enforcementFor({ queueBounded: true, paid: false })).toEqual(ALL);
    expect(enforcementFor({ queueBounded: true, paid: true })).toEqual({ guild: false, member: false });
    expect(enforcementFor({ queueBounded: false, paid: false })).toEqual({ guild: false, member: false });
    const book = new QueueBook({ guildSeconds: 0, guildClips: 1, memberRequests: 1 });
    book.admit({
      guildId: 'G',
      userId: 'U',
      queued: { seat: 0, clips: 1, seconds: 1 },
      enforce: enforcementFor({ queueBounded: false, paid: false }),
    });
    book.admit({
      guildId: 'G',
      userId: 'U',
      queued: { seat: 0, clips: 1, seconds: 1 },
      enforce: enforcementFor({ queueBounded: false, paid: false }),
    });
    expect(book.voiceQueue('G', 0).clips).toBe(2);
    expect(
      reasonOf(() =>
        book.admit({ guildId: 'G', userId: 'V', queued: { seat: 0, clips: 1, seconds: 1 }, enforce: ALL }),
      ),
    ).toMatchObject({ code: 'queue-guild-full' });
    expect(reasonOf(() => book.admit({ guildId: 'G', userId: 'U', enforce: ALL }))).toMatchObject({
      code: 'queue-member-full',
    });
  });
});
