import { addMessages } from '../../core/i18n/catalogue.ts';
import { en } from './strings/en.ts';
import { ja } from './strings/ja.ts';
import { ko } from './strings/ko.ts';

// The dashboard's strings (its pages, the owner console, the frame and shared components, the figures at a glance, the
// studio's Scenes page), registered when this module loads: its modules import t() through here.

declare module '../../core/i18n/catalogue.ts' {
  // oxlint-disable-next-line typescript/no-empty-object-type -- its members are this part's keys
  interface Messages extends Record<keyof typeof en, string> {}
}

addMessages('dashboard', { en, ko, ja });

export * from '../../core/i18n/translate.ts';
