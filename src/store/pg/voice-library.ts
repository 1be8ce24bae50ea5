import { randomUUID } from 'node:crypto';
import { likeContains, nameKey, tidyName } from '../names.ts';
import { clonedVoiceOf, num, orNull, reservationHolder } from '../rows.ts';
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
import type { PgDb, PgQueries } from './db.ts';

/** Cloned voices and clone name reservations on PostgreSQL; a guild's library changes under the lock `voices:<guild>`. */
export class PgVoiceLibrary implements VoiceLibraryStore {
  readonly #db: PgDb;

  constructor(db: PgDb) {
    this.#db = db;
  }

  /** Voices in the guild plus names others hold for a clone under way (not `ownToken`'s). */
  async #libraryCount(db: PgQueries, guildId: string, now: number, ownToken: string | null): Promise<number> {
    const row = await db.get(
      `SELECT (SELECT count(*) FROM voice_library WHERE guild_id = $1)
            + (SELECT count(*) FROM clone_name_reservations WHERE guild_id = $1 AND expires_at > $2 AND token IS DISTINCT FROM $3) AS n`,
      [guildId, now, ownToken],
    );
    return num(row?.['n']) ?? 0;
  }

  async reserveClonedVoiceName(reservation: NewNameReservation): Promise<NameReservationResult> {
    const key = nameKey(tidyName(reservation.name));
    const now = (reservation.now ?? new Date()).getTime();
    return this.#db.transaction(`voices:${reservation.guildId}`, async (db): Promise<NameReservationResult> => {
      await db.run('DELETE FROM clone_name_reservations WHERE expires_at <= $1', [now]);
      if (await db.get('SELECT 1 AS x FROM voice_library WHERE guild_id = $1 AND name_key = $2', [reservation.guildId, key])) return { status: 'name-taken' };
      if (await db.get('SELECT 1 AS x FROM clone_name_reservations WHERE guild_id = $1 AND name_key = $2', [reservation.guildId, key])) return { status: 'name-taken' };
      const max = reservation.maxPerGuild;
      if (max !== undefined && (await this.#libraryCount(db, reservation.guildId, now, null)) >= max) return { status: 'full', limit: max };
      const token = randomUUID();
      await db.run(
        'INSERT INTO clone_name_reservations (guild_id, name_key, token, reserved_by, expires_at) VALUES ($1, $2, $3, $4, $5)',
        [reservation.guildId, key, token, reservation.reservedBy, now + reservation.ttlMs],
      );
      return { status: 'reserved', token };
    });
  }

  async releaseClonedVoiceName(token: string): Promise<void> {
    await this.#db.run('DELETE FROM clone_name_reservations WHERE token = $1', [token]);
  }

  async addClonedVoice(voice: NewClonedVoice, options: { maxPerGuild?: number; reservation?: string } = {}): Promise<AddClonedVoiceResult> {
    const name = tidyName(voice.name);
    const key = nameKey(name);
    const own = orNull(options.reservation);
    return this.#db.transaction(`voices:${voice.guildId}`, async (db): Promise<AddClonedVoiceResult> => {
      const now = Date.now();
      const existing = await db.get('SELECT * FROM voice_library WHERE guild_id = $1 AND name_key = $2', [voice.guildId, key]);
      if (existing) return { status: 'name-taken', existing: clonedVoiceOf(existing) };
      const held = await db.get(
        'SELECT reserved_by FROM clone_name_reservations WHERE guild_id = $1 AND name_key = $2 AND expires_at > $3 AND token IS DISTINCT FROM $4',
        [voice.guildId, key, now, own],
      );
      if (held) return { status: 'name-taken', existing: reservationHolder(voice.guildId, name, String(held['reserved_by']), now) };
      const max = options.maxPerGuild;
      if (max !== undefined && (await this.#libraryCount(db, voice.guildId, now, own)) >= max) return { status: 'full', limit: max };
      if (own !== null) await db.run('DELETE FROM clone_name_reservations WHERE token = $1', [own]);
      const row = await db.get(
        `INSERT INTO voice_library (guild_id, voice_id, name, name_key, created_by, created_at, clip_seconds)
         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *`,
        [voice.guildId, voice.voiceId, name, key, voice.createdBy, (voice.createdAt ?? new Date()).getTime(), voice.clipSeconds],
      );
      if (!row) throw new Error('cloned voice vanished inside its own transaction');
      return { status: 'added', voice: clonedVoiceOf(row) };
    });
  }

  async getClonedVoice(guildId: string, voiceId: string): Promise<ClonedVoice | undefined> {
    const row = await this.#db.get('SELECT * FROM voice_library WHERE guild_id = $1 AND voice_id = $2', [guildId, voiceId]);
    return row && clonedVoiceOf(row);
  }

  async findClonedVoiceByName(guildId: string, name: string): Promise<ClonedVoice | undefined> {
    const row = await this.#db.get('SELECT * FROM voice_library WHERE guild_id = $1 AND name_key = $2', [guildId, nameKey(name)]);
    return row && clonedVoiceOf(row);
  }

  async listClonedVoices(guildId: string, options: ListOptions = {}): Promise<ClonedVoice[]> {
    const rows = await this.#db.all(
      `SELECT * FROM voice_library WHERE guild_id = $1 AND (name_key LIKE $2 ESCAPE '\\' OR lower(voice_id) LIKE $2 ESCAPE '\\')
       ORDER BY name_key COLLATE "C" LIMIT $3`,
      [guildId, likeContains(options.contains ?? ''), orNull(options.limit)],
    );
    return rows.map(clonedVoiceOf);
  }

  async deleteClonedVoice(guildId: string, voiceId: string): Promise<DeletedClonedVoice | undefined> {
    return this.#db.transaction(`voices:${guildId}`, async (db) => {
      const row = await db.get('SELECT * FROM voice_library WHERE guild_id = $1 AND voice_id = $2', [guildId, voiceId]);
      if (!row) return undefined;
      const presets = await db.all('DELETE FROM presets WHERE guild_id = $1 AND voice = $2 RETURNING name, name_key', [guildId, voiceId]);
      const cleared = await db.run('UPDATE member_defaults SET voice = NULL WHERE guild_id = $1 AND voice = $2', [guildId, voiceId]);
      await db.run('DELETE FROM voice_library WHERE guild_id = $1 AND voice_id = $2', [guildId, voiceId]);
      const names = presets.sort((a, b) => (String(a['name_key']) < String(b['name_key']) ? -1 : 1)).map((p) => String(p['name']));
      return { voice: clonedVoiceOf(row), presetsRemoved: names, memberDefaultsCleared: cleared };
    });
  }
}
