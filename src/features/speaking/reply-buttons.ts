// A press on a reply's buttons (reply-button-row.ts): answered privately at once, then served from the cache only
// (a paid replay would spend characters unasked). Only the member who asked may press them.
import { MessageFlags, type AttachmentPayload, type ButtonInteraction } from 'discord.js';
import type { Logger } from '../../core/log.ts';
import type { CommandContext } from '../../core/interactions/command.ts';
import { UserError, type FailureAudience } from '../../core/interactions/failures.ts';
import { describeFailure } from './failure-words.ts';
import { seesPlanFigures } from '../../core/interactions/plan-figures.ts';
import { t } from './strings.ts';
import { effectsAt, handOver, memberVoiceChannel, placeOf, requesterOf } from './speaking-command.ts';
import type { ReplayableRequest, ReplyAudio } from './reply-audio.ts';
import { parseCustomId } from './reply-button-row.ts';
import { answerAs, wordOutcome } from './outcome-words.ts';
import { helperOf } from './seat-words.ts';
import { NO_MENTIONS } from '../../core/interactions/safe-text.ts';
import { saveAsSound } from './soundboard.ts';
import { postVoiceMessage, voiceMessagePlace, type VoiceMessagePostResult } from './voice-message-post.ts';
import { claimMemberVoiceMessage } from './voice-message-rights.ts';

/** A press on one of SayBot's reply buttons; false when the custom_id is not one of them. */
export async function handleReplyButton(interaction: ButtonInteraction, context: CommandContext): Promise<boolean> {
  const parsed = parseCustomId(interaction.customId);
  if (!parsed) return false;
  const log = context.logger;
  let release: (() => void) | undefined;
  try {
    // "Again" and "Save as sound" hold a server share until posted (file-shares.ts): past them, refused first.
    if (parsed.action !== 'play' && interaction.guildId !== null)
      release = context.fileShares.take({ guildId: interaction.guildId, userId: interaction.user.id });
    // Within Discord's 3 s, whatever follows: the answer is the presser's alone.
    await interaction.deferReply({ flags: MessageFlags.Ephemeral });
    const audio = context.replyAudio?.get(parsed.id);
    if (!audio || !interaction.inCachedGuild() || audio.guildId !== interaction.guildId)
      throw new UserError('buttons.expired');
    if (audio.askerId !== interaction.user.id)
      throw new UserError('buttons.notYours', { member: `<@${audio.askerId}>` });
    const reply: Reply =
      parsed.action === 'sound'
        ? { content: t(interaction.locale, 'sound.saved', await saveAsSound(interaction, context, audio)) }
        : parsed.action === 'post'
          ? await postAgain(interaction, context, audio, release)
          : await replay(interaction, context, audio.request);
    await interaction.editReply({ ...reply, allowedMentions: NO_MENTIONS });
    log.info(
      { code: 'reply-button', action: parsed.action, guildId: interaction.guildId, userId: interaction.user.id },
      'reply button done',
    );
  } catch (error) {
    // Nothing is being made or posted: the share goes back before the answer waits on Discord.
    release?.();
    await answerButtonFailure(interaction, error, log, {
      planFigures: seesPlanFigures(interaction, context.isOperator),
    });
  } finally {
    release?.();
  }
  return true;
}

/** What a press answers the presser. */
type Reply = { content: string; files?: AttachmentPayload[] };

/** Plays the reply's audio again in the member's voice channel, from the cache only. */
async function replay(
  interaction: ButtonInteraction<'cached'>,
  context: CommandContext,
  request: ReplayableRequest,
): Promise<Reply> {
  const target = memberVoiceChannel(interaction, context, context.reading);
  const handed = handOver(context.speech, {
    request,
    requester: requesterOf(interaction, 'replay'),
    target,
    effects: effectsAt(placeOf(interaction, target.channelId), target),
    cachedOnly: true,
  });
  await handed.accepted;
  const said = wordOutcome(await handed.outcome, {
    flavour: 'replay',
    channelId: target.channelId,
    voiceId: request.voice,
    helperId: helperOf(target.seat.guild, interaction.guild),
  });
  const { words } = answerAs(said, 'reply');
  return { content: t(interaction.locale, words.key, words.params) };
}

/** "Again": the voice message once more from the cache, where the member may post one; else privately as a file. */
async function postAgain(
  interaction: ButtonInteraction<'cached'>,
  context: CommandContext,
  audio: ReplyAudio,
  /** Its file share given back once the voice message is posted, not after the edit saying so. */
  onPosted?: () => void,
): Promise<Reply> {
  const bar = claimMemberVoiceMessage(interaction, context.speech.rights);
  const handed = handOver(context.speech, {
    request: audio.request,
    requester: requesterOf(interaction, 'replay'),
    target: { kind: 'voice-message' },
    effects: effectsAt(placeOf(interaction), { kind: 'voice-message' }),
    cachedOnly: true,
  });
  const said = wordOutcome(await handed.outcome, {
    flavour: 'post-again',
    voiceId: audio.request.voice,
    sizeLimit: interaction.attachmentSizeLimit,
    memberId: interaction.user.id,
  });
  const answer = answerAs(said, 'voice-message');
  const header = answer.header && t(interaction.guild.preferredLocale, answer.header.key, answer.header.params);
  const posted: VoiceMessagePostResult =
    bar === undefined
      ? await postVoiceMessage(voiceMessagePlace(interaction), answer.message, context.logger, header)
      : { kind: 'fallback', reason: bar };
  if (posted.kind === 'posted') onPosted?.();
  const words = posted.kind === 'posted' ? answer.posted : answer.asFile(posted.reason);
  const content = words === undefined ? '' : t(interaction.locale, words.key, words.params);
  return posted.kind === 'posted' ? { content } : { content, files: [answer.file] };
}

/** A press that failed, answered privately in the presser's language, and one log line for the operator. */
export async function answerButtonFailure(
  interaction: ButtonInteraction,
  error: unknown,
  log: Logger,
  audience: FailureAudience,
): Promise<void> {
  const failure = describeFailure(error, audience);
  log[failure.level](
    {
      code: failure.code,
      button: interaction.customId,
      guildId: interaction.guildId,
      userId: interaction.user.id,
      err: error,
    },
    'reply button failed',
  );
  const content = t(interaction.locale, failure.message.key, failure.message.params);
  try {
    if (interaction.deferred || interaction.replied)
      await interaction.editReply({ content, allowedMentions: NO_MENTIONS });
    else await interaction.reply({ content, allowedMentions: NO_MENTIONS, flags: MessageFlags.Ephemeral });
  } catch (replyError) {
    log.warn({ err: replyError, interactionId: interaction.id }, 'could not tell the member about a failed button');
  }
}
