// Who speaks each part of a scene: the cast, a mentioned member's /myvoice, else a distinct voice of their own.
import type { PresetVoice } from '../../core/voice-catalogue/voices.ts';
import type { Store } from '../../core/store/types.ts';
import { chooseSettings, resolveSettings } from '../../core/sourcing/voice-choice.ts';
import { SpeechInputError, type SpeechInputProblem } from '../../core/order-errors.ts';
import { UserError } from '../../core/interactions/failures.ts';
import './strings.ts';
import { defaultPool, parsePoolEntry, poolLanguage } from '../autoread/index-voices.ts';
import type { CastEntry, SceneScript } from './script-types.ts';
import type { Speaker } from './scene-types.ts';

/** Cloned voices considered for distinct voices: as many as auto-read's default pool takes. */
const CLONED_FOR_DISTINCT = 50;

export interface CastQuery {
  store: Store;
  guildId: string;
  guildLocale: string | null | undefined;
  /** The preset voices on offer (CommandContext.voices). */
  presets: readonly PresetVoice[];
}

/** Every speaker of the script (by key) with the settings their lines are spoken with. */
export async function resolveCast(script: SceneScript, query: CastQuery): Promise<Map<string, Speaker>> {
  const { store, guildId, guildLocale } = query;
  const server = await store.presets.getDefault(guildId);
  const serverLayer = server && { name: server.name, settings: server };
  const castOf = new Map(script.cast.map((entry) => [entry.key, entry]));
  const names = new Map<string, string>();
  for (const step of script.steps) if (step.kind === 'line' && !names.has(step.key)) names.set(step.key, step.speaker);

  const speakers = new Map<string, Speaker>();
  const unvoiced: string[] = [];
  for (const [key, name] of names) {
    const entry = castOf.get(key);
    const cast = entry && (await castSettings(entry, query));
    if (cast) speakers.set(key, { name, ...cast });
    else unvoiced.push(key);
  }
  if (unvoiced.length === 0) return speakers;

  const cloned = await store.voiceLibrary.list(guildId, { limit: CLONED_FOR_DISTINCT });
  const pool = defaultPool(
    guildLocale,
    query.presets,
    cloned.map((voice) => voice.voiceId),
  );
  const taken = new Set([...speakers.values()].map((speaker) => speaker.settings.voice));
  const given = new Set<string>();
  const language = poolLanguage(guildLocale);
  for (const key of unvoiced) {
    // A voice nobody here has; else a variant not given yet; else any not given; else the pool goes round again.
    const entry =
      pool.find((candidate) => !given.has(candidate) && !taken.has(parsePoolEntry(candidate).voice)) ??
      pool.find(
        (candidate) =>
          !given.has(candidate) && (parsePoolEntry(candidate).voice !== candidate || !taken.has(candidate)),
      ) ??
      pool.find((candidate) => !given.has(candidate)) ??
      pool[given.size % Math.max(1, pool.length)];
    if (entry === undefined) throw new Error('the distinct-voice pool is empty');
    given.add(entry);
    const voice = parsePoolEntry(entry);
    taken.add(voice.voice);
    const settings = resolveSettings({
      options: {
        voice: voice.voice,
        language,
        ...(voice.speed === undefined ? {} : { speed: voice.speed }),
        ...(voice.pitch === undefined ? {} : { pitch: voice.pitch }),
      },
      server: serverLayer,
      guildLocale,
    });
    speakers.set(key, { name: names.get(key) ?? key, settings, from: { kind: 'distinct' } });
  }
  return speakers;
}

/** A cast line's voice here: a member's /myvoice, a server preset by name, a voice ID or this server's clone. */
async function castSettings(entry: CastEntry, query: CastQuery): Promise<Omit<Speaker, 'name'> | undefined> {
  const { store, guildId, guildLocale } = query;
  const choose = (layers: Omit<Parameters<typeof chooseSettings>[1], 'guildId' | 'guildLocale'>) =>
    chooseSettings(store, { guildId, guildLocale, ...layers });
  const refused = (code?: SpeechInputProblem['code']) => (error: unknown) => {
    if (error instanceof SpeechInputError && (code === undefined || error.problem.code === code)) return undefined;
    throw error;
  };
  if (entry.voice.kind === 'member') {
    const userId = entry.voice.userId;
    // No voice of their own, or a cloned voice deleted since: they get a distinct voice, as auto-read would read them.
    const settings = await choose({ userId, options: {} }).catch(refused());
    return settings?.sources.voice.kind === 'member' ? { settings, from: { kind: 'member', userId } } : undefined;
  }
  const written = entry.voice.text;
  const preset = await choose({ userId: null, options: {}, presetName: written }).catch(refused('unknown-preset'));
  const settings = preset ?? (await choose({ userId: null, options: { voice: written } }).catch(refused()));
  if (settings === undefined)
    throw new UserError('scene.unknownCast', { line: entry.line, name: entry.name, voice: written });
  return { settings, from: { kind: 'cast' } };
}
