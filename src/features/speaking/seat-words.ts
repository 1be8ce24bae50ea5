// Words for what the bot in voice could not do, chosen once: "I" for the main bot (which answers), a helper named.
import type { Guild } from 'discord.js';
import type { LocalisedMessage, MessageKey, MessageParams } from '../../core/i18n/catalogue.ts';

/** A helper's user ID when `seat` (the server as the bot in voice holds it) is not the main bot's `guild`. */
export function helperOf(seat: Guild | null | undefined, guild: Guild | null | undefined): string | undefined {
  return seat != null && seat.client !== guild?.client ? seat.client.user?.id : undefined;
}

/** The keys with a helper's words beside them (`<key>.helper`, naming that bot as {bot}). */
type SeatKey = { [K in MessageKey]: K extends `${infer Key}.helper` ? Extract<Key, MessageKey> : never }[MessageKey];

/** `key` for the main bot, else its helper words naming that bot (a mention, inert: no message parses mentions). */
export function seatWords(key: SeatKey, params: MessageParams, helperId: string | undefined): LocalisedMessage {
  if (helperId === undefined) return { key, params };
  return { key: `${key}.helper`, params: { ...params, bot: `<@${helperId}>` } };
}
