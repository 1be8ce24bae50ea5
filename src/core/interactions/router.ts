// Each interaction to its command: noted as it arrives, its declared preconditions checked, run within Discord's
// deadlines; whatever it throws ends here as one message and one log line.
import { PermissionFlagsBits, type ButtonInteraction, type Interaction, type ModalSubmitInteraction } from 'discord.js';
import type { Logger } from '../log.ts';
import { acknowledgeByDeadline, answerAutocompleteByDeadline, noteReceived, watchToken } from './acknowledge.ts';
import type {
  AnsweredInteraction,
  AnyCommandModule,
  BotCommandInteraction,
  CommandContext,
  CommandModule,
  FormSubmitInteraction,
  Requirements,
} from './command.ts';
import { commandFor, isMessageMenu, ownerOfCustomId, servicesFor } from './command-loader.ts';
import { UserError, type FailureWords } from './failures.ts';
import { UnmetError, type Unmet } from './preconditions.ts';
import { seesPlanFigures } from './plan-figures.ts';
import { showFailure } from './replies.ts';

/** What the features give the router: the words of a failure, and who answers a button no command owns. */
interface RouterFeatures {
  /** Words for whatever a command throws (src/features/speaking/failure-words.ts). */
  describeFailure: FailureWords;
  /** A press on a button no command owns (a reply's buttons): the feature that made it answers it. */
  otherButton(interaction: ButtonInteraction, context: CommandContext): Promise<unknown>;
}

/** Routes one interaction to its command; whatever it throws ends in a message and a log line here. */
export async function handleInteraction(
  interaction: Interaction,
  commands: ReadonlyMap<string, AnyCommandModule>,
  context: CommandContext,
  features: RouterFeatures,
): Promise<void> {
  const { otherButton, describeFailure } = features;
  // First of all: Discord's 3 s and the token's 15 minutes are counted on our side from here.
  noteReceived(interaction);
  const log: Logger = context.logger;
  if (interaction.isAutocomplete()) {
    const command = slashCommandOf(commands, interaction.commandName);
    const started = performance.now();
    const cancelDeadline = answerAutocompleteByDeadline(interaction, log);
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
      cancelDeadline();
    }
    return;
  }
  if (interaction.isButton()) {
    if (!(await handleCommandButton(interaction, commands, context))) await otherButton(interaction, context);
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
    await answer(
      interaction,
      ownerOfCustomId(interaction.customId),
      command?.publicReply === true,
      context,
      describeFailure,
      async () => {
        if (!command?.modalSubmit) throw new Error(`no handler for the form "${interaction.customId}"`);
        await command.modalSubmit(interaction, servicesFor(context, command));
      },
    );
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
    interaction.commandName,
    command?.publicReply === true,
    context,
    describeFailure,
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

/** Runs a command (or its form's submit) within Discord's deadlines: one log line, its count, any failure shown. */
async function answer(
  interaction: AnsweredInteraction,
  name: string,
  publicReply: boolean,
  context: CommandContext,
  describeFailure: FailureWords,
  run: () => Promise<void>,
  outsideServer = false,
): Promise<void> {
  const log: Logger = context.logger;
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
