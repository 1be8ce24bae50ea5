// The values the scenes area takes and gives (types only).

/** A scene a server keeps (/scene save): its script as written, replayed with /scene play. */
export interface SavedScene {
  name: string;
  script: string;
  savedBy: string;
  savedAt: number;
}

export type SaveSceneResult =
  | { status: 'added' | 'replaced'; name: string }
  /** 'full': the server keeps MAX_SAVED_SCENES already; 'not-yours': someone else's scene of that name. */
  | { status: 'refused'; problem: 'full' | 'not-yours' }
  /** The member (without Manage Server) has saved their share of the server's scenes (member-share.ts). */
  | { status: 'refused'; problem: 'member-share'; share: number };

export type DeleteSceneResult = { status: 'deleted' | 'unknown' | 'not-yours' };
