import { addMessages } from '../../core/i18n/catalogue.ts';
import { en } from './strings/scenes-en.ts';
import { ja } from './strings/scenes-ja.ts';
import { ko } from './strings/scenes-ko.ts';

// The studio's Scenes page's own part of the catalogue, registered when this module loads.

declare module '../../core/i18n/catalogue.ts' {
  // oxlint-disable-next-line typescript/no-empty-object-type -- its members are this part's keys
  interface Messages extends Record<keyof typeof en, string> {}
}

addMessages('dashboard-scenes', { en, ko, ja });

export * from './strings.ts';
