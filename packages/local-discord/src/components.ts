// Message components as Discord checks them on a message without IS_COMPONENTS_V2 (Component Reference): at most 5
// action rows (type 1) of at most 5 buttons (type 2); an interactive button (styles 1-4) needs a custom_id of 1-100
// characters, unique in the message; a link button (5) a url; labels at most 80 characters.
// Type-only: messages.ts calls this module, which must not call back into it.
import type { ApiError, Json } from './api-error.ts';

const MAX_ROWS = 5;
const MAX_BUTTONS = 5;
const MAX_CUSTOM_ID = 100;
const MAX_LABEL = 80;

function invalid(path: string, code: string, message: string): ApiError {
  return { status: 400, body: { message: 'Invalid Form Body', code: 50035, errors: { [path]: { _errors: [{ code, message }] } } } };
}

export function checkComponents(components: unknown): ApiError | undefined {
  if (components === undefined || components === null) return undefined;
  if (!Array.isArray(components)) return invalid('components', 'MODEL_TYPE_CONVERT', 'Only iterables may be used in a ListType');
  if (components.length > MAX_ROWS) return invalid('components', 'BASE_TYPE_MAX_LENGTH', `Must be ${MAX_ROWS} or fewer in length.`);
  const ids = new Set<string>();
  for (const [r, raw] of components.entries()) {
    const row = (typeof raw === 'object' && raw !== null ? raw : {}) as Json;
    if (row.type !== 1) return invalid(`components.${r}.type`, 'UNION_TYPE_CHOICES', 'Value of field "type" must be one of (1,).');
    const buttons = Array.isArray(row.components) ? row.components : [];
    if (buttons.length === 0 || buttons.length > MAX_BUTTONS) return invalid(`components.${r}.components`, 'BASE_TYPE_BAD_LENGTH', `Must be between 1 and ${MAX_BUTTONS} in length.`);
    for (const [b, rawButton] of buttons.entries()) {
      const button = (typeof rawButton === 'object' && rawButton !== null ? rawButton : {}) as Json;
      const at = `components.${r}.components.${b}`;
      if (button.type !== 2) return invalid(`${at}.type`, 'UNION_TYPE_CHOICES', 'Only buttons are modelled here.');
      if (typeof button.label === 'string' && [...button.label].length > MAX_LABEL) return invalid(`${at}.label`, 'BASE_TYPE_MAX_LENGTH', `Must be ${MAX_LABEL} or fewer in length.`);
      if (button.style === 5) continue;
      const id = button.custom_id;
      if (typeof id !== 'string' || id.length === 0 || id.length > MAX_CUSTOM_ID) return invalid(`${at}.custom_id`, 'BASE_TYPE_BAD_LENGTH', `Must be between 1 and ${MAX_CUSTOM_ID} in length.`);
      if (ids.has(id)) return invalid(`${at}.custom_id`, 'COMPONENT_CUSTOM_ID_DUPLICATED', 'Component custom id cannot be duplicated');
      ids.add(id);
    }
  }
  return undefined;
}

/** The custom_ids of a message's buttons: what a member can press on it. */
export function customIdsOf(message: Json): string[] {
  const rows = Array.isArray(message.components) ? message.components : [];
  return rows.flatMap((row) => {
    const buttons = typeof row === 'object' && row !== null && Array.isArray((row as Json).components) ? (row as Json).components as unknown[] : [];
    return buttons.map((b) => (typeof b === 'object' && b !== null ? (b as Json).custom_id : undefined)).filter((id): id is string => typeof id === 'string');
  });
}
