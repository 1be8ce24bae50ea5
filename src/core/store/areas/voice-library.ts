import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { Area, containsKey, orNull, type Db, type Dialect, type Row } from '../dialect.ts';
import { nameKey, tidyName } from '../names.ts';
import { shareRefusal } from '../member-share.ts';
import type { ListOptions } from '../common-types.ts';
import type { Database } from '../schema.ts';
import type {
  AddClonedVoiceResult,
  ClonedVoice,
  DeletedClonedVoice,
  NameReservationResult,
  NewClonedVoice,
  NewNameReservation,
} from '../voice-library-store.ts';

export const clonedVoiceOf = (row: Row<'voice_library'>): ClonedVoice => ({
  guildId: row.guild_id,
  name: row.name,
  voiceId: row.voice_id,
  createdBy: row.created_by,
  createdAt: new Date(row.created_at),
  clipSeconds: row.clip_seconds,
});

/** Code point order (the SQL's "ORDER BY name_key" on both backends). */
const byCodePoint = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b));

/** A feature's table whose rows name a cloned voice: deleting the voice deletes them in the same transaction. */
export type VoiceRows = {
  [T in keyof Database]: {
    table: Database[T] extends { guild_id: unknown } ? T : never;
    voiceColumn: keyof Database[T] & string;
  };
}[keyof Database];

/** A guild's cloned voices and held names (`store.voiceLibrary`); deleting one reaches the presets too. */
export class VoiceLibraryArea extends Area {
  /** The features' rows that name a cloned voice, gone with it. */
  readonly #voiceRows: readonly VoiceRows[];

  constructor(dialect: Dialect, voiceRows: readonly VoiceRows[]) {
    super(dialect);
    this.#voiceRows = voiceRows;
  }

  /** Voices plus names held for clones under way (not `ownToken`'s); with `userId`, that member's only. */
  async #libraryCount(
    trx: Db,
    guildId: string,
    now: number,
    ownToken: string | null,
    userId?: string,
  ): Promise<number> {
    const row = await trx
      .selectNoFrom((eb) => [
        eb
          .selectFrom('voice_library')
          .select(eb.fn.countAll<number>().as('n'))
          .where('guild_id', '=', guildId)
          .$if(userId !== undefined, (q) => q.where('created_by', '=', userId ?? ''))
          .as('voices'),
        eb
          .selectFrom('clone_name_reservations')
          .select(eb.fn.countAll<number>().as('n'))
          .where('guild_id', '=', guildId)
          .where('expires_at', '>', now)
          .$if(ownToken !== null, (q) => q.where('token', '<>', ownToken ?? ''))
          .$if(userId !== undefined, (q) => q.where('reserved_by', '=', userId ?? ''))
          .as('held'),
      ])
      .executeTakeFirstOrThrow();
    return Number(row.voices ?? 0) + Number(row.held ?? 0);
  }

  /** Holds a name for a /clone before paying: refused if taken, full, or past the member's share; expires after `ttlMs`. */
  async reserveName(reservation: NewNameReservation): Promise<NameReservationResult> {
    const { guildId } = reservation;
    const key = nameKey(tidyName(reservation.name));
    const now = (reservation.now ?? new Date()).getTime();
    return this.d.transaction(`voices:${guildId}`, async (trx): Promise<NameReservationResult> => {
      await trx.deleteFrom('clone_name_reservations').where('expires_at', '<=', now).execute();
      const taken = await trx
        .selectNoFrom((eb) => [
          eb
            .exists(
              eb
                .selectFrom('voice_library')
                .select(sql.lit(1).as('x'))
                .where('guild_id', '=', guildId)
                .where('name_key', '=', key),
            )
            .as('voice'),
          eb
            .exists(
              eb
                .selectFrom('clone_name_reservations')
                .select(sql.lit(1).as('x'))
                .where('guild_id', '=', guildId)
                .where('name_key', '=', key),
            )
            .as('held'),
        ])
        .executeTakeFirstOrThrow();
      if (Boolean(taken.voice) || Boolean(taken.held)) return { status: 'name-taken' };
      const max = reservation.maxPerGuild;
      if (max !== undefined) {
        const total = await this.#libraryCount(trx, guildId, now, null);
        const manager = reservation.manager ?? true;
        const mine = manager ? 0 : await this.#libraryCount(trx, guildId, now, null, reservation.reservedBy);
        const refused = shareRefusal({ total, mine, cap: max, manager });
        if (refused?.problem === 'full') return { status: 'full', limit: max };
        if (refused?.problem === 'member-share') return { status: 'member-share', share: refused.share, limit: max };
      }
      const token = randomUUID();
      await trx
        .insertInto('clone_name_reservations')
        .values({
          guild_id: guildId,
          name_key: key,
          token,
          reserved_by: reservation.reservedBy,
          expires_at: now + reservation.ttlMs,
        })
        .execute();
      return { status: 'reserved', token };
    });
  }

  /** Gives a reserved name back (the paid call failed); unknown tokens are ignored. */
  async releaseName(token: string): Promise<void> {
    await this.d.db.deleteFrom('clone_name_reservations').where('token', '=', token).execute();
  }

  /** Adds a voice; with `reservation`, its own reservation does not count against it and is removed with the insert. */
  async add(
    voice: NewClonedVoice,
    options: { maxPerGuild?: number; reservation?: string } = {},
  ): Promise<AddClonedVoiceResult> {
    const { guildId } = voice;
    const name = tidyName(voice.name);
    const key = nameKey(name);
    const own = orNull(options.reservation);
    return this.d.transaction(`voices:${guildId}`, async (trx): Promise<AddClonedVoiceResult> => {
      const now = Date.now();
      const existing = await trx
        .selectFrom('voice_library')
        .selectAll()
        .where('guild_id', '=', guildId)
        .where('name_key', '=', key)
        .executeTakeFirst();
      if (existing) return { status: 'name-taken', existing: clonedVoiceOf(existing) };
      const held = await trx
        .selectFrom('clone_name_reservations')
        .select('reserved_by')
        .where('guild_id', '=', guildId)
        .where('name_key', '=', key)
        .where('expires_at', '>', now)
        .$if(own !== null, (q) => q.where('token', '<>', own ?? ''))
        .executeTakeFirst();
      // Another /clone holds the name: the voice it will add is not there yet, so describe the holder.
      if (held)
        return {
          status: 'name-taken',
          existing: {
            guildId,
            name,
            voiceId: '',
            createdBy: held.reserved_by,
            createdAt: new Date(now),
            clipSeconds: 0,
          },
        };
      const max = options.maxPerGuild;
      if (max !== undefined && (await this.#libraryCount(trx, guildId, now, own)) >= max)
        return { status: 'full', limit: max };
      if (own !== null) await trx.deleteFrom('clone_name_reservations').where('token', '=', own).execute();
      const row = await trx
        .insertInto('voice_library')
        .values({
          guild_id: guildId,
          voice_id: voice.voiceId,
          name,
          name_key: key,
          created_by: voice.createdBy,
          created_at: (voice.createdAt ?? new Date()).getTime(),
          clip_seconds: voice.clipSeconds,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return { status: 'added', voice: clonedVoiceOf(row) };
    });
  }

  /** The guild's cloned voice with this ID; undefined for another guild's, so it cannot be borrowed. */
  async get(guildId: string, voiceId: string): Promise<ClonedVoice | undefined> {
    const row = await this.d.db
      .selectFrom('voice_library')
      .selectAll()
      .where('guild_id', '=', guildId)
      .where('voice_id', '=', voiceId)
      .executeTakeFirst();
    return row && clonedVoiceOf(row);
  }

  async findByName(guildId: string, name: string): Promise<ClonedVoice | undefined> {
    const row = await this.d.db
      .selectFrom('voice_library')
      .selectAll()
      .where('guild_id', '=', guildId)
      .where('name_key', '=', nameKey(name))
      .executeTakeFirst();
    return row && clonedVoiceOf(row);
  }

  async list(guildId: string, options: ListOptions = {}): Promise<ClonedVoice[]> {
    const { contains, limit } = options;
    let query = this.d.db
      .selectFrom('voice_library')
      .selectAll()
      .where('guild_id', '=', guildId)
      .where(containsKey(sql<string>`name_key || ' ' || lower(voice_id)`, contains));
    if (limit !== undefined) query = query.limit(limit);
    return (await query.orderBy(this.d.byCodePoint('name_key')).execute()).map(clonedVoiceOf);
  }

  /** Removes a cloned voice and, in the same transaction, what speaks with it (see DeletedClonedVoice). */
  async delete(guildId: string, voiceId: string): Promise<DeletedClonedVoice | undefined> {
    return this.d.transaction(`voices:${guildId}`, async (trx) => {
      const row = await trx
        .selectFrom('voice_library')
        .selectAll()
        .where('guild_id', '=', guildId)
        .where('voice_id', '=', voiceId)
        .executeTakeFirst();
      if (!row) return undefined;
      const presets = await trx
        .deleteFrom('presets')
        .where('guild_id', '=', guildId)
        .where('voice', '=', voiceId)
        .returning(['name', 'name_key'])
        .execute();
      const cleared = await trx
        .updateTable('member_defaults')
        .set({ voice: null, voice_deleted: row.name })
        .where('guild_id', '=', guildId)
        .where('voice', '=', voiceId)
        .executeTakeFirst();
      // The features' rows that speak with it go too (auto-read's pool and the members it gave it to).
      for (const rows of this.#voiceRows) {
        await sql`DELETE FROM ${sql.table(rows.table)} WHERE guild_id = ${guildId} AND ${sql.ref(rows.voiceColumn)} = ${voiceId}`.execute(
          trx,
        );
      }
      await trx.deleteFrom('voice_library').where('guild_id', '=', guildId).where('voice_id', '=', voiceId).execute();
      const sounds = await trx
        .deleteFrom('soundboard_sounds')
        .where('guild_id', '=', guildId)
        .where('voice_id', '=', voiceId)
        .returning('sound_id')
        .execute();
      const presetsRemoved = presets.sort((a, b) => byCodePoint(a.name_key, b.name_key)).map((p) => p.name);
      return {
        voice: clonedVoiceOf(row),
        presetsRemoved,
        memberDefaultsCleared: Number(cleared.numUpdatedRows),
        soundsSaved: sounds.map((s) => s.sound_id),
      };
    });
  }

  /** Notes a sound saved from a cloned voice (removed with it); false when the voice is gone. Keeps MAX_SOUNDS_PER_GUILD. */
  async recordSound(guildId: string, voiceId: string, soundId: string, at = new Date()): Promise<boolean> {
    return this.d.transaction(`voices:${guildId}`, async (trx) => {
      const inLibrary = await trx
        .selectFrom('voice_library')
        .select('voice_id')
        .where('guild_id', '=', guildId)
        .where('voice_id', '=', voiceId)
        .executeTakeFirst();
      if (!inLibrary) return false;
      await trx
        .insertInto('soundboard_sounds')
        .values({ sound_id: soundId, guild_id: guildId, voice_id: voiceId, saved_at: at.getTime() })
        .onConflict((oc) => oc.column('sound_id').doNothing())
        .execute();
      const kept = trx
        .selectFrom('soundboard_sounds')
        .select('sound_id')
        .where('guild_id', '=', guildId)
        .orderBy('saved_at', 'desc')
        .orderBy('sound_id', 'desc')
        .limit(MAX_SOUNDS_PER_GUILD);
      await trx
        .deleteFrom('soundboard_sounds')
        .where('guild_id', '=', guildId)
        .where('sound_id', 'not in', kept)
        .execute();
      return true;
    });
  }

  /** Every soundboard sound saved from one of the guild's cloned voices (a whole guild's deletion removes them). */
  async savedSounds(guildId: string): Promise<string[]> {
    const rows = await this.d.db
      .selectFrom('soundboard_sounds')
      .select('sound_id')
      .where('guild_id', '=', guildId)
      .orderBy('saved_at')
      .execute();
    return rows.map((r) => r.sound_id);
  }
}

/** Sounds noted per guild; Discord's soundboard holds at most 48, so older rows name sounds long gone. */
const MAX_SOUNDS_PER_GUILD = 100;
