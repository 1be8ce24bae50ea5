// What the commands may do with auto-read: type-only, so the command contract does not import the wiring.
import type { Guild } from 'discord.js';
import type { ChannelReading } from '../../core/interactions/command.ts';
import type { AutoReadSettings } from './store/auto-read-store.ts';
import type { DictionaryEntry } from './dictionary/dictionary.ts';

declare module '../../core/interactions/command.ts' {
  interface CommandContext {
    /** Auto-read in this bot; absent where a test runs commands without a bot. */
    autoread?: AutoreadControl;
  }
}

/** What the commands may do with auto-read. */
export interface AutoreadControl extends ChannelReading {
  /** Discord gave the Message Content intent: without it no chat reaches the bot. */
  readonly available: boolean;
  isReading(guildId: string): boolean;
  /** Stops reading, binding kept (a manager's /leave); resolves once the status is cleared, while the bot is there. */
  pause(guildId: string): Promise<boolean>;
  /** Reads again a binding kept for this voice channel (the bot already there); its text channel, else undefined. */
  resume(guildId: string, voiceChannelId: string): Promise<string | undefined>;
  /** Joins `voiceChannelId`, binds the channels and starts reading; a failed join throws and nothing is stored. */
  start(guild: Guild, binding: { textChannelId: string; voiceChannelId: string; startedBy: string }): Promise<void>;
  /** Stops reading (store and reader); false when the guild was not reading. */
  stop(guildId: string): Promise<boolean>;
  /** New settings from the next message on. */
  configure(guildId: string, settings: AutoReadSettings): void;
  /** A changed dictionary, from the next message on. */
  setDictionary(guildId: string, entries: readonly DictionaryEntry[]): void;
  /** The members the managers had it ignore (the store's list), from the next message on. */
  setIgnored(guildId: string, userIds: readonly string[]): void;
  /** Forgets a member in one guild or every guild; by the operator (npm run forget), their ignore too. */
  forgetMember(userId: string, guildId?: string, by?: 'member' | 'operator'): void;
  /** The members auto-read remembers anything of in memory (ignored, read lately), in one guild or every one. */
  membersHeld(guildId?: string): Iterable<string>;
}
