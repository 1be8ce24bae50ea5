import { addMessages } from '../../core/i18n/catalogue.ts';
import { en } from './strings/en.ts';
import { ja } from './strings/ja.ts';
import { ko } from './strings/ko.ts';

// /privacy: this feature's own strings (./strings/), its part of the catalogue, registered when this module
// loads. Every module of the feature that renders or names one of its keys imports t() and the rest through here
// (or this module for its side effect), so no key of it is ever rendered unregistered, whoever renders it.

declare module '../../core/i18n/catalogue.ts' {
  // oxlint-disable-next-line typescript/no-empty-object-type -- its members are this part's keys
  interface Messages extends Record<keyof typeof en, string> {}
}

addMessages('privacy', { en, ko, ja });

export * from '../../core/i18n/translate.ts';
