// The interaction door, in the order each interaction meets it: received (Discord's 3 s and the token's 15 minutes
// counted from here), served here (SayBot stopping, a server the owner did not choose: answered before anything is
// looked up or paid), which command, its declared preconditions, run by the deadline, and what it threw worded as
// one message and one log line. Every decision on the way is taken in this file; the app hands it data.
import {
  ApplicationCommandType,
  MessageFlags,
  PermissionFlagsBits,
  type AutocompleteInteraction,
  type ButtonInteraction,
  type Interaction,
  type ModalSubmitInteraction,
} from 'discord.js';
import { t } from '../i18n/catalogue.ts';
import type { Logger } from '../log.ts';
import { Refusal } from '../refusal.ts';
import { noteReceived, responseStarted, sinceReceived, startResponse, watchToken } from './acknowledge.ts';
import type {
  AnsweredInteraction,
  AnyCommandModule,
  BotCommandInteraction,
  CommandContext,
  CommandModule,
  FormSubmitInteraction,
  MessageMenuModule,
  Requirements,
} from './command.ts';
import { commandNameOf, ownerOfCustomId } from './command-loader.ts';
import { UserError, type FailureWords } from './failures.ts';
import { UnmetError, type Unmet } from './preconditions.ts';
import { seesPlanFigures } from './plan-figures.ts';
import { NO_MENTIONS, showFailure } from './replies.ts';

/** What the app hands the door, all of it data: the commands, their services, the chosen servers, the words. */
export interface Door {
  commands: ReadonlyMap<string, AnyCommandModule>;
  context: CommandContext;
  /** ALLOWED_GUILDS, the servers the owner chose; absent: every server. */
  chosen: ReadonlySet<string> | undefined;
  /** Words for whatever a command throws (src/features/speaking/failure-words.ts). */
  describeFailure: FailureWords;
  /** Answers a press on a button no command owns (a reply's buttons, src/features/speaking/reply-buttons.ts). */
  otherButton: (interaction: ButtonInteraction, context: CommandContext) => Promise<unknown>;
}

/** One interaction through the door, top to bottom; whatever it throws ends in a message and a log line here. */
export async function handleInteraction(interaction: Interaction, door: Door, stopping: boolean): Promise<void> {
  // Received: Discord's 3 s and the token's 15 minutes are counted on our side from here.
  noteReceived(interaction);
  const { commands, context } = door;
  const log: Logger = context.logger;
  // Served here: not while stopping, nor in a server the owner did not choose, before anything is looked up or paid.
  if (stopping) return turnAway(interaction, 'stopping', door, log);
  if (!chosenByOwner(door.chosen, interaction.guildId)) return turnAway(interaction, 'guild-not-chosen', door, log);
  if (interaction.isAutocomplete())
    return autocomplete(interaction, slashCommandOf(commands, interaction.commandName), context);
  if (interaction.isButton()) {
    if (!(await handleCommandButton(interaction, commands, context))) await door.otherButton(interaction, context);
    return;
  }
  if (interaction.isModalSubmit()) {
    if (!isFormSubmit(interaction)) {
      log.warn(
        { code: 'form-outside-server', interactionId: interaction.id },
        'a form submitted outside a cached server channel: ignored',
      );
      return;
    }
    const command = slashCommandOf(commands, ownerOfCustomId(interaction.customId));
    await answer(interaction, command?.publicReply === true, door, async () => {
      if (!command?.modalSubmit) throw new Error(`no handler for the form "${interaction.customId}"`);
      await command.modalSubmit(interaction, servicesFor(context, command));
    });
    return;
  }
  if (!interaction.isChatInputCommand() && !interaction.isMessageContextMenuCommand()) return;

  const command = commandFor(commands, interaction);
  // A user-installed command where SayBot is no member (src/features/speaking/user-install.ts checks it).
  const outside =
    command !== undefined && interaction.isChatInputCommand() && !interaction.inCachedGuild() && !isMessageMenu(command)
      ? command.executeOutsideServer
      : undefined;
  await answer(
    interaction,
    command?.publicReply === true,
    door,
    async () => {
      if (!command) throw new Error(`no handler for command "${interaction.commandName}"`);
      if (outside && interaction.isChatInputCommand()) {
        await outside(interaction, servicesFor(context, command));
      } else {
        enforcePreconditions(interaction, command.requires);
        await execute(command, interaction, context);
      }
    },
    outside !== undefined,
  );
}

/** Whether SayBot may serve (and spend for) this server; no server (a DM) is USER_INSTALL's to decide. */
export function chosenByOwner(chosen: ReadonlySet<string> | undefined, guildId: string | null | undefined): boolean {
  return chosen === undefined || guildId === null || guildId === undefined || chosen.has(guildId);
}

/** Answers an interaction the door does not let in, privately in the member's language; autocomplete, no choices. */
async function turnAway(interaction: Interaction, code: 'stopping' | 'guild-not-chosen', door: Door, log: Logger) {
  // A server off the list is the owner's to see, one line each (docs/guide-owners.md); stop() logs the shutdown once.
  if (code === 'guild-not-chosen')
    log.info(
      { code: 'guild-not-allowed', guildId: interaction.guildId, userId: interaction.user.id },
      'interaction from a server not in ALLOWED_GUILDS refused',
    );
  if (interaction.isAutocomplete()) return void (await interaction.respond([]).catch(() => undefined));
  if (!interaction.isRepliable()) return;
  const { key, params } = door.describeFailure(new Refusal({ code })).message;
  const content = t(interaction.locale, key, params);
  await interaction
    .reply({ content, flags: MessageFlags.Ephemeral, allowedMentions: NO_MENTIONS })
    .catch((error: unknown) =>
      log.warn({ code: 'turned-away', guildId: interaction.guildId, err: error }, 'the refusal could not be sent'),
    );
}

/** How long a command may work before its first response, from receipt: Discord's 3 s count from creation. */
const ACKNOWLEDGE_WITHIN_MS = 1500;

/** What is left of ACKNOWLEDGE_WITHIN_MS since the interaction was received. */
const untilDeadline = (interaction: Interaction): number =>
  Math.max(0, ACKNOWLEDGE_WITHIN_MS - sinceReceived(interaction));

/** Autocomplete cannot be deferred: its command's choices, or past ACKNOWLEDGE_WITHIN_MS an empty list, once. */
async function autocomplete(
  interaction: AutocompleteInteraction,
  command: CommandModule | undefined,
  context: CommandContext,
): Promise<void> {
  const log = context.logger;
  const started = performance.now();
  let answered = false;
  const respond = interaction.respond.bind(interaction);
  interaction.respond = async (choices) => {
    if (answered) return;
    answered = true;
    await respond(choices);
  };
  const timer = setTimeout(() => {
    if (answered) return;
    log.info(
      { code: 'autocomplete-late', command: interaction.commandName, interactionId: interaction.id },
      'autocomplete too slow: answered with no choices',
    );
    interaction
      .respond([])
      .catch((error: unknown) =>
        log.warn(
          { code: 'autocomplete-failed', err: error, interactionId: interaction.id },
          'could not answer a slow autocomplete',
        ),
      );
  }, untilDeadline(interaction));
  try {
    if (!command?.autocomplete || !interaction.inCachedGuild()) await interaction.respond([]);
    else await command.autocomplete(interaction, servicesFor(context, command));
    // The whole answer, Discord's callback included; logged, never asserted.
    log.debug(
      { command: interaction.commandName, ms: Math.round(performance.now() - started) },
      'autocomplete answered',
    );
  } catch (error) {
    log.warn({ err: error, command: interaction.commandName, guildId: interaction.guildId }, 'autocomplete failed');
    // Autocomplete answers once and quickly; an empty list beats Discord's "loading options failed".
    if (!interaction.responded) await interaction.respond([]).catch(() => undefined);
  } finally {
    clearTimeout(timer);
  }
}

/** Defers if the command has not answered within ACKNOWLEDGE_WITHIN_MS ("thinking…"); returns the cancel. */
export function acknowledgeByDeadline(interaction: AnsweredInteraction, ephemeral: boolean, log: Logger): () => void {
  const timer = setTimeout(() => {
    // The command's own first response went first (or is on its way): nothing to defer.
    if (responseStarted(interaction)) return;
    const sent = startResponse(interaction, () =>
      interaction.deferReply(ephemeral ? { flags: MessageFlags.Ephemeral } : {}),
    );
    log.info(
      { code: 'acknowledged-by-deadline', command: commandNameOf(interaction), interactionId: interaction.id },
      'command still working: deferred its reply',
    );
    sent.catch((error: unknown) =>
      log.warn({ code: 'defer-failed', err: error, interactionId: interaction.id }, 'could not defer a slow command'),
    );
  }, untilDeadline(interaction));
  return () => clearTimeout(timer);
}

/** Runs a command (or its form's submit) within Discord's deadlines: one log line, its count, any failure shown. */
async function answer(
  interaction: AnsweredInteraction,
  publicReply: boolean,
  { context, describeFailure }: Door,
  run: () => Promise<void>,
  outsideServer = false,
): Promise<void> {
  const log: Logger = context.logger;
  const name = commandNameOf(interaction);
  const started = performance.now();
  watchToken(interaction, log);
  // Whatever the command waits for (the store, a download), Discord hears from us within its 3 s.
  const cancelDeadline = acknowledgeByDeadline(interaction, !publicReply, log);
  try {
    await run();
    log.info(
      {
        command: name,
        guildId: interaction.guildId,
        userId: interaction.user.id,
        ms: Math.round(performance.now() - started),
      },
      'command done',
    );
    context.metrics?.command(name, 'ok');
  } catch (error) {
    // What the user can fix (or chose) is a refusal; the service's, Discord's or our own trouble is a failure.
    const failure = describeFailure(error, {
      planFigures: seesPlanFigures(interaction, context.isOperator),
      outsideServer,
    });
    context.metrics?.command(name, failure.level === 'info' ? 'refused' : 'failed');
    await showFailure(interaction, error, failure, log);
  } finally {
    cancelDeadline();
  }
}

/** A command's form is shown in a server channel the bot is in; a submit from anywhere else is none of ours. */
function isFormSubmit(interaction: ModalSubmitInteraction): interaction is FormSubmitInteraction<'cached'> {
  return interaction.inCachedGuild() && interaction.channelId !== null;
}

function slashCommandOf(commands: ReadonlyMap<string, AnyCommandModule>, name: string): CommandModule | undefined {
  const found = commands.get(name);
  return found === undefined || isMessageMenu(found) ? undefined : found;
}

/** A press on a command's own button (`<command>:…`); false when none owns it. A failure is Discord's: logged. */
async function handleCommandButton(
  interaction: ButtonInteraction,
  commands: ReadonlyMap<string, AnyCommandModule>,
  context: CommandContext,
): Promise<boolean> {
  const command = slashCommandOf(commands, ownerOfCustomId(interaction.customId));
  if (!command?.button || !interaction.inCachedGuild()) return false;
  try {
    await command.button(interaction, servicesFor(context, command));
    context.logger.info(
      {
        code: 'command-button',
        button: interaction.customId,
        guildId: interaction.guildId,
        userId: interaction.user.id,
      },
      'command button done',
    );
  } catch (error) {
    context.logger.warn(
      { code: 'command-button-failed', button: interaction.customId, guildId: interaction.guildId, err: error },
      'command button failed',
    );
  }
  return true;
}

/** The module that answers `interaction`: the one of that name, if it is of the interaction's kind. */
function commandFor(
  commands: ReadonlyMap<string, AnyCommandModule>,
  interaction: BotCommandInteraction,
): AnyCommandModule | undefined {
  const command = commands.get(interaction.commandName);
  if (command === undefined) return undefined;
  return isMessageMenu(command) === interaction.isMessageContextMenuCommand() ? command : undefined;
}

export function isMessageMenu(command: AnyCommandModule): command is MessageMenuModule {
  return command.data.type === ApplicationCommandType.Message;
}

/** Only the services `command` declares it uses: what its handlers are given. */
export function servicesFor(context: CommandContext, command: AnyCommandModule): CommandContext {
  const given: Partial<Record<keyof CommandContext, unknown>> = {};
  for (const service of command.uses) if (service in context) given[service] = context[service];
  // Its handlers' own types (Services<Uses>) keep them to these; the rest is absent at run time too.
  return given as CommandContext;
}

/** Runs the module on the interaction of its own kind (commandFor matched them). */
function execute(
  command: AnyCommandModule,
  interaction: BotCommandInteraction<'cached'>,
  context: CommandContext,
): Promise<void> {
  const services = servicesFor(context, command);
  if (isMessageMenu(command) && interaction.isMessageContextMenuCommand())
    return command.execute(interaction, services);
  if (!isMessageMenu(command) && interaction.isChatInputCommand()) return command.execute(interaction, services);
  throw new Error(
    `command "${interaction.commandName}" is not a ${interaction.isChatInputCommand() ? 'slash command' : 'message menu'}`,
  );
}

/** What the preconditions are checked against, read from the interaction. */
export interface Facts {
  inGuild: boolean;
  subcommand: string | null;
  manageGuild: boolean;
  inVoice: boolean;
}

/** The first precondition `facts` fail; undefined when all hold. */
export function unmetPrecondition(requires: Requirements | undefined, facts: Facts): Unmet | undefined {
  if (!facts.inGuild) return { code: 'guild-only' };
  const sub = facts.subcommand === null ? undefined : requires?.subcommands?.[facts.subcommand];
  for (const p of [requires, sub]) {
    if (p?.manageGuild && !facts.manageGuild)
      return p.manageGuild === true
        ? { code: 'manage-server' }
        : { code: 'manage-server', refusal: p.manageGuild.refusal };
  }
  for (const p of [requires, sub]) {
    if (p?.inVoice && !facts.inVoice) return { code: 'not-in-voice' };
  }
  return undefined;
}

/** The one place preconditions are enforced (Requirements, declared by each command): it runs only when they hold. */
function enforcePreconditions(
  interaction: BotCommandInteraction,
  requires: Requirements | undefined,
): asserts interaction is BotCommandInteraction<'cached'> {
  const inGuild = interaction.inCachedGuild();
  const refusal = unmetPrecondition(requires, {
    inGuild,
    subcommand: interaction.isChatInputCommand() ? interaction.options.getSubcommand(false) : null,
    manageGuild: interaction.memberPermissions?.has(PermissionFlagsBits.ManageGuild) ?? false,
    inVoice: inGuild && interaction.member.voice.channelId !== null,
  });
  if (refusal === undefined) return;
  // A command's own words for it are the command's to give.
  if (refusal.code === 'manage-server' && refusal.refusal !== undefined) throw new UserError(refusal.refusal);
  throw new UnmetError(refusal);
}
