import { defaultVoiceFor, isPresetVoiceId, isEngineVoice, isFreeVoice } from '../voice-catalogue/voices.ts';
import type { AudioEffects } from '../audio/effects/effect-types.ts';
import type { ClonedVoice } from '../store/voice-library-store.ts';
import type { SpeechSettings } from '../store/common-types.ts';
import type { Store } from '../store/types.ts';
import { SpeechInputError } from '../order-errors.ts';
import {
  quantiseEffects,
  SENT_SETTINGS,
  SPEECH_SETTING_LIST,
  SPEECH_SETTING_NAMES,
  type SPEECH_SETTINGS,
  type SpeechEndpoint,
  type SpeechSettingName,
} from '../settings/setting-declarations.ts';
import type { SentSettings } from '../settings/speech-request.ts';
import type { SpeechRequest } from './pipeline.ts';

/** Where one setting came from, most specific first. `preset` names the preset for the reply. */
type SettingSource =
  | { kind: 'option' }
  | { kind: 'preset'; preset: string }
  | { kind: 'member' }
  | { kind: 'server'; preset: string }
  | { kind: 'builtin' };

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

/** The settings declared with a built-in default (src/core/settings/setting-declarations.ts): they always resolve to a value. */
type DefaultedName = {
  [K in SpeechSettingName]: (typeof SPEECH_SETTINGS)[K] extends { default: unknown } ? K : never;
}[SpeechSettingName];

/** The settings that apply: the voice and every defaulted setting always, the others where a layer sets them. */
export type ResolvedSettings = SpeechSettings & { voice: string } & {
  [K in DefaultedName]-?: Exclude<SpeechSettings[K], undefined>;
} & {
  /** For every field, the layer it came from (`builtin` also for a field no layer set). */
  sources: Record<keyof SpeechSettings, SettingSource>;
};

type Field = keyof SpeechSettings;

/**
 * Which settings apply: the command's options, the chosen preset, the member's default, the server's default preset,
 * the built-in defaults; each field on its own (a preset fixing only a voice lets the member's tone through).
 */
export function resolveSettings(layers: SettingsLayers): ResolvedSettings {
  const ordered: Array<[SpeechSettings | undefined, SettingSource]> = [
    [layers.options, { kind: 'option' }],
    [layers.preset?.settings, layers.preset ? { kind: 'preset', preset: layers.preset.name } : { kind: 'builtin' }],
    [layers.member, { kind: 'member' }],
    [layers.server?.settings, layers.server ? { kind: 'server', preset: layers.server.name } : { kind: 'builtin' }],
  ];
  const values: SpeechSettings = {};
  const sources = {} as Record<Field, SettingSource>;
  for (const field of SPEECH_SETTING_NAMES) {
    const hit = ordered.find(([settings]) => settings?.[field] !== undefined);
    if (hit) (values as Record<Field, unknown>)[field] = hit[0]?.[field];
    sources[field] = hit?.[1] ?? { kind: 'builtin' };
  }
  const defaults = Object.fromEntries(
    SPEECH_SETTING_LIST.flatMap(([name, declared]) => ('default' in declared ? [[name, declared.default]] : [])),
  ) as Pick<ResolvedSettings, DefaultedName>;
  return {
    ...defaults,
    ...values,
    voice: values.voice ?? defaultVoiceFor(layers.guildLocale),
    sources,
  } as ResolvedSettings;
}

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

/** The settings an endpoint is sent, of those that apply (each declared with its wire name there). */
export function sentSettingsOf(settings: ResolvedSettings, endpoint: SpeechEndpoint): { voice: string } & SentSettings {
  const sent = SENT_SETTINGS.filter(([, declared]) => declared.wire[endpoint] !== undefined);
  return { ...Object.fromEntries(sent.map(([name]) => [name, settings[name]])), voice: settings.voice };
}

/** A text-to-speech request for `text` with the settings that apply. */
export function ttsRequest(text: string, settings: ResolvedSettings): SpeechRequest {
  return { kind: 'tts', text, ...sentSettingsOf(settings, 'tts'), format: settings.format, ...effectsOf(settings) };
}

/** Speed, volume and pitch as `effects`, in audible steps, left out when they change nothing. */
export function effectsOf(settings: Pick<ResolvedSettings, 'speed' | 'volume' | 'pitch'>): { effects?: AudioEffects } {
  const effects = quantiseEffects({ speed: settings.speed, volumeDb: settings.volume, pitch: settings.pitch });
  if (effects.speed === 1 && effects.volumeDb === 0 && effects.pitch === undefined) return {};
  return { effects };
}

type UsableVoice =
  | { kind: 'preset'; voiceId: string }
  | { kind: 'free'; voiceId: string }
  | { kind: 'cloned'; voiceId: string; voice: ClonedVoice };

/**
 * The one check of a voice before it is used or saved. A preset-shaped ID passes unlisted (the service has 41,
 * documents 6), and so does a free voice; else a clone of *this* server, by ID or name: another server's is refused
 * exactly like an unknown one, so its existence does not leak.
 */
export async function usableVoice(
  store: Store,
  guildId: string,
  idOrName: string,
  /** Where a voice is saved: whether an engine offers it now, so it is refused at once rather than at each use. */
  offered?: (voiceId: string) => boolean,
): Promise<UsableVoice> {
  if (isPresetVoiceId(idOrName)) return { kind: 'preset', voiceId: idOrName };
  if (offered !== undefined && isEngineVoice(idOrName) && !offered(idOrName))
    throw new SpeechInputError({ code: 'engine-voice-unknown', voice: idOrName });
  // Whether the free voice may speak here is the speech path's to say (FREE_VOICE, the package installed).
  if (isFreeVoice(idOrName)) return { kind: 'free', voiceId: idOrName };
  const cloned =
    (await store.voiceLibrary.get(guildId, idOrName)) ?? (await store.voiceLibrary.findByName(guildId, idOrName));
  if (cloned) return { kind: 'cloned', voiceId: cloned.voiceId, voice: cloned };
  throw new SpeechInputError({ code: 'unknown-voice', voice: idOrName });
}
