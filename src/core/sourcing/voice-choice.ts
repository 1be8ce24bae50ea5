// Which voice speaks, and whether it may speak here: one decision for every front-end and the part source. The
// settings a request is said with, layer by layer (the command's options, the chosen preset, the member's /myvoice,
// the server's default preset, the built-in defaults), field by field; the voice a member names checked before it is
// used or saved (usableVoice); and, as a line is held and each part fetched, whether it may be spoken now
// (admitVoice). What a voice ID says is src/core/voice-catalogue/voices.ts'.
import { SpeechInputError } from '../order-errors.ts';
import { SPEECH_SETTING_LIST, SPEECH_SETTING_NAMES, type SpeechSettings } from '../settings/setting-declarations.ts';
import type { ResolvedSettings } from '../settings/speech-request.ts';
import type { Store } from '../store/types.ts';
import { isEngineVoice, isEspeakVoice, isFreeVoice, isPresetVoiceId } from '../voice-catalogue/voices.ts';

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
 * has 41, documents 6), and so does a free voice; else a clone of *this* server, by ID or name: another server's is
 * refused exactly like an unknown one, so its existence does not leak.
 */
export async function usableVoice(
  store: Pick<Store, 'voiceLibrary'>,
  guildId: string,
  idOrName: string,
  /** Where a voice is saved: whether a free voice is offered now (offeredNow), so it is refused at once, not at each use. */
  offered?: (voiceId: string) => boolean,
): Promise<{ kind: 'preset' | 'free' | 'cloned'; voiceId: string }> {
  if (isPresetVoiceId(idOrName)) return { kind: 'preset', voiceId: idOrName };
  const code = isEngineVoice(idOrName) ? 'engine-voice-unknown' : 'free-voice-unavailable';
  if (isFreeVoice(idOrName) && offered?.(idOrName) === false) throw new SpeechInputError({ code, voice: idOrName });
  if (isFreeVoice(idOrName)) return { kind: 'free', voiceId: idOrName };
  const library = store.voiceLibrary;
  const cloned = (await library.get(guildId, idOrName)) ?? (await library.findByName(guildId, idOrName));
  if (cloned) return { kind: 'cloned', voiceId: cloned.voiceId };
  throw new SpeechInputError({ code: 'unknown-voice', voice: idOrName });
}

/** Whether a free voice is offered now: an engine's while its engine offers it, eSpeak NG's where members may choose it. */
export const offeredNow =
  (engines: { voice(voiceId: string): unknown } | undefined, freeVoice: { chosen: boolean }) => (voiceId: string) =>
    isEngineVoice(voiceId) ? engines?.voice(voiceId) !== undefined : freeVoice.chosen;

/** What the running bot may speak: eSpeak NG installed and members' to choose (FREE_VOICE), the owner's engines. */
interface Speakers {
  /** Cloned voices deleted since start. */
  deleted: ReadonlySet<string>;
  freeVoice: { espeak: boolean; chosen: boolean };
  engines: { voice(voiceId: string): unknown; down(voiceId: string): boolean } | undefined;
}

/**
 * Whether a voice may be spoken now, as a member's choice (`chosen`: a line held) or at all (a stand-in, a part
 * fetched): a cloned voice deleted since (voice-deleted), eSpeak NG's where it cannot speak or members may not choose
 * it (free-voice-unavailable), an engine's voice its engine, answering, does not offer (engine-voice-unknown: never
 * sent). An engine down (its voices unknown since it started down, or not fetched lately) is stood in for, not refused.
 */
export function admitVoice(voice: string, here: Speakers, chosen = false): void {
  if (here.deleted.has(voice)) throw new SpeechInputError({ code: 'voice-deleted', voice });
  if (isEspeakVoice(voice) && (!here.freeVoice.espeak || (chosen && !here.freeVoice.chosen)))
    throw new SpeechInputError({ code: 'free-voice-unavailable', voice });
  const engines = here.engines;
  if (isEngineVoice(voice) && (engines === undefined || (!engines.down(voice) && engines.voice(voice) === undefined)))
    throw new SpeechInputError({ code: 'engine-voice-unknown', voice });
}
