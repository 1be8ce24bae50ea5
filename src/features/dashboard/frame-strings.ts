import { addMessages } from '../../core/i18n/catalogue.ts';
import { en } from './strings/frame-en.ts';
import { ja } from './strings/frame-ja.ts';
import { ko } from './strings/frame-ko.ts';

// The dashboard's frame and shared components: their own part of the catalogue, registered when this module loads.

declare module '../../core/i18n/catalogue.ts' {
  // oxlint-disable-next-line typescript/no-empty-object-type -- its members are this part's keys
  interface Messages extends Record<keyof typeof en, string> {}
}

addMessages('dashboard-frame', { en, ko, ja });

export * from './strings.ts';
