// What a member sets for themselves about auto-read (/myvoice set), kept on their member_defaults row.
import { NAME_MAX_LENGTH, NAME_SHAPE, tidyName } from '../../../core/store/names.ts';
import type { Declarations } from '../../../core/settings/setting-types.ts';
import type { MemberField } from '../../../core/store/member-defaults-store.ts';
import '../strings.ts';

export interface MemberReading {
  /** The name auto-read says for them; absent: their display name in the server. */
  spokenName?: string;
  /** False: auto-read never reads their messages; absent: read (the default). */
  readMe?: boolean;
}

declare module '../../../core/store/member-defaults-store.ts' {
  // oxlint-disable-next-line typescript/no-empty-object-type -- merges auto-read's fields into the core's
  interface MemberFields extends MemberReading {}
}

declare module '../../../core/store/schema.ts' {
  interface MemberFieldColumns {
    spoken_name: string | null;
    read_me: number | null;
  }
}

export const MEMBER_READING = {
  spokenName: {
    // A preset name's shape, so never a mention, link or markup; cleaned again like any spoken name when said.
    kind: 'text',
    maxLength: NAME_MAX_LENGTH,
    tidy: tidyName,
    shape: { pattern: NAME_SHAPE, refusal: 'error.myvoice.badName' },
    column: 'spoken_name',
    option: 'name',
    shown: { as: 'text', clause: { key: 'myvoice.name', param: 'name' } },
  },
  readMe: {
    kind: 'flag',
    default: true,
    column: 'read_me',
    option: 'read_me',
    words: { on: 'myvoice.readMe.on', off: 'myvoice.readMe.off' },
    shown: { as: 'onOff' },
  },
} as const satisfies Declarations<MemberReading>;

/** The fields with their names, in the order /myvoice offers and shows them. */
export const MEMBER_READING_LIST = Object.entries(MEMBER_READING) as unknown as ReadonlyArray<
  readonly [keyof MemberReading, MemberField[1]]
>;
