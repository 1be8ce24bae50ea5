// Whether a voice may be spoken or saved is one rule (src/core/sourcing/voice-choice.ts `requireVoice`, issue 96): an
// engine's voice offered, not offered or not known now alike for /say, a file, a scene, auto-read and /myvoice, the
// dashboard and /preset. So its refusals are written once, the engines' lists are asked there alone, and no other
// module asks on its own terms whether an engine has a voice (stand-in.ts asks its own question: can that engine
// speak for another voice now; the doctor, whether FREE_VOICES names a voice the engine lacks). Likewise whether a
// text fits one free line is src/core/characters.ts' `freeLine` alone, which the split, the check before a hold and the
// stand-in's choice ask, and that line's bounds (its seconds, an engine's characters) are written there once.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, sourceFiles } from './import-graph.ts';

const codeOf = (file: string) => readFileSync(join(ROOT, file), 'utf8').replace(/\/\/.*|\/\*[\s\S]*?\*\//g, '');
const RULE = 'src/core/sourcing/voice-choice.ts';

describe('one rule for a voice', () => {
  const files = sourceFiles(['src', 'commands']);
  const where = (pattern: RegExp) =>
    files.flatMap((file) => [...codeOf(file).matchAll(new RegExp(pattern, 'g'))].map(() => file));

  it('writes each refusal of a voice once, in the rule', () => {
    for (const code of ['free-voice-unavailable', 'engine-voice-unknown', 'engine-voice-not-answering'])
      expect(where(new RegExp(`'${code}'(?![:;])`)), code).toEqual([RULE]);
  });

  it("is asked of an order in one place in the pipeline (#voicesSpeak) and at the part source's door alone", () => {
    expect(where(/\bcheckVoice\(/)).toEqual([]);
    const asking = where(/\b(?:requireVoice|voiceRefusal)\(/);
    expect([...new Set(asking)].sort()).toEqual([
      'src/core/order/pipeline.ts',
      'src/core/sourcing/part-source.ts',
      'src/core/sourcing/voice-choice.ts',
    ]);
    expect(asking.filter((file) => file === 'src/core/order/pipeline.ts')).toHaveLength(1);
  });

  it("asks the engines' lists in the rule alone, and nowhere whether an engine's voice is undefined", () => {
    expect(where(/\.lists\(/)).toEqual([RULE]);
    // The doctor's own question: whether FREE_VOICES names a voice an engine that answered lacks.
    const asked = ['src/app/doctor/checks.ts', 'src/core/sourcing/stand-in.ts'];
    expect(where(/\.voice\([^()]*\)\s*[!=]==\s*undefined/)).toEqual(asked);
  });

  it('decides whether a text fits one free line in freeLine alone', () => {
    expect(where(/estimateCeiling\(MAX_FREE_LINE_SECONDS\)/)).toEqual(['src/core/characters.ts']);
  });

  it("writes a free line's bound once, in characters.ts, which eSpeak NG's threads and the engines ask", () => {
    const once = ['src/core/characters.ts'];
    expect(where(/MAX_FREE_LINE_SECONDS\s*=/)).toEqual(once);
    expect(where(/MOST_CHARACTERS_PER_SECOND\s*=/)).toEqual(once);
    expect(where(/function estimateFreeLineSeconds/)).toEqual(once);
  });

  it("writes an engine line's characters once, in characters.ts, which the split and the engines ask", () => {
    expect(where(/MAX_ENGINE_LINE_CHARACTERS\s*=/)).toEqual(['src/core/characters.ts']);
    expect(where(/MAX_TEXT_CHARS|\b1_?000\b[^\n]*characters/)).toEqual([]);
  });
});
