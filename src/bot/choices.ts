import type { ApplicationCommandOptionChoiceData } from 'discord.js';
import { DOCUMENTED_VOICES, LANGUAGE_CODES, languageName } from '../voices/catalogue.ts';

/** Discord shows at most 25 choices, each name at most 100 characters. */
export const MAX_CHOICES = 25;
const clip = (s: string) => (s.length > 100 ? `${s.slice(0, 99)}…` : s);

function matches(typed: string, ...fields: string[]): boolean {
  const needle = typed.trim().toLocaleLowerCase();
  return needle === '' || fields.some((f) => f.toLocaleLowerCase().includes(needle));
}

/** Voices for the `voice` autocomplete, filtered by what was typed and, when chosen, by language. */
export function voiceChoices(typed: string, locale: string, language?: string | null): ApplicationCommandOptionChoiceData<string>[] {
  return DOCUMENTED_VOICES.filter((v) => !language || v.language === language)
    .map((v) => ({ voice: v, label: `${languageName(v.language, locale)} · ${v.character}` }))
    .filter(({ voice, label }) => matches(typed, voice.id, label))
    .slice(0, MAX_CHOICES)
    .map(({ voice, label }) => ({ name: clip(`${label} (${voice.id})`), value: voice.id }));
}

/** Languages for the `language` autocomplete, by code or by their name in the member's locale. */
export function languageChoices(typed: string, locale: string): ApplicationCommandOptionChoiceData<string>[] {
  return LANGUAGE_CODES.map((code) => ({ code, name: languageName(code, locale) }))
    .filter(({ code, name }) => matches(typed, code, name))
    .slice(0, MAX_CHOICES)
    .map(({ code, name }) => ({ name: clip(`${name} (${code})`), value: code }));
}
