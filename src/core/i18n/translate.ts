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

/**
 * A count's words, as ICU writes them: `{hits, plural, one {# hit} other {# hits}}`. The branch is the one
 * Intl.PluralRules picks for the count in the message's language (an exact `=N` first; `other` when none fits), so
 * "1 hit" and "2 hits" in English, and Korean and Japanese (one form for every count) need no branches at all.
 */
const PLURAL = /\{(\w+), plural,((?:\s*(?:=\d+|zero|one|two|few|many|other)\s*\{[^{}]*\})+)\s*\}/g;
const BRANCH = /(=\d+|zero|one|two|few|many|other)\s*\{([^{}]*)\}/g;
const pluralRules = new Map<string, Intl.PluralRules>();

/** The branch of a plural for `value` in `language`, its `#` the count as the reader writes numbers. */
function pluralText(
  language: string,
  locale: string | null | undefined,
  branches: string,
  value: MessageParam,
): string {
  const count = typeof value === 'number' ? value : Number(String(value).replace(/[^\d.-]/g, ''));
  const rules = pluralRules.get(language) ?? new Intl.PluralRules(language);
  pluralRules.set(language, rules);
  const forms = new Map([...branches.matchAll(BRANCH)].map((m) => [m[1] as string, m[2] as string]));
  const form = forms.get(`=${count}`) ?? forms.get(rules.select(count)) ?? forms.get('other') ?? '#';
  const shown = typeof value === 'number' ? formatNumber(locale, value) : String(value);
  // A function, so that `$&` and the like in a value stay as written.
  return form.replaceAll('#', () => shown);
}

/** The message for `key` in `locale` (Discord's interaction locale), English when we lack that language. */
export function t(locale: string | null | undefined, key: MessageKey, params: MessageParams = {}): string {
  const language = (locale !== null && locale !== undefined ? languages[locale] : undefined) ?? 'en';
  const counted = messageText(language, key).replace(PLURAL, (whole, name: string, branches: string) => {
    const value = params[name];
    if (value === undefined || typeof value === 'object') return whole;
    return pluralText(language, locale, branches, value);
  });
  return counted.replace(/\{(\w+)\}/g, (whole, name: string) => {
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
