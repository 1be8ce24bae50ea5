// `npm run deploy-commands`: registers the slash commands, and does nothing when Discord already has them.
import { loadDotenv } from '../core/dotenv.ts';
import { loadCommandModules } from '../app/command-modules.ts';
import { deployCommands } from '../core/interactions/deploy.ts';
import { ConfigError, loadConfig } from '../core/config.ts';
import { redactSecrets } from '../core/log.ts';

loadDotenv();
let token = '';
try {
  const config = loadConfig();
  token = config.discord.token;
  const commands = await loadCommandModules();
  const result = await deployCommands({
    token: config.discord.token,
    clientId: config.discord.clientId,
    guildId: config.discord.guildId,
    apiBaseUrl: config.discord.apiBaseUrl,
    commands: commands.values(),
    userInstall: config.userInstall.mode !== 'off',
  });
  const where =
    result.scope === 'guild'
      ? `server ${config.discord.guildId}`
      : 'every server (global commands can take up to an hour to appear)';
  console.log(
    result.changed
      ? `Registered ${result.count} commands for ${where}.`
      : `The ${result.count} commands are already registered for ${where}; nothing to do.`,
  );
} catch (error) {
  const message =
    error instanceof ConfigError
      ? error.message
      : `Could not register the commands: ${error instanceof Error ? error.message : String(error)}`;
  console.error(redactSecrets(message, [token]));
  process.exitCode = 1;
}
