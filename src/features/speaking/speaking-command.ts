// /say and /emote, and the one way every front-end hands its order over: the same options around their own speech
// settings; from options to speech in a server (the settings by layer, the voice named with why, where its audio goes
// by the `output` option, voice presence and defaults, who asked); then speakAndReply, the path shared with the Speak
// menu and /clone's first line, from the target to the answer; and the one call of the pipeline's speak() (handOver,
// test/structure/one-way-to-speak.test.ts). Where SayBot or the member may not speak, it is refused at once, before
// anything is paid; no front-end checks a right itself. Outside a server: user-install.ts.
import {
  DiscordAPIError,
  PermissionFlagsBits,
  RESTJSONErrorCodes,
  type BaseInteraction,
  type ButtonInteraction,
  type ChatInputCommandInteraction,
  type SlashCommandOptionsOnlyBuilder,
} from 'discord.js';
import type {
  AnsweredInteraction,
  ChannelReading,
  CommandContext,
  CommandModule,
  ServiceName,
  Services,
} from '../../core/interactions/command.ts';
import { slashCommand, type CommandName } from '../../core/interactions/command-builder.ts';
import {
  outputOption,
  presetOption,
  readOutput,
  readSpeechSettings,
  readText,
  TEXT_MAX_CHARACTERS,
  textOption,
  withSpeechOptions,
  type SettingOptionSpec,
} from '../../core/interactions/options.ts';
import type { ResolvedSettings } from '../../core/settings/speech-request.ts';
import { chooseSettings } from '../../core/sourcing/voice-choice.ts';
import {
  MEMBER_REQUEST,
  type OrderEvents,
  type Requester,
  type SpeechOrder,
  type SpeechOutcome,
  type SpeechPipeline,
  type SpeechRequest,
  type SpeechTarget,
} from '../../core/order/pipeline.ts';
import type { Revocation, RightsAnswered } from '../../core/order/rights.ts';
import { EFFECT_SETTING_NAMES, type SpeechSettingName } from '../../core/settings/setting-declarations.ts';
import type { OutputDefaults, OutsideVoiceOutput } from '../../core/store/output-defaults-store.ts';
import type { NoSeat, Seat, Seats } from '../../core/voice/seats.ts';
import { UserError } from '../../core/interactions/failures.ts';
import { countCharacters, moreCharactersThan } from '../../core/characters.ts';
import { t } from './strings.ts';
import { acknowledge, acknowledgeAsVoiceMessage, receivedAtEpochMs } from '../../core/interactions/acknowledge.ts';
import { keepsAttribution, showProgress } from '../../core/interactions/replies.ts';
import type { Effects, Place, WordsAuthor } from './gate-types.ts';
import { commandNameOf } from '../../core/interactions/command-loader.ts';
import { fallbackVoiceLabel, privateFileNote, wordOutcome, type FallbackCause } from './outcome-words.ts';
import { helperOf } from './seat-words.ts';
import { describeFailure } from './failure-words.ts';
import { fetchOneMember } from '../../core/interactions/discord-ids.ts';
import { namedVoice } from '../../core/interactions/safe-text.ts';
import { showAnswer } from './voice-message-reply.ts';
import type { ReplyButtonSource } from './reply-button-row.ts';
import { claimMemberVoiceMessage, type MemberVoiceMessageBar } from './voice-message-rights.ts';

/** The command's definition: text, service settings (in released order), output and preset, then audio settings. */
export function speakingCommand(
  name: CommandName,
  serviceSettings: readonly SpeechSettingName[],
  specs: Partial<Record<SpeechSettingName, SettingOptionSpec>> = {},
): SlashCommandOptionsOnlyBuilder {
  return withSpeechOptions(
    withSpeechOptions(slashCommand(name).addStringOption(textOption()), serviceSettings, specs)
      .addStringOption(outputOption())
      .addStringOption(presetOption()),
    EFFECT_SETTING_NAMES,
  );
}

/** What speaking for a command uses of the commands' services. */
export const SPEAKING_USES = [
  'engines',
  'fileShares',
  'logger',
  'reading',
  'replyAudio',
  'seats',
  'speech',
  'store',
] as const satisfies readonly ServiceName[];
type SpeakingServices = Services<(typeof SPEAKING_USES)[number]>;

/** The services /say and /emote use: speaking for a member, their settings, the user install, the voice list. */
export const SPEAKING_COMMAND_USES = [...SPEAKING_USES, 'config', 'voices'] as const satisfies readonly ServiceName[];
type SpeakingCommandUses = (typeof SPEAKING_COMMAND_USES)[number];

/** What /say and /emote were given: the speech settings, preset and output chosen, and the text (within its limit). */
export function commandSpeech(interaction: ChatInputCommandInteraction) {
  return {
    options: readSpeechSettings(interaction.options),
    presetName: readText(interaction.options, 'preset'),
    text: spokenText(interaction.options.getString('text', true)),
    output: readOutput(interaction.options),
    userId: interaction.user.id,
  };
}

/** The command in a server: settings by layer; audio to the member's voice channel, or a file or voice message. */
export function speakingHandler(
  /** How the command makes its request from its text and the settings that apply; it may refuse (UserError). */
  requestOf: (text: string, settings: ResolvedSettings) => SpeechRequest,
): CommandModule<SpeakingCommandUses>['execute'] {
  return async (interaction, context) => {
    const { text, output, ...query } = commandSpeech(interaction);
    const { guildId, guild } = interaction;
    const { store, engines } = context;
    const settings = await chooseSettings(store, { ...query, guildId, guildLocale: guild.preferredLocale, engines });
    const credit = engines?.voice(settings.voice)?.credit;
    const label = voiceLabel(interaction.locale, settings, 'server', credit);
    const target = await chooseTarget(interaction, output, context);
    const requester = requesterOf(interaction, commandNameOf(interaction));
    const order = { request: requestOf(text, settings), requester };
    const saved = settings.sources.voice.kind !== 'option';
    await speakAndReply(interaction, context, order, target, label, { saved });
    // Named in that answer (a refusal before it is thrown: told next time), so not again.
    if (settings.voiceDeleted !== undefined) await store.memberDefaults.unset(guildId, query.userId, ['voiceDeleted']);
  };
}

/** The text, or the member's answer of why not: over TEXT_MAX_CHARACTERS as the service bills them. */
function spokenText(text: string): string {
  if (moreCharactersThan(text, TEXT_MAX_CHARACTERS))
    throw new UserError('say.textTooLong', { characters: countCharacters(text), max: TEXT_MAX_CHARACTERS });
  return text;
}

/** `voice-b-ko-m-01` and where it came from unless named; outside a server the language's voice, not the server's. */
export function voiceLabel(
  locale: string,
  settings: ResolvedSettings,
  where: 'server' | 'outside',
  credit?: string,
): string {
  const voice = namedVoice(settings.voice, credit);
  const source = settings.sources.voice;
  if (source.kind === 'option') return voice;
  if (settings.voiceDeleted !== undefined)
    return t(locale, 'voice.why.deleted', { voice, name: settings.voiceDeleted });
  if (source.kind === 'builtin')
    return t(locale, where === 'server' ? 'voice.why.builtin' : 'voice.why.builtinOutside', { voice });
  // A preset's, the member's default, or the server's default preset.
  return t(locale, `voice.why.${source.kind}`, { voice, ...('preset' in source ? { preset: source.preset } : {}) });
}

/** The `output` option: where the member wants the audio (absent: their voice channel, else their default). */
export type OutputChoice = 'voice' | 'file' | 'voice-message' | undefined;

/** Where a command's audio goes, and why a file or a voice message when it is one (the reply says so). */
export type ChosenTarget =
  | { kind: 'voice'; channelId: string; seat: Seat }
  | { kind: 'file'; because: 'asked' | 'no-voice' }
  /** `bar`: the member may not post it in this channel (rights, slowmode): the audio goes to them privately. */
  | { kind: 'voice-message'; because: 'asked' | 'no-voice'; bar?: MemberVoiceMessageBar };

/** A slash command or the Speak menu, in a server: what the front-end needs of either. */
type SpeakingInteraction = AnsweredInteraction<'cached'>;

/** The rights port the pipeline holds (src/core/order/rights.ts), answered by the gate (gate.ts `gatePort`). */
type Rights = Pick<SpeechPipeline, 'rights'>;

/** Where the audio goes: `output`, else their voice channel, else defaults (the store read only in that last case). */
export async function chooseTarget(
  interaction: SpeakingInteraction,
  output: OutputChoice,
  context: Pick<CommandContext, 'seats' | 'speech' | 'store' | 'reading'>,
  builtin: OutsideVoiceOutput = 'file',
  /** The front-end has the `output` option (the Speak menu has none): a refusal may offer it. */
  offersFile = true,
): Promise<ChosenTarget> {
  const where = await chooseDestination(interaction, output, context, builtin, offersFile);
  if (where.kind !== 'voice-message') return where;
  // The member's bar to posting it here, if any, checked now: before anything is paid.
  const bar = claimMemberVoiceMessage(interaction, context.speech.rights);
  return bar === undefined ? where : { ...where, bar };
}

/** chooseTarget without taking the slowmode turn: for what posts nothing yet (a scene's preview). */
export async function chooseDestination(
  interaction: SpeakingInteraction,
  output: OutputChoice,
  context: Pick<CommandContext, 'seats' | 'speech' | 'store' | 'reading'>,
  builtin: OutsideVoiceOutput = 'file',
  offersFile = true,
): Promise<
  Extract<ChosenTarget, { kind: 'voice' }> | { kind: 'file' | 'voice-message'; because: 'asked' | 'no-voice' }
> {
  if (output === 'file' || output === 'voice-message') return { kind: output, because: 'asked' };
  if (output === 'voice' || interaction.member.voice.channel)
    return memberVoiceChannel(interaction, context, context.reading, { offersFile });
  const defaults = await context.store.outputDefaults.get(interaction.guildId, interaction.user.id);
  return { kind: outsideVoiceOutput(defaults, builtin), because: 'no-voice' };
}

/**
 * The member's voice channel and the seat that speaks there (src/core/voice/seats.ts `seatFor`, which asks the gate of
 * that seat: refused at once rather than timing out later).
 */
export function memberVoiceChannel(
  interaction: MemberPlace,
  { seats, speech }: { seats: Seats; speech: Rights },
  /** Auto-read, when the server may be read aloud: it keeps its seats in the channels it reads into. */
  reading?: ChannelReading,
  /**
   * `managersMove`: Manage Server may move it (/join). `joinOnly`: joins but says nothing, no member voice rights.
   * `offersFile`: the front-end has the `output` option, so a refusal may offer `output: file`.
   */
  options: { managersMove?: boolean; joinOnly?: boolean; offersFile?: boolean } = {},
): Extract<ChosenTarget, { kind: 'voice' }> {
  const choice = seats.seatFor(interaction.guild, interaction.member.voice.channel?.id, {
    reading: reading?.get(interaction.guildId),
    manager:
      options.managersMove === true ? interaction.memberPermissions.has(PermissionFlagsBits.ManageGuild) : undefined,
    allowed: (seat, channelId) =>
      speech.rights.requireAllowed(
        options.joinOnly === true
          ? { does: ['join-voice'], at: { ...placeOf(interaction, channelId), seatGuild: seat?.guild } }
          : effectsAt(placeOf(interaction, channelId), { kind: 'voice', seat }),
      ),
  });
  if (choice.kind !== 'seat') throw noSeatError(choice, options.offersFile === true);
  return { kind: 'voice', channelId: choice.channelId, seat: choice.seat };
}

/** No seat: not in voice, auto-read's words where it keeps one, else where seats are busy; a file offered if it may. */
export function noSeatError(why: NoSeat, offersFile: boolean): UserError {
  const tail = offersFile ? '' : '.voiceOnly';
  if (why.kind === 'not-in-voice') return new UserError('error.voice.notInVoice');
  if (why.kind === 'read') {
    const where = { channel: `<#${why.textChannelId}>`, voice: `<#${why.voiceChannelId}>` };
    return new UserError(why.move ? 'autoread.guard.move' : `autoread.guard.elsewhere${tail}`, where);
  }
  const [only] = why.channels;
  if (why.speaking && only !== undefined)
    return new UserError(`error.voice.busyElsewhere${tail}`, { channel: `<#${only}>` });
  return new UserError(`error.voice.noSeat${tail}`, { channels: why.channels.map((id) => `<#${id}>`).join(', ') });
}

/** Outside voice without `output`: their default, the server's, else `builtin` (a file; Speak menu: voice message). */
export function outsideVoiceOutput(defaults: OutputDefaults, builtin: OutsideVoiceOutput): OutsideVoiceOutput {
  return defaults.member ?? defaults.server ?? builtin;
}

/** The rights' word before a command's order is built (/clone's download): thrown, or whether the answer is private. */
export function allowedHere(
  interaction: SpeakingInteraction,
  speech: Rights,
  target: ChosenTarget,
): { privately: boolean } {
  return speech.rights.requireAllowed(
    effectsAt(placeOf(interaction, target.kind === 'voice' ? target.channelId : undefined), target),
  );
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

/** Hands the order to the pipeline and words what it says; acknowledged once accepted, the join already under way. */
export async function speakAndReply(
  interaction: SpeakingInteraction,
  context: SpeakingServices,
  order: Omit<Extract<SpeechOrder, { request: SpeechRequest }>, 'target'>,
  target: ChosenTarget,
  /** The voice as the replies name it (voiceLabel), until a free voice that stands in is named instead. */
  label: string,
  /** `private`: all replies the member's alone; `author`: whose words, if another's; `saved`: a voice not named here. */
  reply: { private?: boolean; author?: WordsAuthor; saved?: boolean } = {},
): Promise<void> {
  // A file holds a server share until posted (file-shares.ts); what was already paid (a clone's line) is not refused.
  const release =
    target.kind === 'voice'
      ? undefined
      : context.fileShares.take({ guildId: interaction.guildId, userId: interaction.user.id }, order.followUp !== true);
  try {
    const author = reply.author === undefined ? undefined : await freshAuthor(interaction, reply.author);
    const at = placeOf(interaction, target.kind === 'voice' ? target.channelId : undefined);
    const to = speechTarget(target, interaction.attachmentSizeLimit);
    const handed = handOver(context.speech, { ...order, target: to, effects: { ...effectsAt(at, target), author } });
    // A file or voice message the member may not post here themselves is theirs alone (the gate says which).
    let privately = reply.private === true || handed.privately;
    // A saved voice its engine no longer lists: named as replies name it (a preset's, your default), how to change it.
    const told = (error: unknown) =>
      reply.saved && describeFailure(error).message.key === 'error.input.engineVoiceUnknown'
        ? new UserError('error.input.savedVoiceNotOffered', { voice: label }, { cause: error })
        : error;
    const accepted = await handed.accepted.catch((error: unknown) => Promise.reject(told(error)));
    // Refused for money and spoken in the free voice instead: every reply names it, and why.
    const spoken = accepted.fallback?.request ?? order.request;
    const creditOf = (voiceId: string) => context.engines?.voice(voiceId)?.credit;
    const standIn = (voiceId: string, cause: FallbackCause, paidBefore = 0) =>
      fallbackVoiceLabel(interaction.locale, voiceId, cause, paidBefore, creditOf(voiceId));
    if (accepted.fallback !== undefined && spoken.kind !== 'ready')
      label = standIn(spoken.voice, accepted.fallback.refusal);
    if (target.kind === 'voice-message' && target.bar === undefined && !handed.privately) {
      // The voice message will be the response itself, shown as the member's use of the command.
      await acknowledgeAsVoiceMessage(interaction);
    } else {
      // A voice message the member may not post here is theirs alone, as are the Speak menu's replies.
      await acknowledge(interaction, privately || target.kind === 'voice-message');
    }
    if (target.kind === 'voice') {
      const channel = `<#${target.channelId}>`;
      // Once heard, the public reply says whose words they are (a free voice that stood in, after the paid voice, as a
      // file's words say it), and a later failure says part of it was heard.
      const heard = ({ standIn: free }: Pick<SpeechOutcome, 'standIn'>) => {
        const said = free === undefined ? label : standIn(free.voice, free.cause, free.paidBefore);
        keepsAttribution(interaction, { key: 'say.spokePartWay', params: { channel, voice: said } });
      };
      void handed.firstAudio.then(heard);
      void handed.outcome.then((ended) => ended.kind === 'failed' && ended.secondsHeard > 0 && heard(ended));
      if (accepted.ahead > 0)
        await showProgress(interaction, 'say.queued', { voice: label, count: accepted.parts, ahead: accepted.ahead });
      // Said when it is true: once the first frame is out (a clip that ends before that goes straight to its result).
      else {
        const first = await Promise.race([handed.firstAudio, handed.outcome.then(() => undefined)]);
        if (first !== undefined) {
          // The service failed and the free voice speaks its first part: named from the first words on.
          if (first.standIn !== undefined) label = standIn(first.standIn.voice, first.standIn.cause);
          await showProgress(interaction, 'say.speaking', { voice: label, channel });
        }
      }
    }
    const buttons: ReplyButtonSource | undefined =
      context.replyAudio && spoken.kind !== 'ready'
        ? { registry: context.replyAudio, request: spoken, guildId: interaction.guildId, askerId: interaction.user.id }
        : undefined;
    const outcome = await handed.outcome.then((o) => (o.kind === 'failed' ? { ...o, error: told(o.error) } : o));
    // Where its seat sits now: a moderator may have dragged it to a listener meanwhile, and it spoke on there.
    const movedTo = target.kind === 'voice' ? target.seat.bot.players.find(interaction.guildId)?.channelId : undefined;
    const helperId = target.kind === 'voice' ? helperOf(target.seat.guild, interaction.guild) : undefined;
    // Asked again right before posting: a right taken away since the order was accepted makes the post hers alone.
    const late = !privately && target.kind !== 'voice' && handed.postsPrivately();
    if (late) privately = true;
    const answer = wordOutcome(outcome, {
      flavour: 'command',
      locale: interaction.locale,
      where:
        target.kind === 'voice' ? { ...target, helperId, ...(movedTo !== target.channelId && { movedTo }) } : target,
      label,
      voiceId: spoken.voice,
      credit: creditOf(outcome.standIn?.voice ?? spoken.voice),
      sizeLimit: interaction.attachmentSizeLimit,
      fellBack: accepted.fallback?.refusal,
      buttons: buttons !== undefined,
    });
    const shown =
      (handed.privately || late) && answer.answer === 'reply'
        ? { ...answer, notes: [...answer.notes, privateFileNote] }
        : answer;
    const bar = target.kind !== 'voice-message' ? undefined : late ? 'member-no-permission' : target.bar;
    await showAnswer(interaction, context.logger, shown, bar, privately, buttons, context.speech.rights, release);
  } finally {
    release?.();
  }
}

/**
 * The member's own voice rights where it plays, and its seat's bot's there, for an order built elsewhere
 * (src/app/dashboard-bot.ts).
 */
export function memberStillSpeaks(
  speech: Rights,
  interaction: MemberPlace,
  target: Extract<ChosenTarget, { kind: 'voice' }>,
): () => Revocation | undefined {
  const effects = effectsAt(placeOf(interaction, target.channelId), { kind: 'voice', seat: target.seat });
  return () => speech.rights.stillAllows(effects);
}

/** A file carries Discord's upload limit for this interaction (`attachment_size_limit`), when Discord sent one. */
function speechTarget(target: ChosenTarget, sizeLimit: number | undefined): SpeechTarget {
  if (target.kind === 'voice') return target;
  if (target.kind === 'file') return sizeLimit === undefined ? { kind: 'file' } : { kind: 'file', sizeLimit };
  return { kind: target.kind };
}

/** Where a member asks, for the voice checks: a command, a reply's button, or the dashboard's studio. */
export type MemberPlace = Pick<
  ButtonInteraction<'cached'>,
  'guildId' | 'guild' | 'member' | 'user' | 'memberPermissions'
>;

/** Where a member asks, for the gate: their rights in the interaction's channel and, when given, their voice channel. */
export function placeOf(
  interaction: MemberPlace & Partial<Pick<AnsweredInteraction<'cached'>, 'channel' | 'appPermissions'>>,
  voiceChannelId?: string,
): Place {
  return {
    guild: interaction.guild,
    memberId: interaction.user.id,
    member: interaction.member,
    text: {
      thread: interaction.channel?.isThread() ?? false,
      channelId: interaction.channel?.id,
      member: interaction.memberPermissions,
      bot: interaction.appPermissions ?? null,
    },
    voiceChannelId,
  };
}

/** An order's effects where a member asks, by where its audio goes: always words of the member's own choosing. */
export function effectsAt(
  place: Place,
  target: { kind: 'voice'; seat?: Seat | undefined } | { kind: 'file' | 'voice-message' },
): Effects {
  if (target.kind === 'voice')
    return { does: ['speak-in-voice', 'member-words'], at: { ...place, seatGuild: target.seat?.guild } };
  return { does: [target.kind === 'file' ? 'attach-file' : 'post-voice-message', 'member-words'], at: place };
}

/** A front-end's order: the pipeline's, with its effects in Discord (required: no order speaks without). */
export type DeclaredOrder = SpeechOrder & { effects: Effects };

/**
 * Hands `order` to the pipeline: its acceptance, first frame and one outcome for the front-end to word; whether its
 * answer is the member's alone, and the same asked again before its post.
 */
export function handOver(speech: Pick<SpeechPipeline, 'speak'>, order: DeclaredOrder): OrderEvents & RightsAnswered {
  return speech.speak(order);
}

/** How long the words of another member wait for Discord's answer on them before the gate reads what SayBot knew. */
const AUTHOR_LOOKUP_MS = 1_000;

const isUnknownMember = (error: unknown): boolean =>
  error instanceof DiscordAPIError && error.code === RESTJSONErrorCodes.UnknownMember;

/**
 * Another member's words (the Speak menu): without the Guild Members intent Discord tells SayBot nothing of a timeout
 * given since, so the author is fetched afresh for at most AUTHOR_LOOKUP_MS, else as known. Unknown Member: gone.
 */
async function freshAuthor(interaction: SpeakingInteraction, author: WordsAuthor): Promise<WordsAuthor> {
  if (author.memberId === interaction.user.id) return author;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), AUTHOR_LOOKUP_MS);
  });
  const looked = fetchOneMember(interaction.guild, author.memberId, 'message author', { force: true }).catch(
    (error: unknown) => (isUnknownMember(error) ? ('left' as const) : undefined),
  );
  const member = await Promise.race([looked, late]).finally(() => clearTimeout(timer));
  if (member === 'left') return { memberId: author.memberId, left: true };
  return member === undefined ? author : { memberId: author.memberId, member };
}
