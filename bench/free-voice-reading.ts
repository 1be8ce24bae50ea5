// Figure 14 of npm run bench: the free voice reading Japanese (issue 50). For Japanese chat lines: the reading alone
// (src/core/free-voice/reading/read-line.ts with kuromoji, warm, in this process), the whole free line as SayBot
// speaks it (reading and eSpeak NG in the free voice's worker thread), and eSpeak NG alone given the line's kana
// reading; a line of 4,000 kanji read; and, in a fresh process each, the analyser's load time and memory beside
// eSpeak NG's own (the process's RSS after an English line, then after a Japanese one loads the analyser).
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { analyseClip } from '../src/core/audio/analysis/clip.ts';
import { freeVoiceInstalled, speakFree } from '../src/core/free-voice/free-voice-engine.ts';
import { loadJapaneseAnalyser } from '../src/core/free-voice/reading/japanese-analyser.ts';
import { readLine } from '../src/core/free-voice/reading/read-line.ts';
import { percentile } from './stats.ts';

const LINES = [
  '今日は良い天気ですね、散歩に行きませんか',
  '明日の14時に駅前で待ち合わせしましょう',
  '2026年11月25日の配信は21時から始まります',
  '新しいゲームのアップデートが来たので今夜みんなで遊ぼう',
  'それなｗｗｗ草生える',
  'DiscordのサーバーでHello worldと言ってみた',
];
const KANJI_4000 = '音声合成天気予報日本語漢字'.repeat(308).slice(0, 4000);

const median = (values: readonly number[]) => percentile(values, 50);
const ms = (value: number) => `${value.toFixed(value < 10 ? 2 : 0)} ms`;
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;

async function timed<T>(work: () => Promise<T> | T): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await work();
  return { ms: performance.now() - start, value };
}

const ENGINE = fileURLToPath(new URL('../src/core/free-voice/free-voice-engine.ts', import.meta.url));

/** In a fresh process: RSS before the free voice, after an English line (eSpeak NG), after a Japanese one. */
async function memory(): Promise<{ before: number; espeak: number; analyser: number; firstJapaneseMs: number }> {
  const script = `
    const engine = await import(${JSON.stringify(ENGINE)});
    const rss = () => process.memoryUsage().rss;
    const before = rss();
    await engine.speakFree('Hello there, this is the free voice.', 'free-en-f');
    const espeak = rss();
    const start = performance.now();
    await engine.speakFree('今日は良い天気ですね', 'free-ja-f');
    const firstJapaneseMs = performance.now() - start;
    console.log(JSON.stringify({ before, espeak, analyser: rss(), firstJapaneseMs }));
    process.exit(0);
  `;
  const run = await promisify(execFile)(process.execPath, ['--eval', script], { timeout: 120_000 });
  return JSON.parse(run.stdout) as { before: number; espeak: number; analyser: number; firstJapaneseMs: number };
}

export async function measureFreeVoiceReading(mode: 'quick' | 'full', log: (line: string) => void): Promise<string> {
  const title = '## 14. The free voice reading Japanese (issue 50)';
  let analyser: ReturnType<typeof loadJapaneseAnalyser>;
  try {
    import.meta.resolve('kuromoji');
  } catch {
    log('free voice reading: kuromoji (optional) is not installed: figure 14 skipped');
    return `${title}\n\nSkipped: kuromoji (optional) is not installed.`;
  }
  if (!freeVoiceInstalled()) {
    log('free voice reading: eSpeak NG (optional) is not installed: figure 14 skipped');
    return `${title}\n\nSkipped: eSpeak NG (the optional \`espeak-ng\`) is not installed.`;
  }
  const rounds = mode === 'quick' ? 1 : 3;
  log('free voice reading: the analyser loaded in this process');
  const load = await timed(() => (analyser = loadJapaneseAnalyser()));
  const japanese = () => analyser;
  const kanaOf = (line: string) => readLine(line, 'ja+f2', japanese);
  for (const line of LINES) kanaOf(line); // warm

  log(`free voice reading: ${LINES.length * rounds} lines, reading, whole line, eSpeak NG alone`);
  const reading: number[] = [];
  const whole: number[] = [];
  const alone: number[] = [];
  const seconds: number[] = [];
  await speakFree('ウォームアップ', 'free-ja-f', 'bench'); // the worker started, eSpeak NG compiled
  for (let round = 0; round < rounds; round++)
    for (const line of LINES) {
      const tagged = `${line}${round}`;
      reading.push((await timed(() => kanaOf(tagged))).ms);
      const spoken = await timed(() => speakFree(tagged, 'free-ja-f', 'bench'));
      whole.push(spoken.ms);
      seconds.push((await analyseClip(spoken.value)).durationSeconds);
      // eSpeak NG alone: the line's runs given as read, one free line each (their reading is then nothing to do).
      let aloneMs = 0;
      for (const run of kanaOf(tagged)) {
        const voice = run.espeak.startsWith('en') ? 'free-en-f' : 'free-ja-f';
        aloneMs += (await timed(() => speakFree(run.text, voice, 'bench'))).ms;
      }
      alone.push(aloneMs);
    }
  log('free voice reading: 4,000 kanji read');
  const long = await timed(() => kanaOf(KANJI_4000));
  log('free voice reading: memory, in a fresh process');
  const rss = await memory();

  return [
    title,
    '',
    `${LINES.length * rounds} Japanese chat lines of 12 to 27 characters (kanji, kana, numbers with counters, \`ｗｗｗ\`, a Latin word), one after another, medians. Reading: src/core/free-voice/reading/read-line.ts with kuromoji warm, in the bench's process. Whole line: \`free-ja-f\` as SayBot speaks it (reading and eSpeak NG in the free voice's worker thread, the runs' WAVs joined). eSpeak NG alone: the same line's runs, already read, each spoken as a free line of its own (so the sum of the eSpeak NG calls the whole line makes, plus a reading of kana that costs next to nothing).`,
    '',
    '| Per line | Time |',
    '|---|---|',
    `| reading (fold, runs, numbers, analyser) | ${ms(median(reading))} |`,
    `| whole free line (reading + eSpeak NG, worker) | ${ms(median(whole))} |`,
    `| eSpeak NG alone (the read runs) | ${ms(median(alone))} |`,
    `| audio per line | ${median(seconds).toFixed(2)} s |`,
    `| a line of 4,000 kanji read (analysed in chunks of 64) | ${ms(long.ms)} (${long.value.reduce((n, run) => n + run.text.length, 0)} kana) |`,
    '',
    `The analyser: its dictionary loaded in ${ms(load.ms)} (in this process; in the worker, the first Japanese line took ${ms(rss.firstJapaneseMs)} with its eSpeak NG call). Memory, one fresh process: RSS ${mb(rss.before)} before the free voice, ${mb(rss.espeak)} after an English line (eSpeak NG's worker thread, +${mb(rss.espeak - rss.before)}), ${mb(rss.analyser)} after a Japanese line loaded the analyser in that thread (+${mb(rss.analyser - rss.espeak)}). The analyser is loaded once per free-voice thread, on its first line with Japanese, and freed with the thread when it idles out (60 s).`,
  ].join('\n');
}
