import { randomUUID } from 'node:crypto';
import { likeContains, nameKey, tidyName } from '../names.ts';
import { clonedVoiceOf, num, reservationHolder } from '../rows.ts';
import type {
  AddClonedVoiceResult,
  ClonedVoice,
  DeletedClonedVoice,
  ListOptions,
  NameReservationResult,
  NewClonedVoice,
  NewNameReservation,
  VoiceLibraryStore,
} from '../types.ts';
import { type SqliteDb, sqliteLimit } from './db.ts';

/** Cloned voices and clone name reservations on SQLite. */
export class SqliteVoiceLibrary implements VoiceLibraryStore {
  readonly #db: SqliteDb;

  constructor(db: SqliteDb) {
    this.#db = db;
  }

  /** Voices in the guild plus names others hold for a clone under way (not `ownToken`'s). */
  #libraryCount(guildId: string, now: number, ownToken: string | null): number {
    const voices = num(this.#db.get('SELECT count(*) AS n FROM voice_library WHERE guild_id = ?', guildId)?.['n']) ?? 0;
    const held = num(
      this.#db.get('SELECT count(*) AS n FROM clone_name_reservations WHERE guild_id = ? AND expires_at > ? AND token IS NOT ?', guildId, now, ownToken)?.['n'],
    ) ?? 0;
    return voices + held;
  }

  async reserveClonedVoiceName(reservation: NewNameReservation): Promise<NameReservationResult> {
    const db = this.#db;
    const key = nameKey(tidyName(reservation.name));
    const now = (reservation.now ?? new Date()).getTime();
    return db.transaction((): NameReservationResult => {
      db.run('DELETE FROM clone_name_reservations WHERE expires_at <= ?', now);
      if (db.get('SELECT 1 AS x FROM voice_library WHERE guild_id = ? AND name_key = ?', reservation.guildId, key)) return { status: 'name-taken' };
      if (db.get('SELECT 1 AS x FROM clone_name_reservations WHERE guild_id = ? AND name_key = ?', reservation.guildId, key)) return { status: 'name-taken' };
      const max = reservation.maxPerGuild;
      if (max !== undefined && this.#libraryCount(reservation.guildId, now, null) >= max) return { status: 'full', limit: max };
      const token = randomUUID();
      db.run(
        'INSERT INTO clone_name_reservations (guild_id, name_key, token, reserved_by, expires_at) VALUES (?, ?, ?, ?, ?)',
        reservation.guildId, key, token, reservation.reservedBy, now + reservation.ttlMs,
      );
      return { status: 'reserved', token };
    });
  }

  async releaseClonedVoiceName(token: string): Promise<void> {
    this.#db.run('DELETE FROM clone_name_reservations WHERE token = ?', token);
  }

  async addClonedVoice(voice: NewClonedVoice, options: { maxPerGuild?: number; reservation?: string } = {}): Promise<AddClonedVoiceResult> {
    const db = this.#db;
    const name = tidyName(voice.name);
    const key = nameKey(name);
    const own = options.reservation ?? null;
    return db.transaction((): AddClonedVoiceResult => {
      const now = Date.now();
      const existing = db.get('SELECT * FROM voice_library WHERE guild_id = ? AND name_key = ?', voice.guildId, key);
      if (existing) return { status: 'name-taken', existing: clonedVoiceOf(existing) };
      const held = db.get(
        'SELECT reserved_by FROM clone_name_reservations WHERE guild_id = ? AND name_key = ? AND expires_at > ? AND token IS NOT ?',
        voice.guildId, key, now, own,
      );
      // Another /clone holds the name: the voice it will add is not there yet, so describe the holder.
      if (held) return { status: 'name-taken', existing: reservationHolder(voice.guildId, name, String(held['reserved_by']), now) };
      const max = options.maxPerGuild;
      if (max !== undefined && this.#libraryCount(voice.guildId, now, own) >= max) return { status: 'full', limit: max };
      if (own !== null) db.run('DELETE FROM clone_name_reservations WHERE token = ?', own);
      db.run(
        `INSERT INTO voice_library (guild_id, voice_id, name, name_key, created_by, created_at, clip_seconds)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
        voice.guildId,
        voice.voiceId,
        name,
        key,
        voice.createdBy,
        (voice.createdAt ?? new Date()).getTime(),
        voice.clipSeconds,
      );
      const row = db.get('SELECT * FROM voice_library WHERE guild_id = ? AND voice_id = ?', voice.guildId, voice.voiceId);
      if (!row) throw new Error('cloned voice vanished inside its own transaction');
      return { status: 'added', voice: clonedVoiceOf(row) };
    });
  }

  async getClonedVoice(guildId: string, voiceId: string): Promise<ClonedVoice | undefined> {
    const row = this.#db.get('SELECT * FROM voice_library WHERE guild_id = ? AND voice_id = ?', guildId, voiceId);
    return row && clonedVoiceOf(row);
  }

  async findClonedVoiceByName(guildId: string, name: string): Promise<ClonedVoice | undefined> {
    const row = this.#db.get('SELECT * FROM voice_library WHERE guild_id = ? AND name_key = ?', guildId, nameKey(name));
    return row && clonedVoiceOf(row);
  }

  async listClonedVoices(guildId: string, options: ListOptions = {}): Promise<ClonedVoice[]> {
    return this.#db.all(
      `SELECT * FROM voice_library WHERE guild_id = ?1 AND (name_key LIKE ?2 ESCAPE '\\' OR lower(voice_id) LIKE ?2 ESCAPE '\\')
       ORDER BY name_key LIMIT ?3`,
      guildId,
      likeContains(options.contains ?? ''),
      sqliteLimit(options),
    ).map(clonedVoiceOf);
  }

  async deleteClonedVoice(guildId: string, voiceId: string): Promise<DeletedClonedVoice | undefined> {
    const db = this.#db;
    return db.transaction(() => {
      const row = db.get('SELECT * FROM voice_library WHERE guild_id = ? AND voice_id = ?', guildId, voiceId);
      if (!row) return undefined;
      const presets = db.all('SELECT name FROM presets WHERE guild_id = ? AND voice = ? ORDER BY name_key', guildId, voiceId);
      db.run('DELETE FROM presets WHERE guild_id = ? AND voice = ?', guildId, voiceId);
      const cleared = db.run('UPDATE member_defaults SET voice = NULL WHERE guild_id = ? AND voice = ?', guildId, voiceId);
      db.run('DELETE FROM voice_library WHERE guild_id = ? AND voice_id = ?', guildId, voiceId);
      return { voice: clonedVoiceOf(row), presetsRemoved: presets.map((p) => String(p['name'])), memberDefaultsCleared: cleared };
    });
  }
}
