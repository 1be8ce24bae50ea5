import type { en as coreEnglish } from './en.ts';

// The catalogue of every user-facing string, in parts: the core's (./en.ts, ./ko.ts, ./ja.ts) and each feature's
// own (src/features/<feature>/strings/). A key one feature alone uses is that feature's; one the core renders, or
// several features use, is the core's. The core names no feature: a feature's strings module adds its keys to
// Messages by declaration merging, for the type checker, and registers its texts with addMessages when it loads,
// before any module of that feature can render one of them.
//
// Key names for what Discord shows for each command (src/core/interactions/command-builder.ts builds the definitions
// from them):
// command.<name>[.<subcommand>]: its name (the English one is what the code routes by), and .description.
// option.<name>: an option's name, one wherever the option is used; .description, or .description.<variant>
// where commands describe the same option differently. choice.<option>.<value>: a fixed choice's name.
// menu.<name>: a message context menu's name (it has no description); the English one is what the code routes by.

/**
 * Every key of the catalogue. The core's part declares its keys here; a feature's strings module merges its own in:
 * `declare module '…/core/i18n/catalogue.ts' { interface Messages extends Record<keyof typeof en, string> {} }`.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- members: the core keys and the features' merges
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
export function messageText(language: Language, key: MessageKey): string {
  const text = texts[language].get(key) ?? texts.en.get(key);
  if (text === undefined)
    throw new Error(`The catalogue has no message "${key}": the strings module of its part was not loaded.`);
  return text;
}
