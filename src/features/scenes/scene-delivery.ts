// A scene confirmed with its button: taken from the waiting scenes (once, only by its member), its target checked
// again (the member may have left voice or lost a right since the preview), held and spoken through the pipeline as
// one request, and delivered: played in voice, or posted as a file with its subtitles (.srt) under a line naming the
// member, or as a voice message (its subtitles to the member). Where the member may not post, it comes to them alone.
import { MessageFlags, PermissionFlagsBits, type AttachmentPayload, type ButtonInteraction } from 'discord.js';
import type { Services } from '../../core/interactions/command.ts';
import { seesPlanFigures } from '../../core/interactions/plan-figures.ts';
import { NO_MENTIONS } from '../../core/interactions/safe-text.ts';
import {
  answerButtonFailure,
  askerOf,
  claimMemberVoiceMessage,
  fallbackReason,
  handOver,
  memberStillSpeaks,
  memberVoiceChannel,
  postVoiceMessage,
  voiceMessagePlace,
} from '../speaking/index.ts';
import type { SpeechOutcome, SpeechTarget } from '../../core/speech/pipeline.ts';
import type { PendingScenes } from './pending-scenes.ts';
import type { PendingScene, PlannedTurn } from './scene-types.ts';
import { CANCEL_PREFIX, CONFIRM_PREFIX, costedPreview } from './scene-preview.ts';
import { QuoteExceededError } from '../../core/speech/quote-ceiling.ts';
import type { SceneTimeline } from '../../core/speech/scene-types.ts';
import { sceneSrt } from './scene-srt.ts';
import { sceneLengthWords } from './scene-length.ts';
import { t } from './strings.ts';

/** What a scene's preview and delivery use of the commands' services. */
export type SceneServices = Services<
  'speech' | 'players' | 'reading' | 'logger' | 'isOperator' | 'store' | 'voices' | 'config' | 'accounting'
>;

const seconds = (s: number) => s.toFixed(1);
const megabytes = (bytes: number) => (bytes / (1024 * 1024)).toFixed(1);

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
  const scene = pending.take(token);
  if (scene === undefined) return true;
  if (!confirm) {
    await interaction.update({ content: t(locale, 'scene.cancelled'), components: [], allowedMentions: NO_MENTIONS });
    return true;
  }
  await interaction.update({ content: t(locale, 'scene.making'), components: [], allowedMentions: NO_MENTIONS });
  try {
    await playScene(interaction, context, pending, scene);
  } catch (error) {
    await answerButtonFailure(interaction, error, context.logger, {
      planFigures: seesPlanFigures(interaction, context.isOperator),
    });
  }
  return true;
}

async function playScene(
  interaction: ButtonInteraction<'cached'>,
  context: SceneServices,
  pending: PendingScenes,
  scene: PendingScene,
): Promise<void> {
  let target: SpeechTarget;
  let stillAllowed: ReturnType<typeof memberStillSpeaks> | undefined;
  if (scene.output === 'voice') {
    const voice = memberVoiceChannel(interaction, context.players, context.reading);
    target = voice;
    stillAllowed = memberStillSpeaks(interaction, voice.channelId);
  } else if (scene.output === 'file') {
    target = { kind: 'file', sizeLimit: interaction.attachmentSizeLimit };
  } else {
    target = { kind: 'voice-message' };
  }
  const job = handOver(context.speech, {
    scene: scene.plan.lines,
    sceneFormat: scene.format,
    quoted: scene.quoted,
    asker: askerOf(interaction, 'scene'),
    target,
    ...(stillAllowed === undefined ? {} : { stillAllowed }),
  });
  const outcome = await job.accepted.then(
    () => job.outcome,
    (error: unknown): SpeechOutcome => ({ kind: 'failed', error, secondsHeard: 0 }),
  );
  // It would cost more than its member confirmed (lines left the cache since): nothing more is paid until they
  // confirm the new price.
  if (outcome.kind === 'failed' && outcome.error instanceof QuoteExceededError) {
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
  await deliver(interaction, context, scene, outcome, target);
}

async function deliver(
  interaction: ButtonInteraction<'cached'>,
  context: SceneServices,
  scene: PendingScene,
  outcome: SpeechOutcome,
  target: SpeechTarget,
): Promise<void> {
  const locale = interaction.locale;
  const channel = target.kind === 'voice' ? `<#${target.channelId}>` : '';
  // The service failed and the free voice spoke some lines for it (FREE_VOICE fallback): never silently.
  const stoodIn =
    outcome.freeVoice === undefined
      ? ''
      : `\n${t(locale, 'scene.freeVoiceStoodIn', { reason: fallbackReason(locale, outcome.freeVoice.cause) })}`;
  // Its audio proved longer than the estimate allowed for: delivered cut at the cap, and said so.
  const cut =
    outcome.cutAt === undefined
      ? ''
      : `\n${t(locale, 'scene.cutAtCap', {
          max: outcome.cutAt,
          heard: outcome.linesBeforeCut ?? ('timeline' in outcome ? (outcome.timeline?.length ?? 0) : 0),
          lines: scene.plan.turns.length,
        })}`;
  const edit = (content: string, files: AttachmentPayload[] = []) =>
    interaction.editReply({ content: content + stoodIn + cut, files, components: [], allowedMentions: NO_MENTIONS });
  switch (outcome.kind) {
    case 'played':
      return void (await edit(t(locale, 'scene.played', { channel, seconds: seconds(outcome.seconds) })));
    case 'stopped':
    case 'skipped':
      return void (await edit(t(locale, `scene.${outcome.kind}`, { seconds: seconds(outcome.seconds) })));
    case 'cut-off':
      return void (await edit(t(locale, 'scene.cutOff', { channel, seconds: seconds(outcome.seconds) })));
    case 'failed':
      throw sceneLengthWords(outcome.error);
    case 'files': {
      const [file] = outcome.files;
      if (file === undefined) throw new Error('a scene rendered no file');
      const files = [
        { attachment: file.data, name: `saybot-scene.${file.format}` },
        subtitlesFile(scene.plan.turns, outcome.timeline),
      ];
      const params = { seconds: seconds(outcome.seconds) };
      if (memberMayPostFiles(interaction)) {
        await interaction.followUp({
          content: header(interaction, scene, outcome.seconds),
          files,
          allowedMentions: NO_MENTIONS,
        });
        return void (await edit(t(locale, 'scene.posted', params)));
      }
      return void (await edit(t(locale, 'scene.postedPrivately', params), files));
    }
    case 'voice-message': {
      const srt = subtitlesFile(scene.plan.turns, outcome.timeline);
      const params = { seconds: seconds(outcome.seconds) };
      const bar = claimMemberVoiceMessage(interaction);
      const posted =
        bar === undefined
          ? await postVoiceMessage(
              voiceMessagePlace(interaction),
              outcome.message,
              context.logger,
              header(interaction, scene, outcome.seconds),
            )
          : ({ kind: 'fallback', reason: bar } as const);
      if (posted.kind === 'posted') return void (await edit(t(locale, 'scene.voiceMessagePosted', params), [srt]));
      const ogg = { attachment: outcome.message.ogg, name: 'saybot-scene.ogg' };
      // Why, as /say says it (the member may well post files: it is the voice message that could not go).
      const why = t(locale, `voiceMessage.fallback.${posted.reason}`, {
        ...params,
        voice: t(locale, 'scene.voiceLabel', { speakers: scene.plan.speakers }),
        format: 'ogg',
        size: megabytes(outcome.message.ogg.length),
        limit: megabytes(interaction.attachmentSizeLimit),
      });
      return void (await edit(why, [ogg, srt]));
    }
  }
}

/** The line over a posted scene, naming the member it is for (mentions are never pinged: NO_MENTIONS). */
function header(interaction: ButtonInteraction<'cached'>, scene: PendingScene, audioSeconds: number): string {
  return t(interaction.guild.preferredLocale, 'scene.header', {
    member: `<@${interaction.user.id}>`,
    speakers: scene.plan.speakers,
    seconds: seconds(audioSeconds),
  });
}

/** The .srt beside a posted scene. */
function subtitlesFile(turns: readonly PlannedTurn[], timeline: SceneTimeline | undefined): AttachmentPayload {
  return { attachment: Buffer.from(sceneSrt(turns, timeline)), name: 'saybot-scene.srt' };
}

/** Whether the member may post files here themselves: SayBot posts for them no more than they may. */
function memberMayPostFiles(interaction: ButtonInteraction<'cached'>): boolean {
  const thread = interaction.channel?.isThread() ?? false;
  return (
    interaction.memberPermissions.has([
      PermissionFlagsBits.ViewChannel,
      thread ? PermissionFlagsBits.SendMessagesInThreads : PermissionFlagsBits.SendMessages,
      PermissionFlagsBits.AttachFiles,
    ]) &&
    (interaction.appPermissions.has([PermissionFlagsBits.SendMessages, PermissionFlagsBits.AttachFiles]) ?? true)
  );
}
