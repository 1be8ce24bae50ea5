// The one worder of outcomes (src/features/speaking/outcome-words.ts), as a table: every outcome kind × every
// front-end has an answer; every word it gives is in the en, ko and ja catalogues with every placeholder filled; a
// kind its front-end's order cannot produce is SayBot's bug (an internal error); a failure keeps its own cause's
// words, and only a bug is "went wrong on my side".
import { describe, expect, it } from 'vitest';
import {
  BadRequestError,
  ConnectionError,
  OversizedResponseError,
  ServerError,
  TimeoutError,
  UnexpectedResponseError,
} from '../../../src/core/api/errors.ts';
import { AudioTooLongError } from '../../../src/core/audio/errors.ts';
import { EngineError } from '../../../src/core/engines/engine-http.ts';
import { FreeVoiceFailedError } from '../../../src/core/free-voice/free-voice-engine.ts';
import { Refusal } from '../../../src/core/refusal.ts';
import type { SpeechOutcome } from '../../../src/core/order/pipeline.ts';
import {
  LostAfterPayingError,
  PaidPartWayError,
  QuoteExceededError,
  afterPaying,
} from '../../../src/core/quota/money.ts';
import { OverSecondsCapError } from '../../../src/core/characters.ts';
import { RightsRevokedError } from '../../../src/core/order/rights.ts';
import { RenderStoppedError, SpeechInputError } from '../../../src/core/order-errors.ts';
import { VoiceJoinError } from '../../../src/core/voice/connection-session.ts';
import { describeFailure } from '../../../src/features/speaking/failure-words.ts';
import {
  fallbackVoiceLabel,
  OutcomeMismatchError,
  wordOutcome,
  wordsText,
  type AsFileReason,
  type Front,
  type OutcomeAnswer,
} from '../../../src/features/speaking/outcome-words.ts';
import { en } from '../../../src/features/speaking/strings/en.ts';
import { ja } from '../../../src/features/speaking/strings/ja.ts';
import { ko } from '../../../src/features/speaking/strings/ko.ts';
import { t, type LocalisedMessage } from '../../../src/features/speaking/strings.ts';

const LOCALES = ['en-US', 'ko', 'ja'] as const;
const CATALOGUES = { en, ko, ja } as Record<string, Record<string, string>>;
const REASONS: AsFileReason[] = [
  'no-permission',
  'not-allowed-here',
  'too-large',
  'refused',
  'member-no-permission',
  'slowmode',
  'not-a-response',
];
const voiceMessage = { ogg: Buffer.from('OggS fake'), durationSecs: 2.5, waveform: 'AA==' };

/** One outcome of each kind (a voice message both as asked and in place of a file over the upload limit). */
const OUTCOMES: Record<string, SpeechOutcome> = {
  played: { kind: 'played', seconds: 2.5 },
  skipped: { kind: 'skipped', seconds: 1.25 },
  stopped: { kind: 'stopped', seconds: 1 },
  'cut-off': { kind: 'cut-off', seconds: 0.5 },
  files: { kind: 'files', files: [{ data: Buffer.from('RIFF fake'), format: 'wav' }], seconds: 2.5 },
  'voice-message': { kind: 'voice-message', message: voiceMessage, seconds: 2.5 },
  'voice-message instead of a file': {
    kind: 'voice-message',
    message: voiceMessage,
    seconds: 2.5,
    insteadOfFile: { format: 'wav', bytes: 30 * 1024 * 1024, limit: 25 * 1024 * 1024 },
  },
  failed: { kind: 'failed', error: new ServerError('503 from the service', { status: 503 }), secondsHeard: 0 },
};
type OutcomeName = keyof typeof OUTCOMES;

const command = (where: Extract<Front, { flavour: 'command' }>['where']): Front => ({
  flavour: 'command',
  locale: 'en-US',
  where,
  label: '`voice-a-en-f-01`',
  voiceId: 'voice-a-en-f-01',
  sizeLimit: 25 * 1024 * 1024,
  fellBack: undefined,
  buttons: true,
});
const userInstall = (where: 'file' | 'voice-message'): Front => ({
  flavour: 'user-install',
  locale: 'en-US',
  where,
  label: '`voice-a-en-f-01`',
  voiceId: 'voice-a-en-f-01',
  sizeLimit: 10 * 1024 * 1024,
});
const scene = (channelId?: string): Front => ({
  flavour: 'scene',
  locale: 'en-US',
  ...(channelId === undefined ? {} : { channelId }),
  speakers: 2,
  lines: 4,
  sizeLimit: 10 * 1024 * 1024,
  memberId: '42',
});
const IN_VOICE: OutcomeName[] = ['played', 'skipped', 'stopped', 'cut-off', 'failed'];

/** Every front-end, with the outcomes its order can end as (any other is SayBot's bug). */
const FRONTS: Array<[string, Front, OutcomeName[]]> = [
  ['/say in voice', command({ kind: 'voice', channelId: '7' }), IN_VOICE],
  [
    '/say as a file asked for',
    command({ kind: 'file', because: 'asked' }),
    ['files', 'voice-message instead of a file', 'failed'],
  ],
  [
    '/say as a file, not in voice',
    command({ kind: 'file', because: 'no-voice' }),
    ['files', 'voice-message instead of a file', 'failed'],
  ],
  ['/say as a voice message', command({ kind: 'voice-message', because: 'asked' }), ['voice-message', 'failed']],
  [
    'the user install as a file',
    userInstall('file'),
    ['files', 'voice-message', 'voice-message instead of a file', 'failed'],
  ],
  [
    'the user install as a voice message',
    userInstall('voice-message'),
    ['voice-message', 'voice-message instead of a file', 'failed'],
  ],
  [
    'a reply\'s "Play in my voice channel"',
    { flavour: 'replay', channelId: '7', voiceId: 'voice-a-en-f-01' },
    IN_VOICE,
  ],
  [
    'a reply\'s "Again"',
    { flavour: 'post-again', voiceId: 'voice-a-en-f-01', sizeLimit: 10 * 1024 * 1024, memberId: '42' },
    ['voice-message', 'voice-message instead of a file', 'failed'],
  ],
  ['"Save as sound"', { flavour: 'sound' }, ['voice-message', 'voice-message instead of a file', 'failed']],
  ['/scene in voice', scene('7'), IN_VOICE],
  [
    '/scene as a file or voice message',
    scene(),
    ['files', 'voice-message', 'voice-message instead of a file', 'failed'],
  ],
  ['the studio', { flavour: 'studio' }, [...IN_VOICE, 'files']],
  ['a dashboard sample', { flavour: 'sample' }, ['files', 'failed']],
];

/** Every message an answer may show: its words, notes, headers, and why a voice message went as a file. */
function messagesOf(answer: OutcomeAnswer): LocalisedMessage[] {
  switch (answer.answer) {
    case 'reply':
      return [answer.words, ...answer.notes];
    case 'voice-message':
      return [
        ...(answer.posted ? [answer.posted] : []),
        ...(answer.header ? [answer.header] : []),
        ...answer.notes,
        ...REASONS.map((reason) => answer.asFile(reason)),
      ];
    case 'too-large':
      return [answer.posted, answer.compressed, ...answer.notes];
    case 'post-file':
      return [answer.header, answer.posted, answer.privately, ...answer.notes];
    case 'audio':
      return [...(answer.words ? [answer.words] : []), ...answer.notes];
    default:
      return [];
  }
}

describe('one outcome, worded in one place', () => {
  const table = FRONTS.flatMap(([front, facts, possible]) =>
    Object.keys(OUTCOMES).map((kind) => [front, kind, facts, possible.includes(kind)] as const),
  );

  it.each(table)('%s, ended as %s: words in en, ko and ja, or an answer of its own', (_, kind, front, possible) => {
    const answer = wordOutcome(OUTCOMES[kind]!, front);
    if (!possible) {
      // An order that cannot end so: SayBot's own bug, said as one and never as the member's fault.
      expect(answer.answer).toBe('refused');
      const error = answer.answer === 'refused' ? answer.error : undefined;
      expect(error).toBeInstanceOf(OutcomeMismatchError);
      expect(describeFailure(error).message.key).toBe('error.internal');
      return;
    }
    if (kind === 'failed') {
      expect(answer.answer).toBe('refused');
      return;
    }
    expect(answer.answer).not.toBe('refused');
    for (const message of messagesOf(answer)) {
      for (const [language, catalogue] of Object.entries(CATALOGUES))
        expect(catalogue[message.key], `${message.key} in ${language}`).toBeTypeOf('string');
      for (const locale of LOCALES) {
        const text = wordsText(locale, message);
        expect(text, `${message.key} in ${locale}`).not.toMatch(/\{\w+\}/);
        expect(text).not.toBe(message.key);
      }
    }
  });

  const CAUSES: Array<[string, unknown]> = [
    ['the service failing', new ServerError('503', { status: 503 })],
    ['a right taken away', new RightsRevokedError({ code: 'muted', channelId: '7' })],
    ['a scene over its length cap', new OverSecondsCapError('scene', 700, 600)],
    ['a free line estimated over its cap', new OverSecondsCapError('free-line', 140, 120)],
    ['a free line over its cap', new AudioTooLongError('free-line', 120)],
    ['a refusal for money', new Refusal({ code: 'budget-cooldown', waitSeconds: 5, limit: 10 })],
  ];
  const failures = FRONTS.flatMap(([front, facts]) =>
    CAUSES.flatMap(([cause, error]) => [0, 3].map((heard) => [front, cause, heard, facts, error] as const)),
  );

  it.each(failures)("%s, failed by %s after %d s heard: its own cause's words", (_, _cause, heard, front, error) => {
    const answer = wordOutcome({ kind: 'failed', error, secondsHeard: heard }, front);
    expect(answer.answer).toBe('refused');
    const said = describeFailure(answer.answer === 'refused' ? answer.error : undefined);
    expect(said.message.key).not.toBe('error.internal');
    const cause = describeFailure(error).message;
    const text = wordsText('en-US', said.message);
    // The cause is said, as it is or as the detail of "the audio stopped part-way".
    expect(text).toContain(wordsText('en-US', cause).slice(0, 40));
  });

  it.each(FRONTS)(
    "%s, failed after characters of its own were paid (the failed call maybe another order's): how many, then the cause",
    (_, front) => {
      const maybeCharged = new ConnectionError('reset', 'ECONNRESET', { charge: 'maybe-charged' });
      const described = (error: unknown, paid: number, secondsHeard = 0) => {
        const answer = wordOutcome({ kind: 'failed', error, secondsHeard, spent: { paid } }, front);
        return describeFailure(answer.answer === 'refused' ? answer.error : undefined);
      };
      const words = (error: unknown, paid: number, secondsHeard = 0) => described(error, paid, secondsHeard).message;
      for (const heard of [0, 3]) {
        const said = words(maybeCharged, 48, heard);
        expect(said.key).toBe('outcome.failedAfterPaying');
        // The operator's log line names what failed, not how the member is told of it.
        expect(described(maybeCharged, 48, heard).code).toBe(describeFailure(maybeCharged).code);
        for (const locale of LOCALES) {
          const text = wordsText(locale, said);
          expect(text).toContain('48');
          // The cause's words end it: its own advice is said once, not followed by another.
          expect(text.endsWith(wordsText(locale, describeFailure(maybeCharged).message))).toBe(true);
        }
      }
      // Nothing of its own confirmed paid: the cause alone.
      expect(words(maybeCharged, 0)).toEqual(describeFailure(maybeCharged).message);
      // Words that say what their order paid, or that its call was charged, are not said twice.
      for (const error of [
        new OversizedResponseError('too long', { status: 200, charge: 'charged' }),
        new UnexpectedResponseError('not audio', { status: 200, charge: 'charged' }),
        new PaidPartWayError(48, new ServerError('503', { status: 503 })),
        new LostAfterPayingError(48, new ConnectionError('reset', 'ECONNRESET', { charge: 'charged' })),
        new RenderStoppedError(48, 0),
      ])
        expect(words(error, 48)).toEqual(describeFailure(error).message);
    },
  );

  // Its voice deleted while its call was at the service (closed before any answer): maybe charged, said with the
  // figure, never the deletion's "no characters were spent".
  it.each(FRONTS)(
    '%s, its voice deleted while its call was at the service: how many may have been counted',
    (_, front) => {
      const error = new SpeechInputError({ code: 'voice-deleted', voice: 'clone_x' });
      const outcome: SpeechOutcome = { kind: 'failed', error, secondsHeard: 0, spent: { paid: 0, unconfirmed: 48 } };
      const answer = wordOutcome(outcome, front);
      const said = describeFailure(answer.answer === 'refused' ? answer.error : undefined).message;
      expect(said.key).toBe('error.maybePaid.voiceDeleted');
      for (const locale of LOCALES) {
        const text = wordsText(locale, said);
        expect(text.match(/48/g), `${locale}: ${text}`).toHaveLength(1);
        expect(text).toContain('clone_x');
      }
    },
  );

  it.each(FRONTS)(
    "%s, failed by a charged call after audio of its own came (the call another member's shared one): how many, once, then the call's words",
    (_, front) => {
      for (const error of [
        new OversizedResponseError('too long', { status: 200, charge: 'charged' }),
        new UnexpectedResponseError('not audio', { status: 200, charge: 'charged' }),
      ]) {
        const outcome: SpeechOutcome = { kind: 'failed', error, secondsHeard: 3, spent: { paid: 46, delivered: 46 } };
        const answer = wordOutcome(outcome, front);
        const said = describeFailure(answer.answer === 'refused' ? answer.error : undefined).message;
        expect(said.key).toBe('outcome.failedAfterPaying');
        for (const locale of LOCALES) {
          const text = wordsText(locale, said);
          expect(text.match(/46/g)).toHaveLength(1);
          expect(text.endsWith(wordsText(locale, describeFailure(error).message))).toBe(true);
        }
      }
    },
  );

  // bb7: an order that sent nothing of its own, failed by the call of another order it shared (charged, or maybe):
  // told that none of it was its own, never the call's "counted as spent here", heard or not.
  it.each(FRONTS)(
    "%s, failed by another order's call it shared, nothing of its own sent: nothing of it spent",
    (_, front) => {
      for (const call of [
        new ConnectionError('reset', 'ECONNRESET', { charge: 'maybe-charged' }),
        new UnexpectedResponseError('not audio', { status: 200, charge: 'charged' }),
      ])
        for (const secondsHeard of [0, 3]) {
          const answer = wordOutcome({ kind: 'failed', error: afterPaying(call, 0, 0), secondsHeard }, front);
          const said = describeFailure(answer.answer === 'refused' ? answer.error : undefined).message;
          for (const locale of LOCALES)
            expect(wordsText(locale, said)).toContain(t(locale, 'error.api.sharedCallFailed'));
          expect(wordsText('en-US', said)).not.toMatch(/spent here|counted \d+/);
        }
    },
  );

  // bb7: a scene's engine line failing after its paid line said "counted 35 ... spent" and then "Nothing was charged":
  // a free line's failure speaks of that line alone, never of the whole order, in every language.
  const WHOLE_ORDER_FREE = {
    'en-US': /nothing was (charged|spent)/i,
    ja: /(^|。)料金はかかっていません/,
    ko: /(^|\. )요금은 청구되지/,
  };
  it.each(FRONTS)(
    '%s, a free line failing after 35 of its own were paid: 35 once, never "nothing was charged"',
    (_, front) => {
      for (const error of [
        new EngineError('voicevox', 'failed', 'empty'),
        new EngineError('voicevox', 'timeout', 'late'),
        new EngineError('voicevox', 'busy', 'full'),
        new FreeVoiceFailedError('stopped', 'stopped'),
        new FreeVoiceFailedError('timeout', 'late'),
      ]) {
        const answer = wordOutcome({ kind: 'failed', error, secondsHeard: 0, spent: { paid: 35 } }, front);
        const said = describeFailure(answer.answer === 'refused' ? answer.error : undefined).message;
        for (const locale of LOCALES) {
          const text = wordsText(locale, said);
          expect(text.match(/35/g), `${locale}: ${text}`).toHaveLength(1);
          expect(text, `${locale}: ${text}`).not.toMatch(WHOLE_ORDER_FREE[locale]);
        }
      }
    },
  );

  it.each(FRONTS)(
    '%s, a right taken away after paid parts left: the reason, and that what was paid for is spent',
    (_, front) => {
      const revoked = new RightsRevokedError({ code: 'muted', channelId: '7' });
      const reason = describeFailure(revoked).message;
      const words = (spentSome: boolean) => {
        const outcome: SpeechOutcome = {
          kind: 'failed',
          error: revoked,
          secondsHeard: 1,
          ...(spentSome ? { spent: { paid: 5 } } : {}),
        };
        const answer = wordOutcome(outcome, front);
        return describeFailure(answer.answer === 'refused' ? answer.error : undefined).message;
      };
      expect(words(true)).toEqual({ key: 'error.revoked.spent', params: { reason, paid: 5 } });
      expect(words(false)).toEqual(reason);
      for (const locale of LOCALES) expect(wordsText(locale, words(true))).toContain(wordsText(locale, reason));
    },
  );

  // The books confirmed 94 of the order's characters before the right was taken away: the words give that figure, once
  // (bb7's gap D: "counts as spent ... /usage shows it" and no number); none confirmed yet: no figure, still spent.
  it.each(FRONTS)('%s, a right taken away after 94 confirmed: 94 said once, in every language', (_, front) => {
    const revoked = new RightsRevokedError({ code: 'not-in-voice', channelId: '7' });
    const told = (paid: number) => {
      const answer = wordOutcome({ kind: 'failed', error: revoked, secondsHeard: 1, spent: { paid } }, front);
      return describeFailure(answer.answer === 'refused' ? answer.error : undefined).message;
    };
    for (const locale of LOCALES) {
      expect(wordsText(locale, told(94)).match(/94/g), locale).toHaveLength(1);
      expect(wordsText(locale, told(0)), locale).not.toMatch(/[0-689]/); // <#7> alone
    }
  });

  // An order still queued when a right was taken away: nothing of it had started, so nothing of it is "the rest".
  const REVOCATIONS = [
    { code: 'not-in-voice', channelId: '7' },
    { code: 'muted', channelId: '7' },
    { code: 'suppressed', channelId: '7' },
    { code: 'may-not-speak', channelId: '7' },
    { code: 'may-not-view', channelId: '7' },
    { code: 'may-not-connect', channelId: '7' },
    { code: 'timed-out', channelId: '7' },
    { code: 'bot-unheard', channelId: '7' },
    { code: 'bot-unheard', channelId: '7', helperId: '900000000000000001' },
    { code: 'ignored' },
    { code: 'not-served' },
  ] as const;
  const DROPPED = { 'en-US': 'the rest was dropped', ja: '残りは取り消しました', ko: '나머지는 취소했습니다' };
  const NOT_STARTED = {
    'en-US': 'none of it had started',
    ja: 'まだ何も再生していませんでした',
    ko: '아직 아무것도 재생하지 않았습니다',
  };
  it.each(FRONTS)(
    '%s, a right taken away while the order was still queued: never "the rest was dropped", but that none of it had started',
    (_, front) => {
      for (const revocation of REVOCATIONS)
        for (const spentSome of [false, true]) {
          const outcome: SpeechOutcome = {
            kind: 'failed',
            error: new RightsRevokedError(revocation),
            secondsHeard: 0,
            ...(spentSome ? { spent: { paid: 5 } } : {}),
          };
          const answer = wordOutcome(outcome, front);
          const message = describeFailure(answer.answer === 'refused' ? answer.error : undefined).message;
          for (const locale of LOCALES) {
            const text = wordsText(locale, message);
            expect(text, `${revocation.code} ${locale}`).not.toContain(DROPPED[locale]);
            expect(text, `${revocation.code} ${locale}`).toContain(NOT_STARTED[locale]);
          }
        }
      // Once some was heard, the rest is what was dropped.
      const heard = wordOutcome(
        { kind: 'failed', error: new RightsRevokedError(REVOCATIONS[0]), secondsHeard: 2 },
        front,
      );
      const said = describeFailure(heard.answer === 'refused' ? heard.error : undefined).message;
      expect(wordsText('en-US', said)).toContain(DROPPED['en-US']);
    },
  );

  it.each(LOCALES)(
    '/say in voice, cut after some was heard (%s): the cause goes in as a message, written out only in the reply',
    (locale) => {
      const error = new ServerError('503', { status: 503 });
      const answer = wordOutcome({ kind: 'failed', error, secondsHeard: 3 }, {
        ...command({ kind: 'voice', channelId: '7' }),
        locale,
      } as Front);
      const said = describeFailure(answer.answer === 'refused' ? answer.error : undefined).message;
      const cause = describeFailure(error).message;
      expect(said).toEqual({ key: 'error.voice.streamFailed', params: { detail: cause } });
      // The error holds the key and its figures (what a log line of it shows); the member reads it in their language.
      expect(JSON.stringify(said)).not.toContain(wordsText(locale, cause));
      // The cause's words end the reply: its own advice ("try again later") is said once, not followed by another.
      expect(wordsText(locale, said).endsWith(wordsText(locale, cause))).toBe(true);
    },
  );

  const BY_SERVICE: Array<[string, unknown, string]> = [
    [
      "a gateway's 504 after the request left",
      new ServerError('504', { status: 504, charge: 'maybe-charged' }),
      'error.api.maybeCharged.gateway',
    ],
    [
      'no answer in time after the request left',
      new TimeoutError('late', 'headers', 20_000, { charge: 'maybe-charged' }),
      'error.api.maybeCharged.timeout',
    ],
    [
      'a reset after the request left',
      new ConnectionError('reset', 'ECONNRESET', { charge: 'maybe-charged' }),
      'error.api.maybeCharged.connection',
    ],
    [
      'audio cut part-way after the 2xx',
      new ConnectionError('reset', 'ECONNRESET', { charge: 'charged' }),
      'error.api.undelivered',
    ],
    [
      'audio cut part-way after the 2xx, with all the order paid',
      new LostAfterPayingError(77, new ConnectionError('reset', 'ECONNRESET', { charge: 'charged' })),
      'error.api.undelivered.paid',
    ],
  ];
  it.each(
    FRONTS.flatMap(([front, facts]) =>
      BY_SERVICE.flatMap((c) => [0, 3].map((heard) => [front, ...c, heard, facts] as const)),
    ),
  )(
    '%s, failed by %s: words by what the service did, however much was heard',
    (_, _cause, error, key, heard, front) => {
      const answer = wordOutcome({ kind: 'failed', error, secondsHeard: heard }, front);
      expect(answer.answer === 'refused' ? describeFailure(answer.error).message.key : answer.answer).toBe(key);
    },
  );

  it('a bug stays a bug: an error of SayBot\'s own is "went wrong on my side" on every front-end', () => {
    for (const [, front] of FRONTS) {
      const answer = wordOutcome({ kind: 'failed', error: new TypeError('x is undefined'), secondsHeard: 0 }, front);
      expect(describeFailure(answer.answer === 'refused' ? answer.error : undefined).message.key).toBe(
        'error.internal',
      );
    }
  });

  it("a scene that would cost more than confirmed shows its price again; elsewhere it is not a member's words", () => {
    const failed: SpeechOutcome = { kind: 'failed', error: new QuoteExceededError(10), secondsHeard: 0 };
    expect(wordOutcome(failed, scene()).answer).toBe('price-changed');
    expect(wordOutcome(failed, { flavour: 'studio' }).answer).toBe('price-changed');
    expect(wordOutcome(failed, command({ kind: 'file', because: 'asked' })).answer).toBe('refused');
  });

  it('a replay says it played again only when it did: stopped, skipped or cut off is said as /say says it', () => {
    const replay: Front = { flavour: 'replay', channelId: '7', voiceId: 'voice-a-en-f-01' };
    const keyOf = (kind: OutcomeName) => {
      const answer = wordOutcome(OUTCOMES[kind]!, replay);
      return answer.answer === 'reply' ? answer.words.key : answer.answer;
    };
    expect(['played', 'stopped', 'skipped', 'cut-off'].map(keyOf)).toEqual([
      'buttons.played',
      'say.stopped',
      'say.skipped',
      'say.cutOff',
    ]);
  });

  it('names the free voice that spoke for the failing service, and offers no buttons for it', () => {
    const outcome: SpeechOutcome = {
      kind: 'played',
      seconds: 2,
      standIn: { voice: 'free-en-f', cause: 'service-failed' },
    };
    const answer = wordOutcome(outcome, command({ kind: 'voice', channelId: '7' }));
    expect(answer.answer === 'reply' && wordsText('en-US', answer.words)).toContain('free-en-f');
    expect(answer.answer === 'reply' && answer.buttons).toBeFalsy();
    const paid = wordOutcome({ kind: 'played', seconds: 2 }, command({ kind: 'voice', channelId: '7' }));
    expect(paid.answer === 'reply' && paid.buttons).toBe('voice');
  });

  it('a scene says when the free voice stood in and when its audio was cut at the cap, under its words', () => {
    const outcome: SpeechOutcome = {
      kind: 'files',
      files: [{ data: Buffer.from('RIFF'), format: 'mp3' }],
      seconds: 600,
      cutAt: 600,
      timeline: [],
      standIn: { voice: 'free-en-f', cause: 'service-failed' },
    };
    const answer = wordOutcome(outcome, scene());
    expect(answer.answer).toBe('post-file');
    if (answer.answer !== 'post-file') return;
    expect(answer.file.name).toBe('saybot-scene.mp3');
    expect(answer.notes.map((note) => note.key)).toEqual(['scene.freeVoiceStoodIn', 'scene.cutAtCap']);
    expect(wordsText('en-US', answer.posted, answer.notes).split('\n')).toHaveLength(3);
  });
  // Every front-end whose order can end as a file: the parts paid for before the rest was refused.
  const fileFronts = FRONTS.filter(([, , possible]) => possible.includes('files'));
  it.each(fileFronts)(
    '%s, a file of the parts paid before the rest was refused: posted with what was paid, or refused with it',
    (_, front) => {
      const paidPartWay = new PaidPartWayError(
        41,
        new Refusal({ code: 'budget-guild-month', limit: 100, used: 60, needed: 50, resetAt: new Date('2026-12-01') }),
      );
      const answer = wordOutcome({ ...OUTCOMES['files']!, partWay: paidPartWay } as SpeechOutcome, front);
      const said = describeFailure(paidPartWay).message;
      expect(said.key).toMatch(/^error\.paidPartWay\./);
      if (front.flavour === 'sample') {
        // Bare audio (words are the studio's) carries none: never passed off as the whole.
        expect(answer).toEqual({ answer: 'refused', error: paidPartWay });
        return;
      }
      expect(messagesOf(answer)).toContainEqual(said);
      expect(answer).not.toHaveProperty('buttons');
      for (const locale of LOCALES) expect(wordsText(locale, said)).toContain('41');
    },
  );

  // Every front-end whose order can end as a file or a voice message, a later part of it failing (charged or not, cut,
  // or maybe charged): what is posted holds only the parts before it, and its words say so, not only the failure's.
  const partFronts = FRONTS.flatMap(([name, front, possible]) =>
    possible
      .filter((kind) => kind === 'files' || kind.startsWith('voice-message'))
      .flatMap((kind) =>
        [
          new ServerError('502', { status: 502, charge: 'maybe-charged' }),
          new ConnectionError('reset', 'ECONNRESET', { charge: 'charged' }),
          new LostAfterPayingError(41, new ConnectionError('reset', 'ECONNRESET', { charge: 'charged' })),
        ].map((partWay) => [name, kind, partWay.constructor.name, front, partWay] as const),
      ),
  );
  it.each(partFronts)('%s, ended as %s, a later part failed (%s): its words say only part of it is there', (...row) => {
    const [, kind, , front, partWay] = row;
    const answer = wordOutcome({ ...OUTCOMES[kind]!, partWay } as SpeechOutcome, front);
    if (answer.answer === 'refused') {
      expect(answer.error).toBe(partWay);
      return;
    }
    const messages = messagesOf(answer);
    expect(messages).toContainEqual({ key: 'outcome.partWay.only' });
    expect(messages).toContainEqual(describeFailure(partWay).message);
  });

  // The same, after characters of its own were paid (the service confirmed 46 for its order): how many, said once,
  // whether the failure's own words carry the figure or not.
  const paidFronts = FRONTS.flatMap(([name, front, possible]) =>
    possible
      .filter((kind) => kind === 'files' || kind.startsWith('voice-message'))
      .flatMap((kind) =>
        [
          new ConnectionError('reset', 'ECONNRESET', { charge: 'maybe-charged' }),
          new ServerError('502', { status: 502, charge: 'maybe-charged' }),
          new BadRequestError('400', { status: 400, charge: 'not-charged' }),
          new UnexpectedResponseError('not audio', { status: 200, charge: 'charged' }),
          new LostAfterPayingError(46, new ConnectionError('reset', 'ECONNRESET', { charge: 'charged' })),
          new PaidPartWayError(46, new ServerError('503', { status: 503 })),
        ].map((partWay) => [name, kind, partWay.constructor.name, front, partWay] as const),
      ),
  );
  it.each(paidFronts)(
    '%s, ended as %s, a later part failed (%s) after 46 of its own were paid: 46 said once',
    (...row) => {
      const [, kind, , front, partWay] = row;
      const outcome = { ...OUTCOMES[kind]!, partWay, spent: { paid: 46, delivered: 46 } } as SpeechOutcome;
      const answer = wordOutcome(outcome, front);
      const messages = answer.answer === 'refused' ? [describeFailure(answer.error).message] : messagesOf(answer);
      for (const locale of LOCALES) {
        const text = messages.map((message) => wordsText(locale, message)).join('\n');
        expect(text.match(/46/g), `${locale}: ${text}`).toHaveLength(1);
      }
    },
  );

  // The free voice stood in after 151 paid characters, then a later part was refused (the service 503ing): each thing
  // the member reads names the stand-in and says 151 once, and never that the rest was not made (the free voice's is).
  const standInFronts = paidFronts.filter(
    ([, , error, front]) => error === 'PaidPartWayError' && ['command', 'user-install'].includes(front.flavour),
  );
  it.each(standInFronts)('%s, ended as %s, stood in for then refused part-way: 151 said once', (_, kind, __, front) => {
    const standIn = { voice: 'free-en-f', cause: 'service-failed' as const, paidBefore: 151 };
    const partWay = new PaidPartWayError(151, new ServerError('503', { status: 503 }));
    const answer = wordOutcome({ ...OUTCOMES[kind]!, standIn, partWay, spent: { paid: 151 } } as SpeechOutcome, front);
    const read =
      answer.answer === 'reply'
        ? [answer.words]
        : answer.answer === 'too-large'
          ? [answer.posted, answer.compressed]
          : answer.answer === 'voice-message'
            ? [answer.stoodIn ?? answer.posted!, answer.asFile('too-large')]
            : [];
    expect(read.length).toBeGreaterThan(0);
    for (const first of read)
      for (const locale of LOCALES) {
        const notes = 'notes' in answer ? answer.notes : [];
        const text = wordsText(locale, first, notes);
        expect(text, locale).toContain('free-en-f');
        expect(text.match(/151/g), `${locale}: ${text}`).toHaveLength(1);
        expect(notes.map((note) => note.key)).not.toContainEqual(expect.stringMatching(/^error\.paidPartWay\./));
      }
  });

  // The same in voice (bb7's hole A: "...so the rest was not made" while ~8 s of it was the free voice, never named).
  it('/say in voice, stood in for then refused part-way: the free voice named, 151 said once', () => {
    const standIn = { voice: 'free-en-f', cause: 'service-failed' as const, paidBefore: 151 };
    const error = new PaidPartWayError(151, new ServerError('503', { status: 503 }));
    const outcome: SpeechOutcome = { kind: 'failed', error, secondsHeard: 17, standIn, spent: { paid: 151 } };
    const answer = wordOutcome(outcome, command({ kind: 'voice', channelId: '7' }));
    const said = describeFailure(answer.answer === 'refused' ? answer.error : undefined).message;
    expect(said.key).not.toMatch(/^error\.paidPartWay\./);
    for (const locale of LOCALES) {
      const text = wordsText(locale, said);
      expect(text, locale).toContain('free-en-f');
      expect(text.match(/151/g), `${locale}: ${text}`).toHaveLength(1);
    }
  });

  // bb9's gap 3: refused for money, then FREE_VOICES' engine voice failed with no eSpeak NG to back it up: the member
  // was told only "this bot's own speech engine could not speak this line ... pick another voice", never the budget.
  it.each([new EngineError('speech', 'failed', 'empty'), new FreeVoiceFailedError('timeout', 'slow')])(
    '/say refused for money, the free voice failing in its place ($name): the refusal first, then the free voice',
    (error) => {
      const refusal = new Refusal({ code: 'budget-guild-month', limit: 60, used: 46, needed: 48, resetAt: new Date() });
      const outcome: SpeechOutcome = { kind: 'failed', error, secondsHeard: 0 };
      for (const where of [
        { kind: 'voice', channelId: '7' },
        { kind: 'file', because: 'asked' },
      ] as const) {
        const answer = wordOutcome(outcome, { ...command(where), fellBack: refusal } as Front);
        const said = describeFailure(answer.answer === 'refused' ? answer.error : undefined).message;
        for (const locale of LOCALES) {
          const text = wordsText(locale, said);
          expect(text.startsWith(wordsText(locale, describeFailure(refusal).message)), `${locale}: ${text}`).toBe(true);
          expect(text.endsWith(wordsText(locale, describeFailure(error).message)), `${locale}: ${text}`).toBe(true);
        }
        expect(wordsText('en-US', said)).toContain('The free voice');
      }
    },
  );

  // A join refused (4021) while the first part's request was at the service: the books count its 48 as maybe charged,
  // and the words say so with the join's, as other maybe-charged answers do (bb7's gap C: the join's words alone).
  it('/say in voice, the join refused with 48 maybe charged: "may have counted" its 48, once, then the join\'s words', () => {
    const error = new VoiceJoinError('7', new Error('4021'), 'call-terminated');
    const outcome: SpeechOutcome = { kind: 'failed', error, secondsHeard: 0, spent: { paid: 0, unconfirmed: 48 } };
    const answer = wordOutcome(outcome, command({ kind: 'voice', channelId: '7' }));
    const said = describeFailure(answer.answer === 'refused' ? answer.error : undefined).message;
    for (const locale of LOCALES) {
      const text = wordsText(locale, said);
      expect(text.match(/48/g), `${locale}: ${text}`).toHaveLength(1);
      expect(text.endsWith(wordsText(locale, describeFailure(error).message)), locale).toBe(true);
    }
    expect(wordsText('en-US', said)).toContain('may have counted');
  });

  // The studio says the free voice spoke as /scene does, in the same words (bb7's hole E: "The scene is made: 5.3 s.").
  it.each(['files', 'played'] as const)(
    'the studio, ended as %s with the free voice standing in: said as /scene says it',
    (kind) => {
      const outcome = { ...OUTCOMES[kind]!, standIn: { voice: 'free-en-f', cause: 'service-failed' } } as SpeechOutcome;
      const said = messagesOf(wordOutcome(outcome, scene(kind === 'played' ? '7' : undefined)));
      const stoodIn = said.filter((message) => message.key === 'scene.freeVoiceStoodIn');
      expect(stoodIn).toHaveLength(1);
      expect(messagesOf(wordOutcome(outcome, { flavour: 'studio' }))).toContainEqual(stoodIn[0]);
    },
  );

  // A sample the free voice spoke names it as /say's reply does, in the same words (bb13's hole 4).
  it.each([0, 12])('a dashboard sample the free voice stood in for, %i paid before: named as /say names it', (paid) => {
    const standIn = { voice: 'free-en-f', cause: 'service-failed', paidBefore: paid } as const;
    const said = messagesOf(wordOutcome({ ...OUTCOMES.files!, standIn } as SpeechOutcome, { flavour: 'sample' }));
    expect(said.map((message) => message.key)).toEqual(['sample.freeVoiceStoodIn']);
    for (const locale of LOCALES)
      expect(wordsText(locale, said[0]!)).toContain(fallbackVoiceLabel(locale, 'free-en-f', 'service-failed', paid));
  });

  // Every front-end that can speak a free line, every way its order can end but failing.
  const speaksFreeLines = FRONTS.filter(([, front]) => ['command', 'user-install', 'scene'].includes(front.flavour));
  const freeLineCuts = speaksFreeLines.flatMap(([name, front, possible]) =>
    possible.filter((kind) => kind !== 'failed').map((kind) => [name, kind, front] as const),
  );

  it.each(freeLineCuts)('%s, ended as %s with a free line cut at its cap: a note says so', (_, kind, front) => {
    const answer = wordOutcome({ ...OUTCOMES[kind]!, lineCutAt: 120 } as SpeechOutcome, front);
    const cut = messagesOf(answer).filter((message) => message.key === 'freeLine.cutAtCap');
    expect(cut).toEqual([{ key: 'freeLine.cutAtCap', params: { max: 120 } }]);
    for (const locale of LOCALES) expect(wordsText(locale, cut[0]!)).toContain('120');
  });
});

describe('a line on a helper seat names that bot, never "me", where the words are about the bot in voice (bb9)', () => {
  const voice = { kind: 'voice', channelId: '7', helperId: '900000000000000001' } as const;
  it.each([
    ['moved mid-line', OUTCOMES.played!, { ...voice, movedTo: '8' }],
    ['cut off mid-line', OUTCOMES['cut-off']!, voice],
  ])('%s, in every language', (_, outcome, where) => {
    const answer = wordOutcome(outcome, command(where));
    const main = wordOutcome(outcome, command({ ...where, helperId: undefined }));
    for (const locale of LOCALES) {
      const text = answer.answer === 'reply' ? wordsText(locale, answer.words) : answer.answer;
      expect(text, locale).toContain('<@900000000000000001>');
      expect(text, locale).not.toBe(main.answer === 'reply' && wordsText(locale, main.words));
    }
    expect(answer.answer === 'reply' && wordsText('en-US', answer.words)).not.toMatch(/\b(I|me|my)\b/);
  });
});
