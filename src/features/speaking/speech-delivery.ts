import { DiscordAPIError, RESTJSONErrorCodes } from 'discord.js';
import { fallbackVoiceLabel } from './fallback-words.ts';
import type { DiscordGatewayAdapterCreator } from '@discordjs/voice';
import type { Logger } from '../../core/log.ts';
import type { SpeechOrder, SpeechPipeline, SpeechRequest, SpeechTarget } from '../../core/order/pipeline.ts';
import { commandRequester, handOver } from './hand-over.ts';
import type { OutputDefaults, OutsideVoiceOutput } from '../../core/store/output-defaults-store.ts';
import type { PlayerRegistry } from '../../core/voice/player-registry.ts';
import { acknowledge, acknowledgeAsVoiceMessage } from '../../core/interactions/acknowledge.ts';
import type {
  AnsweredInteraction,
  ChannelReading,
  CommandContext,
  ServiceName,
  Services,
} from '../../core/interactions/command.ts';

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
import { UserError } from '../../core/interactions/failures.ts';
import './strings.ts';
import { wordOutcome, wordsText } from './outcome-words.ts';
import type { OutcomeAnswer } from './outcome-types.ts';
import { requireManager } from '../../core/interactions/preconditions.ts';
import type { WordsAuthor } from './gate-types.ts';
import { effectsAt, placeOf, type MemberPlace } from './gate-place.ts';

export { effectsAt, placeOf, type MemberPlace } from './gate-place.ts';
import type { Revocation } from '../../core/order/revocation.ts';
import { keepsAttribution, showContent, showProgress } from '../../core/interactions/replies.ts';
import { claimMemberVoiceMessage, type MemberVoiceMessageBar } from './voice-message-rights.ts';
import { privateFileNote } from './outcome-words.ts';
import { replyButtons, type ReplyButtonSource } from './reply-button-row.ts';
import { showTooLargeFile, showVoiceMessage, showWithFiles } from './voice-message-reply.ts';

/** The `output` option: where the member wants the audio (absent: their voice channel, else their default). */
export type OutputChoice = 'voice' | 'file' | 'voice-message' | undefined;

/** Where a command's audio goes, and why a file or a voice message when it is one (the reply says so). */
export type ChosenTarget =
  | { kind: 'voice'; channelId: string; adapterCreator: DiscordGatewayAdapterCreator }
  | { kind: 'file'; because: 'asked' | 'no-voice' }
  /** `bar`: the member may not post it in this channel (rights, slowmode): the audio goes to them privately. */
  | { kind: 'voice-message'; because: 'asked' | 'no-voice'; bar?: MemberVoiceMessageBar };

/** A slash command or the Speak menu, in a server: what the front-end needs of either. */
type SpeakingInteraction = AnsweredInteraction<'cached'>;

const channel = (id: string) => `<#${id}>`;

/** The order's rights as the core asks them (src/core/order/rights-asker.ts), for what is asked before an order. */
type Rights = Pick<SpeechPipeline, 'rights'>;

/**
 * The rights' word on a command's order before it is built, for a command that must acknowledge early (/clone's
 * download): refused (thrown), or whether its answer must be the member's alone. The core asks again as it takes it.
 */
export function admitted(
  interaction: SpeakingInteraction,
  speech: Rights,
  target: ChosenTarget,
): { privately: boolean } {
  return speech.rights.requireAdmitted(
    effectsAt(placeOf(interaction, target.kind === 'voice' ? target.channelId : undefined), target),
  );
}

/**
 * The member's voice channel, if the rights let SayBot speak there for them (asked through the core, answered by
 * the gate: refused at once when the member may not speak there themselves, when SayBot may not, which would only
 * time out much later), and SayBot is not speaking to others elsewhere (it never leaves them for a caller).
 */
export function memberVoiceChannel(
  interaction: MemberPlace,
  { players, speech }: { players: PlayerRegistry; speech: Rights },
  /** Auto-read, when the server may be read aloud: it keeps SayBot in the channel it reads into. */
  reading?: ChannelReading,
  /**
   * `managersMove`: a member with Manage Server may move it there all the same (/join). `joinOnly`: SayBot joins
   * but says nothing for the member (/join, /autoread start), so the member's own voice rights are not asked.
   */
  options: { managersMove?: boolean; joinOnly?: boolean } = {},
): Extract<ChosenTarget, { kind: 'voice' }> {
  const voiceChannel = interaction.member.voice.channel;
  if (!voiceChannel) throw new UserError('error.voice.notInVoice');
  const channelId = voiceChannel.id;
  const read = reading?.readingIn(interaction.guildId);
  if (read !== undefined && read.voiceChannelId !== channelId) {
    const where = { channel: channel(read.textChannelId), voice: channel(read.voiceChannelId) };
    if (options.managersMove === true) requireManager(interaction, 'autoread.guard.move', where);
    else throw new UserError('autoread.guard.elsewhere', where);
  }
  const at = placeOf(interaction, channelId);
  speech.rights.requireAdmitted(
    options.joinOnly === true ? { does: ['join-voice'], at } : effectsAt(at, { kind: 'voice' }),
  );
  const player = players.find(interaction.guildId);
  const current = player?.channelId;
  if (player && current !== undefined && current !== channelId && player.busy) {
    throw new UserError('error.voice.busyElsewhere', { channel: channel(current) });
  }
  return { kind: 'voice', channelId, adapterCreator: interaction.guild.voiceAdapterCreator };
}

/**
 * How a member outside voice is answered when the command does not say: their own default, else the server's,
 * else `builtin` (a file for the slash commands, as always; a voice message for the Speak menu).
 */
export function outsideVoiceOutput(defaults: OutputDefaults, builtin: OutsideVoiceOutput): OutsideVoiceOutput {
  return defaults.member ?? defaults.server ?? builtin;
}

/**
 * Where the audio goes: the command's `output` option first; without it, the member's voice channel when they are
 * in one, else the member's default, the server's, then `builtin`. The store is read only in that last case.
 */
export async function chooseTarget(
  interaction: SpeakingInteraction,
  output: OutputChoice,
  context: Pick<CommandContext, 'players' | 'speech' | 'store' | 'reading'>,
  builtin: OutsideVoiceOutput = 'file',
): Promise<ChosenTarget> {
  const where = await chooseDestination(interaction, output, context, builtin);
  return where.kind === 'voice-message' ? voiceMessageTarget(interaction, where.because) : where;
}

/**
 * Where the audio would go, by chooseTarget's rule, without taking the member's slowmode turn for a voice message:
 * for what posts nothing yet (a scene's preview), the turn being taken when it is posted.
 */
export async function chooseDestination(
  interaction: SpeakingInteraction,
  output: OutputChoice,
  context: Pick<CommandContext, 'players' | 'speech' | 'store' | 'reading'>,
  builtin: OutsideVoiceOutput = 'file',
): Promise<
  Extract<ChosenTarget, { kind: 'voice' }> | { kind: 'file' | 'voice-message'; because: 'asked' | 'no-voice' }
> {
  if (output === 'file' || output === 'voice-message') return { kind: output, because: 'asked' };
  if (output === 'voice' || interaction.member.voice.channel)
    return memberVoiceChannel(interaction, context, context.reading);
  const defaults = await context.store.outputDefaults.get(interaction.guildId, interaction.user.id);
  return { kind: outsideVoiceOutput(defaults, builtin), because: 'no-voice' };
}

/** A voice message, with the member's bar to posting it here, if any (checked now, before anything is paid). */
function voiceMessageTarget(interaction: SpeakingInteraction, because: 'asked' | 'no-voice'): ChosenTarget {
  const bar = claimMemberVoiceMessage(interaction);
  return bar === undefined ? { kind: 'voice-message', because } : { kind: 'voice-message', because, bar };
}

/**
 * The member's own voice rights where their speech plays, as the core asks them again before each part (for an
 * order built elsewhere, the dashboard's studio: src/app/dashboard-bot.ts).
 */
export function memberStillSpeaks(
  speech: Rights,
  interaction: MemberPlace,
  channelId: string,
): () => Revocation | undefined {
  const effects = effectsAt(placeOf(interaction, channelId), { kind: 'voice' });
  return () => speech.rights.stillAllows(effects);
}

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
  const job = handOver(context.speech, {
    ...order,
    target: speechTarget(target, interaction.attachmentSizeLimit),
    effects,
  });
  // A file or voice message the member may not post here themselves is theirs alone (the gate says which).
  let privately = reply.private === true || job.privately;
  const accepted = await job.accepted;
  // Refused for money and spoken in the free voice instead: every reply names it, and why.
  const spoken = accepted.fallback?.request ?? order.request;
  if (accepted.fallback !== undefined && spoken.kind !== 'ready')
    voice = fallbackVoiceLabel(interaction.locale, spoken.voice, accepted.fallback.refusal);
  if (target.kind === 'voice-message' && target.bar === undefined && !job.privately) {
    // The voice message will be the response itself, shown as the member's use of the command.
    await acknowledgeAsVoiceMessage(interaction);
  } else {
    // A voice message the member may not post here is theirs alone, as are the Speak menu's replies.
    await acknowledge(interaction, privately || target.kind === 'voice-message');
  }
  if (target.kind === 'voice') {
    // Once the channel hears it, the public reply is what says whose words they are: a failure after that keeps it.
    // And if it fails after, the reply says the channel heard part of it, no longer that it is being spoken.
    void job.firstAudio.then(() =>
      keepsAttribution(interaction, {
        key: 'say.spokePartWay',
        params: { channel: channel(target.channelId), voice },
      }),
    );
    if (accepted.ahead > 0)
      await showProgress(interaction, 'say.queued', { voice, count: accepted.parts, ahead: accepted.ahead });
    // Said when it is true: once the first frame is out (a clip that ends before that goes straight to its result).
    else {
      const first = await Promise.race([job.firstAudio, job.outcome.then(() => undefined)]);
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
  const outcome = await job.outcome;
  // Asked again right before posting: a right taken away since the order was accepted makes the post hers alone.
  const late = !privately && target.kind !== 'voice' && job.postsPrivately();
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
    (job.privately || late) && answer.answer === 'reply'
      ? { ...answer, notes: [...answer.notes, privateFileNote] }
      : answer;
  const where = late && target.kind === 'voice-message' ? { ...target, bar: 'member-no-permission' as const } : target;
  await showAnswer(interaction, context.logger, shown, where, privately, buttons);
}

/** A file carries Discord's upload limit for this interaction (`attachment_size_limit`), when Discord sent one. */
function speechTarget(target: ChosenTarget, sizeLimit: number | undefined): SpeechTarget {
  if (target.kind === 'voice')
    return { kind: 'voice', channelId: target.channelId, adapterCreator: target.adapterCreator };
  if (target.kind === 'file') return sizeLimit === undefined ? { kind: 'file' } : { kind: 'file', sizeLimit };
  return { kind: target.kind };
}

/** Posts what the worder (outcome-words.ts) made of the outcome. */
async function showAnswer(
  interaction: SpeakingInteraction,
  log: Logger,
  answer: OutcomeAnswer,
  target: ChosenTarget,
  privateReply: boolean,
  /** The reply's buttons (reply-buttons.ts), where the answer carries them. */
  source: ReplyButtonSource | undefined,
): Promise<void> {
  switch (answer.answer) {
    case 'reply': {
      const row = source && answer.buttons && replyButtons(interaction.locale, answer.buttons, source, answer.seconds);
      if (answer.files.length > 0)
        return showWithFiles(interaction, answer.words, answer.files, row && [row], answer.notes, privateReply);
      return showContent(interaction, wordsText(interaction.locale, answer.words, answer.notes), [], row && [row]);
    }
    case 'too-large':
      return showTooLargeFile(interaction, log, answer, privateReply);
    case 'voice-message':
      return showVoiceMessage(
        interaction,
        log,
        answer,
        target.kind === 'voice-message' ? target.bar : undefined,
        answer.buttons && source,
      );
    case 'refused':
      throw answer.error;
    default:
      throw new Error(`a command cannot post a ${answer.answer} answer`);
  }
}
