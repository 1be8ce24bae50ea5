// Whose voice reads a message: what /say uses without options; an unusable voice falls back to the built-in one, so
// the message is read. With voices:distinct a member without a voice gets their stored pool voice.
import { SpeechInputError } from '../../../core/order-errors.ts';
import type { SpeechRequest } from '../../../core/order/pipeline.ts';
import { chooseSettings, resolveSettings, usableVoice, type Saving } from '../../../core/sourcing/voice-choice.ts';
import { quantiseEffects, ttsRequest } from '../../../core/sourcing/part-request.ts';
import type { ResolvedSettings } from '../../../core/settings/speech-request.ts';
import type { Store } from '../../../core/store/types.ts';
import {
  MEMBER_VOICES_MAX,
  chooseVoice,
  defaultPool,
  parsePoolEntry,
  poolLanguage,
  type PoolVoice,
} from './voice-pool.ts';

export interface AutoreadGuild {
  id: string;
  preferredLocale: string | null;
}

/** The most cloned voices the default pool takes from a server's library. */
const POOL_CLONED_MAX = 50;

/** voices:distinct for this message: how many of the members speaking now (besides its author) have each voice. */
export interface DistinctVoices {
  speakingNow: ReadonlyMap<string, number>;
}

export async function autoreadSpeechRequest(
  store: Store,
  guild: AutoreadGuild,
  /** A pool voice kept as it was saved (`listed`: also the default pool's presets). */
  saving: Saving,
  /** Whose /myvoice applies; null: the server's voice (join/leave lines). */
  userId: string | null,
  text: string,
  /** Given: voices:distinct (a member without a voice of their own is given one of the pool). */
  distinct?: DistinctVoices,
): Promise<SpeechRequest> {
  const settings = await settingsFor(store, guild, userId);
  if (distinct === undefined || userId === null || settings.sources.voice.kind === 'member')
    return ttsRequest(text, settings);
  const entry = await poolVoice(store, guild, saving, userId, distinct.speakingNow);
  if (entry === undefined) return ttsRequest(text, settings);
  const pool = parsePoolEntry(entry);
  return shifted(ttsRequest(text, inPoolVoice(settings, pool, guild)), pool.pitch);
}

/** The request with a variant's pitch shift among its effects (SayBot's own rendering, nothing more paid). */
function shifted(request: SpeechRequest, pitch: number | undefined): SpeechRequest {
  if (pitch === undefined || request.kind !== 'tts') return request;
  return { ...request, effects: quantiseEffects({ ...(request.effects ?? { speed: 1, volumeDb: 0 }), pitch }) };
}

/** A refusal as nothing; any other failure (the store's) thrown, never taken for one. */
function refusedOnly(error: unknown): undefined {
  if (!(error instanceof SpeechInputError)) throw error;
}

async function settingsFor(store: Store, guild: AutoreadGuild, userId: string | null): Promise<ResolvedSettings> {
  const query = { guildId: guild.id, userId, options: {}, guildLocale: guild.preferredLocale };
  return (await chooseSettings(store, query).catch(refusedOnly)) ?? resolveSettings(query);
}

/** The member's settings with their pool voice: its voice, its speed, and the server's language unless set. */
function inPoolVoice(settings: ResolvedSettings, pool: PoolVoice, guild: AutoreadGuild): ResolvedSettings {
  const { voice, speed = 1 } = pool;
  const language =
    settings.sources.language.kind === 'builtin' ? poolLanguage(guild.preferredLocale) : settings.language;
  return { ...settings, voice, speed: settings.speed * speed, ...(language === undefined ? {} : { language }) };
}

/**
 * The pool in force: the managers' voices the rule that saved them still keeps (`skipped`: those it would refuse now,
 * kept for the managers to see), else the default.
 */
export async function poolOf(
  store: Store,
  guild: AutoreadGuild,
  saving: Saving,
): Promise<{ voices: string[]; chosen: boolean; skipped: string[] }> {
  const stored = await store.autoReadMembers.pool(guild.id);
  const kept = await Promise.all(
    stored.map((entry) => usableVoice(store, guild.id, entry, saving, 'chosen').catch(refusedOnly)),
  );
  const [chosen, skipped] = [stored.filter((_, i) => kept[i]), stored.filter((_, i) => !kept[i])];
  if (chosen.length > 0) return { voices: chosen, chosen: true, skipped };
  const cloned = await store.voiceLibrary.list(guild.id, { limit: POOL_CLONED_MAX });
  const voices = defaultPool(
    guild.preferredLocale,
    saving.listed,
    cloned.map((voice) => voice.voiceId),
  );
  return { voices, chosen: false, skipped };
}

/** The member's pool voice: the one given while it stays in the pool, else one chosen now and kept. */
async function poolVoice(
  store: Store,
  guild: AutoreadGuild,
  saving: Saving,
  userId: string,
  speakingNow: ReadonlyMap<string, number>,
): Promise<string | undefined> {
  const [pool, given] = await Promise.all([
    poolOf(store, guild, saving),
    store.autoReadMembers.memberVoice(guild.id, userId),
  ]);
  if (given !== undefined && pool.voices.includes(given)) return given;
  const voice = chooseVoice(userId, pool.voices, speakingNow, await store.autoReadMembers.voiceCounts(guild.id));
  if (voice !== undefined) await store.autoReadMembers.assignVoice(guild.id, userId, voice, MEMBER_VOICES_MAX);
  return voice;
}

/** Which voice auto-read reads a member in, as /myvoice show tells them. */
export type AutoreadVoice =
  | { kind: 'own' | 'server' | 'pool'; voice: string }
  /** voices:distinct, and nothing given yet: their first message read decides. */
  | { kind: 'pool-pending' };

export async function autoreadVoiceOf(
  store: Store,
  guild: AutoreadGuild,
  saving: Saving,
  userId: string,
): Promise<AutoreadVoice> {
  const [settings, state] = await Promise.all([settingsFor(store, guild, userId), store.autoRead.get(guild.id)]);
  if (settings.sources.voice.kind === 'member') return { kind: 'own', voice: settings.voice };
  if (state.settings.voices === 'one') return { kind: 'server', voice: settings.voice };
  const [pool, given] = await Promise.all([
    poolOf(store, guild, saving),
    store.autoReadMembers.memberVoice(guild.id, userId),
  ]);
  return given !== undefined && pool.voices.includes(given) ? { kind: 'pool', voice: given } : { kind: 'pool-pending' };
}
