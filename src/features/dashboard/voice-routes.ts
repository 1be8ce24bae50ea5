// Every member's voices page: each voice heard through samples.ts and used as /myvoice, /preset default, /autoread
// voice_add and /voices delete do.
import { ESPEAK_VOICES, languageName } from '../../core/voice-catalogue/voices.ts';
import { usableVoice } from '../../core/sourcing/voice-choice.ts';
import type { Hono } from 'hono';
import { z } from 'zod';
import { VOICE_POOL_MAX } from '../autoread/index-voices.ts';
import { MAX_PRESETS_PER_GUILD } from '../presets/index.ts';
import { deleteClonedVoice } from '../privacy/index.ts';
import { wentWithIt } from '../voices/index.ts';
import { UserError } from '../../core/interactions/failures.ts';
import { SpeechInputError } from '../../core/order-errors.ts';
import { isValidName, NAME_MAX_LENGTH, tidyName } from '../../core/store/names.ts';
import type { Ctx, DashboardEnv, RouteDeps } from './dashboard-types.ts';
import { audit, form, guard, pageContext, refusal, refusedNotice, serverAccess, userOf } from './guards.ts';
import type { PageContext } from './pages/layout.ts';
import { VOICES_PER_PAGE } from './limits.ts';
import { voicesPage, type HeardSample, type VoiceFilter, type VoiceRow } from './pages/voices-page.ts';
import type { Samples } from './samples.ts';
import { t } from './strings.ts';

/** Cloned voices and presets listed at most (a server keeps far fewer: /clone and /preset bound them). */
const MAX_LISTED = 200;

/** The languages a sample sentence is written in; any other voice says the server's language's, else English's. */
const SAMPLE_LOCALES: Record<string, string> = { en: 'en-US', ko: 'ko', ja: 'ja' };

const Filter = z.object({
  language: z
    .string()
    .regex(/^[a-z]{2,3}(-[A-Za-z]{2,4})?$/)
    .optional()
    .catch(undefined),
  gender: z.enum(['f', 'm']).optional().catch(undefined),
  q: z.string().max(60).optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(1000).optional().catch(undefined),
});

/** The member's own voice and the server's default first, then the catalogue's order. */
const firstMine = (row: VoiceRow) => (row.mine ? 0 : row.isDefault ? 1 : 2);
const Voice = z.object({ voice: z.string().min(1).max(120) });
const Heard = z.union([
  z.object({ voice: z.string().min(1).max(120), paid: z.coerce.number().int().min(0).max(1_000_000).optional() }),
  z.object({ preset: z.string().min(1).max(120), paid: z.coerce.number().int().min(0).max(1_000_000).optional() }),
]);
const Preset = z.object({ preset: z.string().min(1).max(120) });

export function addVoiceRoutes(app: Hono<DashboardEnv>, deps: RouteDeps & { samples: Samples }): void {
  const { store, bot, logger, samples } = deps;
  const base = '/servers/:guildId/voices';
  guard(app, base, serverAccess(bot));

  /** Every voice here, with what this member may do with each. */
  async function rows(c: Ctx): Promise<VoiceRow[]> {
    const server = c.get('membership');
    const userId = userOf(c);
    const [cloned, presets, current, pool, mine] = await Promise.all([
      store.voiceLibrary.list(server.guildId, { limit: MAX_LISTED }),
      store.presets.list(server.guildId, { limit: MAX_LISTED }),
      store.presets.getDefault(server.guildId),
      store.autoReadMembers.pool(server.guildId),
      store.memberDefaults.get(server.guildId, userId),
    ]);
    const pooled = new Set(pool);
    const catalogue = new Map(bot.voices.presets.map((voice) => [voice.id, voice]));
    const voice = (id: string, name: string, kind: VoiceRow['kind'], language?: string, gender?: 'f' | 'm') => ({
      kind,
      id,
      name,
      language,
      gender,
      mine: mine?.voice === id,
      inPool: pooled.has(id),
      isDefault: false,
      deletable: false,
    });
    return [
      ...bot.voices.presets.map((v) => ({
        ...voice(v.id, v.id, 'preset-voice', v.language, v.gender),
        detail: v.character,
      })),
      ...(bot.voices.free
        ? ESPEAK_VOICES.map((v) => ({
            ...voice(v.id, v.id, 'free', v.language, v.id.endsWith('-m') ? 'm' : 'f'),
            detail: t(c.get('locale'), 'dashboard.voices.freeDetail'),
          }))
        : []),
      // The owner's engines' voices: free, their name and the credit their terms ask for (VOICEVOX:<speaker>).
      ...bot.voices.engines().map((v) => ({
        ...voice(v.id, v.name, 'free', v.language),
        detail:
          v.credit === undefined
            ? t(c.get('locale'), 'dashboard.voices.engineDetail')
            : `${v.credit} · ${t(c.get('locale'), 'dashboard.voices.engineDetail')}`,
      })),
      ...cloned.map((v) => ({
        ...voice(v.voiceId, v.name, 'cloned'),
        detail: t(c.get('locale'), 'dashboard.voices.clonedDetail', { seconds: v.clipSeconds.toFixed(1) }),
        deletable: server.manager || v.createdBy === userId,
      })),
      ...presets.map((p) => {
        const of = catalogue.get(p.voice);
        return {
          ...voice(p.name, p.name, 'preset', p.language ?? of?.language, of?.gender),
          mine: false,
          inPool: false,
          isDefault: current?.name === p.name,
          detail: p.voice,
        };
      }),
    ];
  }

  async function show(c: Ctx, notice?: PageContext['notice'], status: 200 | 400 | 404 = 200, heard?: HeardSample) {
    const server = c.get('membership');
    const filter: VoiceFilter = Filter.parse(c.req.query());
    const all = await rows(c);
    const words = (filter.q ?? '').trim().toLowerCase();
    const matching = all
      .filter(
        (row) =>
          (filter.language === undefined || row.language === filter.language) &&
          (filter.gender === undefined || row.gender === filter.gender) &&
          (words === '' || `${row.name} ${row.detail}`.toLowerCase().includes(words)),
      )
      .sort((a, b) => firstMine(a) - firstMine(b));
    const pages = Math.max(1, Math.ceil(matching.length / VOICES_PER_PAGE));
    const page = Math.min(filter.page ?? 1, pages);
    const shown = matching.slice((page - 1) * VOICES_PER_PAGE, page * VOICES_PER_PAGE);
    const languages = [...new Set(all.flatMap((row) => (row.language === undefined ? [] : [row.language])))]
      .map((code) => ({ code, name: languageName(code, c.get('locale')) }))
      .sort((a, b) => a.name.localeCompare(b.name));
    return c.html(
      voicesPage(pageContext(c, notice), server, {
        rows: shown,
        matching: matching.length,
        total: all.length,
        page,
        pages,
        languages,
        filter,
        heard,
      }),
      status,
    );
  }

  const refused = (c: Ctx, error: unknown) => show(c, refusedNotice(c, error), 400);

  app.get(base, (c) => show(c));

  // A sample of one voice or preset, the same for everyone (so it is cached for everyone once paid).
  app.post(`${base}/sample`, async (c) => {
    const given = await form(c, Heard);
    const server = c.get('membership');
    const heard = 'voice' in given ? { voice: given.voice } : { preset: given.preset };
    const language =
      'voice' in given
        ? (bot.voices.presets.find((v) => v.id === given.voice)?.language ??
          ESPEAK_VOICES.find((v) => v.id === given.voice)?.language ??
          bot.voices.engines().find((v) => v.id === given.voice)?.language)
        : undefined;
    const locale = SAMPLE_LOCALES[language ?? server.guildLanguage.slice(0, 2)] ?? 'en-US';
    const result = await samples.sample({
      guildId: server.guildId,
      userId: userOf(c),
      guildLanguage: server.guildLanguage,
      text: t(locale, 'dashboard.voices.sampleText'),
      paidCharacters: given.paid,
      heard,
    });
    if (result.kind === 'audio')
      audit(logger, 'voices.sample', { userId: userOf(c), guildId: server.guildId }, { characters: result.characters });
    const fields: Record<string, string> = 'voice' in given ? { voice: given.voice } : { preset: given.preset };
    return show(c, undefined, 200, { fields, name: 'voice' in given ? given.voice : given.preset, result });
  });

  // Use this voice: my voice here, checked usable as /myvoice checks it.
  app.post(`${base}/use`, async (c) => {
    const given = await form(c, Voice);
    const { guildId } = c.get('membership');
    try {
      const { voiceId } = await usableVoice(store, guildId, given.voice, bot.voices.saving);
      await store.memberDefaults.set(guildId, userOf(c), { voice: voiceId });
      audit(logger, 'voices.use', { userId: userOf(c), guildId });
      return show(c, { kind: 'ok', text: t(c.get('locale'), 'dashboard.voices.used', { voice: given.voice }) });
    } catch (error) {
      return refused(c, error);
    }
  });

  // The managers' changes: each asks Discord afresh who the member is (serverAccess on a POST), then the rule.
  const managers = (c: Ctx) => c.get('membership').manager;

  // The server's default is a preset: a voice becomes the preset of it alone, named after it, unless the name is taken.
  app.post(`${base}/default`, async (c) => {
    if (!managers(c)) return refusal(c, 403, 'dashboard.forbidden');
    const given = await form(c, z.union([Preset, Voice]));
    const { guildId } = c.get('membership');
    let name: string;
    try {
      name = 'preset' in given ? given.preset : await presetOfVoice(c, given.voice);
    } catch (error) {
      return refused(c, error);
    }
    if (!(await store.presets.setDefault(guildId, name)))
      return refused(c, new UserError('error.preset.unknown', { name: name.slice(0, 40) }));
    audit(logger, 'voices.default', { userId: userOf(c), guildId });
    return show(c, { kind: 'ok', text: t(c.get('locale'), 'dashboard.voices.defaultSet', { name }) });
  });

  /** The preset of `typed` alone, saved if it is not there yet: its name. */
  async function presetOfVoice(c: Ctx, typed: string): Promise<string> {
    const { guildId } = c.get('membership');
    const { voiceId } = await usableVoice(store, guildId, typed, bot.voices.saving);
    const cloned = await store.voiceLibrary.get(guildId, voiceId);
    // An engine voice's ':' (and a speech server's '+', '()') is in no name: a space instead, within a name's length.
    const spaced = voiceId.replace(/[^\p{L}\p{N}_.'-]+/gu, ' ').slice(0, NAME_MAX_LENGTH);
    const name = tidyName(cloned?.name ?? spaced.replace(/[\s_.'-]+$/u, ''));
    if (!isValidName(name)) throw new UserError('error.preset.badName');
    const existing = await store.presets.get(guildId, name);
    if (existing !== undefined) {
      if (existing.voice !== voiceId) throw new UserError('dashboard.voices.presetTaken', { name });
      return existing.name;
    }
    const saved = await store.presets.save(
      { guildId, name, voice: voiceId, createdBy: userOf(c) },
      { maxPerGuild: MAX_PRESETS_PER_GUILD },
    );
    if (saved.status === 'full') throw new UserError('error.preset.full', { limit: saved.limit });
    return saved.preset.name;
  }

  app.post(`${base}/pool`, async (c) => {
    if (!managers(c)) return refusal(c, 403, 'dashboard.forbidden');
    const given = await form(c, Voice);
    const { guildId } = c.get('membership');
    try {
      const { voiceId } = await usableVoice(store, guildId, given.voice, bot.voices.saving);
      const result = await store.autoReadMembers.addToPool(guildId, voiceId, userOf(c), VOICE_POOL_MAX);
      if (result === 'unknown-voice') throw new SpeechInputError({ code: 'unknown-voice', voice: voiceId });
      if (result === 'full') throw new UserError('autoread.pool.full', { max: VOICE_POOL_MAX });
      audit(logger, 'voices.pool', { userId: userOf(c), guildId });
      const key = result === 'added' ? 'dashboard.voices.pooled' : 'dashboard.voices.alreadyPooled';
      return show(c, { kind: 'ok', text: t(c.get('locale'), key, { voice: given.voice }) });
    } catch (error) {
      return refused(c, error);
    }
  });

  // /voices delete: its creator, or a manager; its audio, cache and saved sounds go with it.
  app.post(`${base}/delete`, async (c) => {
    const given = await form(c, Voice);
    const server = c.get('membership');
    const voice = await store.voiceLibrary.get(server.guildId, given.voice);
    if (voice === undefined) return refused(c, new UserError('voices.notFound', { name: given.voice.slice(0, 40) }));
    if (voice.createdBy !== userOf(c) && !server.manager) return refusal(c, 403, 'error.permission.deleteVoice');
    const deleted = await deleteClonedVoice(bot.forgetting, server.guildId, voice.voiceId);
    audit(logger, 'voices.delete', { userId: userOf(c), guildId: server.guildId });
    const done = t(c.get('locale'), 'dashboard.voices.deleted', { name: voice.name });
    return show(c, { kind: 'ok', text: wentWithIt(c.get('locale'), deleted, done) });
  });
}
