import { openSqliteStore } from '../../src/app/store.ts';
import type { Store } from '../../src/core/store/types.ts';

export const SEED_MONTH = '2025-03';
export const SEED_AT = new Date('2025-03-10T12:00:00Z');

/** Everything a member can leave behind in a guild, through the Store's own methods. */
export async function seedMemberTraces(store: Store, guildId: string, userId: string, tag: string): Promise<void> {
  await store.memberDefaults.set(guildId, userId, { voice: 'voice-b-ko-f-01' });
  await store.outputDefaults.setMember(guildId, userId, 'voice-message');
  await store.outputDefaults.setServer(guildId, 'file', userId);
  await store.presets.save({ guildId, name: `p-${tag}`, voice: 'voice-b-ko-f-01', createdBy: userId });
  await store.presets.setDefault(guildId, `p-${tag}`);
  await store.dictionary.put(guildId, `word${tag}`, 'reading', userId);
  await store.voiceLibrary.add({
    guildId,
    name: `v-${tag}`,
    voiceId: `voice-${guildId}-${tag}`,
    createdBy: userId,
    clipSeconds: 10,
  });
  await store.voiceLibrary.reserveName({ guildId, name: `r-${tag}`, reservedBy: userId, ttlMs: 3_600_000 });
  await store.spends.record({
    at: SEED_AT,
    guildId,
    userId,
    command: 'say',
    endpoint: 'tts',
    characters: 10,
    cached: false,
  });
  await store.spends.record({
    at: SEED_AT,
    guildId,
    userId,
    command: 'say',
    endpoint: 'tts',
    characters: 4,
    cached: true,
  });
  await store.budgets.hold({ guildId, userId, characters: 5, limits: {}, ttlMs: 3_600_000 });
  await store.budgets.set(guildId, { guildMonthlyChars: 1000 }, userId);
  await store.autoRead.start(guildId, {
    textChannelId: '400000000000000001',
    voiceChannelId: '400000000000000002',
    startedBy: userId,
  });
  await store.autoRead.setSettings(guildId, { maxLength: 100 }, userId);
  await store.autoReadMembers.addToPool(guildId, 'voice-b-ko-m-01', userId, 25);
  await store.autoReadMembers.assignVoice(guildId, userId, 'voice-b-ko-m-01', 5000);
  await store.autoReadMembers.ignore(guildId, userId, userId, 200);
}

/** seedMemberTraces on a second connection to a bot's own SQLite file (the harness's databasePath). */
export async function seedMemberTracesInFile(
  databasePath: string,
  guildId: string,
  userId: string,
  tag: string,
): Promise<void> {
  const store = openSqliteStore(databasePath);
  try {
    await seedMemberTraces(store, guildId, userId, tag);
  } finally {
    await store.close();
  }
}
