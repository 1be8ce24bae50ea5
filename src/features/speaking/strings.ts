import { addMessages } from '../../core/i18n/catalogue.ts';
import { en } from './strings/en.ts';
import { ja } from './strings/ja.ts';
import { ko } from './strings/ko.ts';

// The feature's strings, registered when this module loads: its modules import t() through here, so none of its
// keys is ever rendered unregistered.

declare module '../../core/i18n/catalogue.ts' {
  // oxlint-disable-next-line typescript/no-empty-object-type -- its members are this part's keys
  interface Messages extends Record<keyof typeof en, string> {}
}

addMessages('speaking', { en, ko, ja });

export * from '../../core/i18n/translate.ts';
