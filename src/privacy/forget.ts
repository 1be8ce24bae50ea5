import type { ClonedVoice, ForgetResult, Store } from '../store/types.ts';

/** What deleting needs: the store, and the audio cache's purge of a deleted voice (SpeechPipeline.purgeVoice). */
export interface Forgetting {
  store: Store;
  purgeVoice(voiceId: string): Promise<number>;
}

/** What a deletion did: its rows, and the cloned voices deleted with it. */
export interface ForgetReport extends ForgetResult {
  voices: ClonedVoice[];
}

/**
 * Deletes a cloned voice: from the library (with the presets that speak with it and member defaults naming it)
 * and its audio from the cache, so that no one hears it again. /voices delete and every deletion below use it.
 */
export async function deleteClonedVoice({ store, purgeVoice }: Forgetting, guildId: string, voiceId: string): Promise<void> {
  await store.voiceLibrary.delete(guildId, voiceId);
  await purgeVoice(voiceId);
}

/**
 * Forgets a member (issue 22, point 5) in one guild, or in every guild (guildId undefined, the operator): the
 * voices they cloned deleted first, then their rows deleted and their ID elsewhere replaced by a marker
 * (store.privacy.forgetMember, src/store/forget-plan.ts). The one code path of /privacy delete and `npm run forget`.
 */
export async function forgetMember(deps: Forgetting, userId: string, guildId?: string): Promise<ForgetReport> {
  const voices = await deps.store.privacy.clonedVoicesOf(userId, guildId);
  for (const voice of voices) await deleteClonedVoice(deps, voice.guildId, voice.voiceId);
  return { ...(await deps.store.privacy.forgetMember(userId, guildId)), voices };
}

/** Forgets a whole guild: its cloned voices' audio purged, its rows deleted, its spends anonymised. */
export async function forgetGuild(deps: Forgetting, guildId: string): Promise<ForgetReport> {
  const voices = await deps.store.voiceLibrary.list(guildId);
  for (const voice of voices) await deps.purgeVoice(voice.voiceId);
  return { ...(await deps.store.privacy.forgetGuild(guildId)), voices };
}
