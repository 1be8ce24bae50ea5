// How a user-installable command is registered: Discord offers a command to user installs and in private channels
// only when its definition says so explicitly (`integration_types` [0, 1], `contexts` [0, 1, 2]; the defaults are
// not to be relied on: discord-api-docs #7108). Only global commands can be user-installed.
import {
  ApplicationIntegrationType,
  InteractionContextType,
  type RESTPostAPIApplicationCommandsJSONBody,
} from 'discord.js';

/**
 * A command definition as registered: with the user install on, a user-installable command is offered in servers,
 * SayBot's DM and other private channels, installed to a server or to a user; otherwise as it was built.
 */
export function withUserInstall<T extends RESTPostAPIApplicationCommandsJSONBody>(definition: T, on: boolean): T {
  if (!on) return definition;
  return {
    ...definition,
    integration_types: [ApplicationIntegrationType.GuildInstall, ApplicationIntegrationType.UserInstall],
    contexts: [InteractionContextType.Guild, InteractionContextType.BotDM, InteractionContextType.PrivateChannel],
  };
}
