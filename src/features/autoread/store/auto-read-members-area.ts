import { isFreeVoice, isPresetVoiceId } from '../../../core/voice-catalogue/voices.ts';
import type { BoundedAddResult, MemberPoolVoice, MemberPoolVoices, PoolAddResult } from './auto-read-members-store.ts';
import { Area, guildRows } from '../../../core/store/dialect.ts';

/** At most this many rows of a guild's list are read at once: every list here is bounded far below it. */
const READ_LIMIT = 1000;

/** Auto-read's member rows; a list change takes its guild's lock, so a count and its insert never interleave. */
export class AutoReadMembersArea extends Area {
  /** The guild's pool in the order the voices were added; empty when the managers chose none. */
  async pool(guildId: string): Promise<string[]> {
    const rows = await this.d.db
      .selectFrom('auto_read_voice_pool')
      .select('voice')
      .where('guild_id', '=', guildId)
      .orderBy('added_at')
      .orderBy(this.d.byCodePoint('voice'))
      .limit(READ_LIMIT)
      .execute();
    return rows.map((row) => row.voice);
  }

  /** Adds a voice unless there or full; a clone checked under the library's lock, so a deletion never slips between. */
  async addToPool(guildId: string, voice: string, addedBy: string, max: number): Promise<PoolAddResult> {
    return this.d.transaction(`autoread-pool:${guildId}`, async (trx): Promise<PoolAddResult> => {
      if (!isPresetVoiceId(voice) && !isFreeVoice(voice)) {
        await this.d.lock(trx, `voices:${guildId}`);
        const inLibrary = await trx
          .selectFrom('voice_library')
          .select('voice_id')
          .where('guild_id', '=', guildId)
          .where('voice_id', '=', voice)
          .executeTakeFirst();
        if (!inLibrary) return 'unknown-voice';
      }
      const there = await trx
        .selectFrom('auto_read_voice_pool')
        .select('voice')
        .where('guild_id', '=', guildId)
        .where('voice', '=', voice)
        .executeTakeFirst();
      if (there) return 'already';
      const n = await guildRows(trx, 'auto_read_voice_pool', guildId);
      if (n >= max) return 'full';
      await trx
        .insertInto('auto_read_voice_pool')
        .values({ guild_id: guildId, voice, added_by: addedBy, added_at: Date.now() })
        .execute();
      return 'added';
    });
  }

  /** Takes a voice out of the pool (its members get another when next read); false when it was not there. */
  async removeFromPool(guildId: string, voice: string): Promise<boolean> {
    return this.d.transaction(`autoread-pool:${guildId}`, async (trx) => {
      const removed = await trx
        .deleteFrom('auto_read_voice_pool')
        .where('guild_id', '=', guildId)
        .where('voice', '=', voice)
        .executeTakeFirst();
      await trx
        .deleteFrom('auto_read_member_voices')
        .where('guild_id', '=', guildId)
        .where('voice', '=', voice)
        .execute();
      return removed.numDeletedRows > 0n;
    });
  }

  /** The pool voice this member was given, if any. */
  async memberVoice(guildId: string, userId: string): Promise<string | undefined> {
    const row = await this.d.db
      .selectFrom('auto_read_member_voices')
      .select('voice')
      .where('guild_id', '=', guildId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row?.voice;
  }

  /** How many members were given each voice in this guild (voices nobody has are absent). */
  async voiceCounts(guildId: string): Promise<Map<string, number>> {
    const rows = await this.d.db
      .selectFrom('auto_read_member_voices')
      .select((eb) => ['voice', eb.fn.countAll<number>().as('n')])
      .where('guild_id', '=', guildId)
      .groupBy('voice')
      .limit(READ_LIMIT)
      .execute();
    return new Map(rows.map((row) => [row.voice, Number(row.n)]));
  }

  /** Gives a member a pool voice; past `maxPerGuild` members the oldest assignments go. */
  async assignVoice(guildId: string, userId: string, voice: string, maxPerGuild: number): Promise<void> {
    await this.d.transaction(`autoread-voices:${guildId}`, async (trx) => {
      const values = { voice, assigned_at: Date.now() };
      await trx
        .insertInto('auto_read_member_voices')
        .values({ guild_id: guildId, user_id: userId, ...values })
        .onConflict((oc) => oc.columns(['guild_id', 'user_id']).doUpdateSet(values))
        .execute();
      const n = await guildRows(trx, 'auto_read_member_voices', guildId);
      if (n <= maxPerGuild) return;
      const oldest = await trx
        .selectFrom('auto_read_member_voices')
        .select('user_id')
        .where('guild_id', '=', guildId)
        .where('user_id', '!=', userId)
        .orderBy('assigned_at')
        .orderBy(this.d.byCodePoint('user_id'))
        .limit(n - maxPerGuild)
        .execute();
      if (oldest.length === 0) return;
      await trx
        .deleteFrom('auto_read_member_voices')
        .where('guild_id', '=', guildId)
        .where(
          'user_id',
          'in',
          oldest.map((row) => row.user_id),
        )
        .execute();
    });
  }

  /** The members given a pool voice, oldest first, at most `limit` of them, and how many there are in all. */
  async memberVoices(guildId: string, limit: number): Promise<MemberPoolVoices> {
    const db = this.d.db;
    const [rows, total] = await Promise.all([
      db
        .selectFrom('auto_read_member_voices')
        .select(['user_id', 'voice', 'assigned_at'])
        .where('guild_id', '=', guildId)
        .orderBy('assigned_at')
        .orderBy(this.d.byCodePoint('user_id'))
        .limit(Math.min(limit, READ_LIMIT))
        .execute(),
      guildRows(db, 'auto_read_member_voices', guildId),
    ]);
    const members = rows.map((row): MemberPoolVoice => ({
      userId: row.user_id,
      voice: row.voice,
      assignedAt: new Date(row.assigned_at),
    }));
    return { members, total };
  }

  /** Auto-read stops reading this member's messages, unless they are ignored already or the list holds `max`. */
  async ignore(guildId: string, userId: string, ignoredBy: string, max: number): Promise<BoundedAddResult> {
    return this.d.transaction(`autoread-ignored:${guildId}`, async (trx) => {
      const there = await trx
        .selectFrom('auto_read_ignored')
        .select('user_id')
        .where('guild_id', '=', guildId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      if (there) return 'already';
      const n = await guildRows(trx, 'auto_read_ignored', guildId);
      if (n >= max) return 'full';
      await trx
        .insertInto('auto_read_ignored')
        .values({ guild_id: guildId, user_id: userId, ignored_by: ignoredBy, ignored_at: Date.now() })
        .execute();
      return 'added';
    });
  }

  /** Auto-read reads this member again; false when they were not ignored. */
  async unignore(guildId: string, userId: string): Promise<boolean> {
    const removed = await this.d.db
      .deleteFrom('auto_read_ignored')
      .where('guild_id', '=', guildId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return removed.numDeletedRows > 0n;
  }

  /** The members auto-read does not read, in the order they were ignored. */
  async ignored(guildId: string): Promise<string[]> {
    const rows = await this.d.db
      .selectFrom('auto_read_ignored')
      .select('user_id')
      .where('guild_id', '=', guildId)
      .orderBy('ignored_at')
      .orderBy(this.d.byCodePoint('user_id'))
      .limit(READ_LIMIT)
      .execute();
    return rows.map((row) => row.user_id);
  }
}
