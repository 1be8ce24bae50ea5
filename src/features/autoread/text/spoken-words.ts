// The words said in place of what cannot be read aloud, in SayBot's three languages: one table for every reader.

export type SpokenLanguage = 'en' | 'ko' | 'ja';

const EN = {
  link: 'link',
  /** A link whose host is short enough to be worth saying. */
  linkTo: '{host} link',
  code: 'code',
  spoiler: 'spoiler',
  image: 'image',
  video: 'video',
  audio: 'audio file',
  file: 'file',
  /** More than one attachment. */
  files: '{count} files',
  sticker: 'sticker {name}',
  replyTo: 'replying to {name}',
  forwarded: 'forwarded message',
  /** Said where a long message is cut. */
  andSoOn: 'and so on',
  /** Separates the cut text from `andSoOn`, and announcements from the text. */
  pause: ', ',
  unknownUser: 'someone',
  unknownRole: 'a role',
  unknownChannel: 'a channel',
  everyone: 'everyone',
  here: 'here',
};

/** Every language says each of English's words. */
export type SpokenWords = Record<keyof typeof EN, string>;

const WORDS: Record<SpokenLanguage, SpokenWords> = {
  en: EN,
  ko: {
    link: '링크',
    linkTo: '{host} 링크',
    code: '코드',
    spoiler: '스포일러',
    image: '이미지',
    video: '동영상',
    audio: '오디오 파일',
    file: '파일',
    files: '파일 {count}개',
    sticker: '스티커 {name}',
    replyTo: '{name}님에게 답장',
    forwarded: '전달된 메시지',
    andSoOn: '이하 생략',
    pause: ', ',
    unknownUser: '누군가',
    unknownRole: '역할',
    unknownChannel: '채널',
    everyone: '모두',
    here: '여기',
  },
  ja: {
    link: 'リンク',
    linkTo: '{host}のリンク',
    code: 'コード',
    spoiler: 'ネタバレ',
    image: '画像',
    video: '動画',
    audio: '音声ファイル',
    file: 'ファイル',
    files: 'ファイル{count}件',
    sticker: 'スタンプ {name}',
    replyTo: '{name}さんへの返信',
    forwarded: '転送されたメッセージ',
    andSoOn: '以下略',
    pause: '、',
    unknownUser: '誰か',
    unknownRole: 'ロール',
    unknownChannel: 'チャンネル',
    everyone: '全員',
    here: 'ここ',
  },
};

/** The language for a Discord locale or language code ('ko', 'ja', 'en-US', 'ja-JP'...); English otherwise. */
export function spokenLanguage(code: string | null | undefined): SpokenLanguage {
  const base = (code ?? '').toLowerCase().split(/[-_]/)[0];
  return base === 'ko' || base === 'ja' ? base : 'en';
}

export function spokenWords(language: SpokenLanguage): SpokenWords {
  return WORDS[language];
}

/** `template` with each {name} replaced by its value. */
export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    values[name] === undefined ? whole : String(values[name]),
  );
}
