// What is to be said: a type-only module shared by the pipeline and the parts it uses (clips, part source).
import type { AudioResponse } from '../api/client.ts';
import type { AudioEffects } from '../audio/effects/effect-types.ts';
import type {
  RequiredSettingName,
  SentSettingName,
  SPEECH_SETTINGS,
  SpeechEndpoint,
  SpeechSettingName,
  SpeechSettings,
} from './setting-declarations.ts';
import type { Refusal } from '../refusal.ts';

/** The settings sent to the service with a request, as declared (setting-declarations.ts): each endpoint takes its own. */
export type SentSettings = { [K in Exclude<SentSettingName, 'voice'>]?: SpeechSettings[K] | undefined };

/** What every request to an endpoint carries (`requiredBy`), required so no request is keyed without it. */
type EndpointMust<E extends SpeechEndpoint> = { [K in RequiredSettingName<E>]-?: NonNullable<SpeechSettings[K]> };

/** What to say and how: the settings resolved from the front-end's input, presets and defaults (src/core/sourcing/voice-choice.ts). */
export type SpeechRequest =
  | {
      [E in SpeechEndpoint]: {
        kind: E;
        text: string;
        voice: string;
        effects?: AudioEffects;
        /** An engine's voice: what of the member's speed, volume and pitch the engine applies itself (its own controls). */
        engine?: AudioEffects;
      } & SentSettings &
        EndpointMust<E>;
    }[SpeechEndpoint]
  /** Audio the service already sent (a voice clone's first line): played or posted as it is, no further call. */
  | { kind: 'ready'; text: string; voice: string; response: AudioResponse };

/** A request the service answers (not audio already in hand). */
export type ServiceRequest = Exclude<SpeechRequest, { kind: 'ready' }>;

/**
 * The free voice that spoke for another, and why: a stand-in for the paid voice (the service failing, its month used
 * up, too few of its characters left for the part: the refusal with the service's figure), or an engine's stand-in.
 */
export interface StandIn {
  voice: string;
  cause: 'service-failed' | 'month-used-up' | 'engine-failed' | Refusal;
  /** Characters its order paid in the paid voice before the free voice stood in (on the books: the reply says so). */
  paidBefore?: number;
}

/** Where one setting came from, most specific first. `preset` names the preset for the reply. */
type SettingSource = { kind: 'option' | 'member' | 'builtin' } | { kind: 'preset' | 'server'; preset: string };

/** The settings declared with a built-in default (setting-declarations.ts): they always resolve to a value. */
type DefaultedName = {
  [K in SpeechSettingName]: (typeof SPEECH_SETTINGS)[K] extends { default: unknown } ? K : never;
}[SpeechSettingName];

/** The settings that apply, layer by layer (src/core/sourcing/voice-choice.ts): the voice and each defaulted one always, others if set. */
export type ResolvedSettings = SpeechSettings & { voice: string } & {
  [K in DefaultedName]-?: Exclude<SpeechSettings[K], undefined>;
} & {
  /** For every field, the layer it came from (`builtin` also for a field no layer set). */
  sources: Record<keyof SpeechSettings, SettingSource>;
  /** The member's own voice would have spoken, but it was a cloned voice deleted since: its name, to tell them. */
  voiceDeleted?: string;
};
