// What auto-read needs from Discord's gateway: chat messages with their text. Message Content is privileged: a bot
// owner switches it on in the Developer Portal, and SayBot runs without auto-read when Discord refuses it.
import { GatewayIntentBits } from 'discord.js';

/** What auto-read adds to the base intents: chat messages, with their text. */
export const AUTOREAD_INTENTS: readonly GatewayIntentBits[] = [
  GatewayIntentBits.GuildMessages,
  GatewayIntentBits.MessageContent,
];

/** Where a bot owner switches Message Content on (also said by `npm run doctor` and /autoread start). */
export const MESSAGE_CONTENT_WHERE =
  'Discord Developer Portal > Applications > (this bot) > Bot > Privileged Gateway Intents > Message Content';
