// Posts a command's answer as outcome-words.ts worded it: words with the reply's buttons, files, a voice message (else
// a file to the member, saying why) with its buttons on a follow-up, or a file too large sent as a voice message.
import { MessageFlags, type APIContainerComponent, type AttachmentPayload } from 'discord.js';
import type { Logger } from '../../core/log.ts';
import type { VoiceMessage } from '../../core/voice-message/render.ts';
import { isDeferredAsVoiceMessage, noteIfTokenGone, tokenGone } from '../../core/interactions/acknowledge.ts';
import { commandNameOf } from '../../core/interactions/command-loader.ts';
import type { AnsweredInteraction } from '../../core/interactions/command.ts';
import { notPosted } from './failure-words.ts';
import { showContent, type ShownComponents } from '../../core/interactions/replies.ts';
import { wordsText, type AsFileReason, type OutcomeAnswer } from './outcome-words.ts';
import { NO_MENTIONS } from '../../core/interactions/safe-text.ts';
import { t, type LocalisedMessage } from './strings.ts';
import {
  postVoiceMessage,
  replyWithVoiceMessage,
  voiceMessagePlace,
  type VoiceMessagePostResult,
} from './voice-message-post.ts';
import {
  claimMemberVoiceMessage,
  type MemberVoiceMessageBar,
  type VoiceMessageRights,
} from './voice-message-rights.ts';
import { replyButtons, voiceMessageButtons, type ReplyButtonSource } from './reply-button-row.ts';

/** Posts what the worder (outcome-words.ts) made of the outcome. */
export async function showAnswer(
  interaction: AnsweredInteraction<'cached'>,
  log: Logger,
  answer: OutcomeAnswer,
  /** Why the member may not post a voice message in this channel, if they asked for one and may not. */
  bar: MemberVoiceMessageBar | undefined,
  privateReply: boolean,
  /** The reply's buttons (reply-buttons.ts), where the answer carries them. */
  source: ReplyButtonSource | undefined,
  /** The rights port: whether a file too large may be posted as the member's voice message here. */
  rights: VoiceMessageRights,
  /** Called once a voice message (a file too large as one too) is posted, before what follows: its file share is free. */
  onPosted?: () => void,
): Promise<void> {
  switch (answer.answer) {
    case 'reply': {
      const { words, files, notes, paid } = answer;
      const row = source && answer.buttons && replyButtons(interaction.locale, answer.buttons, source, answer.seconds);
      if (files.length > 0) return showWithFiles(interaction, words, files, row && [row], notes, privateReply, paid);
      return showContent(interaction, wordsText(interaction.locale, words, notes), [], row && [row]);
    }
    case 'too-large':
      return showTooLargeFile(interaction, log, answer, privateReply, rights, onPosted);
    case 'voice-message':
      return showVoiceMessage(interaction, log, answer, bar, answer.buttons && source, onPosted);
    case 'refused':
      throw answer.error;
    default:
      throw new Error(`a command cannot post a ${answer.answer} answer`);
  }
}

/** A reply that carries files: a refused upload is the member's "could not post" message, not an internal error. */
export async function showWithFiles(
  interaction: AnsweredInteraction,
  words: LocalisedMessage,
  files: AttachmentPayload[],
  components?: ShownComponents,
  notes: readonly LocalisedMessage[] = [],
  /** The member's alone: where the response was deferred in public, that one goes and the answer follows privately. */
  privately = false,
  paid = 0,
): Promise<void> {
  const content = wordsText(interaction.locale, words, notes);
  try {
    if (privately && interaction.ephemeral === false && !tokenGone(interaction)) {
      await interaction.deleteReply().catch(() => undefined);
      const alone = { content, files, allowedMentions: NO_MENTIONS, flags: MessageFlags.Ephemeral as const };
      await interaction.followUp(components === undefined ? alone : { ...alone, components });
      return;
    }
    await showContent(interaction, content, files, components);
  } catch (error) {
    throw notPosted(error, paid);
  }
}

/**
 * Delivers the voice message as the response or under a line naming who asked; barred or refused, a file with why.
 * Outside a server SayBot is in (the user install) there is no channel to post in: not the response, it is a file.
 */
export async function showVoiceMessage(
  interaction: AnsweredInteraction,
  log: Logger,
  answer: Extract<OutcomeAnswer, { answer: 'voice-message' }>,
  /** Why the member may not post it in this channel, if they may not (the target speaking-command.ts chose). */
  bar: MemberVoiceMessageBar | undefined,
  buttons?: ReplyButtonSource,
  onPosted?: () => void,
): Promise<void> {
  const { message } = answer;
  let posted: Posted;
  const asResponse = bar === undefined && isDeferredAsVoiceMessage(interaction) && !tokenGone(interaction);
  if (bar !== undefined) {
    log.info(
      { code: 'voice-message-fallback', reason: bar, guildId: interaction.guildId, userId: interaction.user.id },
      'the member may not post a voice message here: sending them a file',
    );
    posted = { kind: 'fallback', reason: bar };
  } else {
    try {
      posted = asResponse
        ? await replyWithVoiceMessage(interaction, message, log)
        : await postInChannel(interaction, message, log);
    } catch (error) {
      if (!interaction.inCachedGuild() || !noteIfTokenGone(interaction, error)) throw notPosted(error, answer.paid);
      posted = await postInChannel(interaction, message, log, true);
    }
  }
  if (posted.kind === 'posted') {
    onPosted?.();
    // As the response it cannot be edited nor carry buttons: they follow it. With the token gone nothing can follow.
    if (asResponse) {
      // The buttons: a Components V2 message of their own (reply-button-row.ts), to the member alone.
      if (buttons !== undefined)
        await followUp(interaction, log, 'voice-message-buttons-failed', {
          components: voiceMessageButtons(interaction.locale, buttons, answer.seconds, answer.voice),
          flags: MessageFlags.Ephemeral | MessageFlags.IsComponentsV2,
        });
      // Then what the voice message cannot say (a line cut at its cap); the user install tells no stand-in.
      const stoodIn = interaction.inCachedGuild() ? answer.stoodIn : undefined;
      const [first, ...rest] = stoodIn ? [stoodIn, ...answer.notes] : answer.notes;
      if (first !== undefined)
        await followUp(interaction, log, 'voice-message-notes-failed', {
          content: wordsText(interaction.locale, first, rest),
          flags: MessageFlags.Ephemeral,
        });
      return;
    }
    if (tokenGone(interaction) || answer.posted === undefined) return;
    const row = buttons && replyButtons(interaction.locale, 'file', buttons, answer.seconds);
    return showContent(interaction, wordsText(interaction.locale, answer.posted, answer.notes), [], row && [row]);
  }
  // The public response waits for a voice message that will not come: it goes, and the file follows privately. A
  // member barred from posting it here gets it privately whatever deferred the response (the deadline's is public).
  const privately = (bar !== undefined || isDeferredAsVoiceMessage(interaction)) && !tokenGone(interaction);
  const { notes, paid } = answer;
  await showWithFiles(interaction, answer.asFile(posted.reason), [answer.file], undefined, notes, privately, paid);
}

type Posted = VoiceMessagePostResult | { kind: 'fallback'; reason: AsFileReason };

/** Posted in the interaction's channel under the line naming who asked; outside a server SayBot is in, none to post in. */
async function postInChannel(
  interaction: AnsweredInteraction,
  message: VoiceMessage,
  log: Logger,
  tokenIsGone?: boolean,
): Promise<Posted> {
  if (!interaction.inCachedGuild()) return { kind: 'fallback', reason: 'not-a-response' };
  return postVoiceMessage(voiceMessagePlace(interaction), message, log, attribution(interaction, tokenIsGone));
}

/** A private follow-up of the voice message that is the response, best effort: refused, it is logged as `code`. */
async function followUp(
  interaction: AnsweredInteraction,
  log: Logger,
  code: string,
  message: { content?: string; components?: APIContainerComponent[]; flags: number },
): Promise<void> {
  if (tokenGone(interaction)) return;
  try {
    await interaction.followUp({ ...message, allowedMentions: NO_MENTIONS });
  } catch (error) {
    if (noteIfTokenGone(interaction, error)) return;
    log.warn({ code, err: error, guildId: interaction.guildId, interactionId: interaction.id }, 'could not follow up');
  }
}

/** The line naming who asked, where the channel sees no public response of theirs (a voice message has no text). */
function attribution(
  interaction: AnsweredInteraction<'cached'>,
  tokenIsGone = tokenGone(interaction),
): string | undefined {
  if (!tokenIsGone && interaction.ephemeral === false) return undefined;
  return t(interaction.guild.preferredLocale, 'voiceMessage.header', {
    member: `<@${interaction.user.id}>`,
    command: commandNameOf(interaction),
  });
}

/** A file over the upload limit as a voice message: in the channel, else privately as a (smaller) file; says why. */
export async function showTooLargeFile(
  interaction: AnsweredInteraction<'cached'>,
  log: Logger,
  answer: Extract<OutcomeAnswer, { answer: 'too-large' }>,
  privateReply: boolean,
  rights: VoiceMessageRights,
  onPosted?: () => void,
): Promise<void> {
  // Posted in the channel only where the member could post it themselves (voice-message-rights.ts).
  if (!privateReply && claimMemberVoiceMessage(interaction, rights) === undefined) {
    let posted: Posted;
    try {
      posted = await postInChannel(interaction, answer.message, log);
    } catch (error) {
      throw notPosted(error, answer.paid);
    }
    if (posted.kind === 'posted') {
      onPosted?.();
      return showContent(interaction, wordsText(interaction.locale, answer.posted, answer.notes));
    }
  }
  const { notes, paid } = answer;
  await showWithFiles(interaction, answer.compressed, [answer.file], undefined, notes, privateReply, paid);
}
