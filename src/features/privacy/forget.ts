import type { ClonedVoice } from '../../core/store/voice-library-store.ts';
import type { ForgetResult } from '../../core/store/privacy-store.ts';
import type { Store } from '../../core/store/types.ts';

/** What deleting needs: the store, and the audio cache's purge of a deleted voice (SpeechPipeline.purgeVoice). */
export interface Forgetting {
  store: Store;
  purgeVoice(voiceId: string): Promise<number>;
  /**
   * Removes the soundboard sounds "Save as sound" made from deleted voices (src/features/speaking/soundboard.ts); absent
   * where there is no Discord to ask (`npm run forget`, a server SayBot was removed from).
   */
  removeSounds?(guildId: string, soundIds: readonly string[]): Promise<void>;
  /**
   * The bot's requests still under way of those forgotten record their spends without the ID from now on
   * (Accounting.anonymiseRequests; no userId: the whole guild; no guildId: the member everywhere).
   */
  anonymiseRequests?(guildId: string | undefined, userId?: string): void;
}

/** What a deletion did: its rows, and the cloned voices deleted with it. */
export interface ForgetReport extends ForgetResult {
  voices: ClonedVoice[];
}

/**
 * Deletes a cloned voice: from the library (with the presets that speak with it and member defaults naming it)
 * and its audio from the cache, so that no one hears it again. /voices delete and every deletion below use it.
 */
export async function deleteClonedVoice(
  { store, purgeVoice, removeSounds }: Forgetting,
  guildId: string,
  voiceId: string,
): Promise<void> {
  const deleted = await store.voiceLibrary.delete(guildId, voiceId);
  await purgeVoice(voiceId);
  if (deleted && deleted.soundsSaved.length > 0) await removeSounds?.(guildId, deleted.soundsSaved);
}

/**
 * Forgets a member in one guild, or in every guild (guildId undefined, the operator): the
 * voices they cloned deleted first, then their rows deleted and their ID elsewhere replaced by a marker
 * (store.privacy.forgetMember, src/core/store/forget-plan.ts). The one code path of /privacy delete and `npm run
 * forget`. The managers' records about the member (auto-read's ignore) stay when the member asks (`by` 'member'),
 * or they would lift them themselves; the operator's deletion erases them too.
 */
export async function forgetMember(
  deps: Forgetting,
  userId: string,
  guildId?: string,
  by: 'member' | 'operator' = 'member',
): Promise<ForgetReport> {
  const voices = await deps.store.privacy.clonedVoicesOf(userId, guildId);
  for (const voice of voices) await deleteClonedVoice(deps, voice.guildId, voice.voiceId);
  deps.anonymiseRequests?.(guildId, userId);
  return { ...(await deps.store.privacy.forgetMember(userId, guildId, new Date(), by)), voices };
}

/**
 * Forgets a whole guild: its cloned voices' audio purged, its rows deleted, its spends anonymised, their sounds
 * removed.
 */
export async function forgetGuild(deps: Forgetting, guildId: string): Promise<ForgetReport> {
  const voices = await deps.store.voiceLibrary.list(guildId);
  const sounds = await deps.store.voiceLibrary.savedSounds(guildId);
  for (const voice of voices) await deps.purgeVoice(voice.voiceId);
  deps.anonymiseRequests?.(guildId);
  const result = await deps.store.privacy.forgetGuild(guildId);
  if (sounds.length > 0) await deps.removeSounds?.(guildId, sounds);
  return { ...result, voices };
}
