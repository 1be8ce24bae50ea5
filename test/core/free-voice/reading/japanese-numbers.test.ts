// Numbers in Japanese read as Japanese reads them, with their counters' sound changes (pure: no package needed).
import { describe, expect, it } from 'vitest';
import { readJapaneseNumbers } from '../../../../src/core/free-voice/reading/japanese-numbers.ts';

/** The line with its numbers read, the rest shown in brackets. */
const read = (text: string): string =>
  readJapaneseNumbers(text)
    .map((piece) => ('kana' in piece ? piece.kana : `[${piece.text}]`))
    .join('');

describe('Japanese numbers', () => {
  it('reads the date 2026年11月25日 as ni sen ni juu roku nen juu ichi gatsu ni juu go nichi', () => {
    expect(read('2026年11月25日')).toBe('にせんにじゅうろくねんじゅういちがつにじゅうごにち');
    expect(read('2026/11/1')).toBe('にせんにじゅうろくねんじゅういちがつついたち');
    expect(read('2026/05/03')).toBe('にせんにじゅうろくねんごがつみっか');
    expect(read('12/24')).toBe('じゅうにがつにじゅうよっか');
    expect(read('1/2/3')).toBe('いち[/]に[/]さん');
  });

  it('reads digit groups with 万, 億, 兆 and the sound changes of 300, 600, 800, 3000, 8000, 1000万, 1兆', () => {
    expect(read('0')).toBe('ぜろ');
    expect(read('10')).toBe('じゅう');
    expect(read('300')).toBe('さんびゃく');
    expect(read('600')).toBe('ろっぴゃく');
    expect(read('800')).toBe('はっぴゃく');
    expect(read('3000')).toBe('さんぜん');
    expect(read('8000')).toBe('はっせん');
    expect(read('12,345')).toBe('いちまんにせんさんびゃくよんじゅうご');
    expect(read('10000000')).toBe('いっせんまん');
    expect(read('1000万')).toBe('いっせんまん');
    expect(read('1億2000万')).toBe('いちおくにせんまん');
    expect(read('1000000000000')).toBe('いっちょう');
    expect(read('3.14')).toBe('さんてんいちよん');
  });

  it('reads counters as Japanese does: 本 回 人 日 時 分 月 円 歳 つ 階 ヶ月 %', () => {
    const cases: [string, string][] = [
      ['1本', 'いっぽん'],
      ['3本', 'さんぼん'],
      ['6本', 'ろっぽん'],
      ['10本', 'じゅっぽん'],
      ['1回', 'いっかい'],
      ['8回', 'はっかい'],
      ['1人', 'ひとり'],
      ['2人', 'ふたり'],
      ['4人', 'よにん'],
      ['20日', 'はつか'],
      ['3日', 'みっか'],
      ['1日', 'いちにち'],
      ['4時', 'よじ'],
      ['9時', 'くじ'],
      ['14時', 'じゅうよじ'],
      ['1分', 'いっぷん'],
      ['3分', 'さんぷん'],
      ['5分', 'ごふん'],
      ['4月', 'しがつ'],
      ['7月', 'しちがつ'],
      ['9月', 'くがつ'],
      ['4円', 'よえん'],
      ['5000円', 'ごせんえん'],
      ['20歳', 'はたち'],
      ['8歳', 'はっさい'],
      ['3つ', 'みっつ'],
      ['3階', 'さんがい'],
      ['6ヶ月', 'ろっかげつ'],
      ['50%', 'ごじゅうぱーせんと'],
      ['14:30', 'じゅうよじさんじゅっぷん'],
    ];
    expect(cases.map(([written]) => [written, read(written)])).toEqual(cases);
  });

  it('leaves the rest for the analyser, and reads a long digit string or one with a leading zero digit by digit', () => {
    expect(read('明日の14時に3人で')).toBe('[明日の]じゅうよじ[に]さんにん[で]');
    expect(read('007')).toBe('ぜろぜろなな');
    expect(read('1'.repeat(21))).toBe('いち'.repeat(21));
  });
});
