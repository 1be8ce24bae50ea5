// Message components as Discord checks them (Component Reference).
// Without IS_COMPONENTS_V2 (legacy): at most 5 action rows (type 1) of at most 5 buttons (type 2).
// With IS_COMPONENTS_V2 (1 << 15): top-level components of the layout and content types only (action row 1,
// section 9, text display 10, media gallery 12, file 13, separator 14, container 17), a container holding those
// but another container, and at most 40 components in all, nested ones counted; `content`, `embeds`, `poll` and
// stickers are refused, and the flag, once on a message, cannot be taken off it (checkComponentsV2Body).
// Either way: an interactive button (styles 1-4) needs a custom_id of 1-100 characters, unique in the message; a
// link button (5) a url; labels at most 80 characters. Modelled in V2: action rows, buttons, text displays,
// separators and containers; the other documented types are refused as not modelled (a test would say so).
// Type-only: messages.ts calls this module, which must not call back into it.
import type { ApiError, Json } from './api-error.ts';

export const IS_COMPONENTS_V2 = 1 << 15;
const MAX_ROWS = 5;
const MAX_BUTTONS = 5;
const MAX_CUSTOM_ID = 100;
const MAX_LABEL = 80;
/** "Messages allow up to 40 total components" (IS_COMPONENTS_V2). */
export const MAX_TOTAL_COMPONENTS_V2 = 40;

const Type = {
  ActionRow: 1,
  Button: 2,
  Section: 9,
  TextDisplay: 10,
  MediaGallery: 12,
  File: 13,
  Separator: 14,
  Container: 17,
} as const;
const TOP_LEVEL_V2 = [
  Type.ActionRow,
  Type.Section,
  Type.TextDisplay,
  Type.MediaGallery,
  Type.File,
  Type.Separator,
  Type.Container,
];
const IN_CONTAINER = [Type.ActionRow, Type.Section, Type.TextDisplay, Type.MediaGallery, Type.File, Type.Separator];
const MODELLED_V2 = new Set<number>([Type.ActionRow, Type.TextDisplay, Type.Separator, Type.Container]);

export function invalid(path: string, code: string, message: string): ApiError {
  return {
    status: 400,
    body: { message: 'Invalid Form Body', code: 50035, errors: { [path]: { _errors: [{ code, message }] } } },
  };
}

const asJson = (value: unknown): Json => (typeof value === 'object' && value !== null ? value : {}) as Json;
const choices = (types: readonly number[]) => `Value of field "type" must be one of (${types.join(', ')}).`;

/** Whether a message body (or a stored message) carries IS_COMPONENTS_V2. */
export function isComponentsV2(flags: unknown): boolean {
  return typeof flags === 'number' && (flags & IS_COMPONENTS_V2) !== 0;
}

/** The components of a message: legacy rows, or with `v2` the Components V2 layout. */
export function checkComponents(components: unknown, v2 = false): ApiError | undefined {
  if (components === undefined || components === null) return undefined;
  if (!Array.isArray(components))
    return invalid('components', 'MODEL_TYPE_CONVERT', 'Only iterables may be used in a ListType');
  const ids = new Set<string>();
  if (!v2) {
    if (components.length > MAX_ROWS)
      return invalid('components', 'BASE_TYPE_MAX_LENGTH', `Must be ${MAX_ROWS} or fewer in length.`);
    for (const [r, raw] of components.entries()) {
      const row = asJson(raw);
      if (row.type !== Type.ActionRow)
        return invalid(`components.${r}.type`, 'UNION_TYPE_CHOICES', choices([Type.ActionRow]));
      const problem = checkRow(row, `components.${r}`, ids);
      if (problem) return problem;
    }
    return undefined;
  }
  if (countComponents(components) > MAX_TOTAL_COMPONENTS_V2) {
    return invalid('components', 'BASE_TYPE_MAX_LENGTH', `Must be ${MAX_TOTAL_COMPONENTS_V2} or fewer in total.`);
  }
  for (const [i, raw] of components.entries()) {
    const problem = checkV2(asJson(raw), `components.${i}`, TOP_LEVEL_V2, ids);
    if (problem) return problem;
  }
  return undefined;
}

/** Every component, nested ones included (a container's children, a row's buttons, a section's accessory). */
function countComponents(list: unknown[]): number {
  return list.reduce<number>((sum, raw) => {
    const component = asJson(raw);
    const children = Array.isArray(component.components) ? component.components : [];
    const accessory = component.accessory === undefined ? 0 : 1;
    return sum + 1 + accessory + countComponents(children);
  }, 0);
}

function checkV2(component: Json, at: string, allowed: readonly number[], ids: Set<string>): ApiError | undefined {
  const type = component.type;
  if (typeof type !== 'number' || !allowed.includes(type as (typeof allowed)[number]))
    return invalid(`${at}.type`, 'UNION_TYPE_CHOICES', choices(allowed));
  if (!MODELLED_V2.has(type))
    return invalid(`${at}.type`, 'UNION_TYPE_CHOICES', `Type ${type} is not modelled by the local Discord.`);
  if (type === Type.ActionRow) return checkRow(component, at, ids);
  if (type === Type.TextDisplay) {
    const content = component.content;
    if (typeof content !== 'string' || content.length === 0)
      return invalid(`${at}.content`, 'BASE_TYPE_REQUIRED', 'This field is required');
    return undefined;
  }
  if (type === Type.Container) {
    const children = Array.isArray(component.components) ? component.components : [];
    if (children.length === 0)
      return invalid(`${at}.components`, 'BASE_TYPE_MIN_LENGTH', 'Must be 1 or more in length.');
    for (const [c, child] of children.entries()) {
      const problem = checkV2(asJson(child), `${at}.components.${c}`, IN_CONTAINER, ids);
      if (problem) return problem;
    }
  }
  return undefined;
}

function checkRow(row: Json, at: string, ids: Set<string>): ApiError | undefined {
  const buttons = Array.isArray(row.components) ? row.components : [];
  if (buttons.length === 0 || buttons.length > MAX_BUTTONS)
    return invalid(`${at}.components`, 'BASE_TYPE_BAD_LENGTH', `Must be between 1 and ${MAX_BUTTONS} in length.`);
  for (const [b, rawButton] of buttons.entries()) {
    const button = asJson(rawButton);
    const path = `${at}.components.${b}`;
    if (button.type !== Type.Button)
      return invalid(`${path}.type`, 'UNION_TYPE_CHOICES', 'Only buttons are modelled here.');
    if (typeof button.label === 'string' && [...button.label].length > MAX_LABEL)
      return invalid(`${path}.label`, 'BASE_TYPE_MAX_LENGTH', `Must be ${MAX_LABEL} or fewer in length.`);
    if (button.style === 5) continue;
    const id = button.custom_id;
    if (typeof id !== 'string' || id.length === 0 || id.length > MAX_CUSTOM_ID)
      return invalid(`${path}.custom_id`, 'BASE_TYPE_BAD_LENGTH', `Must be between 1 and ${MAX_CUSTOM_ID} in length.`);
    if (ids.has(id))
      return invalid(`${path}.custom_id`, 'COMPONENT_CUSTOM_ID_DUPLICATED', 'Component custom id cannot be duplicated');
    ids.add(id);
  }
  return undefined;
}

/**
 * What IS_COMPONENTS_V2 forbids beside its components (Create Message: "the message can only contain
 * `components`"; content, embeds, sticker_ids and poll fail with 400), and, on an edit of a message that has the
 * flag (`current`), an edit that would take it off ("it can't be removed from that message").
 */
export function checkComponentsV2Body(data: Json, current?: Json): ApiError | undefined {
  const had = current !== undefined && isComponentsV2(current.flags);
  if (had && typeof data.flags === 'number' && !isComponentsV2(data.flags)) {
    return invalid(
      'flags',
      'MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG',
      'The IS_COMPONENTS_V2 flag cannot be removed from a message.',
    );
  }
  if (!had && !isComponentsV2(data.flags)) return undefined;
  // On an edit that sets the flag, what the message already holds counts unless the edit empties it.
  const content = 'content' in data ? data.content : current?.content;
  const embeds = 'embeds' in data ? data.embeds : current?.embeds;
  const legacy = [
    ['content', typeof content === 'string' && content.length > 0],
    ['embeds', Array.isArray(embeds) && embeds.length > 0],
    ['poll', data.poll !== undefined && data.poll !== null],
    ['sticker_ids', Array.isArray(data.sticker_ids) && data.sticker_ids.length > 0],
  ] as const;
  const field = legacy.find(([, present]) => present)?.[0];
  if (field !== undefined)
    return invalid(
      field,
      'MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2',
      'The fields content, embeds, sticker_ids and poll cannot be used with IS_COMPONENTS_V2.',
    );
  return undefined;
}

/** The custom_ids of a message's buttons, in rows or nested in containers: what a member can press on it. */
export function customIdsOf(message: Json): string[] {
  const walk = (list: unknown): string[] =>
    (Array.isArray(list) ? list : []).flatMap((raw) => {
      const component = asJson(raw);
      const own =
        component.type === Type.Button && typeof component.custom_id === 'string' ? [component.custom_id] : [];
      return [
        ...own,
        ...walk(component.components),
        ...walk(component.accessory === undefined ? [] : [component.accessory]),
      ];
    });
  return walk(message.components);
}
