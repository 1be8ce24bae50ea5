export type * from './types.ts';
export { SqliteStore } from './sqlite-store.ts';
export { SchemaTooNewError } from './schema-steps.ts';
export { NAME_MAX_LENGTH, isValidName, nameKey, tidyName } from './names.ts';

export { PgStore } from './pg-store.ts';
