// The say feature's public surface: what its command modules (commands/), the app and other features use.
import './strings.ts';
export { SPEAKING_COMMAND_USES, speakingCommand, speakingHandlers } from './speaking-command.ts';
