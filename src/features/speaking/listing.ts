import { describeSettings as describeDeclared } from '../../core/interactions/setting-text.ts';
import { SPEECH_SETTING_LIST } from '../../core/settings/setting-declarations.ts';
import type { SpeechSettings } from '../../core/store/common-types.ts';
import type { Preset } from '../../core/store/preset-store.ts';
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

/** One line for a set of settings, in declaration order: `voice` · language · tone · MP3 · speed 1.5×. */
export function describeSettings(locale: string, settings: SpeechSettings): string {
  return describeDeclared(locale, SPEECH_SETTING_LIST, settings, { separator: ' · ', omitUnset: true });
}

/** A preset as one listing line, marked when it is the server's default. */
export function presetLine(locale: string, preset: Preset, defaultName: string | undefined): string {
  const mark = preset.name === defaultName ? ` ${t(locale, 'preset.list.default')}` : '';
  return `**${preset.name}**: ${describeSettings(locale, preset)}${mark}`;
}
