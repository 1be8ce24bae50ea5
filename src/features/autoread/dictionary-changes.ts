// What every way of changing a dictionary shares: a refusal in the member's words, the reader updated, the file's size.
import { t, type MessageKey } from './strings.ts';
import { echo, echoCode } from '../../core/interactions/safe-text.ts';
import type { Store } from '../../core/store/types.ts';
import type { DictionaryEntry, DictionaryProblem } from './dictionary/dictionary.ts';

/** A file of MAX_ENTRIES entries at their longest, in 4-byte characters, with JSON around them, fits. */
export const MAX_IMPORT_BYTES = 512 * 1024;

/** A problem in the caller's language: "entry 3: the pattern cannot be used: a ( is not closed." */
export function describeDictionaryProblem(locale: string, problem: DictionaryProblem): string {
  const { code, params } = problem;
  if (code === 'badEntry')
    return t(locale, 'dictionary.problem.badEntry', {
      entry: params['entry'] ?? '',
      reason: describeDictionaryProblem(locale, { code: params['reason'] as DictionaryProblem['code'], params }),
    });
  if (code === 'badPattern') {
    const syntax = t(locale, `dictionary.pattern.${String(params['syntax'])}` as MessageKey, {
      part: echoCode(String(params['part'] ?? ''), 40),
    });
    return t(locale, 'dictionary.problem.badPattern', { syntax });
  }
  if (code === 'duplicate')
    return t(locale, 'dictionary.problem.duplicate', { ...params, word: echo(String(params['word']), 60) });
  if (code === 'unknownGroup')
    return t(locale, 'dictionary.problem.unknownGroup', { group: echoCode(String(params['group']), 20) });
  return t(locale, `dictionary.problem.${code}` as MessageKey, params);
}

/** After a change: the reader uses the new entries from the next message on (when this process reads the guild). */
export async function refreshDictionary(
  store: Store,
  autoread:
    | { isReading(guildId: string): boolean; setDictionary(guildId: string, entries: DictionaryEntry[]): void }
    | undefined,
  guildId: string,
): Promise<void> {
  if (autoread?.isReading(guildId)) autoread.setDictionary(guildId, await store.dictionary.list(guildId));
}
