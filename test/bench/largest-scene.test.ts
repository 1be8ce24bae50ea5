import { describe, expect, it } from 'vitest';
import { largestFreeScript } from '../../bench/largest-scene.ts';
import { SCENE_CAPS, parseScript, sceneCharacters } from '../../src/features/scenes/script.ts';

describe('largestFreeScript', () => {
  it('is a script the scene feature accepts at every one of its caps: lines, characters and pauses', () => {
    const script = parseScript(largestFreeScript('T1'));
    const lines = script.steps.filter((step) => step.kind === 'line');
    const pauses = script.steps.flatMap((step) => (step.kind === 'pause' ? [step.seconds] : []));
    expect(lines).toHaveLength(SCENE_CAPS.lines);
    expect(sceneCharacters(script)).toBe(SCENE_CAPS.characters);
    expect(pauses.reduce((sum, s) => sum + s, 0)).toBe(SCENE_CAPS.pauseTotalSeconds);
    expect(script.steps.at(-1)?.kind).toBe('line');
    expect(script.cast.map((entry) => entry.voice)).toEqual([
      { kind: 'name', text: 'free-en-f' },
      { kind: 'name', text: 'free-en-m' },
    ]);
  });

  it('has words of its own in every line (no line from the cache), and a share of the characters when shorter', () => {
    const first = parseScript(largestFreeScript('A1')).steps;
    const second = parseScript(largestFreeScript('A2')).steps;
    const texts = (steps: typeof first) => steps.flatMap((step) => (step.kind === 'line' ? [step.text] : []));
    const again = new Set(texts(first));
    expect(texts(second).filter((text) => again.has(text))).toEqual([]);
    const short = parseScript(largestFreeScript('Q1', 12));
    expect(sceneCharacters(short)).toBe((SCENE_CAPS.characters * 12) / SCENE_CAPS.lines);
  });
});
