import { t } from './strings.ts';

/** Discord's message limit is 2000 characters; keep a margin for the closing "…and N more". */
export const MESSAGE_BUDGET = 1900;

/** As many whole lines as fit in `budget`, then "…and N more.": cut between entries, saying how much was left out. */
export function fitLines(lines: readonly string[], locale: string, budget = MESSAGE_BUDGET): string[] {
  const kept: string[] = [];
  let used = 0;
  for (const [index, line] of lines.entries()) {
    const more = t(locale, 'list.more', { count: lines.length - index });
    if (used + line.length + 1 + more.length + 1 > budget) return [...kept, more];
    kept.push(line);
    used += line.length + 1;
  }
  return kept;
}
