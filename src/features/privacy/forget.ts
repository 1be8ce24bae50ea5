import type { ClonedVoice, DeletedClonedVoice } from '../../core/store/voice-library-store.ts';
import type { ForgetResult } from '../../core/store/privacy-store.ts';
import type { Store } from '../../core/store/types.ts';

/** What deleting needs: the store, and the audio cache's purge of a deleted voice (SpeechPipeline.purgeVoice). */
export interface Forgetting {
  store: Store;
  purgeVoice(voiceId: string): Promise<number>;
  /** Removes soundboard sounds made from deleted voices; absent where there is no Discord to ask. */
  removeSounds?(guildId: string, soundIds: readonly string[]): Promise<void>;
  /** The bot's requests under way of those forgotten record their spends without the ID from now on. */
  anonymiseRequests?(guildId: string | undefined, userId?: string): void;
}

/** What a deletion did: its rows, and the cloned voices deleted with it. */
export interface ForgetReport extends ForgetResult {
  voices: ClonedVoice[];
}

/** Deletes a cloned voice from the library (with presets and defaults naming it) and its audio from the cache. */
export async function deleteClonedVoice(
  { store, purgeVoice, removeSounds }: Forgetting,
  guildId: string,
  voiceId: string,
): Promise<DeletedClonedVoice | undefined> {
  const deleted = await store.voiceLibrary.delete(guildId, voiceId);
  await purgeVoice(voiceId);
  if (deleted && deleted.soundsSaved.length > 0) await removeSounds?.(guildId, deleted.soundsSaved);
  return deleted;
}

/** Forgets a member in one guild or every guild: clones, rows, their ID elsewhere marked; the one path of /privacy
 * delete and `npm run forget`. The managers' records of them stay when the member asks, not for the operator. */
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

/** Forgets a whole guild: clones' audio purged, rows deleted, spends anonymised, sounds removed. */
export async function forgetGuild(deps: Forgetting, guildId: string): Promise<ForgetReport> {
  const voices = await deps.store.voiceLibrary.list(guildId);
  const sounds = await deps.store.voiceLibrary.savedSounds(guildId);
  for (const voice of voices) await deps.purgeVoice(voice.voiceId);
  deps.anonymiseRequests?.(guildId);
  const result = await deps.store.privacy.forgetGuild(guildId);
  if (sounds.length > 0) await deps.removeSounds?.(guildId, sounds);
  return { ...result, voices };
}
