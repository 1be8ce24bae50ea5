import { addMessages } from '../../core/i18n/catalogue.ts';
import { en } from './strings/glance-en.ts';
import { ja } from './strings/glance-ja.ts';
import { ko } from './strings/glance-ko.ts';

// The figures at a glance: their own part of the catalogue, registered when this module loads.

declare module '../../core/i18n/catalogue.ts' {
  // oxlint-disable-next-line typescript/no-empty-object-type -- its members are this part's keys
  interface Messages extends Record<keyof typeof en, string> {}
}

addMessages('dashboard-glance', { en, ko, ja });

export * from './strings.ts';
