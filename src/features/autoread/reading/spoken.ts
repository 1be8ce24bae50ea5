// What the auto-reader itself SAYS in the voice channel, in the three languages it speaks: the author's name before
// a message, and a member joining or leaving. These are spoken words, paid per character and heard, not read: they
// are not replies, so they do not belong in the reply catalogue (src/core/i18n/catalogue.ts and its parts hold every
// string the bot posts). Kept short on purpose: the name phrase is said before many messages, and each character costs.
// "And so on" for a cut message is clean-up's (src/features/autoread/text/spoken-words.ts), so /say-like readers share one word.
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
