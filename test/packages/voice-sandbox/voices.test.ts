import { describe, expect, it } from 'vitest';
import { DEFAULT_EMOTION_VOICE, FIXTURE_TONES_HZ, PRESET_VOICES, presetVoice } from '@saybot/voice-sandbox';

describe('preset voice catalogue', () => {
  it('has 41 presets with unique IDs in the documented shape', () => {
    expect(PRESET_VOICES).toHaveLength(41);
    expect(new Set(PRESET_VOICES.map((v) => v.id)).size).toBe(41);
    for (const v of PRESET_VOICES) {
      expect(v.id).toMatch(/^voice-b-[a-z]{2}-[fm]-\d{2}$/);
      expect(v.id).toBe(`voice-b-${v.language}-${v.gender}-${v.id.slice(-2)}`);
      expect(v.name.length).toBeGreaterThan(0);
    }
    expect(new Set(PRESET_VOICES.map((v) => v.language)).size).toBeGreaterThanOrEqual(8);
  });

  it('keeps the six documented voices with their character', () => {
    const documented: [string, RegExp][] = [
      ['voice-b-ko-f-01', /Korean bright, friendly female/],
      ['voice-b-ko-m-01', /Korean calm male narrator/],
      ['voice-b-ja-f-01', /Japanese bright, energetic female/],
      ['voice-b-ja-m-01', /Japanese calm male/],
      ['voice-b-en-f-01', /English friendly female/],
      ['voice-b-en-m-01', /English young male narrator/],
    ];
    for (const [id, description] of documented) expect(presetVoice(id)?.description).toMatch(description);
    expect(presetVoice(DEFAULT_EMOTION_VOICE)?.id).toBe('voice-b-ko-f-01');
    expect(presetVoice('voice-b-ko-f-99')).toBeUndefined();
  });

  it('gives every preset its own pitch: 15 Hz apart, 110..750 Hz, 10 Hz clear of the fixture tones', () => {
    const pitches = PRESET_VOICES.map((v) => v.pitchHz).sort((a, b) => a - b);
    expect(pitches[0]).toBeGreaterThanOrEqual(110);
    expect(pitches.at(-1)).toBeLessThanOrEqual(750);
    for (let i = 1; i < pitches.length; i++)
      expect((pitches[i] as number) - (pitches[i - 1] as number)).toBeGreaterThanOrEqual(15);
    for (const p of pitches) for (const tone of FIXTURE_TONES_HZ) expect(Math.abs(p - tone)).toBeGreaterThanOrEqual(10);
  });
});
