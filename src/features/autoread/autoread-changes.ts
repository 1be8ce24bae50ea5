// Auto-read's settings or ignore list changed outside its command: the shard that reads the guild reloads them.
import type { Store } from '../../core/store/types.ts';
import type { AutoreadControl } from './autoread-control.ts';

/** Tells a process its reader should reload a guild's settings and ignore list: a change from another shard. */
export const AUTOREAD_CHANGED_EVENT = 'saybotAutoreadChanged';

/** After a change: the reader in this process reads with the stored settings and ignore list from the next message. */
export async function refreshAutoread(
  store: Store,
  autoread: AutoreadControl | undefined,
  guildId: string,
): Promise<void> {
  if (autoread === undefined) return;
  const [state, ignored] = await Promise.all([store.autoRead.get(guildId), store.autoReadMembers.ignored(guildId)]);
  autoread.configure(guildId, state.settings);
  autoread.setIgnored(guildId, ignored);
}
