// Modals as Discord checks them (Receiving and Responding: "Modal"; Component Reference: Label, Text Input, File
// Upload, Checkbox, Text Display) and a member's submit of one (interaction type 5, MODAL_SUBMIT), with what
// Discord's client refuses before submitting (a required field left empty, a text out of its lengths, too few or
// too many files, a file type the upload does not accept, a file over the upload limit).
// Modelled: top-level Labels (18) holding a Text Input (4), a File Upload (19) or a Checkbox (23), and Text Displays
// (10). Selects, radio and checkbox groups and legacy action rows are refused as not modelled (a test would say so).
import { asObject, type ApiError, type Json } from './api-error.ts';
import { invalid } from './components.ts';
import { FormRefusal, acceptsFile, fileTypesProblem } from './file-types.ts';
import type { FakeAttachment, FakeModalValue, FakeUpload } from './types.ts';

export const ModalComponent = { TextInput: 4, TextDisplay: 10, Label: 18, FileUpload: 19, Checkbox: 23 } as const;
const MAX_TITLE = 45;
const MAX_TOP_LEVEL = 5;
const MAX_CUSTOM_ID = 100;
const MAX_LABEL = 45;
const MAX_DESCRIPTION = 100;
const MAX_TEXT = 4000;
const MAX_PLACEHOLDER = 100;
const MAX_UPLOADS = 10;
const IN_LABEL = [ModalComponent.TextInput, ModalComponent.FileUpload, ModalComponent.Checkbox] as const;

const length = (value: unknown): number => (typeof value === 'string' ? [...value].length : 0);
const isInteger = (value: unknown, min: number, max: number): boolean =>
  Number.isInteger(value) && (value as number) >= min && (value as number) <= max;

/** A modal response's `data` (callback type 9): 400 50035 with the field's path when Discord would refuse it. */
export function checkModal(data: Json): ApiError | undefined {
  const customId = data.custom_id;
  if (typeof customId !== 'string' || length(customId) < 1 || length(customId) > MAX_CUSTOM_ID) {
    return invalid('data.custom_id', 'BASE_TYPE_BAD_LENGTH', `Must be between 1 and ${MAX_CUSTOM_ID} in length.`);
  }
  if (typeof data.title !== 'string' || length(data.title) < 1 || length(data.title) > MAX_TITLE) {
    return invalid('data.title', 'BASE_TYPE_BAD_LENGTH', `Must be between 1 and ${MAX_TITLE} in length.`);
  }
  const components = Array.isArray(data.components) ? data.components : [];
  if (components.length < 1 || components.length > MAX_TOP_LEVEL) {
    return invalid('data.components', 'BASE_TYPE_BAD_LENGTH', `Must be between 1 and ${MAX_TOP_LEVEL} in length.`);
  }
  const ids = new Set<string>();
  for (const [i, raw] of components.entries()) {
    const problem = checkTopLevel(asObject(raw), `data.components.${i}`, ids);
    if (problem) return problem;
  }
  return undefined;
}

function checkTopLevel(component: Json, at: string, ids: Set<string>): ApiError | undefined {
  if (component.type === ModalComponent.TextDisplay) {
    return length(component.content) >= 1 && length(component.content) <= MAX_TEXT
      ? undefined
      : invalid(`${at}.content`, 'BASE_TYPE_BAD_LENGTH', `Must be between 1 and ${MAX_TEXT} in length.`);
  }
  if (component.type !== ModalComponent.Label) {
    return invalid(
      `${at}.type`,
      'UNION_TYPE_CHOICES',
      `Type ${String(component.type)} at the top of a modal is not modelled by the local Discord (Label 18, Text Display 10).`,
    );
  }
  if (length(component.label) < 1 || length(component.label) > MAX_LABEL)
    return invalid(`${at}.label`, 'BASE_TYPE_BAD_LENGTH', `Must be between 1 and ${MAX_LABEL} in length.`);
  if (component.description !== undefined && length(component.description) > MAX_DESCRIPTION) {
    return invalid(`${at}.description`, 'BASE_TYPE_MAX_LENGTH', `Must be ${MAX_DESCRIPTION} or fewer in length.`);
  }
  const child = asObject(component.component);
  const path = `${at}.component`;
  const type = child.type;
  if (!IN_LABEL.includes(type as (typeof IN_LABEL)[number])) {
    return invalid(
      `${path}.type`,
      'UNION_TYPE_CHOICES',
      `Value of field "type" must be one of (${IN_LABEL.join(', ')}) in the local Discord.`,
    );
  }
  const id = child.custom_id;
  if (typeof id !== 'string' || length(id) < 1 || length(id) > MAX_CUSTOM_ID)
    return invalid(`${path}.custom_id`, 'BASE_TYPE_BAD_LENGTH', `Must be between 1 and ${MAX_CUSTOM_ID} in length.`);
  if (ids.has(id))
    return invalid(`${path}.custom_id`, 'COMPONENT_CUSTOM_ID_DUPLICATED', 'Component custom id cannot be duplicated');
  ids.add(id);
  if (type === ModalComponent.TextInput) return checkTextInput(child, path);
  if (type === ModalComponent.FileUpload) return checkFileUpload(child, path);
  if (child.default !== undefined && typeof child.default !== 'boolean')
    return invalid(`${path}.default`, 'BASE_TYPE_BOOLEAN', 'Must be either true or false.');
  return undefined;
}

function checkTextInput(input: Json, at: string): ApiError | undefined {
  if (input.style !== 1 && input.style !== 2)
    return invalid(`${at}.style`, 'BASE_TYPE_CHOICES', 'Value must be one of (1, 2).');
  if (input.label !== undefined)
    return invalid(
      `${at}.label`,
      'COMPONENT_LABEL_IN_LABEL',
      'A text input inside a Label takes its label from the Label.',
    );
  const min = input.min_length ?? 0;
  const max = input.max_length ?? MAX_TEXT;
  if (!isInteger(min, 0, MAX_TEXT))
    return invalid(`${at}.min_length`, 'NUMBER_TYPE_MAX', `Must be between 0 and ${MAX_TEXT}.`);
  if (!isInteger(max, 1, MAX_TEXT) || (max as number) < (min as number))
    return invalid(
      `${at}.max_length`,
      'NUMBER_TYPE_MAX',
      `Must be between 1 and ${MAX_TEXT}, and at least min_length.`,
    );
  if (input.value !== undefined && length(input.value) > MAX_TEXT)
    return invalid(`${at}.value`, 'BASE_TYPE_MAX_LENGTH', `Must be ${MAX_TEXT} or fewer in length.`);
  if (input.placeholder !== undefined && length(input.placeholder) > MAX_PLACEHOLDER)
    return invalid(`${at}.placeholder`, 'BASE_TYPE_MAX_LENGTH', `Must be ${MAX_PLACEHOLDER} or fewer in length.`);
  return undefined;
}

function checkFileUpload(upload: Json, at: string): ApiError | undefined {
  const min = upload.min_values ?? 1;
  const max = upload.max_values ?? 1;
  if (!isInteger(min, 0, MAX_UPLOADS))
    return invalid(`${at}.min_values`, 'NUMBER_TYPE_MAX', `Must be between 0 and ${MAX_UPLOADS}.`);
  if (!isInteger(max, 1, MAX_UPLOADS) || (max as number) < (min as number))
    return invalid(
      `${at}.max_values`,
      'NUMBER_TYPE_MAX',
      `Must be between 1 and ${MAX_UPLOADS}, and at least min_values.`,
    );
  // "min_values must be either omitted or at least 1 if required is omitted or true."
  if (upload.required !== false && min === 0)
    return invalid(`${at}.min_values`, 'NUMBER_TYPE_MIN', 'Must be at least 1 when the upload is required.');
  const types = fileTypesProblem(upload.file_types);
  return types === undefined ? undefined : invalid(`${at}.file_types`, 'BASE_TYPE_BAD_LENGTH', types);
}

/** What a member's submit of `modal` carries: the components' values by custom_id, and the files hosted for it. */
export interface ModalSubmitData {
  components: Json[];
  attachments: Record<string, FakeAttachment>;
}

/**
 * The member fills in `modal` with `values` (a text by a Text Input's custom_id, true/false by a Checkbox's, files by
 * a File Upload's; a field left out keeps its pre-filled value, its default, or nothing) and submits it. What the
 * client would refuse throws a FormRefusal, unless `unchecked` (a client that checks nothing: what gets through).
 * `host` puts an upload on the CDN (an ephemeral attachment). A value for no field of the modal is a test's mistake.
 */
export function submitModal(
  modal: Json,
  values: Readonly<Record<string, FakeModalValue>>,
  host: (upload: FakeUpload) => FakeAttachment,
  options: { unchecked?: boolean; sizeLimit: number },
): ModalSubmitData {
  const known = new Set<string>();
  const attachments: Record<string, FakeAttachment> = {};
  let nextId = 1;
  const components = (Array.isArray(modal.components) ? modal.components : []).map((raw): Json => {
    const top = asObject(raw);
    const id = typeof top.id === 'number' ? top.id : nextId++;
    if (top.type !== ModalComponent.Label) return { type: top.type, id };
    const child = asObject(top.component);
    const childId = typeof child.id === 'number' ? child.id : nextId++;
    const customId = String(child.custom_id);
    known.add(customId);
    const refuse = (reason: string): void => {
      if (options.unchecked !== true) throw new FormRefusal(customId, reason);
    };
    const given = values[customId];
    const answer: Json = { type: child.type, id: childId, custom_id: customId };
    if (child.type === ModalComponent.TextInput) {
      const value = given ?? (typeof child.value === 'string' ? child.value : '');
      if (typeof value !== 'string') throw new Error(`FakeDiscord: "${customId}" is a text input; give it a string`);
      const min = typeof child.min_length === 'number' ? child.min_length : 0;
      const max = typeof child.max_length === 'number' ? child.max_length : MAX_TEXT;
      if (value === '' && child.required !== false) refuse('this field is required');
      else if (value !== '' && (length(value) < min || length(value) > max))
        refuse(`must be ${min} to ${max} characters long`);
      return { type: top.type, id, component: { ...answer, value } };
    }
    if (child.type === ModalComponent.Checkbox) {
      const value = given ?? child.default === true;
      if (typeof value !== 'boolean')
        throw new Error(`FakeDiscord: "${customId}" is a checkbox; give it true or false`);
      return { type: top.type, id, component: { ...answer, value } };
    }
    const files = given ?? [];
    if (!Array.isArray(files)) throw new Error(`FakeDiscord: "${customId}" is a file upload; give it files`);
    const required = child.required !== false;
    const min = typeof child.min_values === 'number' ? child.min_values : required ? 1 : 0;
    const max = typeof child.max_values === 'number' ? child.max_values : 1;
    // Left empty, an upload that is not required is fine; otherwise it takes from min_values (at least 1) to max_values.
    const least = files.length === 0 && !required ? 0 : Math.max(required ? 1 : 0, min);
    if (files.length < least || files.length > max) refuse(`takes ${least} to ${max} files, not ${files.length}`);
    for (const file of files) {
      if (!acceptsFile(child.file_types, file.filename))
        refuse(`${file.filename} is not one of the accepted file types (${JSON.stringify(child.file_types)})`);
      if (file.data.byteLength > options.sizeLimit)
        refuse(`${file.filename} is over the upload limit of ${options.sizeLimit} bytes`);
    }
    const hosted = files.map(host);
    for (const attachment of hosted) attachments[attachment.id] = { ...attachment, ephemeral: true };
    return { type: top.type, id, component: { ...answer, values: hosted.map((a) => a.id) } };
  });
  const stray = Object.keys(values).find((key) => !known.has(key));
  if (stray !== undefined)
    throw new Error(`FakeDiscord: the modal has no field "${stray}" (fields: ${[...known].join(', ')})`);
  return { components, attachments };
}
