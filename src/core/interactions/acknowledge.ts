// An interaction's clock: when SayBot received it, its first answer within Discord's 3 s, and whether its token's
// 15 minutes are over. Both are counted from receipt on this process's monotonic clock: Discord counts them by its
// own clock and the host's wall clock may be minutes off (a VM back from sleep, a container without time sync), so
// neither is ever judged from the ID's timestamp against Date.now(); and what Discord answers about a token wins.
import { DiscordAPIError, MessageFlags, type AutocompleteInteraction, type BaseInteraction } from 'discord.js';
import type { Logger } from '../log.ts';
import type { AnsweredInteraction } from './command.ts';
import { commandNameOf } from './command-loader.ts';

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

/**
 * How long a command may work before its first response, from when SayBot received the interaction (noteReceived);
 * Discord forgets an interaction not acknowledged within 3 s of its creation, and the event reaches us some time
 * after that. Past this, it is deferred for it.
 */
export const ACKNOWLEDGE_WITHIN_MS = 1500;

/** The first response of each interaction (a defer or a reply), once it has been started. */
const firstResponse = new WeakMap<AnsweredInteraction, Promise<unknown>>();

/**
 * Sends the interaction's first response unless one has already gone out or is on its way. Commands and the
 * deadline below both come through here, so an interaction is never acknowledged twice (Discord: 40060).
 */
export function claimFirstResponse(
  interaction: AnsweredInteraction,
  send: () => Promise<unknown>,
): Promise<unknown> | undefined {
  if (firstResponse.has(interaction) || interaction.deferred || interaction.replied) return undefined;
  // Discord's "too late" (10062) marks the token gone before anyone awaiting this sees it (settled()).
  const sent = send().catch((error: unknown) => {
    noteIfTokenGone(interaction, error);
    throw error;
  });
  firstResponse.set(interaction, sent);
  return sent;
}

/**
 * Defers the reply (public, or private for `ephemeral`) unless the interaction is already acknowledged. A token
 * Discord already forgot is no failure of the command: its replies go without it (tokenless-reply.ts).
 */
export async function acknowledge(interaction: AnsweredInteraction, ephemeral = false): Promise<void> {
  const sent = claimFirstResponse(interaction, () =>
    interaction.deferReply(ephemeral ? { flags: MessageFlags.Ephemeral } : {}),
  );
  if (!sent) return settled(interaction);
  try {
    await sent;
  } catch (error) {
    if (!tokenGone(interaction)) throw error;
  }
}

/** Interactions whose first response was deferred as a voice message: their reply is that voice message. */
const deferredAsVoiceMessage = new WeakSet<AnsweredInteraction>();

/**
 * Defers a public response that Discord will show as a voice message (IS_VOICE_MESSAGE on the deferral,
 * discord-api-docs #7158): its one edit carries the audio, and Discord shows who used the command above it.
 * False when the interaction was already acknowledged otherwise, or its token is gone: the voice message then
 * cannot be the response.
 */
export async function acknowledgeAsVoiceMessage(interaction: AnsweredInteraction): Promise<boolean> {
  // discord.js types a deferral's flags as Ephemeral only; Discord takes IS_VOICE_MESSAGE there too.
  const flags = MessageFlags.IsVoiceMessage as number as MessageFlags.Ephemeral;
  const sent = claimFirstResponse(interaction, () => interaction.deferReply({ flags }));
  if (!sent) {
    await settled(interaction);
    return false;
  }
  try {
    await sent;
  } catch (error) {
    if (!tokenGone(interaction)) throw error;
    return false;
  }
  deferredAsVoiceMessage.add(interaction);
  return true;
}

/** Whether the interaction's response was deferred as a voice message (acknowledgeAsVoiceMessage). */
export function isDeferredAsVoiceMessage(interaction: AnsweredInteraction): boolean {
  return deferredAsVoiceMessage.has(interaction);
}

/** Waits for a first response on its way, so that what follows knows whether to reply or to edit. */
export async function settled(interaction: AnsweredInteraction): Promise<void> {
  await firstResponse.get(interaction)?.catch(() => undefined);
}

/**
 * Acknowledges the interaction if its command has not done so within ACKNOWLEDGE_WITHIN_MS, whatever it is
 * waiting for (a slow store, a download): the user sees "thinking…" instead of "The application did not respond".
 * Returns the function that cancels the deadline once the command is done.
 */
export function acknowledgeByDeadline(interaction: AnsweredInteraction, ephemeral: boolean, log: Logger): () => void {
  const timer = setTimeout(() => {
    const sent = claimFirstResponse(interaction, () =>
      interaction.deferReply(ephemeral ? { flags: MessageFlags.Ephemeral } : {}),
    );
    if (!sent) return;
    log.info(
      { code: 'acknowledged-by-deadline', command: commandNameOf(interaction), interactionId: interaction.id },
      'command still working: deferred its reply',
    );
    sent.catch((error: unknown) =>
      log.warn({ code: 'defer-failed', err: error, interactionId: interaction.id }, 'could not defer a slow command'),
    );
  }, untilDeadline(interaction));
  return () => clearTimeout(timer);
}

/** What is left of ACKNOWLEDGE_WITHIN_MS since the interaction was received. */
function untilDeadline(interaction: BaseInteraction): number {
  return Math.max(0, ACKNOWLEDGE_WITHIN_MS - sinceReceived(interaction));
}

/**
 * Autocomplete cannot be deferred: if the command has not answered within ACKNOWLEDGE_WITHIN_MS (a slow store),
 * an empty list goes out, which beats Discord's "loading options failed", and the command's late answer is dropped.
 * Its respond() is wrapped so that exactly one answer is sent. Returns the function that cancels the deadline.
 */
export function answerAutocompleteByDeadline(interaction: AutocompleteInteraction, log: Logger): () => void {
  let answered = false;
  const respond = interaction.respond.bind(interaction);
  interaction.respond = async (choices) => {
    if (answered) return;
    answered = true;
    await respond(choices);
  };
  const timer = setTimeout(() => {
    if (answered) return;
    log.info(
      { code: 'autocomplete-late', command: interaction.commandName, interactionId: interaction.id },
      'autocomplete too slow: answered with no choices',
    );
    interaction
      .respond([])
      .catch((error: unknown) =>
        log.warn(
          { code: 'autocomplete-failed', err: error, interactionId: interaction.id },
          'could not answer a slow autocomplete',
        ),
      );
  }, untilDeadline(interaction));
  return () => clearTimeout(timer);
}

/**
 * Discord's answers that mean the token is gone: 50027 Invalid Webhook Token (past its 15 minutes), 10015 Unknown
 * Webhook (an interaction never acknowledged), 10062 Unknown interaction (a first response after its 3 s).
 */
const TOKEN_GONE_CODES: ReadonlySet<number> = new Set([50027, 10015, 10062]);
/**
 * A token works for 15 minutes from Discord's creation of the interaction, which is before SayBot receives it
 * (an answerable one arrives within its 3 s); the margin covers that and the request's own transit.
 */
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
