// The one hand-over from a front-end to the speech pipeline: every way of speaking builds an Order and gives it here,
// and nothing else calls speak() (test/structure/one-way-to-speak.test.ts). Who asked is built once (requesterOf), so
// all are held and paced alike. An order declares its effects (gate-types.ts), which the core asks the rights port
// about (src/core/order/rights-asker.ts, the gate's `gatePort`): no front-end checks a right itself.
import type { BaseInteraction } from 'discord.js';
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

/** A front-end's order: the pipeline's, with its effects in Discord (required: no order speaks without). */
export type DeclaredOrder = SpeechOrder & { effects: Effects };

/** The order's events, whether its answer is the member's alone, and the same asked again before its post. */
export type HandedOver = OrderEvents & RightsAnswered;

/** The pipeline's part of the commands' context: how an order is spoken. */
export type Speaker = Pick<SpeechPipeline, 'speak'>;

/** Hands `order` to the pipeline: its acceptance, first frame and one outcome, for the front-end to word. */
export function handOver(speech: Speaker, order: DeclaredOrder): HandedOver {
  return speech.speak(order);
}

/** The member behind an interaction: `command` records the spends, `guildId` the budget (pseudo-guild outside one). */
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
