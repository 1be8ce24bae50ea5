// The free voice's speaking rate (issue 48): how many seconds eSpeak NG, in SayBot's own worker threads, takes per
// character of each language it ships, beside the estimate a free line is checked on (src/core/characters.ts,
// estimateFreeLineSeconds) and the paid voices' estimate (estimateSpeechSeconds). Run alone, not in npm test:
//   node bench/free-voice-rate.ts
// A ratio over 1 + ESTIMATE_MARGIN means lines of that language estimated just under a free line's cap would be
// cut at it. Numbers are measured apart (NUMBER_LINES, one row a line): a run of digits reads as the number it makes,
// at the estimate's own rate per digit.
import { analyseClip } from '../src/core/audio/analysis/clip.ts';
import { freeVoiceInstalled, speakFree } from '../src/core/free-voice/free-voice-engine.ts';
import { estimateSpeechSeconds, estimateFreeLineSeconds } from '../src/core/characters.ts';

const LINES: Record<string, string[]> = {
  en: [
    'The weather was lovely today, so we went for a long walk in the park with our friends.',
    'Could someone please turn the music down a little? I can barely hear the others talking.',
    'We will meet in the lobby once the match is over, and then decide where to eat tonight.',
  ],
  ko: [
    '오늘은 날씨가 정말 좋아서 친구들과 함께 공원에 산책을 나갔습니다.',
    '음악 소리를 조금만 줄여 주시겠어요? 다른 사람들 말이 잘 안 들려요.',
    '경기가 끝나면 로비에서 만나서 오늘 저녁에 어디서 먹을지 정합시다.',
  ],
  ja: [
    '今日は天気がとても良かったので、友達と一緒に公園へ散歩に行きました。',
    '音楽の音を少し下げてもらえますか？他の人の話がよく聞こえません。',
    '試合が終わったらロビーで会って、今夜どこで食べるか決めましょう。',
  ],
  zh: ['今天天气很好，所以我们和朋友一起去公园散步了。', '请把音乐声音调小一点，我听不清别人说话。'],
  es: ['Hoy hizo muy buen tiempo, así que fuimos a pasear al parque con nuestros amigos.'],
  fr: ["Il faisait très beau aujourd'hui, alors nous sommes allés nous promener au parc avec des amis."],
  de: ['Heute war das Wetter sehr schön, also sind wir mit unseren Freunden im Park spazieren gegangen.'],
};

/** Lines with numbers in them, per language whose digit rate is measured: a bare number, a phone number, a year. */
const NUMBER_LINES: Record<string, string[]> = {
  en: ['9876543.', 'Call 010-1234-5678 before 9 tonight.', 'In 2026 we sold 1,250 tickets at 37 dollars each.'],
  ko: ['9876543.', '010-1234-5678로 전화하세요.', '2026년에 1,250장을 37달러에 팔았습니다.'],
  ja: ['9876543.', '010-1234-5678に電話してください。', '2026年に1,250枚を37ドルで売りました。'],
};

/** Both variants, each line four times over: the seconds it took, the free-line and the paid estimates. */
async function measure(language: string, lines: string[]) {
  const total = { characters: 0, measured: 0, estimate: 0, paid: 0 };
  for (const variant of ['f', 'm'])
    for (const line of lines) {
      const text = Array.from({ length: 4 }, () => line).join(' ');
      const wav = await speakFree(text, `free-${language}-${variant}`, 'bench');
      total.characters += [...text.normalize('NFC')].length;
      total.measured += (await analyseClip(wav)).durationSeconds;
      total.estimate += estimateFreeLineSeconds(text, `free-${language}-${variant}`);
      total.paid += estimateSpeechSeconds(text);
    }
  return total;
}

const row = (name: string, t: Awaited<ReturnType<typeof measure>>) =>
  `| ${[name, t.characters, t.measured.toFixed(1), t.estimate.toFixed(1), (t.measured / t.estimate).toFixed(2), t.paid.toFixed(1), (t.measured / t.paid).toFixed(2)].join(' | ')} |`;

if (!freeVoiceInstalled()) {
  console.log('eSpeak NG (the optional espeak-ng) is not installed: nothing to measure');
  process.exit(0);
}
console.log('| language | characters | measured s | free-line estimate s | ratio | paid estimate s | ratio |');
console.log('|---|---|---|---|---|---|---|');
// A line of some 15 to 45 s, as a long free line is.
for (const [language, lines] of Object.entries(LINES)) console.log(row(language, await measure(language, lines)));
console.log('\n| numbers | characters | measured s | free-line estimate s | ratio | paid estimate s | ratio |');
console.log('|---|---|---|---|---|---|---|');
for (const [language, lines] of Object.entries(NUMBER_LINES))
  for (const line of lines) console.log(row(`${language}: ${line}`, await measure(language, [line])));
process.exit(0);
