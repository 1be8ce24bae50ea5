import type { Interaction } from 'discord.js';
import type { Logger } from '../../log.ts';
import { acknowledgeByDeadline, answerAutocompleteByDeadline } from './acknowledge.ts';
import type { AnyCommandModule, BotCommandInteraction, CommandContext } from './command.ts';
import { commandFor, isMessageMenu } from './command-loader.ts';
import { watchToken } from './expired-token.ts';
import { describeFailure } from './failures.ts';
import { enforcePreconditions } from './preconditions.ts';
import { noteReceived } from './received.ts';
import { showFailure } from './replies.ts';
import { handleReplyButton } from '../frontend/reply-buttons.ts';

/**
 * Routes one interaction to its command: a slash command, its autocomplete, or a message context menu. Whatever a
 * command throws ends here in a message to the user and a log line; nothing propagates to the client's event emitter.
 */
export async function handleInteraction(
  interaction: Interaction,
  commands: ReadonlyMap<string, AnyCommandModule>,
  context: CommandContext,
): Promise<void> {
  // First of all: Discord's 3 s and the token's 15 minutes are counted on our side from here.
  noteReceived(interaction);
  const log: Logger = context.logger;
  if (interaction.isAutocomplete()) {
    const found = commands.get(interaction.commandName);
    const command = found === undefined || isMessageMenu(found) ? undefined : found;
    const started = performance.now();
    const cancelDeadline = answerAutocompleteByDeadline(interaction, log);
    try {
      if (!command?.autocomplete || !interaction.inCachedGuild()) await interaction.respond([]);
      else await command.autocomplete(interaction, context);
      // The whole answer, Discord's callback included; logged, never asserted.
      log.debug({ command: interaction.commandName, ms: Math.round(performance.now() - started) }, 'autocomplete answered');
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
    await handleReplyButton(interaction, context);
    return;
  }
  if (!interaction.isChatInputCommand() && !interaction.isMessageContextMenuCommand()) return;

  const command = commandFor(commands, interaction);
  const started = performance.now();
  watchToken(interaction, log);
  // Whatever the command waits for (the store, a download), Discord hears from us within its 3 s.
  const cancelDeadline = acknowledgeByDeadline(interaction, command?.publicReply !== true, log);
  try {
    if (!command) throw new Error(`no handler for command "${interaction.commandName}"`);
    const outside = interaction.isChatInputCommand() && !interaction.inCachedGuild() && !isMessageMenu(command) ? command.executeOutsideServer : undefined;
    if (outside && interaction.isChatInputCommand()) {
      // A user-installed command where SayBot is no member: it checks USER_INSTALL itself (src/bot/frontend/user-install.ts).
      await outside(interaction, context);
    } else {
      enforcePreconditions(interaction, command.requires);
      await execute(command, interaction, context);
    }
    log.info(
      { command: interaction.commandName, guildId: interaction.guildId, userId: interaction.user.id, ms: Math.round(performance.now() - started) },
      'command done',
    );
    context.metrics?.command(interaction.commandName, 'ok');
  } catch (error) {
    // What the user can fix (or chose) is a refusal; the service's, Discord's or our own trouble is a failure.
    context.metrics?.command(interaction.commandName, describeFailure(error).level === 'info' ? 'refused' : 'failed');
    await showFailure(interaction, error, log);
  } finally {
    cancelDeadline();
  }
}

/** Runs the module on the interaction of its own kind (commandFor matched them). */
function execute(command: AnyCommandModule, interaction: BotCommandInteraction<'cached'>, context: CommandContext): Promise<void> {
  if (isMessageMenu(command)) {
    if (interaction.isMessageContextMenuCommand()) return command.execute(interaction, context);
  } else if (interaction.isChatInputCommand()) {
    return command.execute(interaction, context);
  }
  throw new Error(`command "${interaction.commandName}" is not a ${interaction.isChatInputCommand() ? 'slash command' : 'message menu'}`);
}
