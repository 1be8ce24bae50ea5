// The catalogue of every user-facing string in en-US (the source), ko and ja, and t(). The core's part is ./en.ts,
// ./ko.ts, ./ja.ts; each feature's (src/features/<feature>/strings/) merges into Messages and registers itself.
// Command keys (src/core/interactions/command-builder.ts): command.<name>[.<subcommand>][.description],
// option.<name>[.description[.<variant>]], choice.<option>.<value>, menu.<name>; code routes by the English names.
import { en as coreEnglish } from './en.ts';
import { ja as coreJapanese } from './ja.ts';
import { ko as coreKorean } from './ko.ts';

/** Every key of the catalogue; a feature's strings module merges its own in (`interface Messages`). */
// oxlint-disable-next-line typescript/no-empty-object-type -- members: the core keys and the features' merges
export interface Messages extends Record<keyof typeof coreEnglish, string> {}

export type MessageKey = keyof Messages & string;

/** A language's texts for a part of the catalogue: one for every key its English text has, and no other. */
export type Translation<English> = Record<keyof English, string>;

/** A part of the catalogue: its English texts (the source) and their Korean and Japanese translations. */
interface MessagesPart<English extends Readonly<Record<string, string>>> {
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

/** Registers a part of the catalogue under `name`; again is a no-op, a key another part has throws. */
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

/** `key` in `language` (else English); an unregistered key throws, naming it, rather than show nothing. */
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

/** What fills a `{name}`: a figure, a word or another message, so errors carry keys, never written sentences. */
export type MessageParam = string | number | LocalisedMessage;
export type MessageParams = Record<string, MessageParam>;

/** A count's words, ICU style (`{n, plural, one {# hit} other {# hits}}`), the branch by Intl.PluralRules. */
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
  return counted.replace(/\{(\w+)(, number)?\}/g, (whole, name: string, number?: string) => {
    const value = params[name];
    if (value === undefined) return whole;
    if (typeof value === 'object') return t(locale, value.key, value.params);
    // `{name, number}` (ICU style): a count grouped as the reader writes it (300,000), as /usage shows it.
    return number !== undefined && typeof value === 'number' ? formatNumber(locale, value) : String(value);
  });
}

/** `key` in each translated locale for Discord's `*_localizations`; one equal to English is left out. */
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
