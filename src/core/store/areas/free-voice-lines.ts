// How many lines the free voice spoke, per server and month (table free_voice_lines): `store.freeVoiceLines`, for
// /usage. Counts only, no member and no text: the free voice costs nothing, so nothing else is kept of it.
import { sql } from 'kysely';
import { Area } from '../dialect.ts';
import type { FreeSpeaker, FreeVoiceCause, FreeVoiceLines } from '../free-voice-lines-store.ts';

/** The row's `cause`, with an engine's name after a colon (`chosen:voicevox`); eSpeak NG's is the bare cause. */
type StoredCause = FreeVoiceCause | `${FreeVoiceCause}:${Exclude<FreeSpeaker, 'espeak'>}`;

export class FreeVoiceLinesArea extends Area {
  /** `lines` more spoken in `month` (YYYY-MM) for `guildId`, for `cause`, by `speaker`: one write. */
  async add(
    guildId: string,
    month: string,
    cause: FreeVoiceCause,
    speaker: FreeSpeaker = 'espeak',
    lines = 1,
  ): Promise<void> {
    const stored: StoredCause = speaker === 'espeak' ? cause : `${cause}:${speaker}`;
    await this.d.db
      .insertInto('free_voice_lines')
      .values({ guild_id: guildId, month, cause: stored, lines })
      .onConflict((oc) =>
        oc.columns(['guild_id', 'month', 'cause']).doUpdateSet({ lines: sql`free_voice_lines.lines + ${lines}` }),
      )
      .execute();
  }

  /** The lines of `month` for `guildId`. */
  async month(month: string, guildId: string): Promise<FreeVoiceLines> {
    const query = this.d.db
      .selectFrom('free_voice_lines')
      .select(['cause', (eb) => eb.fn.sum<number | string>('lines').as('lines')])
      .where('month', '=', month)
      .where('guild_id', '=', guildId)
      .groupBy('cause');
    const counts = { chosen: 0, fallback: 0, engines: { voicevox: 0, speech: 0 } };
    for (const row of await query.execute()) {
      const [cause, engine] = row.cause.split(':') as [FreeVoiceCause, 'voicevox' | 'speech' | undefined];
      if (cause !== 'chosen' && cause !== 'fallback') continue;
      counts[cause] += Number(row.lines);
      if (engine === 'voicevox' || engine === 'speech') counts.engines[engine] += Number(row.lines);
    }
    return counts;
  }
}
