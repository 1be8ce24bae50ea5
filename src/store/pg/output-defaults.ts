import { outputDefaultsOf } from '../rows.ts';
import type { OutputDefaults, OutputDefaultsStore, OutsideVoiceOutput } from '../types.ts';
import type { PgDb } from './db.ts';

/** The server's and members' output defaults for replies outside voice, on PostgreSQL. */
export class PgOutputDefaults implements OutputDefaultsStore {
  readonly #db: PgDb;

  constructor(db: PgDb) {
    this.#db = db;
  }

  async getOutputDefaults(guildId: string, userId: string): Promise<OutputDefaults> {
    return outputDefaultsOf(await this.#db.get(
      `SELECT (SELECT output FROM guild_output_defaults WHERE guild_id = $1) AS server,
              (SELECT output FROM member_output_defaults WHERE guild_id = $1 AND user_id = $2) AS member`,
      [guildId, userId],
    ));
  }

  async setServerOutputDefault(guildId: string, output: OutsideVoiceOutput | null, updatedBy: string): Promise<void> {
    if (output === null) {
      await this.#db.run('DELETE FROM guild_output_defaults WHERE guild_id = $1', [guildId]);
      return;
    }
    await this.#db.run(
      `INSERT INTO guild_output_defaults (guild_id, output, updated_by, updated_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (guild_id) DO UPDATE SET output = excluded.output, updated_by = excluded.updated_by, updated_at = excluded.updated_at`,
      [guildId, output, updatedBy, Date.now()],
    );
  }

  async setMemberOutputDefault(guildId: string, userId: string, output: OutsideVoiceOutput | null): Promise<void> {
    if (output === null) {
      await this.#db.run('DELETE FROM member_output_defaults WHERE guild_id = $1 AND user_id = $2', [guildId, userId]);
      return;
    }
    await this.#db.run(
      `INSERT INTO member_output_defaults (guild_id, user_id, output, updated_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (guild_id, user_id) DO UPDATE SET output = excluded.output, updated_at = excluded.updated_at`,
      [guildId, userId, output, Date.now()],
    );
  }
}
