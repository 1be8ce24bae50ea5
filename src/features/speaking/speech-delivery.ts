// A speaking command's whole path, from the member's wish to their answer: the target chosen (target-choice.ts), the
// order handed over (hand-over.ts), the interaction acknowledged once the order is accepted, what plays said as it
// plays, and the outcome worded (outcome-words.ts) and posted (reply-answer.ts). It decides neither where the audio
// goes nor how an answer is worded: it puts the two together for /say, /emote, the Speak menu and /clone's first line.
import { DiscordAPIError, RESTJSONErrorCodes } from 'discord.js';
import type { SpeechOrder, SpeechRequest } from '../../core/order/pipeline.ts';
import { acknowledge, acknowledgeAsVoiceMessage } from '../../core/interactions/acknowledge.ts';
import type { AnsweredInteraction, ServiceName, Services } from '../../core/interactions/command.ts';
import { keepsAttribution, showProgress } from '../../core/interactions/replies.ts';
import './strings.ts';
import { fallbackVoiceLabel } from './fallback-words.ts';
import type { WordsAuthor } from './gate-types.ts';
import { commandRequester, handOver } from './hand-over.ts';
import { privateFileNote, wordOutcome } from './outcome-words.ts';
import { showAnswer } from './reply-answer.ts';
import type { ReplyButtonSource } from './reply-button-row.ts';
import {
  chooseTarget,
  effectsAt,
  placeOf,
  speechTarget,
  type ChosenTarget,
  type OutputChoice,
} from './target-choice.ts';

/** What speaking for a command uses of the commands' services. */
export const SPEAKING_USES = [
  'fileShares',
  'logger',
  'players',
  'reading',
  'replyAudio',
  'speech',
  'store',
] as const satisfies readonly ServiceName[];
export type SpeakingServices = Services<(typeof SPEAKING_USES)[number]>;

/** A slash command or the Speak menu, in a server: what the front-end needs of either. */
type SpeakingInteraction = AnsweredInteraction<'cached'>;

const channel = (id: string) => `<#${id}>`;

/** A speaking command's whole path: chooses the target, speaks through the pipeline, and answers the member. */
export async function speakForCommand(
  interaction: SpeakingInteraction,
  context: SpeakingServices,
  request: SpeechRequest,
  output: OutputChoice,
  /** How replies name the voice, e.g. with why it was chosen (speech-settings.ts). */
  voiceLabel: string,
): Promise<void> {
  const target = await chooseTarget(interaction, output, context);
  await speakAndReply(interaction, context, { request, requester: commandRequester(interaction) }, target, voiceLabel);
}

/** How long the words of another member wait for Discord's answer on them before the gate reads what SayBot knew. */
const AUTHOR_LOOKUP_MS = 1_000;

const isUnknownMember = (error: unknown): boolean =>
  error instanceof DiscordAPIError && error.code === RESTJSONErrorCodes.UnknownMember;

/**
 * Another member's words (the Speak menu's message): without the Guild Members intent Discord tells SayBot nothing of
 * a timeout (or a role) given since it last saw the author, so they are looked up afresh (GET member, which updates
 * the cache the gate reads), for at most AUTHOR_LOOKUP_MS; when that fails or is late, as SayBot knew them. Discord's
 * Unknown Member: the author has left (or was removed) since.
 */
async function freshAuthor(interaction: SpeakingInteraction, author: WordsAuthor): Promise<WordsAuthor> {
  if (author.memberId === interaction.user.id) return author;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), AUTHOR_LOOKUP_MS);
  });
  const looked = interaction.guild.members
    .fetch({ user: author.memberId, force: true })
    .catch((error: unknown) => (isUnknownMember(error) ? ('left' as const) : undefined));
  const member = await Promise.race([looked, late]).finally(() => clearTimeout(timer));
  if (member === 'left') return { memberId: author.memberId, left: true };
  return member === undefined ? author : { memberId: author.memberId, member };
}

/**
 * Hands the order to the pipeline and turns what it says into the member's words. The interaction is acknowledged
 * as soon as the request is accepted, while the voice join and the first part's request are already under way.
 */
export async function speakAndReply(
  interaction: SpeakingInteraction,
  context: SpeakingServices,
  order: Omit<Extract<SpeechOrder, { request: SpeechRequest }>, 'target'>,
  target: ChosenTarget,
  voice: string,
  /**
   * `private`: every reply is the member's alone (the Speak menu); by default only a voice message's is. `author`:
   * whose words these are, when another member's (the Speak menu's message): the gate holds them to its rules too.
   */
  reply: { private?: boolean; author?: WordsAuthor } = {},
): Promise<void> {
  // A file or voice message holds one of the server's shares until it is posted (file-shares.ts): past them it is
  // refused here, before it is accepted or deferred. What was already paid for (a clone's first line) is not refused.
  const release =
    target.kind === 'voice'
      ? undefined
      : context.fileShares.take({ guildId: interaction.guildId, userId: interaction.user.id }, order.followUp !== true);
  try {
    await speakAndAnswer(interaction, context, order, target, voice, reply);
  } finally {
    release?.();
  }
}

/** speakAndReply's work, once a file's share is held. */
async function speakAndAnswer(
  interaction: SpeakingInteraction,
  context: SpeakingServices,
  order: Omit<Extract<SpeechOrder, { request: SpeechRequest }>, 'target'>,
  target: ChosenTarget,
  voice: string,
  reply: { private?: boolean; author?: WordsAuthor },
): Promise<void> {
  const author = reply.author === undefined ? undefined : await freshAuthor(interaction, reply.author);
  const effects = {
    ...effectsAt(placeOf(interaction, target.kind === 'voice' ? target.channelId : undefined), target),
    author,
  };
  const handed = handOver(context.speech, {
    ...order,
    target: speechTarget(target, interaction.attachmentSizeLimit),
    effects,
  });
  // A file or voice message the member may not post here themselves is theirs alone (the gate says which).
  let privately = reply.private === true || handed.privately;
  const accepted = await handed.accepted;
  // Refused for money and spoken in the free voice instead: every reply names it, and why.
  const spoken = accepted.fallback?.request ?? order.request;
  if (accepted.fallback !== undefined && spoken.kind !== 'ready')
    voice = fallbackVoiceLabel(interaction.locale, spoken.voice, accepted.fallback.refusal);
  if (target.kind === 'voice-message' && target.bar === undefined && !handed.privately) {
    // The voice message will be the response itself, shown as the member's use of the command.
    await acknowledgeAsVoiceMessage(interaction);
  } else {
    // A voice message the member may not post here is theirs alone, as are the Speak menu's replies.
    await acknowledge(interaction, privately || target.kind === 'voice-message');
  }
  if (target.kind === 'voice') {
    // Once the channel hears it, the public reply is what says whose words they are: a failure after that keeps it.
    // And if it fails after, the reply says the channel heard part of it, no longer that it is being spoken.
    void handed.firstAudio.then(() =>
      keepsAttribution(interaction, {
        key: 'say.spokePartWay',
        params: { channel: channel(target.channelId), voice },
      }),
    );
    if (accepted.ahead > 0)
      await showProgress(interaction, 'say.queued', { voice, count: accepted.parts, ahead: accepted.ahead });
    // Said when it is true: once the first frame is out (a clip that ends before that goes straight to its result).
    else {
      const first = await Promise.race([handed.firstAudio, handed.outcome.then(() => undefined)]);
      if (first !== undefined) {
        // The service failed and the free voice speaks its first part: named from the first words on.
        if (first.freeVoice !== undefined)
          voice = fallbackVoiceLabel(interaction.locale, first.freeVoice.voice, first.freeVoice.cause);
        await showProgress(interaction, 'say.speaking', { voice, channel: channel(target.channelId) });
      }
    }
  }
  const request = spoken;
  const buttons: ReplyButtonSource | undefined =
    context.replyAudio && request.kind !== 'ready'
      ? { registry: context.replyAudio, request, guildId: interaction.guildId, askerId: interaction.user.id }
      : undefined;
  const outcome = await handed.outcome;
  // Asked again right before posting: a right taken away since the order was accepted makes the post hers alone.
  const late = !privately && target.kind !== 'voice' && handed.postsPrivately();
  if (late) privately = true;
  const answer = wordOutcome(outcome, {
    flavour: 'command',
    locale: interaction.locale,
    where: target,
    voice,
    voiceId: request.voice,
    sizeLimit: interaction.attachmentSizeLimit,
    fellBack: accepted.fallback !== undefined,
    buttons: buttons !== undefined,
  });
  const shown =
    (handed.privately || late) && answer.answer === 'reply'
      ? { ...answer, notes: [...answer.notes, privateFileNote] }
      : answer;
  const where = late && target.kind === 'voice-message' ? { ...target, bar: 'member-no-permission' as const } : target;
  await showAnswer(interaction, context.logger, shown, where, privately, buttons);
}
