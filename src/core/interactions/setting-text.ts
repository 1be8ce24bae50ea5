// A declared setting's value in words as its `shown` says (setting-types.ts); settings sharing a clause in one line.
import { languageName } from '../voice-catalogue/voices.ts';
import { type MessageKey, t } from '../i18n/catalogue.ts';
import { echo } from './replies.ts';
import { echoCode } from './safe-text.ts';
import type { SettingDeclaration } from '../settings/setting-types.ts';

type Value = string | number | boolean | undefined;

/** One setting's value as its declaration shows it (unset: "none"). */
export function shownValue(locale: string, declared: SettingDeclaration, value: Value): string | number {
  if (value === undefined) return t(locale, 'setting.value.none');
  const text = declared.shown.echoed === undefined ? String(value) : echo(String(value), declared.shown.echoed);
  switch (declared.shown.as) {
    case 'text':
      return text;
    case 'code':
      // A cloned voice's ID is the service's: as code nothing in it can close.
      return echoCode(text, 100);
    case 'language':
      return `${languageName(text, locale)} (${text})`;
    case 'upper':
      return text.toUpperCase();
    case 'number':
      return value as number;
    case 'signed':
      return typeof value === 'number' && value > 0 ? `+${value}` : (value as number);
    case 'onOff': {
      const words = declared.kind === 'flag' ? declared.words : undefined;
      return t(locale, value === true ? (words?.on ?? 'setting.value.on') : (words?.off ?? 'setting.value.off'));
    }
    case 'countOrOff':
      return value === 0 ? t(locale, 'setting.value.off') : (value as number);
    case 'role':
      return `<@&${text}>`;
    case 'choice': {
      const words: Readonly<Record<string, MessageKey>> | undefined =
        declared.kind === 'choice' ? declared.words : undefined;
      const key = words?.[text];
      return key === undefined ? text : t(locale, key);
    }
  }
}

interface DescribeStyle {
  /** Between two shown settings: ' · ', '; '. */
  separator: string;
  /** Leave out a setting with no value (a layer that does not fix it), rather than show it as "none". */
  omitUnset: boolean;
}

/** Settings as one line in the member's language: each in its clause, those sharing one together. */
export function describeSettings<Name extends string>(
  locale: string,
  list: ReadonlyArray<readonly [Name, SettingDeclaration]>,
  values: Partial<Record<Name, Value>>,
  style: DescribeStyle,
): string {
  const shown = new Map<string, { key?: MessageKey; params: Record<string, string | number> }>();
  for (const [name, declared] of list) {
    const value = values[name];
    if (value === undefined && style.omitUnset) continue;
    const text = shownValue(locale, declared, value);
    const clause = declared.shown.clause;
    if (clause === undefined) {
      shown.set(name, { params: { value: text } });
      continue;
    }
    const entry = shown.get(clause.key) ?? { key: clause.key, params: {} };
    entry.params[clause.param] = text;
    shown.set(clause.key, entry);
  }
  return [...shown.values()]
    .map(({ key, params }) => (key === undefined ? String(params['value']) : t(locale, key, params)))
    .join(style.separator);
}
