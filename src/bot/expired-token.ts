import { DiscordAPIError, type AttachmentPayload } from 'discord.js';
import type { Logger } from '../log.ts';
import type { BotCommandInteraction } from './command.ts';

/** Discord's answer to an interaction webhook call whose token is past its lifetime. */
const INVALID_WEBHOOK_TOKEN = 50027;
/** An interaction token works for 15 minutes (Discord's documentation); a little margin for clocks and transit. */
const TOKEN_LIFETIME_MS = 15 * 60_000 - 10_000;

const gone = new WeakSet<BotCommandInteraction>();
const loggers = new WeakMap<BotCommandInteraction, Logger>();

/** Who logs the one line for an interaction whose token runs out (set where the interaction is routed). */
export function watchToken(interaction: BotCommandInteraction, log: Logger): void {
  loggers.set(interaction, log);
}

/** True once the token is known (or certain) to be dead: a reply queued for long goes straight to the channel. */
export function tokenGone(interaction: BotCommandInteraction): boolean {
  return gone.has(interaction) || Date.now() - interaction.createdTimestamp > TOKEN_LIFETIME_MS;
}

/** Remembers a refused token (401 50027), so that no later reply of this interaction tries it again. */
export function noteIfTokenExpired(interaction: BotCommandInteraction, error: unknown): boolean {
  if (!(error instanceof DiscordAPIError) || error.code !== INVALID_WEBHOOK_TOKEN) return false;
  if (!gone.has(interaction)) {
    gone.add(interaction);
    loggers.get(interaction)?.warn(
      {
        code: 'discord-token-expired',
        command: interaction.commandName,
        guildId: interaction.guildId,
        userId: interaction.user.id,
        interactionId: interaction.id,
        ageMs: Date.now() - interaction.createdTimestamp,
      },
      'interaction token expired: replying in the channel instead',
    );
  }
  return true;
}

/**
 * The reply as a channel message, for when the interaction's token no longer works. It names the requester so
 * they find it, without pinging them or anyone else (the caller passes allowedMentions parse []).
 */
export async function postInChannel(
  interaction: BotCommandInteraction,
  content: string,
  files: AttachmentPayload[],
  allowedMentions: { parse: never[] },
): Promise<void> {
  const channel = interaction.channel ?? (await interaction.client.channels.fetch(interaction.channelId));
  if (!channel?.isSendable()) throw new Error(`cannot post the reply of interaction ${interaction.id} in channel ${interaction.channelId}`);
  await channel.send({ content: `<@${interaction.user.id}> ${content}`, allowedMentions, files });
}
