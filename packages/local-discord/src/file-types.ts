// File type filtering (API Reference, "File Type Filtering", change log 2026-08-05): a File Upload component or an
// ATTACHMENT command option may list up to 10 file types, each a group name or a dot-prefixed extension. Discord's
// client offers and accepts only files whose name ends in one of them; it never looks inside the file.

/** The groups as documented (Discord warns they follow what it supports natively and may change). */
const GROUPS: Readonly<Record<string, readonly string[]>> = {
  image: ['.png', '.gif', '.jpg', '.jpeg', '.jfif', '.webp', '.avif'],
  video: ['.mp4', '.mov', '.qt', '.webm'],
  audio: ['.mp3', '.m4a', '.wav', '.ogg', '.opus', '.flac'],
};
export const MAX_FILE_TYPES = 10;
const EXTENSION = /^\.[a-z0-9]{1,16}$/i;

/** Why a `file_types` value is invalid (Discord answers 400 50035), or undefined when it is fine or absent. */
export function fileTypesProblem(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) return 'Only iterables may be used in a ListType';
  if (value.length > MAX_FILE_TYPES) return `Must be ${MAX_FILE_TYPES} or fewer in length.`;
  const wrong = value.find((entry) => typeof entry !== 'string' || (!(entry in GROUPS) && !EXTENSION.test(entry)));
  return wrong === undefined
    ? undefined
    : `"${String(wrong)}" is neither a file group (image, video, audio) nor a dot-prefixed extension.`;
}

/** Whether a file of this name may be picked where `fileTypes` applies (absent: any file). Case-insensitive. */
export function acceptsFile(fileTypes: unknown, filename: string): boolean {
  if (!Array.isArray(fileTypes) || fileTypes.length === 0) return true;
  const dot = filename.lastIndexOf('.');
  if (dot < 0) return false;
  const extension = filename.slice(dot).toLowerCase();
  return fileTypes.some(
    (entry) => typeof entry === 'string' && (GROUPS[entry]?.includes(extension) ?? entry.toLowerCase() === extension),
  );
}

/**
 * What Discord's client refused before anything reached the bot: a form field not filled in as its component asks,
 * or a file of a type the upload or the attachment option does not accept. A test expects it (`rejects.toThrow`).
 */
export class FormRefusal extends Error {
  readonly field: string;
  constructor(field: string, reason: string) {
    super(`Discord's client refuses "${field}": ${reason}`);
    this.name = 'FormRefusal';
    this.field = field;
  }
}
