// Which voice speaks, and whether it may speak here: one decision for every front-end and the part source. The
// settings a request is said with, layer by layer (the command's options, the chosen preset, the member's /myvoice,
// the server's default preset, the built-in defaults), field by field; the voice a member names checked before it is
// used or saved (usableVoice); and whether it may be saved, or spoken now as a line is held and each part fetched
// (requireVoice). What a voice ID says is src/core/voice-catalogue/voices.ts'.
import { SpeechInputError } from '../order-errors.ts';
import { SPEECH_SETTING_LIST, SPEECH_SETTING_NAMES, type SpeechSettings } from '../settings/setting-declarations.ts';
import type { ResolvedSettings } from '../settings/speech-request.ts';
import type { Store } from '../store/types.ts';
import { engineOf, espeakVoice, isFreeVoice, isPresetVoiceId, type PresetVoice } from '../voice-catalogue/voices.ts';
import type { EnginePort } from './engine-port.ts';

/** What a front-end knows when it asks which settings apply. */
interface SettingsQuery {
  guildId: string;
  /** Whose /myvoice applies; null: nobody's (the server's own voice, e.g. auto-read's join and leave lines). */
  userId: string | null;
  /** The front-end's own settings (a command's options): the most specific layer. */
  options: SpeechSettings;
  /** The preset the member chose by name, if any. */
  presetName?: string | undefined;
  /** The server's preferred locale: picks the built-in voice. */
  guildLocale: string | null | undefined;
  /** The owner's engines: a voice its engine's list lacks has the list read again before it is judged. */
  engines?: Pick<EnginePort, 'recheck'> | undefined;
}

/** The settings a request is spoken with (three indexed reads), its winning voice checked (usableVoice). */
export async function chooseSettings(store: Store, query: SettingsQuery): Promise<ResolvedSettings> {
  const { guildId, presetName } = query;
  const [preset, member, server] = await Promise.all([
    presetName === undefined ? undefined : store.presets.get(guildId, presetName),
    query.userId === null ? undefined : store.memberDefaults.get(guildId, query.userId),
    store.presets.getDefault(guildId),
  ]);
  if (presetName !== undefined && !preset) throw new SpeechInputError({ code: 'unknown-preset', name: presetName });
  const settings = resolveSettings({
    options: query.options,
    preset: preset && { name: preset.name, settings: preset },
    member,
    server: server && { name: server.name, settings: server },
    guildLocale: query.guildLocale,
  });
  settings.voice = (await usableVoice(store, guildId, settings.voice)).voiceId;
  await query.engines?.recheck(settings.voice);
  if (!['option', 'preset'].includes(settings.sources.voice.kind)) settings.voiceDeleted = member?.voiceDeleted;
  return settings;
}

export interface SettingsLayers {
  /** The command's own options. */
  options: SpeechSettings;
  /** The preset the caller chose with the `preset` option. */
  preset?: { name: string; settings: SpeechSettings } | undefined;
  /** The caller's /myvoice defaults in this server. */
  member?: SpeechSettings | undefined;
  /** The server's default preset. */
  server?: { name: string; settings: SpeechSettings } | undefined;
  /** The server's preferred locale: picks the built-in voice (Korean, Japanese, else English). */
  guildLocale: string | null | undefined;
}

type Field = keyof SpeechSettings;

/**
 * Which settings apply: the command's options, the chosen preset, the member's default, the server's default preset,
 * the built-in defaults; each field on its own (a preset fixing only a voice lets the member's tone through).
 */
export function resolveSettings(layers: SettingsLayers): ResolvedSettings {
  const ordered: Array<[SpeechSettings | undefined, ResolvedSettings['sources'][Field]]> = [
    [layers.options, { kind: 'option' }],
    [layers.preset?.settings, layers.preset ? { kind: 'preset', preset: layers.preset.name } : { kind: 'builtin' }],
    [layers.member, { kind: 'member' }],
    [layers.server?.settings, layers.server ? { kind: 'server', preset: layers.server.name } : { kind: 'builtin' }],
  ];
  const values: SpeechSettings = {};
  const sources = {} as ResolvedSettings['sources'];
  for (const field of SPEECH_SETTING_NAMES) {
    const hit = ordered.find(([settings]) => settings?.[field] !== undefined);
    if (hit) (values as Record<Field, unknown>)[field] = hit[0]?.[field];
    sources[field] = hit?.[1] ?? { kind: 'builtin' };
  }
  const defaults = Object.fromEntries(
    SPEECH_SETTING_LIST.flatMap(([name, declared]) => ('default' in declared ? [[name, declared.default]] : [])),
  ) as Partial<ResolvedSettings>;
  return {
    ...defaults,
    ...values,
    voice: values.voice ?? defaultVoiceFor(layers.guildLocale),
    sources,
  } as ResolvedSettings;
}

/** The built-in default voice for a Discord locale: Korean, Japanese, else English. */
export function defaultVoiceFor(locale: string | null | undefined): string {
  if (locale === 'ko') return 'voice-b-ko-f-01';
  if (locale === 'ja') return 'voice-b-ja-f-01';
  return 'voice-b-en-f-01';
}

/**
 * The one check of a voice a member names before it is used or saved. A preset-shaped ID passes unlisted (the service
 * has 41, documents 6), and so does a free voice (where it is `saving`, what may speak now is asked at once: requireVoice,
 * `as` 'chosen' where a voice saved before is picked); else a clone of *this* server, by ID or name: another server's
 * is refused exactly like an unknown one, so its existence does not leak.
 */
export async function usableVoice(
  store: Pick<Store, 'voiceLibrary'>,
  guildId: string,
  idOrName: string,
  saving?: Saving,
  as: 'chosen' | 'saved' = 'saved',
): Promise<{ kind: 'preset' | 'free' | 'cloned'; voiceId: string }> {
  if (isPresetVoiceId(idOrName) && saving?.listed.some((voice) => voice.id === idOrName) === false)
    throw new SpeechInputError({ code: 'voice-unlisted', voice: idOrName });
  if (isPresetVoiceId(idOrName)) return { kind: 'preset', voiceId: idOrName };
  await saving?.engines?.recheck(idOrName);
  if (saving !== undefined) requireVoice(idOrName, saving, as);
  if (isFreeVoice(idOrName)) return { kind: 'free', voiceId: idOrName };
  const library = store.voiceLibrary;
  const cloned = (await library.get(guildId, idOrName)) ?? (await library.findByName(guildId, idOrName));
  if (cloned) return { kind: 'cloned', voiceId: cloned.voiceId };
  throw new SpeechInputError({ code: 'unknown-voice', voice: idOrName });
}

/** What the running bot may speak: eSpeak NG installed and members' to choose (FREE_VOICE), the owner's engines. */
export interface Speakers {
  /** Cloned voices deleted since start. */
  deleted?: ReadonlySet<string>;
  freeVoice: { espeak: boolean; chosen: boolean };
  engines: Pick<EnginePort, 'lists' | 'recheck'> | undefined;
}

/** Where a voice is saved: what may speak now, and the presets SayBot lists (`listed`: one it does not list is not
 * saved, as a preset the service lacks would fail every line after). */
export interface Saving extends Speakers {
  listed: readonly PresetVoice[];
}

/**
 * Whether a voice may be spoken or saved here: as a part or a stand-in (`part`), a member's choice held as a line
 * (`chosen`) or kept (`saved`). A clone deleted since is refused (voice-deleted); eSpeak NG's where it cannot speak, or
 * chosen where members may not choose it (free-voice-unavailable); an engine's by its engine's list alone: not listed,
 * or no such engine, is refused, down or not (engine-voice-unknown, never sent); not known (its engine has not answered
 * since start) is tried, stood in for or "could not speak", but not saved (engine-voice-not-answering).
 */
export function requireVoice(voice: string, here: Speakers, as: 'part' | 'chosen' | 'saved' = 'part'): void {
  const refused = voiceRefusal(voice, here, as);
  if (refused !== undefined) throw refused;
}

/** requireVoice's refusal, returned: undefined where the voice may be spoken or saved. */
export function voiceRefusal(voice: string, here: Speakers, as: 'part' | 'chosen' | 'saved' = 'part') {
  if (here.deleted?.has(voice)) return new SpeechInputError({ code: 'voice-deleted', voice });
  if (espeakVoice(voice) && (!here.freeVoice.espeak || (as !== 'part' && !here.freeVoice.chosen)))
    return new SpeechInputError({ code: 'free-voice-unavailable', voice });
  if (!engineOf(voice)) return undefined;
  const listed = here.engines === undefined ? false : here.engines.lists(voice);
  if (listed === false) return new SpeechInputError({ code: 'engine-voice-unknown', voice });
  if (listed === undefined && as === 'saved')
    return new SpeechInputError({ code: 'engine-voice-not-answering', voice });
  return undefined;
}
