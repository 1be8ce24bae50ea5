/** A voice cloned from a clip (/clone): usable in its guild only. */
export interface ClonedVoice {
  guildId: string;
  name: string;
  /** The service's opaque ID (X-Voice-Id). */
  voiceId: string;
  createdBy: string;
  createdAt: Date;
  clipSeconds: number;
}

export type NewClonedVoice = Omit<ClonedVoice, 'createdAt'> & { createdAt?: Date };

export type AddClonedVoiceResult =
  | { status: 'added'; voice: ClonedVoice }
  | { status: 'name-taken'; existing: ClonedVoice }
  | { status: 'full'; limit: number };

export interface NewNameReservation {
  guildId: string;
  name: string;
  reservedBy: string;
  /** How long the name is held if nobody adds or releases it. */
  ttlMs: number;
  maxPerGuild?: number;
  /** Whether `reservedBy` has Manage Server: false holds them to their share (member-share.ts); absent: the cap only. */
  manager?: boolean;
  now?: Date;
}

export type NameReservationResult =
  | { status: 'reserved'; token: string }
  | { status: 'name-taken' }
  | { status: 'full'; limit: number }
  | { status: 'member-share'; share: number; limit: number };

export interface DeletedClonedVoice {
  voice: ClonedVoice;
  /** Presets that spoke with it, removed with it so none points at a voice that no longer exists. */
  presetsRemoved: string[];
  /** Member defaults whose voice was it; their voice is unset (its name kept, to tell them), the other fields kept. */
  memberDefaultsCleared: number;
  /** Soundboard sounds saved from it (recordSound), no longer tracked: the caller removes them from Discord. */
  soundsSaved: string[];
}
