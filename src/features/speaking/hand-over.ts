// The one hand-over from a front-end to the speech pipeline: every way of speaking (/say, /emote, /clone's first
// line, Speak, the reply buttons, the soundboard, the user install, auto-read, /scene) builds an Order and gives it
// here, and nothing else calls the pipeline's speak() or speakScene() (test/structure/one-way-to-speak.test.ts checks
// it). Who asked is built once (askerOf), so every front-end is recorded, held and paced by the same rules. An order
// declares what it does in Discord (its effects, gate-types.ts): the gate (gate.ts) says whether it may be done,
// before anything is accepted, and again before each part, so no front-end checks a right for itself.
import type { BaseInteraction } from 'discord.js';
import type { AnsweredInteraction } from '../../core/interactions/command.ts';
import { commandNameOf } from '../../core/interactions/answered.ts';
import { receivedAtEpochMs } from '../../core/interactions/received.ts';
import {
  MEMBER_REQUEST,
  type Requester,
  type SceneOrder,
  type SpeechJob,
  type SpeechPipeline,
  type SpeechRequest,
  type SpeechTarget,
} from '../../core/speech/pipeline.ts';
import type { Effects } from './gate-types.ts';
import { judge, recheck } from './gate.ts';

/** Who asks, as the pipeline records and holds them (the rules they are held to included, `policy`). */
export type Asker = Omit<Requester, 'stillAllowed'>;

/** What is to be said: one request, or a scene's lines held together. */
export type OrderedSpeech =
  | {
      request: SpeechRequest;
      /** Only from the cache: a reply's buttons replay what was paid for, and nothing more is paid. */
      cachedOnly?: boolean;
      /** The second half of a request already checked (a clone's first line): recorded, not checked again. */
      followUp?: boolean;
    }
  | {
      scene: SceneOrder['lines'];
      sceneFormat?: SceneOrder['sceneFormat'];
      /** The characters its member confirmed: it never pays more (SceneOrder.quoted). */
      quoted?: number | undefined;
    };

/** A front-end's order: who, what, where it goes, what it does there, and what else must still hold. */
export type Order = OrderedSpeech & {
  asker: Asker;
  target: SpeechTarget;
  /** What it does in Discord, and where: the rights it is held to (gate.ts). Required: no order speaks without. */
  effects: Effects;
  /**
   * Besides the rights its effects need, asked before each part is fetched and again before it plays (auto-read's
   * ignore list); absent: only the gate and the pipeline's own checks hold.
   */
  stillAllowed?: Requester['stillAllowed'];
};

/** The pipeline's job, and whether its answer is the member's alone (a post they may not make publicly). */
export type HandedOver = SpeechJob & { privately: boolean };

/** The pipeline's part of the commands' context: how an order is spoken. */
export type Speaker = Pick<SpeechPipeline, 'speak' | 'speakScene'>;

/** Hands `order` to the pipeline: its acceptance, first frame and one outcome, for the front-end to word. */
export function handOver(speech: Speaker, order: Order): HandedOver {
  const verdict = judge(order.effects);
  if (verdict.kind === 'refused') return refused(verdict.error);
  const more = order.stillAllowed;
  const requester: Requester = {
    ...order.asker,
    stillAllowed: () => recheck(order.effects) ?? more?.(),
  };
  return { ...spoken(speech, order, requester), privately: verdict.privately };
}

/** A job the gate refused: nothing accepted, nothing paid; its outcome the refusal, as the pipeline's are. */
function refused(error: Error): HandedOver {
  const accepted = Promise.reject(error);
  // Read by the front-end; an order nobody awaits must not end the process.
  accepted.catch(() => {});
  return {
    accepted,
    firstAudio: new Promise(() => {}),
    outcome: Promise.resolve({ kind: 'failed', error, secondsHeard: 0 }),
    privately: true,
  };
}

function spoken(speech: Speaker, order: Order, requester: Requester): SpeechJob {
  if ('scene' in order)
    return speech.speakScene({
      lines: order.scene,
      requester,
      target: order.target,
      ...(order.sceneFormat === undefined ? {} : { sceneFormat: order.sceneFormat }),
      ...(order.quoted === undefined ? {} : { quoted: order.quoted }),
    });
  return speech.speak({
    request: order.request,
    requester,
    target: order.target,
    ...(order.cachedOnly === true ? { cachedOnly: true } : {}),
    ...(order.followUp === true ? { followUp: true } : {}),
  });
}

/**
 * The member behind an interaction (a command, a menu, a form, a button), held to a member's rules: `command` is
 * what the spends are recorded under, `guildId` the budget it counts against (the user install's pseudo-guild
 * outside a server).
 */
export function askerOf(
  interaction: BaseInteraction,
  command: string,
  guildId: string | null = interaction.guildId,
): Asker {
  if (guildId === null) throw new Error('an asker outside a server needs the guild its budget counts against');
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
export function commandAsker(interaction: AnsweredInteraction<'cached'>, command = commandNameOf(interaction)): Asker {
  return askerOf(interaction, command);
}
