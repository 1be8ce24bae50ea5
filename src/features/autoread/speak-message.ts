// The Speak menu's text: the message read as auto-read reads one (Discord sends it without Message Content).
import { spokenText, type MessageContent } from './reading/decide.ts';
import { messageContent } from './reading/message-facts.ts';
import { DEFAULT_MAX_LENGTH } from './text/cleanup.ts';
import { compileDictionary, type DictionaryEntry } from './dictionary/dictionary.ts';
import { dictionaries, type ServerDictionary } from './dictionary/dictionary-cache.ts';
import type { Store } from '../../core/store/types.ts';

/** What the menu reads of a message: its text and the facts clean-up reads (auto-read's MessageContent). */
export type SpeakableMessage = MessageContent;

/** A discord.js Message (the menu's `targetMessage`) as plain data: auto-read's messageContent. */
export const speakableMessage = messageContent;

export interface SpeakOptions {
  /** The server's language (Discord locale or language code): the words said for links, files, "and so on". */
  language?: string;
  /** Characters of the message's own text that are spoken: auto-read's setting, default 200 as there. */
  maxLength?: number;
  /** The server's pronunciation dictionary, applied after clean-up, as auto-read does. */
  dictionary?: readonly DictionaryEntry[];
}

/** The text to speak; empty when nothing in the message can be spoken (the front-end says so instead). */
export function speakMessageText(message: SpeakableMessage, options: SpeakOptions = {}): string {
  return spokenText(message, {
    maxLength: options.maxLength ?? DEFAULT_MAX_LENGTH,
    language: options.language,
    ...(options.dictionary?.length ? { dictionary: compileDictionary(options.dictionary) } : {}),
  });
}

/** The text to speak for the menu, with the server's dictionary applied. */
export async function speakMessageWords(
  message: SpeakableMessage,
  options: Omit<SpeakOptions, 'dictionary'> & { dictionary: ServerDictionary },
): Promise<string> {
  const cleaned = speakMessageText(message, { ...options, dictionary: [] });
  if (cleaned === '' || options.dictionary.empty) return cleaned;
  const [said = ''] = await options.dictionary.say([cleaned]);
  return said;
}

/** The server's dictionary as the store holds it now; entries read only when their version changed. */
export async function storedDictionary(store: Pick<Store, 'dictionary'>, guildId: string): Promise<ServerDictionary> {
  const version = await store.dictionary.version(guildId);
  return dictionaries.current(guildId, version, () => store.dictionary.list(guildId));
}

/** A dictionary of these entries (the dashboard's "try it" with the entries it shows), compiled once per change. */
export function dictionaryOf(guildId: string, entries: readonly DictionaryEntry[]): ServerDictionary {
  return dictionaries.compiled(guildId, entries);
}
