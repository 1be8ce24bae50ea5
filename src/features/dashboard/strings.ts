import { addMessages } from '../../core/i18n/catalogue.ts';
import { en } from './strings/en.ts';
import { ja } from './strings/ja.ts';
import { ko } from './strings/ko.ts';
import { en as consoleEn } from './strings/console-en.ts';
import { ja as consoleJa } from './strings/console-ja.ts';
import { ko as consoleKo } from './strings/console-ko.ts';
import { en as frameEn } from './strings/frame-en.ts';
import { ja as frameJa } from './strings/frame-ja.ts';
import { ko as frameKo } from './strings/frame-ko.ts';
import { en as glanceEn } from './strings/glance-en.ts';
import { ja as glanceJa } from './strings/glance-ja.ts';
import { ko as glanceKo } from './strings/glance-ko.ts';
import { en as scenesEn } from './strings/scenes-en.ts';
import { ja as scenesJa } from './strings/scenes-ja.ts';
import { ko as scenesKo } from './strings/scenes-ko.ts';

// The dashboard's strings (its pages; the owner console; the frame and shared components; the figures at a glance; the
// studio's Scenes page), registered when this module loads: its modules import t() through here.

type Keys =
  keyof typeof en | keyof typeof consoleEn | keyof typeof frameEn | keyof typeof glanceEn | keyof typeof scenesEn;

declare module '../../core/i18n/catalogue.ts' {
  // oxlint-disable-next-line typescript/no-empty-object-type -- its members are this part's keys
  interface Messages extends Record<Keys, string> {}
}

// One part, its files' keys apart by their prefixes (console., dashboard.frame., glance., studio.scenes.), as
// addMessages checks between parts.
const files = [en, consoleEn, frameEn, glanceEn, scenesEn];
if (new Set(files.flatMap(Object.keys)).size !== files.reduce((sum, file) => sum + Object.keys(file).length, 0))
  throw new Error('A key of the dashboard catalogue is in two of its files.');
addMessages('dashboard', {
  en: { ...en, ...consoleEn, ...frameEn, ...glanceEn, ...scenesEn },
  ko: { ...ko, ...consoleKo, ...frameKo, ...glanceKo, ...scenesKo },
  ja: { ...ja, ...consoleJa, ...frameJa, ...glanceJa, ...scenesJa },
});

export * from '../../core/i18n/translate.ts';
