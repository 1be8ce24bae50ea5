// What /say and /emote share: the same options around their own speech settings, and one way from options to speech
// in a server and outside one (the user install): the settings by layer, the voice named with why, the target, the
// order handed over. Below them, the path they share with the Speak menu and /clone's first line (speakAndReply):
// from the target to the answer.
import {
  DiscordAPIError,
  RESTJSONErrorCodes,
  type ChatInputCommandInteraction,
  type SlashCommandOptionsOnlyBuilder,
} from 'discord.js';
import type { CommandModule, ServiceName, Services } from '../../core/interactions/command.ts';
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
import type { SpeechOrder, SpeechRequest } from '../../core/order/pipeline.ts';
import { chooseSettings, type ResolvedSettings } from '../../core/order/order-settings.ts';
import { EFFECT_SETTING_NAMES, type SpeechSettingName } from '../../core/settings/setting-declarations.ts';
import { requireUserInstall, speakOutsideServer, USER_INSTALL_GUILD } from './user-install.ts';
import { UserError } from '../../core/interactions/failures.ts';
import { countCharacters, moreCharactersThan } from '../../core/characters.ts';
import { t } from './strings.ts';
import { acknowledge, acknowledgeAsVoiceMessage } from '../../core/interactions/acknowledge.ts';
import { keepsAttribution, showProgress } from '../../core/interactions/replies.ts';
import type { WordsAuthor } from './gate-types.ts';
import { commandNameOf } from '../../core/interactions/command-loader.ts';
import { fallbackVoiceLabel, privateFileNote, wordOutcome, type FallbackCause } from './outcome-words.ts';
import { fetchOneMember } from '../../core/interactions/discord-ids.ts';
import { namedVoice } from '../../core/interactions/safe-text.ts';
import { showAnswer } from './voice-message-reply.ts';
import type { ReplyButtonSource } from './reply-button-row.ts';
import {
  chooseTarget,
  effectsAt,
  handOver,
  requesterOf,
  placeOf,
  speechTarget,
  type ChosenTarget,
  type SpeakingInteraction,
} from './hand-over.ts';

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
  'players',
  'reading',
  'replyAudio',
  'speech',
  'store',
] as const satisfies readonly ServiceName[];
export type SpeakingServices = Services<(typeof SPEAKING_USES)[number]>;

/** The services /say and /emote use: speaking for a member, their settings, the user install, the voice list. */
export const SPEAKING_COMMAND_USES = [...SPEAKING_USES, 'config', 'voices'] as const satisfies readonly ServiceName[];
export type SpeakingCommandUses = (typeof SPEAKING_COMMAND_USES)[number];

/** The command's handlers: settings by layer; audio to the member's voice channel, or a file or voice message. */
export function speakingHandlers(
  /** How the command makes its request from its text and the settings that apply; it may refuse (UserError). */
  requestOf: (text: string, settings: ResolvedSettings) => SpeechRequest,
): Required<Pick<CommandModule<SpeakingCommandUses>, 'execute' | 'executeOutsideServer'>> {
  const given = (interaction: ChatInputCommandInteraction) => ({
    options: readSpeechSettings(interaction.options),
    presetName: readText(interaction.options, 'preset'),
    text: spokenText(interaction.options.getString('text', true)),
    output: readOutput(interaction.options),
    userId: interaction.user.id,
  });
  return {
    async execute(interaction, context) {
      const { text, output, ...query } = given(interaction);
      const { guildId, guild } = interaction;
      const settings = await chooseSettings(context.store, { ...query, guildId, guildLocale: guild.preferredLocale });
      const credit = context.engines?.voice(settings.voice)?.credit;
      const voice = voiceLabel(interaction.locale, settings, 'server', credit);
      const target = await chooseTarget(interaction, output, context);
      const requester = requesterOf(interaction, commandNameOf(interaction));
      await speakAndReply(interaction, context, { request: requestOf(text, settings), requester }, target, voice);
    },
    async executeOutsideServer(interaction, context) {
      const { text, output, ...query } = given(interaction);
      requireUserInstall(context, interaction);
      // The options, else the user's language's voice: no server's presets or defaults leak.
      const settings = await chooseSettings(context.store, {
        ...query,
        guildId: USER_INSTALL_GUILD,
        guildLocale: interaction.locale,
      });
      const voice = voiceLabel(interaction.locale, settings, 'outside');
      await speakOutsideServer(interaction, context, requestOf(text, settings), voice, output);
    },
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
  if (source.kind === 'builtin')
    return t(locale, where === 'server' ? 'voice.why.builtin' : 'voice.why.builtinOutside', { voice });
  // A preset's, the member's default, or the server's default preset.
  return t(locale, `voice.why.${source.kind}`, { voice, ...('preset' in source ? { preset: source.preset } : {}) });
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

/** Hands the order to the pipeline and words what it says; acknowledged once accepted, the join already under way. */
export async function speakAndReply(
  interaction: SpeakingInteraction,
  context: SpeakingServices,
  order: Omit<Extract<SpeechOrder, { request: SpeechRequest }>, 'target'>,
  target: ChosenTarget,
  voice: string,
  /** `private`: every reply the member's alone (the Speak menu). `author`: whose words, when another member's. */
  reply: { private?: boolean; author?: WordsAuthor } = {},
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
    const accepted = await handed.accepted;
    // Refused for money and spoken in the free voice instead: every reply names it, and why.
    const spoken = accepted.fallback?.request ?? order.request;
    const creditOf = (voiceId: string) => context.engines?.voice(voiceId)?.credit;
    const standIn = (voiceId: string, cause: FallbackCause) =>
      fallbackVoiceLabel(interaction.locale, voiceId, cause, 0, creditOf(voiceId));
    if (accepted.fallback !== undefined && spoken.kind !== 'ready')
      voice = standIn(spoken.voice, accepted.fallback.refusal);
    if (target.kind === 'voice-message' && target.bar === undefined && !handed.privately) {
      // The voice message will be the response itself, shown as the member's use of the command.
      await acknowledgeAsVoiceMessage(interaction);
    } else {
      // A voice message the member may not post here is theirs alone, as are the Speak menu's replies.
      await acknowledge(interaction, privately || target.kind === 'voice-message');
    }
    if (target.kind === 'voice') {
      const channel = `<#${target.channelId}>`;
      // Once heard, the public reply says whose words they are, and a later failure says part of it was heard.
      const heard = () => keepsAttribution(interaction, { key: 'say.spokePartWay', params: { channel, voice } });
      void handed.firstAudio.then(heard);
      if (accepted.ahead > 0)
        await showProgress(interaction, 'say.queued', { voice, count: accepted.parts, ahead: accepted.ahead });
      // Said when it is true: once the first frame is out (a clip that ends before that goes straight to its result).
      else {
        const first = await Promise.race([handed.firstAudio, handed.outcome.then(() => undefined)]);
        if (first !== undefined) {
          // The service failed and the free voice speaks its first part: named from the first words on.
          if (first.freeVoice !== undefined) voice = standIn(first.freeVoice.voice, first.freeVoice.cause);
          await showProgress(interaction, 'say.speaking', { voice, channel });
        }
      }
    }
    const buttons: ReplyButtonSource | undefined =
      context.replyAudio && spoken.kind !== 'ready'
        ? { registry: context.replyAudio, request: spoken, guildId: interaction.guildId, askerId: interaction.user.id }
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
      voiceId: spoken.voice,
      credit: creditOf(outcome.freeVoice?.voice ?? spoken.voice),
      sizeLimit: interaction.attachmentSizeLimit,
      fellBack: accepted.fallback !== undefined,
      buttons: buttons !== undefined,
    });
    const shown =
      (handed.privately || late) && answer.answer === 'reply'
        ? { ...answer, notes: [...answer.notes, privateFileNote] }
        : answer;
    const where =
      late && target.kind === 'voice-message' ? { ...target, bar: 'member-no-permission' as const } : target;
    await showAnswer(interaction, context.logger, shown, where, privately, buttons, context.speech.rights);
  } finally {
    release?.();
  }
}
