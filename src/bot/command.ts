import type {
  AutocompleteInteraction,
  ChatInputCommandInteraction,
  RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';
import type { Config } from '../config.ts';
import type { Logger } from '../log.ts';
import type { Metrics } from '../metrics/metrics.ts';
import type { Accounting } from '../quota/accounting.ts';
import type { SpeechPipeline } from '../speech/pipeline.ts';
import type { Store } from '../store/types.ts';
import type { PresetVoice } from '../voices/catalogue.ts';
import type { PlayerRegistry } from '../voice/player-registry.ts';
import type { Requirements } from './preconditions.ts';

/** What every command handler may use. Commands hold only what is particular to them. */
export interface CommandContext {
  /** The one way from a request to audio (src/speech/pipeline.ts): commands call it, then word its outcome. */
  speech: SpeechPipeline;
  /** The budgets in force and /usage (the pipeline checks and records spends itself). */
  accounting: Accounting;
  /** Each guild's player: where the bot is and whether it is busy (targets), /skip, /stop, /join, /leave. */
  players: PlayerRegistry;
  logger: Logger;
  settings: Pick<Config, 'maxCharsPerRequest' | 'clipDownload'>;
  /** Presets, member defaults, the voice library. */
  store: Store;
  /** The preset voices on offer: the documented ones and the operator's (VOICES_FILE). */
  voices: readonly PresetVoice[];
  /** Counts each command by how it ended; absent when the operator serves no metrics. */
  metrics?: Pick<Metrics, 'command'>;
}

/** The shape of a module in commands/: the discord.js guide's `data` + `execute` (+ `autocomplete`). */
export interface CommandModule {
  data: { readonly name: string; toJSON(): RESTPostAPIChatInputApplicationCommandsJSONBody };
  /** What must hold before `execute` runs (Manage Server, in voice), checked and answered in preconditions.ts. */
  requires?: Requirements;
  execute(interaction: ChatInputCommandInteraction<'cached'>, context: CommandContext): Promise<void>;
  autocomplete?(interaction: AutocompleteInteraction<'cached'>, context: CommandContext): Promise<void>;
  /** Its result is shown to the channel (a public reply); otherwise only to the caller. */
  publicReply?: boolean;
}

export function isCommandModule(value: unknown): value is CommandModule {
  if (typeof value !== 'object' || value === null) return false;
  const m = value as Partial<Record<keyof CommandModule, unknown>>;
  const data = m.data as { name?: unknown; toJSON?: unknown } | undefined;
  return (
    typeof data === 'object' &&
    typeof data.name === 'string' &&
    typeof data.toJSON === 'function' &&
    typeof m.execute === 'function' &&
    (m.autocomplete === undefined || typeof m.autocomplete === 'function') &&
    (m.requires === undefined || (typeof m.requires === 'object' && m.requires !== null))
  );
}
