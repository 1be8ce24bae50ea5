// What a feature's strings module passes on (`export * from` this): t() and the types, never addMessages.
export {
  formatNumber,
  localisations,
  t,
  TRANSLATED_LOCALES,
  type LocalisedMessage,
  type MessageKey,
  type MessageParam,
  type MessageParams,
} from './catalogue.ts';
