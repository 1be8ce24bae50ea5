// The voices feature's public surface: what its command modules (commands/), the app and other features use.
import './strings.ts';
export {
  CLIP_FILE_TYPES,
  FIRST_LINE_MAX_LENGTH,
  cloneForm,
  isClipFileName,
  isCloneForm,
  openFormRow,
  readCloneForm,
} from './clone-form.ts';
export { checkReferenceClip, downloadClip, type CheckedClip } from './reference-clip.ts';
export { wentWithIt } from './deleted-words.ts';
