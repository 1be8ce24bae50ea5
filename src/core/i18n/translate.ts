// What a feature's strings module passes on to the feature's modules (`export * from` this): rendering a message in
// a member's language, and the catalogue's types; never registering a part (the strings module does that once).
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
