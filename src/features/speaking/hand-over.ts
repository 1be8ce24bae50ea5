// The one hand-over from a front-end to the speech pipeline: every way of speaking (/say, /emote, /clone's first
// line, Speak, the reply buttons, the soundboard, the user install, auto-read, /scene) builds an Order and gives it
// here, and nothing else calls the pipeline's speak() (test/structure/one-way-to-speak.test.ts checks it). Who asked
// is built once (requesterOf), so every front-end is recorded, held and paced by the same rules. An order declares
// what it does in Discord (its effects, gate-types.ts): the core's order asks the rights port whether it may be
// done (src/core/order/rights-asker.ts, answered by the gate: gate.ts `gatePort`), before anything is accepted, again
// before each part and before its post, so no front-end checks a right for itself.
import type { BaseInteraction } from 'discord.js';
import type { AnsweredInteraction } from '../../core/interactions/command.ts';
import { commandNameOf } from '../../core/interactions/command-loader.ts';
import { receivedAtEpochMs } from '../../core/interactions/acknowledge.ts';
import {
  MEMBER_REQUEST,
  type OrderEvents,
  type Requester,
  type SpeechOrder,
  type SpeechPipeline,
} from '../../core/order/pipeline.ts';
import type { RightsAnswered } from '../../core/order/rights.ts';
import type { Effects } from './gate-types.ts';

/**
 * A front-end's order: the pipeline's (who, what, where, and what else must still hold: auto-read's ignore list, a
 * studio member's voice rights), and what it does in Discord and where: the rights it is held to (gate.ts).
 * `effects` is required: no order speaks without.
 */
export type DeclaredOrder = SpeechOrder & { effects: Effects };

/**
 * The order's events, whether its answer is the member's alone (a post they may not make publicly), and the same asked
 * again right before its post.
 */
export type HandedOver = OrderEvents & RightsAnswered;

/** The pipeline's part of the commands' context: how an order is spoken. */
export type Speaker = Pick<SpeechPipeline, 'speak'>;

/** Hands `order` to the pipeline: its acceptance, first frame and one outcome, for the front-end to word. */
export function handOver(speech: Speaker, order: DeclaredOrder): HandedOver {
  return speech.speak(order);
}

/**
 * The member behind an interaction (a command, a menu, a form, a button), held to a member's rules: `command` is
 * what the spends are recorded under, `guildId` the budget it counts against (the user install's pseudo-guild
 * outside a server).
 */
export function requesterOf(
  interaction: BaseInteraction,
  command: string,
  guildId: string | null = interaction.guildId,
): Requester {
  if (guildId === null) throw new Error('a requester outside a server needs the guild its budget counts against');
  return {
    guildId,
    userId: interaction.user.id,
    command,
    policy: MEMBER_REQUEST,
    id: interaction.id,
    // This host's clock at receipt: the ID's time is Discord's clock, and the two may be minutes apart.
    askedAt: receivedAtEpochMs(interaction),
  };
}

/** The member behind a slash command, a menu or a form, under the command's own name. */
export function commandRequester(
  interaction: AnsweredInteraction<'cached'>,
  command = commandNameOf(interaction),
): Requester {
  return requesterOf(interaction, command);
}
