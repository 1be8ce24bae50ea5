// The settings layer by layer (resolveSettings), and whether a voice may be spoken here (requireVoice): the one place
// each refusal is decided.
import { describe, expect, it } from 'vitest';
import { SpeechInputError } from '../../../src/core/order-errors.ts';
import { requireVoice, resolveSettings } from '../../../src/core/sourcing/voice-choice.ts';
import { ttsRequest } from '../../../src/core/sourcing/part-request.ts';

const preset = { name: 'chosen', settings: { voice: 'voice-b-ja-m-01', tone: 'preset tone' } };
const member = { voice: 'voice-b-en-m-01', language: 'en', tone: 'member tone', format: 'mp3' as const };
const server = {
  name: 'house',
  settings: {
    voice: 'voice-b-ko-m-01',
    language: 'ko',
    tone: 'server tone',
    exaggeration: 0.4,
    format: 'wav' as const,
  },
};

describe('resolveSettings', () => {
  it('takes each field from the most specific layer that sets it', () => {
    const r = resolveSettings({ options: { language: 'ja' }, preset, member, server, guildLocale: 'ko' });
    expect(r).toMatchObject({
      voice: 'voice-b-ja-m-01',
      language: 'ja',
      tone: 'preset tone',
      format: 'mp3',
      exaggeration: 0.4,
    });
    expect(r.sources).toEqual({
      voice: { kind: 'preset', preset: 'chosen' },
      language: { kind: 'option' },
      tone: { kind: 'preset', preset: 'chosen' },
      format: { kind: 'member' },
      exaggeration: { kind: 'server', preset: 'house' },
      speed: { kind: 'builtin' },
      volume: { kind: 'builtin' },
      pitch: { kind: 'builtin' },
    });
    expect(r).toMatchObject({ speed: 1, volume: 0, pitch: 0 });
  });

  it('resolves speed and volume in the same order, each on its own (presets and /myvoice will carry them too)', () => {
    const r = resolveSettings({
      options: { volume: -6 },
      preset: { name: 'quick', settings: { speed: 1.5, volume: 3 } },
      member: { speed: 0.75, volume: 2 },
      server: { name: 'house', settings: { speed: 1.25 } },
      guildLocale: 'en-US',
    });
    expect(r).toMatchObject({ speed: 1.5, volume: -6 });
    expect(r.sources.speed).toEqual({ kind: 'preset', preset: 'quick' });
    expect(r.sources.volume).toEqual({ kind: 'option' });
    const fromMember = resolveSettings({
      options: {},
      member: { speed: 0.75 },
      server: { name: 'house', settings: { speed: 1.25, volume: 4 } },
      guildLocale: 'en-US',
    });
    expect(fromMember).toMatchObject({ speed: 0.75, volume: 4 });
    expect(fromMember.sources.speed).toEqual({ kind: 'member' });
  });

  it('asks for effects only when speed or volume changes something', () => {
    const base = resolveSettings({ options: { voice: 'voice-b-en-f-01' }, guildLocale: 'en-US' });
    expect('effects' in ttsRequest('hi', base)).toBe(false);
    expect(ttsRequest('hi', resolveSettings({ options: { speed: 1.5 }, guildLocale: 'en-US' }))).toMatchObject({
      effects: { speed: 1.5, volumeDb: 0 },
    });
    expect(ttsRequest('hi', resolveSettings({ options: { volume: -3 }, guildLocale: 'en-US' }))).toMatchObject({
      effects: { speed: 1, volumeDb: -3 },
    });
  });

  it("puts the command's options first", () => {
    const r = resolveSettings({
      options: { voice: 'voice-b-en-f-01', tone: 'mine', format: 'wav' },
      preset,
      member,
      server,
      guildLocale: 'ko',
    });
    expect(r).toMatchObject({ voice: 'voice-b-en-f-01', tone: 'mine', format: 'wav' });
    expect(r.sources.voice).toEqual({ kind: 'option' });
  });

  it("puts the member's default before the server's default preset", () => {
    const r = resolveSettings({ options: {}, member: { voice: 'voice-b-en-m-01' }, server, guildLocale: 'ko' });
    expect(r.voice).toBe('voice-b-en-m-01');
    expect(r.sources.voice).toEqual({ kind: 'member' });
    expect(r.tone).toBe('server tone');
  });

  it("uses the server's default preset when nothing closer sets a field", () => {
    const r = resolveSettings({ options: {}, server, guildLocale: 'en-US' });
    expect(r.voice).toBe('voice-b-ko-m-01');
    expect(r.sources.voice).toEqual({ kind: 'server', preset: 'house' });
  });

  it("falls back to the built-in voice of the server's locale and WAV", () => {
    for (const [locale, voice] of [
      ['ko', 'voice-b-ko-f-01'],
      ['ja', 'voice-b-ja-f-01'],
      ['en-US', 'voice-b-en-f-01'],
      [null, 'voice-b-en-f-01'],
    ] as const) {
      const r = resolveSettings({ options: {}, guildLocale: locale });
      expect(r.voice).toBe(voice);
      expect(r.format).toBe('wav');
      expect(r.sources.voice).toEqual({ kind: 'builtin' });
      expect(r.language).toBeUndefined();
      expect('language' in r).toBe(false);
    }
  });
});

describe('requireVoice', () => {
  const offered = new Set(['voicevox:3']);
  const here = (over: { espeak?: boolean; chosen?: boolean; known?: boolean; engines?: boolean } = {}) => ({
    deleted: new Set(['clone_gone']),
    freeVoice: { espeak: over.espeak ?? true, chosen: over.chosen ?? true },
    engines:
      over.engines === false
        ? undefined
        : { lists: (id: string) => (over.known === false ? undefined : offered.has(id)), recheck: async () => {} },
  });
  const refusal = (voice: string, at: ReturnType<typeof here>, as: 'part' | 'chosen' | 'saved' = 'part') => {
    try {
      requireVoice(voice, at, as);
      return undefined;
    } catch (error) {
      if (!(error instanceof SpeechInputError)) throw error;
      return error.problem.code;
    }
  };

  it('allows a preset, a clone not deleted, an offered engine voice and eSpeak NG where it speaks', () => {
    for (const voice of ['voice-b-en-f-01', 'clone_here', 'voicevox:3', 'free-en-f'])
      expect(refusal(voice, here(), 'chosen')).toBeUndefined();
  });

  it('refuses a cloned voice deleted since', () => {
    expect(refusal('clone_gone', here())).toBe('voice-deleted');
  });

  it("refuses eSpeak NG's voice where it is not installed, and as a member's choice where FREE_VOICE does not let them", () => {
    expect(refusal('free-ko-m', here({ espeak: false }))).toBe('free-voice-unavailable');
    expect(refusal('free-ko-m', here({ chosen: false }), 'chosen')).toBe('free-voice-unavailable');
    expect(refusal('free-ko-m', here({ chosen: false }), 'saved')).toBe('free-voice-unavailable');
    // Standing in is not choosing it.
    expect(refusal('free-ko-m', here({ chosen: false }))).toBeUndefined();
  });

  it('refuses an engine voice its engine does not list, or with no engine, alike to speak and to save', () => {
    for (const as of ['part', 'chosen', 'saved'] as const) {
      expect(refusal('voicevox:9', here(), as)).toBe('engine-voice-unknown');
      expect(refusal('voicevox:3', here({ engines: false }), as)).toBe('engine-voice-unknown');
      expect(refusal('voicevox:3', here(), as)).toBeUndefined();
    }
  });

  it("speaks an engine voice whose engine's list is not known (stood in for if it is down), and does not save it", () => {
    expect(refusal('voicevox:9', here({ known: false }))).toBeUndefined();
    expect(refusal('voicevox:9', here({ known: false }), 'chosen')).toBeUndefined();
    expect(refusal('voicevox:9', here({ known: false }), 'saved')).toBe('engine-voice-not-answering');
  });
});
