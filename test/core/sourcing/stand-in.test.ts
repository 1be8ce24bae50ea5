// The stand-in's choice, made in one place (src/core/sourcing/stand-in.ts `StandIns`): whether a free voice may speak
// for the paid one here, which, with what request, and whether each part fits one of its lines.
import { describe, expect, it } from 'vitest';
import { espeakVoiceFor, StandIns } from '../../../src/core/sourcing/stand-in.ts';
import { ServerError } from '../../../src/core/api/errors.ts';
import type { EnginePort } from '../../../src/core/sourcing/engine-port.ts';
import type { ServiceRequest } from '../../../src/core/settings/speech-request.ts';

const rules = { chosen: false, standsIn: true, espeak: true };
const paid: ServiceRequest = { kind: 'tts', text: 'Hello there.', voice: 'voice-b-en-m-01', format: 'mp3' };
const line = { request: paid, texts: ['Hello there.'], pauseBefore: 0 };
const failed = new ServerError('the service failed', { status: 503, charge: 'not-charged' });
/** One engine offering voicevox:3, answering. */
const engines = { voice: (id: string) => (id === 'voicevox:3' ? { id, name: 'three' } : undefined), down: () => false };

describe('StandIns', () => {
  it("speaks a plain order refused for money in eSpeak NG's closest voice, as WAV; never a scene, nor where FREE_VOICE forbids", () => {
    const standIns = new StandIns(rules);
    expect(standIns.forOrder({ scene: false, lines: [line] })).toEqual([
      { ...line, request: { kind: 'tts', text: 'Hello there.', voice: 'free-en-m', format: 'wav' } },
    ]);
    expect(standIns.forOrder({ scene: true, lines: [line] })).toBeUndefined();
    expect(new StandIns({ ...rules, standsIn: false }).forOrder({ scene: false, lines: [line] })).toBeUndefined();
  });

  it("takes FREE_VOICES' voice for the language where its engine offers it, else eSpeak NG's; none that cannot fit", () => {
    const choice = new Map([['en', 'voicevox:3']]);
    expect(new StandIns(rules, engines as unknown as EnginePort, choice).request(paid, ['Hi.'])?.voice).toBe(
      'voicevox:3',
    );
    expect(new StandIns(rules, undefined, choice).request(paid, ['Hi.'])?.voice).toBe('free-en-m');
    expect(new StandIns(rules).request(paid, ['word '.repeat(400)])).toBeUndefined();
  });

  it('stands in for a part the service failed uncharged, but never for a clone’s first line', () => {
    const standIns = new StandIns(rules);
    expect(standIns.forFailure({ charge: {} as never }, failed, paid, 'Hello there.')).toMatchObject({
      request: { voice: 'free-en-m' },
      cause: 'service-failed',
    });
    expect(standIns.forFailure({ charge: {} as never, followUp: true }, failed, paid, 'Hello there.')).toBeUndefined();
    const charged = new ServerError('cut', { status: 500, charge: 'maybe-charged' });
    expect(standIns.forFailure({ charge: {} as never }, charged, paid, 'Hello there.')).toBeUndefined();
  });
});

// eSpeak NG's voice that stands in for a paid one: its gender, and the language it can speak.
describe('espeakVoiceFor', () => {
  it.each([
    ['voice-b-ko-m-01', undefined, 'free-ko-m'],
    ['voice-b-en-f-01', 'ja', 'free-ja-f'],
    // A region: the language before it.
    ['voice-b-en-f-01', 'ko-KR', 'free-ko-f'],
    ['voice-b-en-m-01', 'ZH-cn', 'free-zh-m'],
    // No free voice speaks Italian: the preset's own language before English.
    ['voice-b-ja-f-01', 'it', 'free-ja-f'],
    ['voice-b-it-m-01', 'it', 'free-en-m'],
    // A cloned voice: no gender or language in its ID.
    ['clone_1234', undefined, 'free-en-f'],
    [undefined, 'fr', 'free-fr-f'],
  ])('%s speaking %s -> %s', (voice, language, expected) => {
    expect(espeakVoiceFor(voice, language)).toBe(expected);
  });
});
