import { describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  BadRequestError,
  ConnectionError,
  PermissionDeniedError,
  QuotaExceededError,
  RateLimitedError,
  ServerError,
  TimeoutError,
  OversizedResponseError,
  UndeliveredError,
  UnexpectedResponseError,
  type VoiceApiError,
} from '../../../src/core/api/errors.ts';
import { AudioTooLongError, ClipError } from '../../../src/core/audio/errors.ts';
import { DictionaryUnavailableError } from '../../../src/features/autoread/index-dictionary.ts';
import { FreeVoiceFailedError, FreeVoiceMissingError } from '../../../src/core/free-voice/free-voice-engine.ts';
import { OverSecondsCapError } from '../../../src/core/characters.ts';
import { afterPaying } from '../../../src/core/quota/money.ts';
import { AudioStalledError } from '../../../src/core/voice/audio-stalled.ts';
import { Refusal } from '../../../src/core/refusal.ts';
import { EngineError } from '../../../src/core/engines/engine-http.ts';
import { t } from '../../../src/features/speaking/strings.ts';
import { describeFailure, refusalAfterPaying } from '../../../src/features/speaking/failure-words.ts';
import { VoiceMessageBuilder, VoiceMessageError } from '../../../src/core/voice-message/render.ts';
import { VoiceJoinError, type VoiceJoinFailure } from '../../../src/core/voice/connection-session.ts';
import { RightsRevokedError } from '../../../src/core/order/rights.ts';

/** Every reason a voice join fails (connection-session.ts): a new one fails to compile here until it is listed. */
const REASONS = Object.keys({
  timeout: 1,
  'dave-required': 1,
  'rate-limited': 1,
  'call-terminated': 1,
  lost: 1,
  'handler-error': 1,
  left: 1,
  'stage-audience': 1,
} satisfies Record<VoiceJoinFailure, 1>) as VoiceJoinFailure[];

describe('describeFailure', () => {
  it.each([
    ['no-audio', new VoiceMessageError('no-audio', 'nothing audible')],
    ['bad-packet', new VoiceMessageError('bad-packet', 'Opus packet 1 does not decode')],
  ] as const)(
    "a voice message the service audio cannot make (%s) is the service's fault, said as such, not an internal error",
    (code, error) => {
      expect(describeFailure(error)).toEqual({
        code: `voice-message-${code}`,
        message: { key: 'error.api.unexpected' },
        level: 'warn',
      });
    },
  );

  it('an empty voice message, as the renderer raises it, gets the same words as broken audio from the service', async () => {
    const error: unknown = await new VoiceMessageBuilder().finish().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(VoiceMessageError);
    expect(describeFailure(error).message).toEqual(describeFailure(new ClipError('corrupt', 'broken')).message);
  });

  it.each([
    ['a free line over its cap', new AudioTooLongError('free-line', 120), '120'],
    ['a free line estimated over its cap', new OverSecondsCapError('free-line', 124.4, 120), 'about 124 s'],
    ['a scene over its cap', new AudioTooLongError('scene', 600), '600'],
    ['the free voice failing', new FreeVoiceFailedError('stopped', 'eSpeak NG wrote no audio'), 'eSpeak NG'],
    ['the free voice not installed', new FreeVoiceMissingError(), 'not installed'],
  ] as const)('%s has words of its own in every language, never "went wrong on my side"', (_, error, figure) => {
    const { message } = describeFailure(error);
    expect(message.key).not.toBe('error.internal');
    expect(t('en-US', message.key, message.params)).toContain(figure);
    const words = ['en-US', 'ko', 'ja'].map((locale) => t(locale, message.key, message.params));
    expect(new Set(words).size).toBe(3);
    for (const said of words) expect(said).not.toBe(t('en-US', 'error.internal'));
  });

  it("the dictionary's thread past its deadline (or full) is busy, try again, in the member's language: never 'Something went wrong'", () => {
    for (const reason of ['timeout', 'busy', 'crashed'] as const) {
      const described = describeFailure(new DictionaryUnavailableError(reason, 'dictionary: the job did not finish'));
      expect(described.message).toEqual({ key: 'error.busy' });
      expect(described.level).toBe('warn');
      for (const locale of ['en-US', 'ja', 'ko']) {
        const words = t(locale, described.message.key);
        expect(words).not.toBe(t(locale, 'error.internal'));
        expect(words.length).toBeGreaterThan(0);
      }
    }
    expect(t('en-US', 'error.busy')).toMatch(/try again/);
  });

  it("an engine's line past its deadline is told as a deadline, not as an engine not answering or not sending audio", () => {
    const late = describeFailure(
      new EngineError('speech', 'timeout', 'POST /audio/speech did not send its whole answer within 150000 ms'),
    );
    const other = describeFailure(new EngineError('speech', 'bad-answer', 'POST /audio/speech answered text/html'));
    expect(late.code).toBe('engine-timeout');
    for (const locale of ['en-US', 'ja', 'ko']) {
      expect(t(locale, late.message.key)).not.toBe(t(locale, other.message.key));
      expect(t(locale, late.message.key)).not.toBe(t(locale, 'error.internal'));
    }
    expect(t('en-US', late.message.key)).toMatch(/deadline/);
    expect(t('en-US', late.message.key)).not.toMatch(/not answering|not audio/);
  });

  it('an error nobody names is internal, logged as an error', () => {
    expect(describeFailure(new Error('boom'))).toMatchObject({ code: 'internal', level: 'error' });
  });
});

describe("a failure's words follow what the service did, not who answered in its place", () => {
  const maybe = <T extends VoiceApiError>(error: T): T => error.chargedAs('maybe-charged');
  it.each([
    ['an HTML 408', maybe(new ServerError('x', { status: 408 })), 408],
    ['an HTML 404', maybe(new UnexpectedResponseError('x', { status: 404 })), 404],
    ['an HTML 400', maybe(new BadRequestError('x', { status: 400 })), 400],
  ] as const)('%s not provably the service: may have been charged', (_what, error, status) => {
    expect(describeFailure(error).message).toEqual({ key: 'error.api.maybeCharged.gateway', params: { status } });
  });

  // A refusal of the key, the plan or the month is the service's word only when the retry rule proves the answer its
  // own (and, for the month, its usage figures say so): anything else is told as what SayBot knows (issue 56).
  const figures = { used: 10_000, remaining: 0, limit: 10_000 };
  it.each([
    ['an HTML 429 (quota-shaped)', maybe(new QuotaExceededError('x', { status: 429 })), 429],
    ['an HTML 429 (busy-shaped)', maybe(new RateLimitedError('x', { status: 429 })), 429],
    ['an HTML 401', maybe(new AuthenticationError('x', { status: 401 })), 401],
    ['a plain-text 403', maybe(new PermissionDeniedError('x', { status: 403 })), 403],
  ] as const)('%s, not provably the service: refused on the way, may have been charged', (_what, error, status) => {
    const { message, level } = describeFailure(error);
    expect(message).toEqual({ key: 'error.api.refusedOnTheWay.maybeCharged', params: { status } });
    expect(level).toBe('error');
    const words = ['en-US', 'ko', 'ja'].map((locale) => t(locale, message.key, message.params));
    expect(new Set(words).size).toBe(3);
    for (const said of words) expect(said).toContain(String(status));
    expect(words[0]).not.toMatch(/plan|key|quota|month|busy|nothing was spent/i);
  });

  // A 429 not the service's own may have passed the request on first (bb11): maybe charged, never told busy.
  it.each([
    ['quota-shaped, no request ID', new QuotaExceededError('x', { status: 429 })],
    [
      "quota-shaped, the service's request ID and an HTML page",
      new QuotaExceededError('x', { status: 429, requestId: 'r' }),
    ],
    ['busy-shaped', new RateLimitedError('x', { status: 429 })],
  ] as const)(
    "a 429 not the service's own (%s): may have been charged, never busy, in every language",
    (_what, error) => {
      const { message } = describeFailure(error.chargedAs('maybe-charged'));
      expect(message).toEqual({ key: 'error.api.refusedOnTheWay.maybeCharged', params: { status: 429 } });
      const words = ['en-US', 'ko', 'ja'].map((locale) => t(locale, message.key, message.params));
      expect(new Set(words).size).toBe(3);
      expect(words[0]).not.toMatch(/busy|used up/i);
      expect(words[0]).toMatch(/counted as spent/);
    },
  );

  // The service's own 429 that is not its word on the month (a short wait): nothing charged, busy.
  it("the service's own 429 with a short wait: nothing charged, the voice service is busy, in every language", () => {
    const error = new RateLimitedError('x', { status: 429, fromService: true }).chargedAs('not-charged');
    const { message } = describeFailure(error);
    expect(message).toEqual({ key: 'error.api.rateLimited' });
    const words = ['en-US', 'ko', 'ja'].map((locale) => t(locale, message.key, message.params));
    expect(new Set(words).size).toBe(3);
    expect(words[0]).toMatch(/busy/);
    expect(words[0]).not.toMatch(/counted|spent|used up/i);
  });

  it("the service's own 429 without usage figures (they are optional) is still its month used up", () => {
    const error = new QuotaExceededError('x', { status: 429, fromService: true }).chargedAs('not-charged');
    expect(describeFailure(error).message.key).toBe('error.api.quota');
  });

  it.each([
    ['401', new AuthenticationError('x', { status: 401 }), 'error.api.unauthorized'],
    ['403', new PermissionDeniedError('x', { status: 403 }), 'error.api.forbidden'],
    [
      '429 with its figures',
      new QuotaExceededError('x', { status: 429, fromService: true, rateLimit: figures }),
      'error.api.quota',
    ],
  ] as const)("the service's own %s, proven: its diagnosis stands", (_what, error, key) => {
    expect(describeFailure(error.chargedAs('not-charged')).message.key).toBe(key);
  });

  it('a 2xx whose body is not audio was charged: said so in every language', () => {
    const error = new UnexpectedResponseError('x', { status: 200 }).chargedAs('charged');
    const { message } = describeFailure(error);
    expect(message.key).toBe('error.api.chargedNotAudio');
    expect(t('en-US', message.key, message.params)).toMatch(/counted its characters/);
    const words = ['en-US', 'ko', 'ja'].map((locale) => t(locale, message.key, message.params));
    expect(new Set(words).size).toBe(3);
  });
});

describe('a clone answered 2xx without its voice ID', () => {
  it.each([
    ['a short body', new UndeliveredError('x', { status: 200, missing: 'voice-id' })],
    ['a body over the JSON cap', new OversizedResponseError('x', { status: 200, missing: 'voice-id' })],
  ] as const)('(%s) is told it may have been made and charged, with no ID to use, in every language', (_, error) => {
    const { message, code } = describeFailure(error);
    expect(code).toBe('api-clone-without-voice-id');
    const words = ['en-US', 'ko', 'ja'].map((locale) => t(locale, message.key, message.params));
    expect(new Set(words).size).toBe(3);
    expect(words[0]).toMatch(/no voice ID/);
    expect(words[0]).not.toMatch(/far more audio|broke off|try again/i);
  });
});

describe('refusalAfterPaying', () => {
  it.each(['en-US', 'ko', 'ja'])(
    'leaves out the refusal\'s "nothing was spent" in %s, and keeps the rest',
    (locale) => {
      const message = { key: 'error.voice.memberMuted', params: { channel: '<#1>' } } as const;
      const full = t(locale, message.key, message.params);
      const clause = t(locale, 'refusal.nothingSpent');
      expect(full.endsWith(clause)).toBe(true);
      const words = refusalAfterPaying(locale, message);
      expect(words).not.toContain(clause);
      expect(full.startsWith(words)).toBe(true);
      expect(words).toContain('<#1>');
    },
  );
});

describe('refused for money after parts of it were paid (PaidPartWayError)', () => {
  const reset = new Date('2026-12-01T00:00:00Z');
  // The service's own (its request ID and its JSON error): every 429 charges nothing, only its own speaks of the month.
  const notCharged = new QuotaExceededError('x', {
    status: 429,
    fromService: true,
    rateLimit: { resetAt: reset, used: 10_000, remaining: 0 },
  }).chargedAs('not-charged');
  it.each([
    ['too few left', new Refusal({ code: 'quota-too-few-left', left: 5, needed: 40, resetAt: reset }), 'quota'],
    ["the service's own quota exceeded", notCharged, 'quota'],
    ['the month marked used up', new Refusal({ code: 'quota-used-up', markedAt: reset, resetAt: reset }), 'quota'],
    [
      'a budget',
      new Refusal({ code: 'budget-member-day', limit: 300, used: 279, needed: 40, resetAt: reset }),
      'budget',
    ],
    ['the books', new Refusal({ code: 'spends-unrecorded' }), 'refused'],
    [
      "the service's 401 (key refused)",
      new AuthenticationError('x', { status: 401, charge: 'not-charged' }),
      'keyRefused',
    ],
    [
      "the service's 403 (no API access)",
      new PermissionDeniedError('x', { status: 403, charge: 'not-charged' }),
      'planRefused',
    ],
  ] as const)('%s: the characters spent, why the rest was not sent, in every language', (_what, cause, kind) => {
    const { message, code } = describeFailure(afterPaying(cause, 995));
    expect(message.key).toBe(`error.paidPartWay.${kind}`);
    expect(code).toBe(describeFailure(cause).code);
    const words = ['en-US', 'ko', 'ja'].map((locale) => t(locale, message.key, message.params));
    expect(new Set(words).size).toBe(3);
    for (const said of words) expect(said).toContain('995');
    if (kind === 'quota') for (const said of words) expect(said).toContain('2026-12-01');
    expect(words[0]).not.toMatch(/sent nothing|nothing was (spent|charged)|try again/i);
  });

  it("the service's own 5xx after parts were paid: the characters spent, the rest failed uncharged, in every language", () => {
    const failing = new ServerError('x', { status: 500, fromService: true, serviceMessage: 'Busy.' }).chargedAs(
      'not-charged',
    );
    const { message, code } = describeFailure(afterPaying(failing, 995));
    expect(message.key).toBe('error.paidPartWay.failing');
    expect(code).toBe(describeFailure(failing).code);
    const words = ['en-US', 'ko', 'ja'].map((locale) => t(locale, message.key, message.params));
    expect(new Set(words).size).toBe(3);
    for (const said of words) expect(said).toMatch(/995.*500/);
    expect(words[0]).not.toMatch(/nothing was (spent|charged)/i);
  });

  it("a quota 429 that may not be the service's (maybe charged), after parts were paid: keeps its own words", () => {
    const unproven = new QuotaExceededError('x', { status: 429, charge: 'maybe-charged' });
    expect(afterPaying(unproven, 995)).toBe(unproven);
  });

  it("a 401 that may not be the service's own (maybe charged) is no refusal of the key: it keeps its own words", () => {
    const gateway = new AuthenticationError('x', { status: 401, charge: 'maybe-charged' });
    expect(afterPaying(gateway, 995)).toBe(gateway);
  });

  it('nothing paid before: the refusal keeps its own words', () => {
    const refusal = new Refusal({ code: 'quota-too-few-left', left: 5, needed: 40, resetAt: reset });
    expect(afterPaying(refusal, 0)).toBe(refusal);
  });
});

describe('audio charged and then cut: told with all the request paid (issue 56)', () => {
  const cut = () => new ConnectionError('reset', 'ECONNRESET', { charge: 'charged' });
  it.each([
    ['a body reset part-way after the 2xx', cut()],
    ['a body the total timeout cut after the 2xx', new TimeoutError('late', 'total', 5_000, { charge: 'charged' })],
    ['a 2xx whose audio never arrived', new UndeliveredError('no audio')],
    ['audio that stopped coming in voice until the voice output gave it up', new AudioStalledError(0.1)],
  ] as const)("%s: the characters the whole request paid, in every language, in the cut's own log code", (_, error) => {
    // 77: the part cut (40) and the next part, fetched ahead and paid before the cut (37).
    const { message, code, level } = describeFailure(afterPaying(error, 77));
    expect(message).toEqual({ key: 'error.api.undelivered.paid', params: { paid: 77 } });
    expect({ code, level }).toEqual({ code: describeFailure(error).code, level: describeFailure(error).level });
    const words = ['en-US', 'ko', 'ja'].map((locale) => t(locale, message.key, message.params));
    expect(new Set(words).size).toBe(3);
    for (const said of words) expect(said).toContain('77');
  });

  it.each([
    ['may have been charged (no 2xx came)', new ConnectionError('reset', 'ECONNRESET', { charge: 'maybe-charged' })],
    ['far more audio than its text can take', new OversizedResponseError('too big')],
  ] as const)('%s: not a cut of paid audio, its own words stay', (_, error) => {
    expect(afterPaying(error, 77)).toBe(error);
  });

  it('audio that stopped coming, nothing paid by its order (another order paid its flight): its own words, logged as a stall', () => {
    const error = new AudioStalledError(0.1);
    expect(afterPaying(error, 0)).toBe(error);
    expect(describeFailure(error)).toEqual({
      code: 'audio-stalled',
      message: { key: 'error.voice.audioStalled' },
      level: 'warn',
    });
  });

  it('with nothing paid on record (no charge to count it): the words without a figure', () => {
    const error = cut();
    expect(afterPaying(error, 0)).toBe(error);
    expect(describeFailure(error).message).toEqual({ key: 'error.api.undelivered' });
  });
});

describe('a call another order paid, shared by an order that sent nothing of its own, failed after it may have been charged', () => {
  it.each([
    ['a reset after the request left', new ConnectionError('reset', 'ECONNRESET', { charge: 'maybe-charged' })],
    ["a gateway's 504 after the request left", new ServerError('504', { status: 504, charge: 'maybe-charged' })],
    ['a 200 that is not audio', new UnexpectedResponseError('not audio', { status: 200, charge: 'charged' })],
    ['a 200 whose audio never ends', new OversizedResponseError('too big')],
  ] as const)("%s: nothing of its own spent, in every language, in the call's own log code", (_, error) => {
    const { message, code, level } = describeFailure(afterPaying(error, 0, 0));
    expect(message).toEqual({ key: 'error.api.sharedCallFailed' });
    expect({ code, level }).toEqual({ code: describeFailure(error).code, level: describeFailure(error).level });
    const words = ['en-US', 'ko', 'ja'].map((locale) => t(locale, message.key, message.params));
    expect(new Set(words).size).toBe(3);
    expect(words[0]).toMatch(/nothing of yours was spent/);
    expect(words[0]).not.toMatch(/spent here|counted the characters/);
    // Some of its own maybe charged: the call's own words, as before.
    expect(afterPaying(error, 0, 48)).toBe(error);
  });
});

describe('a budget refused outside servers (a user install: a DM, a group DM, a server without SayBot)', () => {
  const reset = new Date('2026-12-01T00:00:00Z');
  it.each([
    [
      'the cooldown',
      new Refusal({ code: 'budget-cooldown', waitSeconds: 7, limit: 30 }),
      'cooldown',
      'cooldownOutside',
    ],
    [
      'the daily budget',
      new Refusal({ code: 'budget-member-day', limit: 300, used: 279, needed: 40, resetAt: reset }),
      'memberDay',
      'memberDayOutside',
    ],
    [
      'the shared monthly budget',
      new Refusal({ code: 'budget-guild-month', limit: 9000, used: 8990, needed: 40, resetAt: reset }),
      'guildMonth',
      'outsideMonth',
    ],
  ] as const)(
    '%s: words of its own, never "this server"; in a server, the server\'s',
    (_what, refusal, inServer, outside) => {
      const there = describeFailure(refusal, { planFigures: false, outsideServer: true });
      const here = describeFailure(refusal, { planFigures: false });
      expect(here.message.key).toBe(`budget.refused.${inServer}`);
      expect(there.message.key).toBe(`budget.refused.${outside}`);
      expect(there.message.params).toEqual(here.message.params);
      const words = ['en-US', 'ko', 'ja'].map((locale) => t(locale, there.message.key, there.message.params));
      expect(new Set(words).size).toBe(3);
      for (const said of words) expect(said).not.toMatch(/\{\w+\}/);
      expect(words[0]).not.toMatch(/this server/i);
      expect(words[1]).not.toContain('이 서버');
      expect(words[2]).not.toContain('このサーバー');
    },
  );

  // bb14 "minor words": "a monthly budget of 2 characters: 1 are used"; in a server and outside, en takes the count.
  it.each([false, true])('a monthly budget at 1 (outside servers: %s): en says "1 character", "1 is used"', (out) => {
    const words = (limit: number, used: number) => {
      const refusal = new Refusal({ code: 'budget-guild-month', limit, used, needed: 2, resetAt: reset });
      const { message } = describeFailure(refusal, { planFigures: false, outsideServer: out });
      return t('en-US', message.key, message.params);
    };
    expect(words(2, 1)).toMatch(/ 2 characters: 1 is used and this needs 2\./);
    expect(words(1, 1)).toMatch(/ 1 character: 1 is used and this needs 2\./);
    expect(words(3, 2)).toMatch(/ 3 characters: 2 are used and this needs 2\./);
  });
});

describe("the service's own 5xx", () => {
  it('is told with its words, as code, whatever its status, and nothing charged', () => {
    for (const status of [500, 503]) {
      const error = new ServerError('x', {
        status,
        fromService: true,
        serviceMessage: 'Plain [service](https://evil.example) words.',
      }).chargedAs('not-charged');
      const { message } = describeFailure(error);
      const words = t('en-US', message.key, message.params);
      expect(words).toContain(`(${status}) and said: \`Plain [service](https://evil.example) words.\``);
      expect(words).toContain('Nothing was charged');
    }
  });
});

describe('a failure of a helper\'s seat names that bot, never "me" (heard end to end in test/e2e/seats.test.ts)', () => {
  const revoked = { code: 'bot-unheard', channelId: '7', helperId: '900000000000000001' } as const;
  it.each([
    ['a join that failed', new VoiceJoinError('7', new Error('no session'), 'lost', '900000000000000001')],
    ['unheard mid-line', new RightsRevokedError(revoked)],
    ['unheard before any of it played', new RightsRevokedError(revoked, undefined, false)],
  ])('%s, in every language', (_, error) => {
    const { message } = describeFailure(error);
    for (const locale of ['en-US', 'ja', 'ko']) {
      const text = t(locale, message.key, message.params);
      expect(text, locale).toContain('<@900000000000000001>');
      expect(text, locale).toContain('<#7>');
    }
  });
});

describe('every reason a helper\'s voice join failed names that bot, never "I/my/me" (bb9: Discord\'s 4021, 4022)', () => {
  const HELPER = '900000000000000001';
  it.each(REASONS.map((reason) => [reason] as const))('%s, in every language', (reason) => {
    const helper = describeFailure(new VoiceJoinError('7', new Error(reason), reason, HELPER));
    const main = describeFailure(new VoiceJoinError('7', new Error(reason), reason));
    expect(helper.code).toBe(main.code);
    for (const locale of ['en-US', 'ja', 'ko']) {
      const text = t(locale, helper.message.key, helper.message.params);
      expect(text, locale).toContain(`<@${HELPER}>`);
      expect(text, locale).toContain('<#7>');
      expect(text, locale).not.toBe(t(locale, main.message.key, main.message.params));
    }
    expect(t('en-US', helper.message.key, helper.message.params)).not.toMatch(/\b(I|my|me|myself)\b/);
  });
});

// bb13: "You already have 1 requests waiting", "(1 clips waiting, at most 1)".
describe('a full queue is told in the plural its figures take, in en; in ja and ko, with their counters', () => {
  const said = (refusal: Refusal, locale: string) => {
    const { message } = describeFailure(refusal);
    return t(locale, message.key, message.params);
  };
  it.each([
    [1, 'You already have 1 request waiting', '(1 clip waiting, at most 1)'],
    [2, 'You already have 2 requests waiting', '(2 clips waiting, at most 2)'],
  ] as const)('%i waiting', (n, member, clips) => {
    const full = new Refusal({ code: 'queue-member-full', limit: n, queued: n });
    const channel = new Refusal({ code: 'queue-guild-full', bound: 'clips', limit: n, queued: n });
    expect(said(full, 'en-US')).toContain(member);
    expect(said(channel, 'en-US')).toContain(clips);
    expect(said(full, 'ja')).toContain(`すでに ${n} 件のリクエスト`);
    expect(said(channel, 'ko')).toContain(`대기 중 ${n}개, 최대 ${n}개`);
  });
});
