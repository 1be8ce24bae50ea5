/** Longest preset or cloned-voice name: short enough for a choice label next to a voice ID. */
export const NAME_MAX_LENGTH = 32;

/** Letters and digits of any script with inner spaces, `-`, `_`, `.`, `'`: an echoed name never mentions. */
export const NAME_SHAPE = /^[\p{L}\p{N}](?:[\p{L}\p{N}\p{M} _.'-]*[\p{L}\p{N}\p{M}])?$/u;

export function isValidName(name: string): boolean {
  return name.length <= NAME_MAX_LENGTH && NAME_SHAPE.test(name);
}

/** Tidies what a member typed: NFC, trimmed, inner runs of spaces made one. */
export function tidyName(name: string): string {
  return name.normalize('NFC').trim().replace(/\s+/g, ' ');
}

/** The key names are unique by: case- and width-insensitive in every script (NFKC), so "Narrator" is "narrator". */
export function nameKey(name: string): string {
  return tidyName(name).normalize('NFKC').toLowerCase();
}

/** Escapes a LIKE pattern's wildcards (the store uses ESCAPE '\'). */
export function likeContains(text: string): string {
  return `%${nameKey(text).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
