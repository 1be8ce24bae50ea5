// A scene confirmed with its button: taken once, its target checked again, spoken as one request and delivered.
import { MessageFlags, type AttachmentPayload, type ButtonInteraction } from 'discord.js';
import type { Services } from '../../core/interactions/command.ts';
import { seesPlanFigures } from '../../core/interactions/plan-figures.ts';
import { NO_MENTIONS } from '../../core/interactions/safe-text.ts';
import { answerButtonFailure, requesterOf, claimMemberVoiceMessage, handOver } from '../speaking/index.ts';
import {
  effectsAt,
  memberVoiceChannel,
  placeOf,
  postVoiceMessage,
  voiceMessagePlace,
} from '../speaking/index-targets.ts';
import { wordOutcome, wordsText, type OutcomeAnswer } from '../speaking/index-words.ts';
import type { SpeechOutcome, SpeechTarget } from '../../core/order/pipeline.ts';
import type { LocalisedMessage } from '../../core/i18n/catalogue.ts';
import type { PendingScenes } from './pending-scenes.ts';
import type { PendingScene, PlannedTurn } from './scene-types.ts';
import { CANCEL_PREFIX, CONFIRM_PREFIX, costedPreview } from './scene-preview.ts';
import type { SceneTimeline } from '../../core/order/scene-types.ts';
import { sceneSrt } from './subtitles.ts';
import { t } from './strings.ts';

/** What a scene's preview and delivery use of the commands' services. */
export type SceneServices = Services<
  'speech' | 'seats' | 'reading' | 'logger' | 'isOperator' | 'store' | 'voices' | 'config' | 'accounting' | 'fileShares'
>;

/** A press on a scene's "Play it" or "Cancel"; false when the custom_id is neither. */
export async function answerSceneButton(
  interaction: ButtonInteraction<'cached'>,
  context: SceneServices,
  pending: PendingScenes,
): Promise<boolean> {
  const confirm = interaction.customId.startsWith(CONFIRM_PREFIX);
  if (!confirm && !interaction.customId.startsWith(CANCEL_PREFIX)) return false;
  const token = interaction.customId.slice((confirm ? CONFIRM_PREFIX : CANCEL_PREFIX).length);
  const locale = interaction.locale;
  const waiting = pending.peek(token);
  if (waiting === undefined || waiting.guildId !== interaction.guildId) {
    await interaction.update({ content: t(locale, 'scene.expired'), components: [], allowedMentions: NO_MENTIONS });
    return true;
  }
  if (waiting.userId !== interaction.user.id) {
    await interaction.reply({
      content: t(locale, 'scene.notYours', { member: `<@${waiting.userId}>` }),
      flags: MessageFlags.Ephemeral,
      allowedMentions: NO_MENTIONS,
    });
    return true;
  }
  const audience = { planFigures: seesPlanFigures(interaction, context.isOperator) };
  // A posted scene holds a file share: past them "Play it" is refused before anything is taken, the preview kept.
  let release: (() => void) | undefined;
  if (confirm && waiting.output !== 'voice') {
    try {
      release = context.fileShares.take({ guildId: interaction.guildId, userId: interaction.user.id });
    } catch (error) {
      await answerButtonFailure(interaction, error, context.logger, audience);
      return true;
    }
  }
  try {
    const scene = pending.take(token);
    if (scene === undefined) return true;
    if (!confirm) {
      await interaction.update({ content: t(locale, 'scene.cancelled'), components: [], allowedMentions: NO_MENTIONS });
      return true;
    }
    await interaction.update({ content: t(locale, 'scene.making'), components: [], allowedMentions: NO_MENTIONS });
    try {
      await playScene(interaction, context, pending, scene, () => release?.());
    } catch (error) {
      await answerButtonFailure(interaction, error, context.logger, audience);
    }
  } finally {
    release?.();
  }
  return true;
}

async function playScene(
  interaction: ButtonInteraction<'cached'>,
  context: SceneServices,
  pending: PendingScenes,
  scene: PendingScene,
  posted: () => void,
): Promise<void> {
  let target: SpeechTarget;
  if (scene.output === 'voice') {
    target = memberVoiceChannel(interaction, context, context.reading, { offersFile: true });
  } else if (scene.output === 'file') {
    target = { kind: 'file', sizeLimit: interaction.attachmentSizeLimit };
  } else {
    target = { kind: 'voice-message' };
  }
  const handed = handOver(context.speech, {
    scene: scene.plan.lines,
    sceneFormat: scene.format,
    quoted: scene.quoted,
    requester: requesterOf(interaction, 'scene'),
    target,
    // Every line's words are a member's: the script's author chose them.
    effects: effectsAt(placeOf(interaction, target.kind === 'voice' ? target.channelId : undefined), target),
  });
  const outcome = await handed.accepted.then(
    () => handed.outcome,
    (error: unknown): SpeechOutcome => ({ kind: 'failed', error, secondsHeard: 0 }),
  );
  const answer = wordOutcome(outcome, {
    flavour: 'scene',
    locale: interaction.locale,
    ...(target.kind === 'voice' ? { channelId: target.channelId } : {}),
    speakers: scene.plan.speakers,
    lines: scene.plan.turns.length,
    sizeLimit: interaction.attachmentSizeLimit,
    memberId: interaction.user.id,
  });
  // It would cost more than confirmed (lines left the cache since): nothing is paid until the new price is.
  if (answer.answer === 'price-changed') {
    const shown = await costedPreview(
      interaction,
      context,
      pending,
      scene,
      t(interaction.locale, 'scene.quoteChanged'),
    );
    await interaction.editReply({ ...shown, allowedMentions: NO_MENTIONS });
    return;
  }
  // Asked again right before posting: a right taken away since the scene was confirmed makes it the member's alone.
  await deliver(interaction, context, scene, answer, handed.privately || handed.postsPrivately(), posted);
}

/** Posts what the worder (the speaking feature's outcome-words.ts) made of the scene's outcome. */
async function deliver(
  interaction: ButtonInteraction<'cached'>,
  context: SceneServices,
  scene: PendingScene,
  answer: OutcomeAnswer,
  /** The gate's word: the member may not post this file in the channel themselves, so it is theirs alone. */
  privately: boolean,
  /** Its files are posted: their share is the member's again, before the words that follow them. */
  filesPosted: () => void,
): Promise<void> {
  const locale = interaction.locale;
  const edit = (words: LocalisedMessage, notes: readonly LocalisedMessage[], files: AttachmentPayload[] = []) => {
    const content = wordsText(locale, words, notes);
    return interaction.editReply({ content, files, components: [], allowedMentions: NO_MENTIONS });
  };
  const header = (words: LocalisedMessage) => t(interaction.guild.preferredLocale, words.key, words.params);
  switch (answer.answer) {
    case 'reply':
      return void (await edit(answer.words, answer.notes));
    case 'post-file': {
      const files = [answer.file, subtitlesFile(scene.plan.turns, answer.timeline)];
      if (!privately) {
        await interaction.followUp({ content: header(answer.header), files, allowedMentions: NO_MENTIONS });
        filesPosted();
        return void (await edit(answer.posted, answer.notes));
      }
      return void (await edit(answer.privately, answer.notes, files));
    }
    case 'voice-message': {
      const srt = subtitlesFile(scene.plan.turns, answer.timeline);
      const bar = privately ? 'member-no-permission' : claimMemberVoiceMessage(interaction, context.speech.rights);
      const posted =
        bar === undefined
          ? await postVoiceMessage(
              voiceMessagePlace(interaction),
              answer.message,
              context.logger,
              answer.header && header(answer.header),
            )
          : ({ kind: 'fallback', reason: bar } as const);
      // Not posted: why, as /say says it (the member may well post files: it is the voice message that could not go).
      const words = posted.kind === 'posted' ? answer.posted : answer.asFile(posted.reason);
      const files = posted.kind === 'posted' ? [srt] : [answer.file, srt];
      return void (words && (await edit(words, answer.notes, files)));
    }
    case 'refused':
      throw answer.error;
    default:
      throw new Error(`a scene cannot post a ${answer.answer} answer`);
  }
}

/** The .srt beside a posted scene. */
function subtitlesFile(turns: readonly PlannedTurn[], timeline: SceneTimeline | undefined): AttachmentPayload {
  return { attachment: Buffer.from(sceneSrt(turns, timeline)), name: 'saybot-scene.srt' };
}
