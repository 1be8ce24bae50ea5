// The managers' dictionary: every change through the store's dictionary area and to the reader, as /dictionary's.
import type { Hono } from 'hono';
import { z } from 'zod';
import {
  MAX_ENTRIES,
  MAX_IMPORT_BYTES,
  MAX_PATTERN_LENGTH,
  MAX_READING_LENGTH,
  describeDictionaryProblem,
  exportDictionary,
  readDictionaryFile,
  isPattern,
  dictionaryOf,
  speakMessageWords,
  type DictionaryProblem,
  type EntryName,
} from '../autoread/index-dictionary.ts';
import { countCharacters } from '../../core/characters.ts';
import type { Ctx, DashboardEnv, RouteDeps } from './dashboard-types.ts';
import { audit, BadForm, form, guard, managersOnly, pageContext, refusal, serverAccess, userOf } from './guards.ts';
import { ENTRIES_PER_PAGE } from './limits.ts';
import { dictionaryPage, type DictionaryView } from './pages/dictionary-page.ts';
import type { PageContext } from './pages/layout.ts';
import type { SampleResult, Samples } from './samples.ts';
import { t } from './strings.ts';

// Longer than the rules allow, as /dictionary's options: a too-long word is answered by the rule, which names it.
const Name = z.object({
  kind: z.enum(['word', 'pattern']).default('word'),
  word: z
    .string()
    .min(1)
    .max(MAX_PATTERN_LENGTH * 2),
});
const Add = Name.extend({ reading: z.string().max(MAX_READING_LENGTH * 2) });
const Move = Name.extend({ position: z.coerce.number().int().min(1).max(MAX_ENTRIES) });
const Try = z.object({ text: z.string().min(1).max(2000) });
const Hear = Try.extend({ paid: z.coerce.number().int().min(0).max(1_000_000).optional() });
const Search = z.object({
  q: z.string().max(100).default(''),
  page: z.coerce.number().int().min(1).max(1000).optional().catch(undefined),
});

const nameOf = ({ kind, word }: z.infer<typeof Name>): EntryName => (kind === 'pattern' ? { pattern: word } : word);

export function addDictionaryRoutes(app: Hono<DashboardEnv>, deps: RouteDeps & { samples: Samples }): void {
  const { store, bot, logger, samples } = deps;
  const base = '/servers/:guildId/dictionary';
  guard(app, base, serverAccess(bot), managersOnly);

  /** The page as it stands now, with a notice and what was tried. */
  async function show(
    c: Ctx,
    notice?: PageContext['notice'],
    tried?: DictionaryView['tried'],
    status: 200 | 400 | 404 | 422 = 200,
    sample?: SampleResult,
  ) {
    const server = c.get('membership');
    const records = await store.dictionary.listWithChanges(server.guildId);
    const search = Search.safeParse(c.req.query()).data;
    const query = search?.q.trim() ?? '';
    const needle = query.toLowerCase();
    const matching = records
      .map((record, index) => ({ record, position: index + 1 }))
      .filter(({ record }) => {
        if (needle === '') return true;
        const name = isPattern(record.entry) ? record.entry.pattern : record.entry.word;
        return name.toLowerCase().includes(needle) || record.entry.reading.toLowerCase().includes(needle);
      });
    const pages = Math.max(1, Math.ceil(matching.length / ENTRIES_PER_PAGE));
    const page = Math.min(search?.page ?? 1, pages);
    const rows = matching.slice((page - 1) * ENTRIES_PER_PAGE, page * ENTRIES_PER_PAGE);
    const names = new Map<string, string>();
    for (const { record } of rows) {
      const name = bot.displayName(server.guildId, record.updatedBy);
      if (name !== undefined) names.set(record.updatedBy, name);
    }
    return c.html(
      dictionaryPage(
        pageContext(c, notice),
        server,
        { rows, matching: matching.length, page, pages, query, names, tried, sample },
        records.length,
      ),
      status,
    );
  }

  const ok = (text: string) => ({ kind: 'ok' as const, text });
  const refused = (c: Ctx, problem: DictionaryProblem) => ({
    kind: 'error' as const,
    text: t(c.get('locale'), 'dashboard.refused', { reason: describeDictionaryProblem(c.get('locale'), problem) }),
  });
  const who = (c: Ctx) => ({ userId: userOf(c), guildId: c.get('membership').guildId });
  const changed = async (c: Ctx, action: string, counts?: Record<string, number>) => {
    await bot.autoreadChanged(c.get('membership').guildId);
    audit(logger, action, who(c), counts);
  };
  const unknown = (c: Ctx, word: string) =>
    show(c, { kind: 'error', text: t(c.get('locale'), 'dashboard.dictionary.unknown', { word }) }, undefined, 404);

  app.get(base, (c) => show(c));

  app.post(`${base}/add`, async (c) => {
    const given = await form(c, Add);
    const result = await store.dictionary.put(c.get('membership').guildId, nameOf(given), given.reading, who(c).userId);
    if (result.status === 'refused') return show(c, refused(c, result.problem), undefined, 422);
    await changed(c, `dictionary.${result.status === 'added' ? 'add' : 'edit'}`);
    const key = result.status === 'added' ? 'dashboard.dictionary.added' : 'dashboard.dictionary.replaced';
    return show(c, ok(t(c.get('locale'), key, { word: given.word })));
  });

  app.post(`${base}/remove`, async (c) => {
    const given = await form(c, Name);
    const removed = await store.dictionary.remove(c.get('membership').guildId, nameOf(given));
    if (removed === undefined) return unknown(c, given.word);
    await changed(c, 'dictionary.remove');
    return show(c, ok(t(c.get('locale'), 'dictionary.removed', { word: given.word })));
  });

  app.post(`${base}/move`, async (c) => {
    const given = await form(c, Move);
    const result = await store.dictionary.move(
      c.get('membership').guildId,
      nameOf(given),
      given.position,
      who(c).userId,
    );
    if (result.status === 'unknown') return unknown(c, given.word);
    await changed(c, 'dictionary.move', { position: result.position });
    return show(
      c,
      ok(
        t(c.get('locale'), 'dashboard.dictionary.moved', {
          word: given.word,
          position: result.position,
          count: result.entries.length,
        }),
      ),
    );
  });

  app.get(`${base}/export`, async (c) => {
    const entries = await store.dictionary.list(c.get('membership').guildId);
    c.header('Content-Disposition', 'attachment; filename="dictionary.json"');
    return c.body(exportDictionary(entries), 200, { 'Content-Type': 'application/json; charset=utf-8' });
  });

  app.post(`${base}/import`, async (c) => {
    const body = await c.req.parseBody();
    const file = body['file'];
    if (!(file instanceof File)) throw new BadForm('form');
    if (file.size > MAX_IMPORT_BYTES) return refusal(c, 413, 'dashboard.tooLarge');
    const parsed = readDictionaryFile(await file.text());
    if (!parsed.ok) return show(c, refused(c, parsed.problem), undefined, 422);
    const result = await store.dictionary.replace(c.get('membership').guildId, parsed.value, who(c).userId);
    if (result.status === 'refused') return show(c, refused(c, result.problem), undefined, 422);
    await changed(c, 'dictionary.import', { entries: result.entries.length });
    return show(c, ok(t(c.get('locale'), 'dashboard.dictionary.imported', { count: result.entries.length })));
  });

  /** The text as auto-read would read it here: cleaned up and through the dictionary (patterns on the job thread). */
  async function reading(c: Ctx, text: string): Promise<DictionaryView['tried'] & object> {
    const server = c.get('membership');
    const [entries, state] = await Promise.all([
      store.dictionary.list(server.guildId),
      store.autoRead.get(server.guildId),
    ]);
    const said = await speakMessageWords(
      { content: text, cleanup: {} },
      {
        language: server.guildLanguage,
        maxLength: state.settings.maxLength,
        dictionary: dictionaryOf(server.guildId, entries),
      },
    );
    return { text, said, chars: countCharacters(said) };
  }

  // Changes nothing, but runs the dictionary: a POST, under the same per-session limit.
  app.post(`${base}/try`, async (c) => {
    const given = await form(c, Try);
    return show(c, undefined, await reading(c, given.text));
  });

  // Hearing it in the manager's own voice: free at once, else its price first (samples.ts).
  app.post(`${base}/hear`, async (c) => {
    const given = await form(c, Hear);
    const tried = await reading(c, given.text);
    if (tried.said === '') return show(c, undefined, tried);
    const server = c.get('membership');
    const sample = await samples.sample({
      guildId: server.guildId,
      userId: who(c).userId,
      guildLanguage: server.guildLanguage,
      text: tried.said,
      paidCharacters: given.paid,
    });
    if (sample.kind === 'audio') audit(logger, 'sample', who(c), { characters: sample.characters });
    return show(c, undefined, tried, 200, sample);
  });
}
