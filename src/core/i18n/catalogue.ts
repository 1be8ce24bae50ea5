// The catalogue of every user-facing string, in the three languages SayBot speaks (Discord locales en-US, ko, ja):
// the replies and what Discord shows for each command. This module keeps the catalogue's parts, looks a message up
// and fills it in (t()). English is the source. The parts are the core's (./en.ts, ./ko.ts, ./ja.ts, registered here,
// so whatever imports t() has them) and each feature's own (src/features/<feature>/strings/). A key one feature
// alone uses is that feature's; one the core renders, or several features use, is the core's. The core names no
// feature: a feature's strings module adds its keys to Messages by declaration merging, for the type checker, and
// registers its texts with addMessages when it loads, before any module of that feature can render one of them.
//
// Key names for what Discord shows for each command (src/core/interactions/command-builder.ts builds the definitions
// from them):
// command.<name>[.<subcommand>]: its name (the English one is what the code routes by), and .description.
// option.<name>: an option's name, one wherever the option is used; .description, or .description.<variant>
// where commands describe the same option differently. choice.<option>.<value>: a fixed choice's name.
// menu.<name>: a message context menu's name (it has no description); the English one is what the code routes by.
import { en as coreEnglish } from './en.ts';
import { ja as coreJapanese } from './ja.ts';
import { ko as coreKorean } from './ko.ts';

/**
 * Every key of the catalogue. The core's part declares its keys here; a feature's strings module merges its own in:
 * `declare module '…/core/i18n/catalogue.ts' { interface Messages extends Record<keyof typeof en, string> {} }`.
 */
// oxlint-disable-next-line typescript/no-empty-object-type -- members: the core keys and the features' merges
export interface Messages extends Record<keyof typeof coreEnglish, string> {}

export type MessageKey = keyof Messages & string;

/** A language's texts for a part of the catalogue: one for every key its English text has, and no other. */
export type Translation<English> = Record<keyof English, string>;

/** A part of the catalogue: its English texts (the source) and their Korean and Japanese translations. */
export interface MessagesPart<English extends Readonly<Record<string, string>>> {
  en: English;
  ko: Translation<English>;
  ja: Translation<English>;
}

/** The languages besides English, as Discord's locales: the ones a command definition carries. */
export const TRANSLATED_LOCALES = ['ko', 'ja'] as const;

type Language = 'en' | (typeof TRANSLATED_LOCALES)[number];
const LANGUAGES: readonly Language[] = ['en', ...TRANSLATED_LOCALES];

const parts = new Map<string, MessagesPart<Readonly<Record<string, string>>>>();
const texts: Record<Language, Map<string, string>> = { en: new Map(), ko: new Map(), ja: new Map() };

/**
 * Registers a part of the catalogue under `name` ('core' or the feature's). Registering a part again does nothing
 * new; a key some other part already has is a mistake, and throws.
 */
export function addMessages<English extends Readonly<Record<string, string>>>(
  name: string,
  part: MessagesPart<English>,
): void {
  const known = parts.get(name);
  if (known === part) return;
  // The same part loaded anew (a test that resets its modules): its texts replace the ones it had.
  if (known !== undefined)
    for (const language of LANGUAGES) for (const key of Object.keys(known[language])) texts[language].delete(key);
  for (const key of Object.keys(part.en))
    if (texts.en.has(key)) throw new Error(`The catalogue key "${key}" of part "${name}" is in another part too.`);
  parts.set(name, part);
  for (const language of LANGUAGES)
    for (const [key, text] of Object.entries(part[language])) texts[language].set(key, text);
}

/** The registered parts, by name: what test/core/i18n/catalogue.test.ts checks. */
export function messagesParts(): ReadonlyMap<string, MessagesPart<Readonly<Record<string, string>>>> {
  return parts;
}

/**
 * The text of `key` in `language` (English when that language lacks it). A key no registered part has means its
 * feature's strings module was never loaded: that throws, naming the key, rather than show a member nothing.
 */
function messageText(language: Language, key: MessageKey): string {
  const text = texts[language].get(key) ?? texts.en.get(key);
  if (text === undefined)
    throw new Error(`The catalogue has no message "${key}": the strings module of its part was not loaded.`);
  return text;
}

addMessages('core', { en: coreEnglish, ko: coreKorean, ja: coreJapanese });

const languages: Record<string, Language> = {
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
