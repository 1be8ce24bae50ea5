// What the auto-reader itself says aloud (names, joins, leaves): paid per character, so short, and not replies.
import { fill, spokenLanguage, spokenWords, type SpokenLanguage } from '../text/spoken-words.ts';

export interface ReaderPhrases {
  /** Said before a message when the name is said: "Mina said, hello". */
  said: string;
  joined: string;
  left: string;
}

const PHRASES: Record<SpokenLanguage, ReaderPhrases> = {
  en: { said: '{name} said', joined: '{name} joined', left: '{name} left' },
  ko: { said: '{name}님', joined: '{name}님이 들어왔어요', left: '{name}님이 나갔어요' },
  ja: { said: '{name}さん', joined: '{name}さんが入室しました', left: '{name}さんが退室しました' },
};

/** `text` preceded by the author's name, in the server's language ("Mina said, hello"; "민지님, 안녕"). */
export function withName(name: string, text: string, language: string | undefined): string {
  const lang = spokenLanguage(language);
  return `${fill(PHRASES[lang].said, { name })}${spokenWords(lang).pause}${text}`;
}

/** "Mina joined" / "Mina left" in the server's language. */
export function voiceChangeText(change: 'joined' | 'left', name: string, language: string | undefined): string {
  return fill(PHRASES[spokenLanguage(language)][change], { name });
}
