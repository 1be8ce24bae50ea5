import {
  type EspeakVoice,
  DOCUMENTED_VOICES,
  LANGUAGE_CODES,
  languageName,
  type PresetVoice,
} from '../voice-catalogue/voices.ts';
import type { OfferedVoice } from '../sourcing/engine-port.ts';
import type { ApplicationCommandOptionChoiceData } from 'discord.js';
import type { ClonedVoice } from '../store/voice-library-store.ts';
import type { Preset } from '../store/preset-store.ts';
import { t } from '../i18n/catalogue.ts';

/** Discord shows at most 25 choices, each name at most 100 characters. */
export const MAX_CHOICES = 25;
const clip = (s: string) => (s.length > 100 ? `${s.slice(0, 99)}…` : s);

/** Each word typed is in a field, in any order: "English friendly" finds "English · friendly female". */
function matches(typed: string, ...fields: string[]): boolean {
  const words = typed.toLocaleLowerCase().split(/\s+/).filter(Boolean);
  return words.every((word) => fields.some((f) => f.toLocaleLowerCase().includes(word)));
}

/** Voices for the `voice` autocomplete: the server's clones first (kept whatever the language), then the presets. */
export function voiceChoices(
  typed: string,
  locale: string,
  language?: string | null,
  voices: readonly PresetVoice[] = DOCUMENTED_VOICES,
  cloned: readonly ClonedVoice[] = [],
  free: readonly EspeakVoice[] = [],
  engines: readonly OfferedVoice[] = [],
): ApplicationCommandOptionChoiceData<string>[] {
  const clonedChoices = cloned.map((v) => ({
    name: clip(`${v.name} · ${t(locale, 'choices.cloned')} (${v.voiceId})`),
    value: v.voiceId,
  }));
  const presetChoices = voices
    .filter((v) => !language || v.language === language)
    .map((v) => ({ voice: v, label: `${languageName(v.language, locale)} · ${v.character}` }))
    .filter(({ voice, label }) => matches(typed, voice.id, label))
    .map(({ voice, label }) => ({ name: clip(`${label} (${voice.id})`), value: voice.id }));
  const freeChoices = free
    .filter((v) => !language || v.language === language)
    .map((v) => ({ voice: v, label: `${languageName(v.language, locale)} · ${t(locale, 'choices.free')}` }))
    .filter(({ voice, label }) => matches(typed, voice.id, label))
    .map(({ voice, label }) => ({ name: clip(`${label} (${voice.id})`), value: voice.id }));
  const engineChoices = engines
    .filter((v) => !language || v.language === undefined || v.language === language)
    .map((v) => ({ voice: v, label: `${v.name} · ${t(locale, 'choices.free')}` }))
    .filter(({ voice, label }) => matches(typed, voice.id, label))
    .map(({ voice, label }) => ({ name: clip(`${label} (${voice.id})`), value: voice.id }));
  return [...clonedChoices, ...presetChoices, ...engineChoices, ...freeChoices].slice(0, MAX_CHOICES);
}

/** Languages for the `language` autocomplete, by code or by their name in the member's locale. */
export function languageChoices(typed: string, locale: string): ApplicationCommandOptionChoiceData<string>[] {
  return LANGUAGE_CODES.map((code) => ({ code, name: languageName(code, locale) }))
    .filter(({ code, name }) => matches(typed, code, name))
    .slice(0, MAX_CHOICES)
    .map(({ code, name }) => ({ name: clip(`${name} (${code})`), value: code }));
}

/** The server's presets (already filtered by the store), each with its voice and language. */
export function presetChoices(
  presets: readonly Preset[],
  locale: string,
): ApplicationCommandOptionChoiceData<string>[] {
  return presets.slice(0, MAX_CHOICES).map((p) => ({
    name: clip([p.name, p.voice, ...(p.language === undefined ? [] : [languageName(p.language, locale)])].join(' · ')),
    value: p.name,
  }));
}
