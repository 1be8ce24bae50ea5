// What auto-read needs from the gateway: chat with its text (Message Content, privileged; refused: no auto-read).
import { GatewayIntentBits } from 'discord.js';

/** What auto-read adds to the base intents: chat messages, with their text. */
export const AUTOREAD_INTENTS: readonly GatewayIntentBits[] = [
  GatewayIntentBits.GuildMessages,
  GatewayIntentBits.MessageContent,
];

/** Where a bot owner switches Message Content on (also said by `npm run doctor` and /autoread start). */
export const MESSAGE_CONTENT_WHERE =
  'Discord Developer Portal > Applications > (this bot) > Bot > Privileged Gateway Intents > Message Content';
