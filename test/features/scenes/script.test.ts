import { describe, expect, it } from 'vitest';
import { countCharacters } from '../../../src/core/characters.ts';
import {
  DEFAULT_GAP_SECONDS,
  parseScript,
  SCENE_CAPS,
  sceneCharacters,
  ScriptError,
} from '../../../src/features/scenes/script.ts';
import type { SceneCaps, SceneLine, SceneScript, ScriptErrorCode } from '../../../src/features/scenes/script-types.ts';

/** The lines of a script, in order. */
function spoken(script: SceneScript): SceneLine[] {
  return script.steps.filter((step): step is SceneLine => step.kind === 'line');
}

/** The error parsing `source` throws (the test fails when it throws none or something else). */
function refusal(source: string, caps: Partial<SceneCaps> = {}): ScriptError {
  try {
    parseScript(source, caps);
  } catch (error) {
    if (error instanceof ScriptError) return error;
    throw error;
  }
  throw new Error(`parsed without an error: ${JSON.stringify(source).slice(0, 80)}`);
}

function expectRefusal(
  source: string,
  code: ScriptErrorCode,
  line: number,
  params: Record<string, string | number>,
  caps: Partial<SceneCaps> = {},
): void {
  const error = refusal(source, caps);
  expect({ code: error.code, line: error.line, params: error.params }).toEqual({ code, line, params });
}

describe('parseScript: turns', () => {
  it('reads Name: text into a line step with speaker, key, text and line number', () => {
    const script = parseScript('Alice: Hello there.\nBob: Hi!');
    expect(script.steps).toEqual([
      { kind: 'line', speaker: 'Alice', key: 'alice', text: 'Hello there.', line: 1 },
      { kind: 'line', speaker: 'Bob', key: 'bob', text: 'Hi!', line: 2 },
    ]);
    expect(script.speakers).toEqual(['alice', 'bob']);
    expect(script.cast).toEqual([]);
  });

  it('matches names case-insensitively and with white space folded, keeping the first spelling for display', () => {
    const script = parseScript('Mary  Ann: one\n  mary ann  : two\nMARY\tANN: three');
    expect(spoken(script).map((line) => [line.speaker, line.key])).toEqual([
      ['Mary Ann', 'mary ann'],
      ['Mary Ann', 'mary ann'],
      ['Mary Ann', 'mary ann'],
    ]);
    expect(script.speakers).toEqual(['mary ann']);
  });

  it('accepts names in any script, with digits, _ - apostrophes and dots', () => {
    const script = parseScript(
      [
        '민수: 안녕하세요',
        'さくら: こんにちは',
        "Dr. O'Neil-2_x: fine",
        'Zoë: ok',
        'O\u2019Brien: smart quote',
        'R2D2: beep',
      ].join('\n'),
    );
    expect(spoken(script).map((line) => line.speaker)).toEqual([
      '민수',
      'さくら',
      "Dr. O'Neil-2_x",
      'Zoë',
      'O\u2019Brien',
      'R2D2',
    ]);
  });

  it('accepts the full-width colon a Japanese keyboard types', () => {
    expect(spoken(parseScript('アリス：こんにちは'))[0]).toMatchObject({ speaker: 'アリス', text: 'こんにちは' });
  });

  it('splits on the first Name: prefix only, so the text keeps its colons', () => {
    expect(spoken(parseScript('Alice: at 10:30 we go: all of us'))[0]?.text).toBe('at 10:30 we go: all of us');
  });

  it('reads any word before a colon as a speaker, e.g. Note: this', () => {
    const script = parseScript('Note: this is a turn');
    expect(spoken(script)[0]).toMatchObject({ speaker: 'Note', text: 'this is a turn' });
  });

  it('trims the text', () => {
    expect(spoken(parseScript('Alice:    spaced out   '))[0]?.text).toBe('spaced out');
  });

  it('keeps the order of first appearance in speakers', () => {
    expect(parseScript('B: 1\nA: 2\nb: 3\nC: 4').speakers).toEqual(['b', 'a', 'c']);
  });
});

describe('parseScript: cues', () => {
  it('reads a tone in parentheses', () => {
    expect(spoken(parseScript('Bob (whispering): psst'))[0]).toEqual({
      kind: 'line',
      speaker: 'Bob',
      key: 'bob',
      text: 'psst',
      tone: 'whispering',
      line: 1,
    });
  });

  it('reads an intensity in brackets: 0, 1, .5, 0.75', () => {
    const script = parseScript('A [0]: a\nA [1]: b\nA [.5]: c\nA [0.75]: d\nA [ 0.8 ]: e');
    expect(spoken(script).map((line) => line.intensity)).toEqual([0, 1, 0.5, 0.75, 0.8]);
  });

  it('reads both cues in either order', () => {
    const [first, second] = spoken(parseScript('Bob (angry) [0.6]: No!\nBob [0.6] (angry): No!'));
    expect(first).toMatchObject({ tone: 'angry', intensity: 0.6, text: 'No!' });
    expect(second).toMatchObject({ tone: 'angry', intensity: 0.6, text: 'No!' });
  });

  it('leaves tone and intensity out of a line without cues', () => {
    const line = spoken(parseScript('Bob: plain'))[0];
    expect(line).not.toHaveProperty('tone');
    expect(line).not.toHaveProperty('intensity');
  });

  it('does not take parentheses in the text for a tone', () => {
    expect(spoken(parseScript('Bob: well (sighs) fine'))[0]).toEqual({
      kind: 'line',
      speaker: 'Bob',
      key: 'bob',
      text: 'well (sighs) fine',
      line: 1,
    });
  });

  it('refuses an intensity outside 0..1 or not a number, naming the line', () => {
    for (const cue of ['[1.5]', '[-0.2]', '[abc]', '[]', '[0.5.5]', '[1e-1]', '[80%]']) {
      expectRefusal(`A: fine\nBob ${cue}: hi`, 'bad-intensity', 2, { line: 2 });
    }
  });

  it('refuses a tone over the cap with the cap', () => {
    expectRefusal(`A: ok\n\nBob (${'x'.repeat(101)}): hi`, 'tone-too-long', 3, { line: 3, max: 100 });
    expectRefusal('Bob (loud!): hi', 'tone-too-long', 1, { line: 1, max: 4 }, { toneLength: 4 });
    expect(spoken(parseScript(`Bob (${'x'.repeat(100)}): hi`))[0]?.tone).toHaveLength(100);
  });

  it('does not read a line with a repeated, empty, nested or unclosed cue as a turn', () => {
    for (const prefix of ['Bob (a) (b)', 'Bob [0.1] [0.2]', 'Bob ()', 'Bob (a (b))', 'Bob (open', 'Bob (a) x']) {
      expectRefusal(`${prefix}: hi`, 'unreadable-line', 1, { line: 1 });
    }
  });
});

describe('parseScript: cast', () => {
  it('reads a cast line, keeping the voice as written and the line number', () => {
    const script = parseScript('\ncast: Alice = en-female-1\nAlice: hi');
    expect(script.cast).toEqual([
      { name: 'Alice', key: 'alice', voice: { kind: 'name', text: 'en-female-1' }, line: 2 },
    ]);
  });

  it('recognises member mentions, with or without !', () => {
    const script = parseScript('cast: A = <@123456789012345678>, B = <@!876543210987654321>\nA: x');
    expect(script.cast.map((entry) => entry.voice)).toEqual([
      { kind: 'member', userId: '123456789012345678' },
      { kind: 'member', userId: '876543210987654321' },
    ]);
  });

  it('keeps anything else, spaces included, as a name for the caller to resolve', () => {
    const script = parseScript('CAST:Old Man=  My Cloned Voice  ,Kid= <@12> \nOld Man: x');
    expect(script.cast.map((entry) => [entry.name, entry.voice])).toEqual([
      ['Old Man', { kind: 'name', text: 'My Cloned Voice' }],
      ['Kid', { kind: 'name', text: '<@12>' }],
    ]);
  });

  it('takes the keyword case-insensitively with optional spaces before the colon', () => {
    expect(parseScript('Cast : A = v\nA: x').cast).toHaveLength(1);
  });

  it('accepts a cast line after the lines that use it, and a cast name never used', () => {
    const script = parseScript('Alice: hi\ncast: alice = v1, Nobody = v2');
    expect(script.cast.map((entry) => entry.key)).toEqual(['alice', 'nobody']);
    expect(script.speakers).toEqual(['alice']);
  });

  it('gives no voice to a speaker missing from the cast: that is the caller’s', () => {
    expect(parseScript('cast: A = v\nB: hi').speakers).toEqual(['b']);
  });

  it('ignores an empty entry after a trailing comma', () => {
    expect(parseScript('cast: A = v,\nA: x').cast).toHaveLength(1);
  });

  it('refuses a malformed cast line as bad-cast with its line', () => {
    for (const list of [
      '',
      ' ,',
      'Alice',
      'Alice =',
      '= v',
      'A = v, B',
      '(x) = v',
      '12 = v',
      `A = ${'v'.repeat(101)}`,
    ]) {
      expectRefusal(`A: x\ncast:${list}`, 'bad-cast', 2, { line: 2 });
    }
    expect(parseScript(`cast: A = ${'v'.repeat(100)}\nA: x`).cast[0]?.voice).toEqual({
      kind: 'name',
      text: 'v'.repeat(100),
    });
  });

  it('refuses a cast name over the name cap', () => {
    expectRefusal(`cast: ${'n'.repeat(33)} = v`, 'name-too-long', 1, { line: 1, max: 32 });
  });

  it('refuses a name cast twice, folded, on one line or two, naming both lines', () => {
    expectRefusal('cast: Alice = a\nA: x\ncast: ALICE  = b', 'cast-twice', 3, { line: 3, name: 'ALICE', first: 1 });
    expectRefusal('cast: Bob = a, bob = b', 'cast-twice', 1, { line: 1, name: 'bob', first: 1 });
  });

  it('reads Cast (tone): as a turn of a speaker called Cast, the keyword needing the colon right after it', () => {
    expect(spoken(parseScript('Cast (loud): hello'))[0]).toMatchObject({ speaker: 'Cast', tone: 'loud' });
    expect(spoken(parseScript('Castor: hello'))[0]?.speaker).toBe('Castor');
  });
});

describe('parseScript: pauses', () => {
  it('reads seconds, milliseconds and bare numbers as seconds, case-insensitively', () => {
    const script = parseScript('A: x\n[pause 1.5s]\nA: y\n[PAUSE 500MS]\nA: z\n[Pause 2]\nA: w\n[pause .25 s]\nA: v');
    expect(script.steps.filter((step) => step.kind === 'pause')).toEqual([
      { kind: 'pause', seconds: 1.5, line: 2 },
      { kind: 'pause', seconds: 0.5, line: 4 },
      { kind: 'pause', seconds: 2, line: 6 },
      { kind: 'pause', seconds: 0.25, line: 8 },
    ]);
  });

  it('adds pause markers with no line between them into one step, in whole milliseconds', () => {
    const script = parseScript('A: x\n[pause 0.1s]\n\n# note\n[pause 0.2s]\n(she waits)\n[pause 100ms]\nA: y');
    expect(script.steps).toEqual([
      { kind: 'line', speaker: 'A', key: 'a', text: 'x', line: 1 },
      { kind: 'pause', seconds: 0.4, line: 2 },
      { kind: 'line', speaker: 'A', key: 'a', text: 'y', line: 8 },
    ]);
  });

  it('refuses a malformed pause marker as bad-pause', () => {
    for (const marker of [
      '[pause]',
      '[pause 2h]',
      '[pause two]',
      '[pause 2s',
      '[pauses 2s]',
      '[pause 0s]',
      '[pause -1]',
    ]) {
      expectRefusal(`A: x\n${marker}`, 'bad-pause', 2, { line: 2 });
    }
  });

  it('refuses one pause over its cap, with the cap and the pause', () => {
    expectRefusal('A: x\n[pause 5.5s]', 'pause-too-long', 2, { line: 2, max: 5, seconds: 5.5 });
    expect(parseScript('A: x\n[pause 5s]').steps[1]).toEqual({ kind: 'pause', seconds: 5, line: 2 });
  });

  it('refuses pauses over the total cap on the marker that goes over', () => {
    const markers = Array.from({ length: 7 }, () => '[pause 5s]\nA: x').join('\n');
    expectRefusal(`A: x\n${markers}`, 'pauses-too-long', 14, { line: 14, max: 30 });
    expectRefusal(
      'A: x\n[pause 1]\n[pause 1]\n[pause 1]',
      'pauses-too-long',
      4,
      { line: 4, max: 2 },
      {
        pauseTotalSeconds: 2,
      },
    );
  });
});

describe('parseScript: lines that are not spoken', () => {
  it('skips blank lines, # and // comments and stage directions', () => {
    const script = parseScript('# title\n// by me\n\n(Lights up. Alice: enters.)\nAlice: hi\n   \n  (aside)  ');
    expect(script.steps).toEqual([{ kind: 'line', speaker: 'Alice', key: 'alice', text: 'hi', line: 5 }]);
  });

  it('does not count a stage direction in the spoken characters', () => {
    expect(sceneCharacters(parseScript('(a very long direction)\nA: abc'))).toBe(3);
  });
});

describe('parseScript: continuation lines', () => {
  it('joins a line with no name to the turn just before, with one space', () => {
    const script = parseScript('Alice: first part\n  second part  \nthird\nBob: next');
    expect(spoken(script).map((line) => [line.speaker, line.text, line.line])).toEqual([
      ['Alice', 'first part second part third', 1],
      ['Bob', 'next', 4],
    ]);
  });

  it('keeps a time, a link or an over-long prefix in a continued text instead of reading a speaker', () => {
    const script = parseScript(
      `Alice: meet me\n10:30 sharp\nhttps://example.com\n${'and then it happened to all of us'}: yes`,
    );
    expect(spoken(script)).toHaveLength(1);
    expect(spoken(script)[0]?.text).toBe(
      'meet me 10:30 sharp https://example.com and then it happened to all of us: yes',
    );
  });

  it('does not continue after a blank line, a comment, a pause or a direction', () => {
    for (const between of ['', '# c', '[pause 1s]', '(beat)', 'cast: A = v']) {
      expectRefusal(`A: x\n${between}\nmore words`, 'unreadable-line', 3, { line: 3 });
    }
  });

  it('reads a line that looks like a turn as a new turn, not a continuation', () => {
    expect(spoken(parseScript('A: x\nB: y')).map((line) => line.speaker)).toEqual(['A', 'B']);
  });

  it('counts continued text in the characters, the joining space included', () => {
    expect(sceneCharacters(parseScript('A: ab\ncd'))).toBe(5);
    expectRefusal('A: ab\ncd', 'too-many-characters', 2, { line: 2, max: 4, characters: 5 }, { characters: 4 });
  });
});

describe('parseScript: errors', () => {
  it('refuses a line with no Name: outside a turn, naming it', () => {
    expectRefusal('hello there', 'unreadable-line', 1, { line: 1 });
    expectRefusal('A: x\n\n...: hmm', 'unreadable-line', 3, { line: 3 });
    expectRefusal('A: x\n\n- item', 'unreadable-line', 3, { line: 3 });
  });

  it('refuses a turn with no text after the colon', () => {
    expectRefusal('Alice: hi\nBob:   ', 'empty-line', 2, { line: 2, name: 'Bob' });
    expectRefusal('Bob (sad) [0.2]:', 'empty-line', 1, { line: 1, name: 'Bob' });
  });

  it('refuses a script with nothing to say as empty, for the whole script', () => {
    for (const source of ['', '  \n\n', '# only a comment', 'cast: A = v', '[pause 1s]', '(direction)']) {
      expectRefusal(source, 'empty', 0, {});
    }
  });

  it('refuses a speaker name over the cap outside a turn', () => {
    expectRefusal(`${'n'.repeat(33)}: hi`, 'name-too-long', 1, { line: 1, max: 32 });
    expect(spoken(parseScript(`${'n'.repeat(32)}: hi`))[0]?.speaker).toHaveLength(32);
    expectRefusal('Alice: x\n\nAlexander: hi', 'name-too-long', 3, { line: 3, max: 5 }, { nameLength: 5 });
  });

  it('counts a name in code points, so 32 Korean syllables are a name', () => {
    expect(spoken(parseScript(`${'가'.repeat(32)}: 안녕`))[0]?.key).toBe('가'.repeat(32));
  });

  it('reports the first error in the order of the lines', () => {
    expectRefusal('A: x\n\nnope\nB [9]: y', 'unreadable-line', 3, { line: 3 });
  });

  it('throws ScriptError, an Error with a message naming code and line', () => {
    const error = refusal('A: x\n[pause]');
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('ScriptError');
    expect(error.message).toBe('scene script: bad-pause on line 2');
  });
});

describe('parseScript: caps', () => {
  it('exports SayBot’s caps, frozen', () => {
    expect(SCENE_CAPS).toEqual({
      scriptChars: 16_000,
      lines: 60,
      speakers: 10,
      characters: 4_000,
      pauseSeconds: 5,
      pauseTotalSeconds: 30,
      nameLength: 32,
      toneLength: 100,
    });
    expect(Object.isFrozen(SCENE_CAPS)).toBe(true);
  });

  it('refuses a script over scriptChars before reading it, counting code points and not the BOM', () => {
    expectRefusal('A: 12345', 'too-long-script', 0, { max: 7 }, { scriptChars: 7 });
    expect(spoken(parseScript('\ufeffA: 1234', { scriptChars: 7 }))).toHaveLength(1);
    expect(spoken(parseScript('A: 😀😀😀😀', { scriptChars: 7 }))).toHaveLength(1);
    expectRefusal(`A: ${'x'.repeat(16_000)}`, 'too-long-script', 0, { max: 16_000 });
  });

  it('refuses the turn past the line cap', () => {
    expectRefusal('A: 1\n[pause 1]\nB: 2\nA: 3', 'too-many-lines', 4, { line: 4, max: 2 }, { lines: 2 });
    const sixty = Array.from({ length: 60 }, (_, index) => `A: ${index}`).join('\n');
    expect(spoken(parseScript(sixty))).toHaveLength(60);
    expectRefusal(`${sixty}\nA: one more`, 'too-many-lines', 61, { line: 61, max: 60 });
  });

  it('refuses the first line of a speaker past the speaker cap, naming them', () => {
    expectRefusal(
      'A: 1\nB: 2\na: 3\nCarol: 4',
      'too-many-speakers',
      4,
      { line: 4, max: 2, name: 'Carol' },
      {
        speakers: 2,
      },
    );
    const ten = Array.from({ length: 10 }, (_, index) => `S${index}x: hi`).join('\n');
    expect(parseScript(ten).speakers).toHaveLength(10);
    expectRefusal(`${ten}\nEleven: hi`, 'too-many-speakers', 11, { line: 11, max: 10, name: 'Eleven' });
  });

  it('does not count cast-only names as speakers', () => {
    expect(parseScript('cast: X = 1, Y = 2, Z = 3\nA: hi', { speakers: 1 }).speakers).toEqual(['a']);
  });

  it('refuses the line that takes the spoken characters over the cap, counting code points', () => {
    expectRefusal('A: abc\nB: de', 'too-many-characters', 2, { line: 2, max: 4, characters: 5 }, { characters: 4 });
    expect(sceneCharacters(parseScript('A: 😀😀\nB: 가나', { characters: 4 }))).toBe(4);
    expect(sceneCharacters(parseScript(`A: ${'x'.repeat(4_000)}`))).toBe(4_000);
    expectRefusal(`A: ${'x'.repeat(4_001)}`, 'too-many-characters', 1, { line: 1, max: 4_000, characters: 4_001 });
  });

  it('counts the cap in the unit the service bills (NFC code points, countCharacters), not as written', () => {
    // U+FB2C is one code point as written and three after NFC: 3,924 of them are billed as 11,772.
    const wide = '\ufb2c';
    expect(countCharacters(wide.repeat(3))).toBe(9);
    expectRefusal(`A: ${wide.repeat(3_924)}`, 'too-many-characters', 1, { line: 1, max: 4_000, characters: 11_772 });
    expect(sceneCharacters(parseScript(`A: ${wide.repeat(1_333)}`))).toBe(3_999);
    expectRefusal(`A: ${wide.repeat(1_333)}\n${wide}`, 'too-many-characters', 2, {
      line: 2,
      max: 4_000,
      characters: 4_003,
    });
    // A name and a tone are held to their caps in the same unit.
    expectRefusal(`A (${wide.repeat(34)}): hi`, 'tone-too-long', 1, { line: 1, max: 100 });
  });
});

describe('parseScript: line endings and pathological input', () => {
  it('reads Windows line endings, old Mac ones and a BOM', () => {
    const script = parseScript('\ufeffcast: Alice = v\r\nAlice: one\r\n\r\nBob: two\rthree\r\n');
    expect(script.cast[0]?.name).toBe('Alice');
    expect(spoken(script).map((line) => [line.speaker, line.text, line.line])).toEqual([
      ['Alice', 'one', 2],
      ['Bob', 'two three', 4],
    ]);
  });

  it('answers 16,000 characters of brackets, colons or cue openers with a result, not a hang', () => {
    const n = 16_000;
    expectRefusal('('.repeat(n), 'unreadable-line', 1, { line: 1 });
    expectRefusal('['.repeat(n), 'unreadable-line', 1, { line: 1 });
    expectRefusal(`A: x\n${'['.repeat(n - 5)}`, 'too-many-characters', 2, { line: 2, max: 4_000, characters: n - 3 });
    expect(parseScript(`${'('.repeat(n / 2 - 5)}${')'.repeat(n / 2 - 5)}\nA: x`).steps).toHaveLength(1);
    expectRefusal('a:'.repeat(n / 2), 'too-many-characters', 1, { line: 1, max: 4_000, characters: n - 2 });
    expect(spoken(parseScript('a:'.repeat(1_000)))[0]?.text).toHaveLength(1_998);
    expectRefusal(`A${' ('.repeat(n / 2 - 1)}`, 'unreadable-line', 1, { line: 1 });
    expectRefusal(`A${' ['.repeat(n / 2 - 1)}`, 'unreadable-line', 1, { line: 1 });
    expectRefusal(`A (x) [0.5]${' '.repeat(n - 20)}!`, 'unreadable-line', 1, { line: 1 });
    expectRefusal(`[pause ${' '.repeat(n - 10)}x]`, 'bad-pause', 1, { line: 1 });
    expectRefusal(`cast: ${'A = v,'.repeat(2_000)}`.slice(0, n), 'cast-twice', 1, { line: 1, name: 'A', first: 1 });
    expectRefusal(`${'x'.repeat(32)}: y\n${'a'.repeat(n - 40)}`, 'too-many-characters', 2, {
      line: 2,
      max: 4_000,
      characters: n - 38,
    });
  });
});

describe('sceneCharacters', () => {
  it('sums the text of every line in code points, leaving names, cues and pauses out', () => {
    const script = parseScript('cast: A = v\nAlice (sad) [0.5]: héllo\n[pause 2s]\nBob: 안녕 😀');
    expect(sceneCharacters(script)).toBe(5 + 4);
  });
});

describe('DEFAULT_GAP_SECONDS', () => {
  it('is 0.35 s and is not written into the steps', () => {
    expect(DEFAULT_GAP_SECONDS).toBe(0.35);
    expect(parseScript('A: x\nB: y').steps.every((step) => step.kind === 'line')).toBe(true);
  });
});
