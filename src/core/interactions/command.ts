// The contract of a command module and what it is handed: types only, shared without importing each other's code.
import { type PresetVoice } from '../voice-catalogue/voices.ts';
import type {
  ApplicationCommandType,
  AutocompleteInteraction,
  ButtonInteraction,
  CacheType,
  ChatInputCommandInteraction,
  MessageContextMenuCommandInteraction,
  ModalSubmitInteraction,
  RESTPostAPIChatInputApplicationCommandsJSONBody,
  RESTPostAPIContextMenuApplicationCommandsJSONBody,
} from 'discord.js';
import type { Config } from '../config.ts';
import type { FreeVoiceRules } from '../free-voice/free-voice-engine.ts';
import type { Logger } from '../log.ts';
import type { Metrics } from '../metrics/metrics.ts';
import type { Accounting } from '../quota/accounting.ts';
import type { SpeechPipeline } from '../order/pipeline.ts';
import type { Store } from '../store/types.ts';
import type { EnginePort } from '../sourcing/engine-port.ts';
import type { GuildReading, Seats } from '../voice/seats.ts';
import type { MessageKey } from '../i18n/catalogue.ts';

/** What must hold for a command, or one of its subcommands, to run. Every command runs only in a server. */
export interface Preconditions {
  /** The member needs Manage Server, checked on every use (an admin may widen who sees a command, not who may do this). */
  manageGuild?: true | { refusal: MessageKey };
  /** The member must be in one of the server's voice channels. */
  inVoice?: true;
}

/** A command's declared preconditions (`export const requires` in commands/*.ts). */
export interface Requirements extends Preconditions {
  /** Per subcommand, in addition to the command's own (e.g. /preset save changes the server; /preset list does not). */
  subcommands?: Readonly<Record<string, Preconditions>>;
  /** Shown only to Manage Server until an admin widens it in Integrations; nothing more is checked (/clone). */
  adminsByDefault?: true;
}

/** A message context menu's: it has no subcommands. */
export type MenuRequirements = Omit<Requirements, 'subcommands'>;

/** Where the bot reads aloud, by guild (GuildReading); a member elsewhere may not pull it out of those channels. */
export type ChannelReading = ReadonlyMap<string, GuildReading>;

/** Every service a command may ask for, given only as its `uses` say (router.ts); features add theirs by merging. */
export interface CommandContext {
  /** The one way from a request to audio (src/core/order/pipeline.ts): commands call it, then word its outcome. */
  speech: SpeechPipeline;
  /** Where this bot reads channels aloud; absent where a test runs commands without a bot. */
  reading?: ChannelReading;
  /** The budgets in force and /usage (the pipeline checks and records spends itself). */
  accounting: Accounting;
  /** Every bot's seats: which speaks for a member (targets, src/core/voice/seats.ts), /skip, /stop, /join, /leave. */
  seats: Seats;
  logger: Logger;
  /** The operator's configuration a command needs (src/core/config.ts), validated at start-up. */
  config: Pick<Config, 'maxCharsPerRequest' | 'clipDownload' | 'queue' | 'userInstall'> & { freeVoice: FreeVoiceRules };
  /** Presets, member defaults, the server's voice library (its cloned voices). */
  store: Store;
  /** The preset voices on offer: the documented ones and the operator's (VOICES_FILE). */
  voices: readonly PresetVoice[];
  /** The owner's speech engines (VOICEVOX_URL, SPEECH_SERVER_URL) and the voices they offer now; absent: none set. */
  engines?: EnginePort | undefined;
  /** Counts each command by how it ended; absent when the operator serves no metrics. */
  metrics?: Pick<Metrics, 'command'> | undefined;
  /** Whether a user owns the bot's application (the operator, who may see the whole plan's figures); absent: nobody. */
  isOperator?: (userId: string) => boolean;
}

/** A service a command may ask for: a field of CommandContext. */
export type ServiceName = keyof CommandContext;

/** What a command is given: only the services in its `uses`. */
export type Services<Uses extends ServiceName> = Pick<CommandContext, Uses>;

/** The interactions routed to a command module: a slash command, or a message context menu ("Speak"). */
export type BotCommandInteraction<Cached extends CacheType = CacheType> =
  ChatInputCommandInteraction<Cached> | MessageContextMenuCommandInteraction<Cached>;

/** A command, or the submit of a form it showed (custom_id `<command name>:`): they answer alike. */
export type AnsweredInteraction<Cached extends CacheType = CacheType> =
  BotCommandInteraction<Cached> | FormSubmitInteraction<Cached>;

/** The submit of a command's form, which is shown in a channel of a server: its channel is known (router.ts checks). */
export type FormSubmitInteraction<Cached extends CacheType = CacheType> = ModalSubmitInteraction<Cached> & {
  channelId: string;
};

/** A slash command module in commands/: the discord.js guide's `data` + `execute` (+ `autocomplete`) and its `uses`. */
export interface CommandModule<Uses extends ServiceName = ServiceName> {
  /** A slash command builder: it has no `type` (Discord's default, CHAT_INPUT), which tells it from a menu. */
  data: { readonly name: string; readonly type?: undefined; toJSON(): RESTPostAPIChatInputApplicationCommandsJSONBody };
  /** What must hold before `execute` runs (Manage Server, in voice), checked in router.ts, answered as an Unmet. */
  requires?: Requirements;
  /** The services its handlers use: the router gives them these and no other. */
  uses: readonly Uses[];
  execute(interaction: ChatInputCommandInteraction<'cached'>, context: Services<Uses>): Promise<void>;
  /** For a user-installable command outside a server it is in (src/features/speaking/user-install.ts). */
  executeOutsideServer?(interaction: ChatInputCommandInteraction, context: Services<Uses>): Promise<void>;
  autocomplete?(interaction: AutocompleteInteraction<'cached'>, context: Services<Uses>): Promise<void>;
  /** Its result is shown to the channel (a public reply); otherwise only to the caller. */
  publicReply?: boolean;
  /** A press on one of its buttons (custom_id `<command name>:…`), answered at once (a modal cannot follow a deferral). */
  button?(interaction: ButtonInteraction<'cached'>, context: Services<Uses>): Promise<void>;
  /** The submit of its form (a modal whose custom_id is `<command name>:…`), routed and answered as the command is. */
  modalSubmit?(interaction: FormSubmitInteraction<'cached'>, context: Services<Uses>): Promise<void>;
}

/** A message context menu module ("Speak"), found by its English name; only command-level preconditions apply. */
export interface MessageMenuModule<Uses extends ServiceName = ServiceName> {
  data: {
    readonly name: string;
    readonly type: ApplicationCommandType.Message;
    toJSON(): RESTPostAPIContextMenuApplicationCommandsJSONBody;
  };
  requires?: MenuRequirements;
  /** The services its handler uses: the router gives it these and no other. */
  uses: readonly Uses[];
  execute(interaction: MessageContextMenuCommandInteraction<'cached'>, context: Services<Uses>): Promise<void>;
  publicReply?: boolean;
}

/** Any module the loader accepts; `data.type` tells them apart. */
export type AnyCommandModule = CommandModule | MessageMenuModule;
