import type { ListOptions } from './shared-types.ts';

/** A voice cloned from a clip (/clone, issue 4): usable in its guild only. */
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

export type AddClonedVoiceResult = { status: 'added'; voice: ClonedVoice } | { status: 'name-taken'; existing: ClonedVoice } | { status: 'full'; limit: number };

export interface NewNameReservation {
  guildId: string;
  name: string;
  reservedBy: string;
  /** How long the name is held if nobody adds or releases it. */
  ttlMs: number;
  maxPerGuild?: number;
  now?: Date;
}

export type NameReservationResult = { status: 'reserved'; token: string } | { status: 'name-taken' } | { status: 'full'; limit: number };

export interface DeletedClonedVoice {
  voice: ClonedVoice;
  /** Presets that spoke with it, removed with it so none points at a voice that no longer exists. */
  presetsRemoved: string[];
  /** Member defaults whose voice was it; their voice is unset, the other fields kept. */
  memberDefaultsCleared: number;
}

/**
 * A guild's cloned voices and the names held for clones under way (tables voice_library,
 * clone_name_reservations): `store.voiceLibrary`. Deleting a voice also reaches into the presets' tables, in one
 * transaction.
 */
export interface VoiceLibraryStore {
  /**
   * Holds a name for a /clone from before its paid call: refused when a voice or another unexpired reservation
   * has the name, or when voices plus reservations fill the library. Expires after `ttlMs` (a crashed request).
   */
  reserveName(reservation: NewNameReservation): Promise<NameReservationResult>;
  /** Gives a reserved name back (the paid call failed); unknown tokens are ignored. */
  releaseName(token: string): Promise<void>;
  /** Adds a voice; with `reservation`, its own reservation does not count against it and is removed with the insert. */
  add(voice: NewClonedVoice, options?: { maxPerGuild?: number; reservation?: string }): Promise<AddClonedVoiceResult>;
  /** The guild's cloned voice with this ID; undefined for another guild's, so it cannot be borrowed. */
  get(guildId: string, voiceId: string): Promise<ClonedVoice | undefined>;
  findByName(guildId: string, name: string): Promise<ClonedVoice | undefined>;
  list(guildId: string, options?: ListOptions): Promise<ClonedVoice[]>;
  /** Removes a cloned voice and, in the same transaction, what speaks with it (see DeletedClonedVoice). */
  delete(guildId: string, voiceId: string): Promise<DeletedClonedVoice | undefined>;
}
