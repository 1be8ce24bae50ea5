// What went with a deleted cloned voice, in its deleter's words (/voices delete, the dashboard).
import type { DeletedClonedVoice } from '../../core/store/voice-library-store.ts';
import { t } from './strings.ts';

/** `done`, then the presets that spoke with it (three by name at most: the reply stays short), the members it was. */
export function wentWithIt(locale: string, deleted: DeletedClonedVoice | undefined, done: string): string {
  const [presets, members] = [deleted?.presetsRemoved ?? [], deleted?.memberDefaultsCleared ?? 0];
  const named = presets.slice(0, 3).map((name) => `"${name}"`);
  if (presets.length > 3) named.push(t(locale, 'voices.deleted.more', { count: presets.length - 3 }));
  const names = new Intl.ListFormat(locale).format(named);
  return [
    done,
    ...(presets.length === 0 ? [] : [t(locale, 'voices.deleted.presets', { count: presets.length, names })]),
    ...(members === 0 ? [] : [t(locale, 'voices.deleted.members', { count: members })]),
  ].join(' ');
}
