// The studio's Scenes page, through the scenes feature's studio surface (studio-scene.ts): the same rules as /scene.
// The JSON endpoints are changes like any other (Origin, session, X-CSRF-Token, rate limit).
import type { Hono } from 'hono';
import { z } from 'zod';
import { describeFailure, wordsText } from '../speaking/index-words.ts';
import {
  FORM_SCRIPT_MAX,
  checkScript,
  makeStudioScene,
  quoteStudioScene,
  saveScene,
  sceneName,
  type StudioMember,
  type StudioQuote,
  type StudioServices,
} from '../scenes/index.ts';
import type { Ctx, DashboardEnv, DashboardScenes, RouteDeps } from './dashboard-types.ts';
import { audit, form, guard, pageContext, refusal, serverAccess, userOf } from './guards.ts';
import { webFile } from './web-files.ts';
import { bytesOf, KeptFiles, mediaType } from './kept-files.ts';
import type { PageContext } from './pages/layout.ts';
import { scenesPage } from './pages/scenes-page.ts';
import { t } from './strings.ts';

/** Made files kept for their member's download: at most this many, this many bytes in all, this long. */
const MAX_FILES = 16;
const MAX_FILE_BYTES = 96 * 1024 * 1024;
const FILE_MS = 10 * 60_000;

/** A scene's files, each for the member who made it in that server only; bounded in count, bytes and time. */
export class SceneFiles extends KeptFiles {
  constructor(now: () => number = Date.now) {
    super({ files: MAX_FILES, bytes: MAX_FILE_BYTES, ms: FILE_MS }, now);
  }
}

const Script = z.string().max(FORM_SCRIPT_MAX);
const Check = z.object({ script: Script });
const Quote = z.object({ script: Script, output: z.enum(['voice', 'file']).default('file') });
const Make = z.object({
  script: Script,
  quoted: z.number().int().min(0).max(1_000_000),
  format: z.enum(['wav', 'mp3']).default('wav'),
  /** A line made alone (0-based turn): heard in the browser. */
  line: z.number().int().min(0).max(1_000).optional(),
});
const Save = z.object({ script: Script, name: z.string().max(100) });

/** A quote as the page's script shows it. */
function quoteJson(quote: StudioQuote, lineCharacters: number[]) {
  const { plan, speakers, budgets } = quote;
  return {
    characters: quote.characters,
    cachedLines: quote.cachedLines,
    lines: plan.lines.length,
    seconds: Math.round(plan.seconds),
    cast: [...speakers.values()].map((speaker) => ({
      name: speaker.name,
      voice: speaker.settings.voice,
      from: speaker.from.kind,
    })),
    turns: plan.turns.map((turn, index) => ({
      speaker: turn.speaker,
      text: turn.text,
      line: quote.lineNumbers[index] ?? 0,
      characters: lineCharacters[index] ?? 0,
    })),
    budgets: {
      ...(budgets.member ? { member: budgets.member } : {}),
      ...(budgets.guild ? { guild: budgets.guild } : {}),
      left: Number.isFinite(budgets.left) ? budgets.left : null,
    },
  };
}

export function addSceneRoutes(app: Hono<DashboardEnv>, deps: RouteDeps): void {
  const { store, bot, logger } = deps;
  const found: DashboardScenes | undefined = bot.scenes;
  if (found === undefined) return;
  const scenes = found;
  const services: StudioServices = {
    store,
    speech: bot.speech,
    presets: bot.voices.presets,
    report: (guildId, userId) => scenes.report(guildId, userId),
    voiceSeconds: scenes.voiceSeconds,
  };
  const files = new SceneFiles();
  // The page's editor: its script bundled with CodeMirror (web/scenes.js, built by scripts/build-web.ts).
  app.get('/static/scenes.js', webFile('scenes.bundle.js', 'text/javascript; charset=utf-8'));
  app.get('/static/scenes.css', webFile('scenes.css', 'text/css; charset=utf-8'));
  guard(app, '/servers/:guildId/scenes', serverAccess(bot));
  const memberOf = (c: Ctx): StudioMember => {
    const server = c.get('membership');
    return { guildId: server.guildId, userId: userOf(c), guildLocale: server.guildLanguage };
  };
  /** A refusal's words for the page, a channel's or a bot's mention as its name (a browser does not render mentions). */
  const refusalText = (c: Ctx, error: unknown): string => {
    const { code, message } = describeFailure(error);
    if (code === 'internal') throw error;
    const { guildId } = c.get('membership');
    return t(c.get('locale'), message.key, message.params).replace(
      /<([#@])(\d{17,20})>/g,
      (_, kind: string, id: string) =>
        `${kind}${(kind === '#' ? bot.channelName(guildId, id) : bot.displayName(guildId, id)) ?? id}`,
    );
  };
  /** The member's answer for a refusal (a script error, a budget, a right); anything else is the app's failure. */
  const answerFailure = (c: Ctx, error: unknown) => c.json({ error: refusalText(c, error) }, 400);
  /** The request's JSON body as `schema` reads it, or undefined (answered 400). */
  async function body<T>(c: Ctx, schema: z.ZodType<T>): Promise<T | undefined> {
    const parsed = schema.safeParse(await c.req.json().catch(() => undefined));
    return parsed.success ? parsed.data : undefined;
  }
  const badRequest = (c: Ctx) => c.json({ error: t(c.get('locale'), 'dashboard.badRequest', { what: 'JSON' }) }, 400);
  /** What each line alone would pay now (to hear it by itself). */
  const lineCharacters = (quote: StudioQuote) =>
    Promise.all(quote.plan.lines.map(async (line) => (await bot.speech.quoteScene([line])).characters));

  async function showPage(c: Ctx, editor: { script: string; name: string }, notice?: PageContext['notice']) {
    const server = c.get('membership');
    const saved = (await store.scenes.list(server.guildId)).map((scene) => ({
      name: scene.name,
      savedBy: bot.displayName(server.guildId, scene.savedBy) ?? scene.savedBy,
    }));
    const status = notice?.kind === 'error' ? 400 : 200;
    return c.html(scenesPage(pageContext(c, notice), server, { ...editor, maxLength: FORM_SCRIPT_MAX }, saved), status);
  }

  app.get('/servers/:guildId/scenes', async (c) => {
    const open = c.req.query('open');
    if (open === undefined) return showPage(c, { script: '', name: '' });
    const saved = await store.scenes.get(c.get('membership').guildId, open.slice(0, 100));
    if (saved === undefined)
      return showPage(
        c,
        { script: '', name: '' },
        { kind: 'error', text: t(c.get('locale'), 'studio.scenes.unknown', { name: open.slice(0, 32) }) },
      );
    return showPage(c, { script: saved.script, name: saved.name });
  });

  app.post('/servers/:guildId/scenes/check', async (c) => {
    const given = await body(c, Check);
    if (given === undefined) return badRequest(c);
    const checked = checkScript(given.script);
    if (checked.ok) return c.json(checked);
    const { key, params } = checked.message;
    // Whether the words name their line already (they take {line}): the page puts the line first only otherwise.
    const namesLine = t(c.get('locale'), key).includes('{line}');
    return c.json({ ok: false, line: checked.line, namesLine, error: t(c.get('locale'), key, params) });
  });

  app.post('/servers/:guildId/scenes/quote', async (c) => {
    const given = await body(c, Quote);
    if (given === undefined) return badRequest(c);
    try {
      const quote = await quoteStudioScene(services, memberOf(c), given.script, given.output);
      return c.json({ quote: quoteJson(quote, await lineCharacters(quote)) });
    } catch (error) {
      return answerFailure(c, error);
    }
  });

  /** Makes the scene as a file, in voice (`voice`), or one line alone; never paying more than `quoted`. */
  async function make(c: Ctx, voice: boolean) {
    const given = await body(c, Make);
    if (given === undefined) return badRequest(c);
    const member = memberOf(c);
    try {
      const made = await makeStudioScene(services, member, {
        source: given.script,
        quoted: given.quoted,
        format: given.format,
        only: voice ? undefined : given.line,
        voice: voice ? await scenes.memberVoice(member.guildId, member.userId) : undefined,
        command: 'dashboard-scene',
      });
      if (made.kind === 'quote-changed') {
        const { quote } = made;
        return c.json({ priceChanged: true, quote: quoteJson(quote, await lineCharacters(quote)) });
      }
      const action = voice ? 'scene.play' : given.line === undefined ? 'scene.file' : 'scene.line';
      audit(logger, action, { userId: member.userId, guildId: member.guildId }, { quoted: given.quoted });
      // The member's words for it, as every front-end's (the speaking feature's outcome-words.ts).
      const text = wordsText(c.get('locale'), made.words, made.notes);
      if (made.kind !== 'file') return c.json({ done: made.kind, seconds: made.seconds.toFixed(1), text });
      const base = `/servers/${member.guildId}/scenes/files/`;
      const audio = files.keep(member, made.data, `saybot-scene.${made.format}`);
      const srt = files.keep(member, Buffer.from(made.srt), 'saybot-scene.srt');
      return c.json({
        done: 'file',
        seconds: made.seconds.toFixed(1),
        ...(made.cutAt === undefined ? {} : { cutAt: made.cutAt }),
        text,
        audio: `${base}${audio}`,
        srt: `${base}${srt}`,
      });
    } catch (error) {
      return answerFailure(c, error);
    }
  }
  app.post('/servers/:guildId/scenes/make', (c) => make(c, false));
  app.post('/servers/:guildId/scenes/play', (c) => make(c, true));

  app.get('/servers/:guildId/scenes/files/:id', (c) => {
    const kept = files.get(c.req.param('id'), userOf(c), c.get('membership').guildId);
    if (kept === undefined) return refusal(c, 404, 'dashboard.notFound');
    return c.body(bytesOf(kept), 200, {
      'Content-Type': mediaType(kept),
      'Content-Disposition': `attachment; filename="${kept.name}"`,
      'Cache-Control': 'private, no-store',
    });
  });

  // Saved as /scene save saves: the same store, names, rights and member's share (the scenes feature's saveScene).
  app.post('/servers/:guildId/scenes/save', async (c) => {
    const { script, name } = await form(c, Save);
    const server = c.get('membership');
    const locale = c.get('locale');
    try {
      const saved = await saveScene(store, {
        guildId: server.guildId,
        userId: userOf(c),
        manager: server.manager,
        name,
        script,
      });
      audit(logger, 'scene.save', { userId: userOf(c), guildId: server.guildId }, { lines: saved.lines });
      const key = saved.status === 'added' ? 'studio.scenes.savedAdded' : 'studio.scenes.savedReplaced';
      const shown = sceneName(name);
      return showPage(
        c,
        { script, name: shown },
        { kind: 'ok', text: t(locale, key, { name: shown, lines: saved.lines }) },
      );
    } catch (error) {
      return showPage(c, { script, name }, { kind: 'error', text: refusalText(c, error) });
    }
  });
}
