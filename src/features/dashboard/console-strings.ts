import { addMessages } from '../../core/i18n/catalogue.ts';
import { en } from './strings/console-en.ts';
import { ja } from './strings/console-ja.ts';
import { ko } from './strings/console-ko.ts';

// The owner console's own part of the catalogue, registered when this module loads.

declare module '../../core/i18n/catalogue.ts' {
  // oxlint-disable-next-line typescript/no-empty-object-type -- its members are this part's keys
  interface Messages extends Record<keyof typeof en, string> {}
}

addMessages('dashboard-console', { en, ko, ja });

export * from './strings.ts';
