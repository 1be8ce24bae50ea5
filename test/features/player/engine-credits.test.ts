// /join's credits for the engines' voices: each once, said as written (an engine's name is never Discord markdown).
import { describe, expect, it } from 'vitest';
import { engineCredits, MAX_CREDITS_NAMED } from '../../../src/features/player/engine-credits.ts';
import { liveParts, seenText } from '../../support/seen-in-discord.ts';

const voice = (id: string, credit?: string) => ({ id, name: id, ...(credit === undefined ? {} : { credit }) });

describe('engineCredits', () => {
  it('names each credit once, none where no voice asks for one', () => {
    expect(engineCredits([voice('speech:af_heart')])).toBeUndefined();
    expect(engineCredits([voice('voicevox:0', 'VOICEVOX:A'), voice('voicevox:1', 'VOICEVOX:A')])).toBe('VOICEVOX:A');
  });

  it("shows an engine's markdown and links as text, and sums up a long list", () => {
    const credit = 'VOICEVOX:**[x](https://evil.example)**';
    const shown = `Free voices here: ${engineCredits([voice('voicevox:0', credit)])}.`;
    expect(liveParts(shown)).toEqual([]);
    expect(seenText(shown)).toBe(`Free voices here: ${credit}.`);
    const many = Array.from({ length: MAX_CREDITS_NAMED + 3 }, (_, i) => voice(`voicevox:${i}`, `VOICEVOX:S${i}`));
    expect(engineCredits(many)).toMatch(/\(\+3\)$/);
  });
});
