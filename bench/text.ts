// Figure 10 of npm run bench: text on the main thread, per message. Clean-up of 4,000-character adversarial messages
// (the steps that backtracked, as they were at d99d297, beside the hand scans that replaced them, and the whole
// clean-up now), and the dictionary over a 4,000-character message: a pattern that backtracks in JavaScript's engine
// (RE2 here) against a word entry; a server's 500 words sharing a prefix over a message of near-matches, built and
// applied as now (an automaton) and as before (one large regular expression, fixtures/former-word-regex.ts), in the
// same run. Needs neither the bot nor the servers.
import { cleanMessage } from '../src/features/autoread/text/cleanup.ts';
import { MAX_PATTERNS } from '../src/features/autoread/dictionary/dictionary-limits.ts';
import { compileDictionary, type DictionaryEntry } from '../src/features/autoread/dictionary/dictionary.ts';
import { unmaskLinks, unwrapUnderscoreItalics } from '../src/features/autoread/text/linear-markup.ts';
import { formerWordsApplied } from '../fixtures/former-word-regex.ts';
import { DictionaryCache } from '../src/features/autoread/dictionary/dictionary-cache.ts';

// The clean-up steps before (src/features/autoread/text/cleanup.ts at d99d297), reproduced here as they were.
const FORMER_MASKED_LINK = /\[([^\]\n]+)\]\(<?https?:\/\/[^\s)>]+>?\)/gi;
const FORMER_ITALICS = /(?<![\p{L}\p{N}])_(?=\S)(.+?)(?<=\S)_(?![\p{L}\p{N}])/gu;

const LENGTH = 4000;
const fill = (unit: string) => unit.repeat(Math.ceil(LENGTH / unit.length)).slice(0, LENGTH);

/** Adversarial messages of 4,000 characters (Nitro's longest) and an ordinary one, with the step each targets. */
const MESSAGES: { name: string; text: string; former: (text: string) => string; now: (text: string) => string }[] = [
  { name: '4,000 `[`', text: fill('['), former: (t) => t.replace(FORMER_MASKED_LINK, '$1'), now: unmaskLinks },
  {
    name: '`[a](http://x` repeated (links never closed)',
    text: fill('[a](http://x'),
    former: (t) => t.replace(FORMER_MASKED_LINK, '$1'),
    now: unmaskLinks,
  },
  {
    name: '`!_a` repeated (italics never closed)',
    text: fill('!_a'),
    former: (t) => t.replace(FORMER_ITALICS, '$1'),
    now: unwrapUnderscoreItalics,
  },
  // Linear, but the most placeholders clean-up makes (every other character an inline code span).
  {
    name: '`` `a `` repeated (inline code)',
    text: fill('`a'),
    former: (t) => t.replace(FORMER_MASKED_LINK, '$1'),
    now: unmaskLinks,
  },
  {
    name: 'ordinary words',
    text: fill('so what do you think of it '),
    former: (t) => t.replace(FORMER_MASKED_LINK, '$1'),
    now: unmaskLinks,
  },
];

/** Median and p95 of `runs` timed calls, after `warmup` untimed ones. */
function timed(runs: number, warmup: number, work: () => unknown): { median: number; p95: number } {
  for (let i = 0; i < warmup; i++) work();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    work();
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))] ?? 0;
  return { median: at(0.5), p95: at(0.95) };
}

/**
 * Median and p95 of `runs` builds, each with its first message (a regular expression is compiled at its first use).
 * Each build has one word of its own beside `entries`, so that no engine serves it from a cache of compiled ones.
 */
function timedBuild(
  runs: number,
  build: (entries: { word: string; reading: string }[]) => (text: string) => string,
  entries: readonly { word: string; reading: string }[],
  text: string,
) {
  let run = 0;
  return timed(runs, 2, () => build([...entries, { word: `buildrun${(run += 1)}`, reading: 'x' }])(text));
}

/**
 * A server's 500 words sharing a prefix (character names, game terms) and a 4,000-character message of words that
 * each almost match one: the case that held the main thread longest.
 */
function prefixDictionaries(): { name: string; entries: { word: string; reading: string }[]; message: string }[] {
  const numbered = (i: number) => String(i).padStart(3, '0');
  const latin = Array.from({ length: 500 }, (_, i) => ({ word: `charactername${numbered(i)}`, reading: `name ${i}` }));
  const latinMessage = fill(
    Array.from({ length: 500 }, (_, i) => `charactername${numbered(i)}x charactername${numbered(i).slice(0, 2)}`).join(
      ' ',
    ),
  );
  const kana = 'あいうえおかきくけこさしすせそたちつてとなにぬねの';
  const suffix = (i: number) => [...numbered(i)].map((d) => kana[Number(d)]).join('');
  const japanese = Array.from({ length: 500 }, (_, i) => ({
    word: `ひかりのせんし${suffix(i)}`,
    reading: `せんし${i}`,
  }));
  // Every word's first two characters after the prefix, then a character no word has there.
  const japaneseMessage = fill(
    Array.from({ length: 500 }, (_, i) => `ひかりのせんし${suffix(i).slice(0, 2)}ん`).join(''),
  );
  return [
    {
      name: '500 words `charactername000`… over their near-matches (`charactername000x charactername00`…)',
      entries: latin,
      message: latinMessage,
    },
    {
      name: '500 Japanese words `ひかりのせんしあああ`… over their near-matches (`ひかりのせんしああん`…)',
      entries: japanese,
      message: japaneseMessage,
    },
  ];
}

const ms = (t: { median: number; p95: number }) => `${t.median.toFixed(3)} ms (p95 ${t.p95.toFixed(3)})`;

export async function measureText(mode: 'quick' | 'full', log: (line: string) => void): Promise<string> {
  const runs = mode === 'quick' ? 30 : 200;
  const warmup = 10;
  log('text: clean-up of 4,000-character messages');
  const cleanup = MESSAGES.map(({ name, text, former, now }) => ({
    name,
    former: timed(runs, warmup, () => former(text)),
    now: timed(runs, warmup, () => now(text)),
    whole: timed(runs, warmup, () => cleanMessage(text, { maxLength: 1000 })),
  }));

  log('text: dictionary over a 4,000-character message');
  const message = `${'a'.repeat(LENGTH - 1)}!`;
  const word: DictionaryEntry = { word: 'saybot', reading: 'say bot' };
  const dictionaries: { name: string; entries: DictionaryEntry[] }[] = [
    { name: 'one word entry (`saybot`), the baseline', entries: [word] },
    { name: 'one pattern entry `(a+)+$`', entries: [{ pattern: '(a+)+$', reading: 'x' }] },
    { name: 'one pattern entry `(a+)+b` (no `b` in the message)', entries: [{ pattern: '(a+)+b', reading: 'x' }] },
    {
      name: `${MAX_PATTERNS} patterns \`(a+)+b\`, \`(a+)+c\`… (the most a server may have)`,
      entries: Array.from({ length: MAX_PATTERNS }, (_, i) => ({
        pattern: `(a+)+${String.fromCharCode(98 + i)}`,
        reading: 'x',
      })),
    },
    // Every character a match with its group put in: the most work a pass can do, before the length cap.
    {
      name: `${MAX_PATTERNS} patterns \`(a)\` → \`$1\` (each matching every character)`,
      entries: Array.from({ length: MAX_PATTERNS }, (_, i) => ({ pattern: `(a)${'?'.repeat(i % 2)}`, reading: '$1' })),
    },
  ];
  const dictionary = dictionaries.map(({ name, entries }) => {
    const apply = compileDictionary(entries);
    return { name, time: timed(runs, warmup, () => apply(message)) };
  });
  log('text: 500 words sharing a prefix, now and as before');
  const prefixed = prefixDictionaries().map(({ name, entries, message: text }) => {
    const now = compileDictionary(entries);
    const former = formerWordsApplied(entries);
    if (now(text) !== former(text)) throw new Error(`the automaton and the former expression differ on: ${name}`);
    const buildRuns = mode === 'quick' ? 5 : 20;
    return {
      name,
      buildNow: timedBuild(buildRuns, compileDictionary, entries, text),
      buildFormer: timedBuild(buildRuns, formerWordsApplied, entries, text),
      now: timed(runs, warmup, () => now(text)),
      former: timed(runs, warmup, () => former(text)),
    };
  });
  // Patterns (at most 20) run on RE2: linear in the text, but at a cost per character that grows with the pattern.
  const heavy = [
    { name: '`(?:a?){200}a{200}` (602 instructions)', pattern: '(?:a?){200}a{200}' },
    { name: '`(?:\\w+\\s?){1,50}!` (252 instructions)', pattern: '(?:\\w+\\s?){1,50}!' },
  ].map(({ name, pattern }) => {
    const apply = compileDictionary([{ pattern, reading: 'x' }]);
    return { name, time: timed(mode === 'quick' ? 5 : 20, 2, () => apply(message)) };
  });
  // The most a server may have of the costliest: on the main thread as before, and handed to the worker thread now.
  log('text: 20 costly patterns, on the main thread and off it');
  const costly = Array.from({ length: MAX_PATTERNS }, (_, i) => ({
    pattern: `(?:a?){200}a{${200 - i}}`,
    reading: 'x',
  }));
  const longest = message.slice(0, 1000);
  const onMain = compileDictionary(costly);
  const offRuns = mode === 'quick' ? 5 : 20;
  const before = timed(offRuns, 1, () => onMain(longest));
  const server = new DictionaryCache().compiled('bench', costly);
  const handOff: number[] = [];
  const whole: number[] = [];
  for (let i = 0; i < offRuns + 1; i++) {
    const start = performance.now();
    const said = server.say([longest]);
    const handed = performance.now() - start;
    const [result] = await said;
    if (result !== onMain(longest)) throw new Error('the worker thread said something else');
    if (i > 0) {
      handOff.push(handed);
      whole.push(performance.now() - start);
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
  // The same pattern in JavaScript's own engine: exponential in the length, so only a few characters.
  const jsLength = 22;
  const js = timed(mode === 'quick' ? 3 : 5, 1, () => /(a+)+$/.test(`${'a'.repeat(jsLength)}!`));

  return [
    '## 10. Text per message: clean-up and the dictionary (issues 32 and 34)',
    '',
    `Each ${runs} times after ${warmup} untimed, in the benchmark's process; median (p95). Messages of ${LENGTH.toLocaleString('en')} characters.`,
    'Former step: the pattern src/features/autoread/text/cleanup.ts used at d99d297 (masked links or underscore italics), alone. Scan now: the hand scan that replaced it (src/features/autoread/text/linear-markup.ts), alone. Whole clean-up now: `cleanMessage` with every step (goal: under 2 ms for an adversarial message).',
    '',
    '| Message | Former step | Scan now | Whole clean-up now |',
    '|---|---|---|---|',
    ...cleanup.map((r) => `| ${r.name} | ${ms(r.former)} | ${ms(r.now)} | ${ms(r.whole)} |`),
    '',
    `The dictionary over \`a\` × ${(LENGTH - 1).toLocaleString('en')} then \`!\` (compiled once, as the reader does), timed directly: patterns run on RE2 (re2js), linear in the text, and a dictionary with patterns runs this in the worker thread.`,
    '',
    '| Dictionary | Time per message |',
    '|---|---|',
    ...dictionary.map((r) => `| ${r.name} | ${ms(r.time)} |`),
    `| for comparison: \`(a+)+$\` in JavaScript's RegExp over only ${jsLength} \`a\` then \`!\` | ${ms(js)} |`,
    ...heavy.map((r) => `| one pattern ${r.name}, the costliest kind RE2 accepts | ${ms(r.time)} |`),
    '',
    `${MAX_PATTERNS} patterns \`(?:a?){200}a{200}\`, \`…a{199}\`… (the costliest, as many as a server may have) over 1,000 \`a\` (auto-read's longest message), ${offRuns} times: on the main thread as before, ${ms(before)}; now handed to the dictionary's worker thread, main thread ${median(handOff).toFixed(3)} ms per message (the answer after ${median(whole).toFixed(1)} ms, median).`,
    '',
    `A server's 500 words sharing a prefix over a ${LENGTH.toLocaleString('en')}-character message of near-matches (issue 43). Now: src/features/autoread/dictionary/word-automaton.ts (an automaton, linear in the text). Before (baseline): the words as one large regular expression (fixtures/former-word-regex.ts). Build: compiling the dictionary and its first message (a regular expression is compiled at its first use), ${mode === 'quick' ? 5 : 20} times. Goal: under 2 ms per message and 20 ms to build, on the main thread.`,
    '',
    '| Dictionary and message | Build now | Build before | Per message now | Per message before |',
    '|---|---|---|---|---|',
    ...prefixed.map((r) => `| ${r.name} | ${ms(r.buildNow)} | ${ms(r.buildFormer)} | ${ms(r.now)} | ${ms(r.former)} |`),
  ].join('\n');
}
