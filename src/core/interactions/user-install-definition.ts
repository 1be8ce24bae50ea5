// A user-installable command must say `integration_types` [0, 1] and `contexts` [0, 1, 2] explicitly
// (discord-api-docs #7108); only global commands can be user-installed.
import {
  ApplicationIntegrationType,
  InteractionContextType,
  type RESTPostAPIApplicationCommandsJSONBody,
} from 'discord.js';

/** A definition as registered: user-installable ones offered everywhere when the user install is on. */
export function withUserInstall<T extends RESTPostAPIApplicationCommandsJSONBody>(definition: T, on: boolean): T {
  if (!on) return definition;
  return {
    ...definition,
    integration_types: [ApplicationIntegrationType.GuildInstall, ApplicationIntegrationType.UserInstall],
    contexts: [InteractionContextType.Guild, InteractionContextType.BotDM, InteractionContextType.PrivateChannel],
  };
}
