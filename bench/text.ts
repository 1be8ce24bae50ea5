// Figure 10 of npm run bench: text on the main thread, per message. Clean-up of 4,000-character adversarial messages
// (the steps that backtracked, as they were at d99d297, beside the hand scans that replaced them, and the whole
// clean-up now), and the dictionary over a 4,000-character message: a pattern that backtracks in JavaScript's engine
// (RE2 here) against a word entry. Needs neither the bot nor the servers.
import { cleanMessage } from '../src/core/text/cleanup.ts';
import {
  MAX_PATTERNS,
  compileDictionary,
  type DictionaryEntry,
} from '../src/features/autoread/dictionary/dictionary.ts';
import { unmaskLinks, unwrapUnderscoreItalics } from '../src/core/text/linear-markup.ts';

// The clean-up steps before (src/core/text/cleanup.ts at d99d297), reproduced here as they were.
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

const ms = (t: { median: number; p95: number }) => `${t.median.toFixed(3)} ms (p95 ${t.p95.toFixed(3)})`;

export function measureText(mode: 'quick' | 'full', log: (line: string) => void): string {
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
  // The same pattern in JavaScript's own engine: exponential in the length, so only a few characters.
  const jsLength = 22;
  const js = timed(mode === 'quick' ? 3 : 5, 1, () => /(a+)+$/.test(`${'a'.repeat(jsLength)}!`));

  return [
    '## 10. Text per message: clean-up and the dictionary (issues 32 and 34)',
    '',
    `Each ${runs} times after ${warmup} untimed, in the benchmark's process; median (p95). Messages of ${LENGTH.toLocaleString('en')} characters.`,
    'Former step: the pattern src/core/text/cleanup.ts used at d99d297 (masked links or underscore italics), alone. Scan now: the hand scan that replaced it (src/core/text/linear-markup.ts), alone. Whole clean-up now: `cleanMessage` with every step (goal: under 2 ms for an adversarial message).',
    '',
    '| Message | Former step | Scan now | Whole clean-up now |',
    '|---|---|---|---|',
    ...cleanup.map((r) => `| ${r.name} | ${ms(r.former)} | ${ms(r.now)} | ${ms(r.whole)} |`),
    '',
    `The dictionary over \`a\` × ${(LENGTH - 1).toLocaleString('en')} then \`!\` (compiled once, as the reader does): patterns run on RE2 (re2js), linear in the text.`,
    '',
    '| Dictionary | Time per message |',
    '|---|---|',
    ...dictionary.map((r) => `| ${r.name} | ${ms(r.time)} |`),
    `| for comparison: \`(a+)+$\` in JavaScript's RegExp over only ${jsLength} \`a\` then \`!\` | ${ms(js)} |`,
  ].join('\n');
}
