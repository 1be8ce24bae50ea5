import { addMessages, messageText, TRANSLATED_LOCALES, type MessageKey } from './catalogue.ts';
import { en } from './en.ts';
import { ja } from './ja.ts';
import { ko } from './ko.ts';

// Every user-facing string, in the three languages SayBot speaks (Discord locales en-US, ko, ja): the replies and
// what Discord shows for each command. The texts live in the catalogue's parts (./catalogue.ts); English is the
// source. The core's own part is registered here, so whatever imports t() has it.

addMessages('core', { en, ko, ja });

export type { MessageKey } from './catalogue.ts';
export { TRANSLATED_LOCALES } from './catalogue.ts';

const languages: Record<string, 'en' | (typeof TRANSLATED_LOCALES)[number]> = {
  'en-US': 'en',
  'en-GB': 'en',
  ko: 'ko',
  ja: 'ja',
};

/**
 * What goes into a message's `{name}`: a figure, a word, or another message, rendered in the same language when the
 * outer one is (a cause's words inside "the audio stopped part-way (…)"). So what carries a message (an error, a
 * log line of it) holds keys and figures, never a sentence already written out for the member.
 */
export type MessageParam = string | number | LocalisedMessage;
export type MessageParams = Record<string, MessageParam>;

/** The message for `key` in `locale` (Discord's interaction locale), English when we lack that language. */
export function t(locale: string | null | undefined, key: MessageKey, params: MessageParams = {}): string {
  const language = (locale !== null && locale !== undefined ? languages[locale] : undefined) ?? 'en';
  return messageText(language, key).replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = params[name];
    if (value === undefined) return whole;
    return typeof value === 'object' ? t(locale, value.key, value.params) : String(value);
  });
}

/**
 * `key` in each translated locale, for Discord's `*_localizations` fields. A text that is the same as the
 * English one is left out: Discord shows the English text there anyway (e.g. the choice "MP3").
 */
export function localisations(key: MessageKey): Partial<Record<(typeof TRANSLATED_LOCALES)[number], string>> {
  const english = t('en-US', key);
  return Object.fromEntries(
    TRANSLATED_LOCALES.map((locale) => [locale, t(locale, key)]).filter(([, text]) => text !== english),
  );
}

/** A count as the reader writes numbers (digit grouping: 300,000). */
export function formatNumber(locale: string | null | undefined, value: number): string {
  return new Intl.NumberFormat(locale ?? 'en-US').format(value);
}

/** A message to be rendered later in the reader's language. */
export interface LocalisedMessage {
  key: MessageKey;
  params?: MessageParams;
}
