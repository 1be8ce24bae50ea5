// An interaction's clock, counted from receipt on the monotonic clock (the host's wall clock may be off), its one
// first response and whether its token is gone (what Discord answers about a token wins); the door (router.ts) keeps
// the deadlines.
import { DiscordAPIError, MessageFlags, type BaseInteraction } from 'discord.js';
import type { Logger } from '../log.ts';
import type { AnsweredInteraction } from './command.ts';

const receivedAt = new WeakMap<BaseInteraction, number>();

/** Notes the moment an interaction arrived (the first thing done with it); a second note keeps the first. */
export function noteReceived(interaction: BaseInteraction, at: number = performance.now()): void {
  if (!receivedAt.has(interaction)) receivedAt.set(interaction, at);
}

/** Milliseconds since the interaction arrived; one never noted (not routed here) counts from now. */
export function sinceReceived(interaction: BaseInteraction): number {
  noteReceived(interaction);
  return performance.now() - (receivedAt.get(interaction) ?? performance.now());
}

/** When the interaction arrived, in ms since the epoch by this host's clock (for durations measured on this host). */
export function receivedAtEpochMs(interaction: BaseInteraction): number {
  return Date.now() - sinceReceived(interaction);
}

/** The first response of each interaction (a defer or a reply), once it has been started. */
const firstResponse = new WeakMap<AnsweredInteraction, Promise<unknown>>();

/** Whether the interaction's one first response (a defer or a reply) has gone or is on its way (40060 otherwise). */
export function responseStarted(interaction: AnsweredInteraction): boolean {
  return firstResponse.has(interaction) || interaction.deferred || interaction.replied;
}

/** Sends the first response, for a caller that found none started; what follows awaits it (responseDone()). */
export function startResponse(interaction: AnsweredInteraction, send: () => Promise<unknown>): Promise<unknown> {
  // Discord's "too late" (10062) marks the token gone before anyone awaiting this sees it (responseDone()).
  const sent = send().catch((error: unknown) => {
    noteIfTokenGone(interaction, error);
    throw error;
  });
  firstResponse.set(interaction, sent);
  return sent;
}

/** Defers the reply unless already acknowledged; a token Discord forgot is no failure (tokenless-reply.ts). */
export async function acknowledge(interaction: AnsweredInteraction, ephemeral = false): Promise<void> {
  await defer(interaction, ephemeral ? MessageFlags.Ephemeral : undefined);
}

/** Interactions whose first response was deferred as a voice message: their reply is that voice message. */
const deferredAsVoiceMessage = new WeakSet<AnsweredInteraction>();

/** Defers a public response shown as a voice message (IS_VOICE_MESSAGE, discord-api-docs #7158); false if too late. */
export async function acknowledgeAsVoiceMessage(interaction: AnsweredInteraction): Promise<boolean> {
  // discord.js types a deferral's flags as Ephemeral only; Discord takes IS_VOICE_MESSAGE there too.
  if (!(await defer(interaction, MessageFlags.IsVoiceMessage as number as MessageFlags.Ephemeral))) return false;
  deferredAsVoiceMessage.add(interaction);
  return true;
}

/** Whether this deferral went: not when a first response went before it, or when the token was gone. */
async function defer(interaction: AnsweredInteraction, flags?: MessageFlags.Ephemeral): Promise<boolean> {
  if (responseStarted(interaction)) {
    await responseDone(interaction);
    return false;
  }
  try {
    await startResponse(interaction, () => interaction.deferReply(flags === undefined ? {} : { flags }));
    return true;
  } catch (error) {
    if (!tokenGone(interaction)) throw error;
    return false;
  }
}

/** Whether the interaction's response was deferred as a voice message (acknowledgeAsVoiceMessage). */
export function isDeferredAsVoiceMessage(interaction: AnsweredInteraction): boolean {
  return deferredAsVoiceMessage.has(interaction);
}

/** Waits for a first response on its way, so that what follows knows whether to reply or to edit. */
export async function responseDone(interaction: AnsweredInteraction): Promise<void> {
  await firstResponse.get(interaction)?.catch(() => undefined);
}

/** Discord's "token gone": 50027 (past 15 minutes), 10015 (never acknowledged), 10062 (first response after 3 s). */
const TOKEN_GONE_CODES: ReadonlySet<number> = new Set([50027, 10015, 10062]);
/** A token lives 15 minutes from Discord's creation, before receipt: the margin covers that and transit. */
export const TOKEN_LIFETIME_MS = 15 * 60_000 - 30_000;

const gone = new WeakSet<AnsweredInteraction>();
const loggers = new WeakMap<AnsweredInteraction, Logger>();

/** Who logs for an interaction whose reply cannot use its token (set where the interaction is routed). */
export function watchToken(interaction: AnsweredInteraction, log: Logger): void {
  loggers.set(interaction, log);
}

export function tokenLogger(interaction: AnsweredInteraction): Logger | undefined {
  return loggers.get(interaction);
}

/** True once the token is known (Discord said so) or certain (by our own clock) to be gone. */
export function tokenGone(interaction: AnsweredInteraction): boolean {
  return gone.has(interaction) || sinceReceived(interaction) > TOKEN_LIFETIME_MS;
}

/** Remembers a token Discord refused as gone, so that no later reply of this interaction tries it again. */
export function noteIfTokenGone(interaction: AnsweredInteraction, error: unknown): boolean {
  if (!(error instanceof DiscordAPIError) || typeof error.code !== 'number' || !TOKEN_GONE_CODES.has(error.code))
    return false;
  gone.add(interaction);
  return true;
}
