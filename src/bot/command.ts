import {
  ApplicationCommandType,
  type AutocompleteInteraction,
  type CacheType,
  type ChatInputCommandInteraction,
  type MessageContextMenuCommandInteraction,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
  type RESTPostAPIContextMenuApplicationCommandsJSONBody,
} from 'discord.js';
import type { Config } from '../config.ts';
import type { Logger } from '../log.ts';
import type { Metrics } from '../metrics/metrics.ts';
import type { Accounting } from '../quota/accounting.ts';
import type { SpeechPipeline } from '../speech/pipeline.ts';
import type { Store } from '../store/types.ts';
import type { PresetVoice } from '../voices/catalogue.ts';
import type { PlayerRegistry } from '../voice/player-registry.ts';
import type { AutoreadControl } from './autoread-wiring.ts';
import type { ReplyAudioRegistry } from './reply-audio.ts';
import type { MenuRequirements, Requirements } from './preconditions.ts';

/** What every command handler may use. Commands hold only what is particular to them. */
export interface CommandContext {
  /** The one way from a request to audio (src/speech/pipeline.ts): commands call it, then word its outcome. */
  speech: SpeechPipeline;
  /** Auto-read in this bot (/autoread, /dictionary); absent where a test runs commands without a bot. */
  autoread?: AutoreadControl;
  /** The budgets in force and /usage (the pipeline checks and records spends itself). */
  accounting: Accounting;
  /** Each guild's player: where the bot is and whether it is busy (targets), /skip, /stop, /join, /leave. */
  players: PlayerRegistry;
  logger: Logger;
  settings: Pick<Config, 'maxCharsPerRequest' | 'clipDownload' | 'queue' | 'userInstall'>;
  /** Presets, member defaults, the voice library. */
  store: Store;
  /** The preset voices on offer: the documented ones and the operator's (VOICES_FILE). */
  voices: readonly PresetVoice[];
  /** What a reply's buttons replay (reply-buttons.ts); absent: replies carry no buttons. */
  replyAudio?: ReplyAudioRegistry;
  /** Counts each command by how it ended; absent when the operator serves no metrics. */
  metrics?: Pick<Metrics, 'command'>;
}

/** The interactions routed to a command module: a slash command, or a message context menu ("Speak"). */
export type BotCommandInteraction<Cached extends CacheType = CacheType> =
  | ChatInputCommandInteraction<Cached>
  | MessageContextMenuCommandInteraction<Cached>;

/** A slash command module in commands/: the discord.js guide's `data` + `execute` (+ `autocomplete`). */
export interface CommandModule {
  /** A slash command builder: it has no `type` (Discord's default, CHAT_INPUT), which tells it from a menu. */
  data: { readonly name: string; readonly type?: undefined; toJSON(): RESTPostAPIChatInputApplicationCommandsJSONBody };
  /** What must hold before `execute` runs (Manage Server, in voice), checked and answered in preconditions.ts. */
  requires?: Requirements;
  execute(interaction: ChatInputCommandInteraction<'cached'>, context: CommandContext): Promise<void>;
  /**
   * Where SayBot is not a server member (DMs, group DMs, servers without it), for a user-installable command
   * (USER_INSTALL, src/bot/user-install.ts); without it the command works only in a server.
   */
  executeOutsideServer?(interaction: ChatInputCommandInteraction, context: CommandContext): Promise<void>;
  autocomplete?(interaction: AutocompleteInteraction<'cached'>, context: CommandContext): Promise<void>;
  /** Its result is shown to the channel (a public reply); otherwise only to the caller. */
  publicReply?: boolean;
}

/**
 * A message context menu module in commands/ ("Speak"): found by its English name, as Discord sends it; it has a
 * name and no description or options, so only the command-level preconditions apply.
 */
export interface MessageMenuModule {
  data: { readonly name: string; readonly type: ApplicationCommandType.Message; toJSON(): RESTPostAPIContextMenuApplicationCommandsJSONBody };
  requires?: MenuRequirements;
  execute(interaction: MessageContextMenuCommandInteraction<'cached'>, context: CommandContext): Promise<void>;
  publicReply?: boolean;
}

/** Any module the loader accepts; `data.type` tells them apart. */
export type AnyCommandModule = CommandModule | MessageMenuModule;

export function isMessageMenu(command: AnyCommandModule): command is MessageMenuModule {
  return command.data.type === ApplicationCommandType.Message;
}

/** The module that answers `interaction`: the one of that name, if it is of the interaction's kind. */
export function commandFor(
  commands: ReadonlyMap<string, AnyCommandModule>,
  interaction: BotCommandInteraction,
): AnyCommandModule | undefined {
  const command = commands.get(interaction.commandName);
  if (command === undefined) return undefined;
  return isMessageMenu(command) === interaction.isMessageContextMenuCommand() ? command : undefined;
}

export function isCommandModule(value: unknown): value is AnyCommandModule {
  if (typeof value !== 'object' || value === null) return false;
  const m = value as Partial<Record<keyof CommandModule, unknown>>;
  const data = m.data as { name?: unknown; type?: unknown; toJSON?: unknown } | undefined;
  return (
    typeof data === 'object' &&
    typeof data.name === 'string' &&
    typeof data.toJSON === 'function' &&
    (data.type === undefined || data.type === ApplicationCommandType.Message) &&
    typeof m.execute === 'function' &&
    (m.autocomplete === undefined || (data.type === undefined && typeof m.autocomplete === 'function')) &&
    (m.requires === undefined || (typeof m.requires === 'object' && m.requires !== null))
  );
}
