// The user-installable app: /say and /emote where SayBot is not a member (DMs, servers without it), behind
// USER_INSTALL. No voice channel there: a file, or a voice message as the interaction's own response. Before paying,
// the gate (gate.ts) asks for Attach Files and, in a server without SayBot, the member's own right to post there;
// without it the audio comes privately. Definitions: src/core/interactions/deploy.ts.
import type { ChatInputCommandInteraction } from 'discord.js';
import type { SpeechRequest, SpeechTarget } from '../../core/order/pipeline.ts';
import { chooseSettings } from '../../core/sourcing/voice-choice.ts';
import type { ResolvedSettings } from '../../core/settings/speech-request.ts';
import { answerAs, privateFileNote, wordOutcome } from './outcome-words.ts';
import type { Place } from './gate-types.ts';
import {
  commandSpeech,
  effectsAt,
  handOver,
  requesterOf,
  voiceLabel,
  type SPEAKING_COMMAND_USES,
} from './speaking-command.ts';
import { acknowledge, acknowledgeAsVoiceMessage } from '../../core/interactions/acknowledge.ts';
import type { CommandModule, Services } from '../../core/interactions/command.ts';
import { UserError } from '../../core/interactions/failures.ts';
import './strings.ts';
import {
  claimMemberVoiceMessage,
  type MemberVoiceMessageBar,
  type VoiceMessageRights,
} from './voice-message-rights.ts';
import { showVoiceMessage, showWithFiles } from './voice-message-reply.ts';

/**
 * The budget key for every use outside a server: one pseudo-guild (snowflake 1, which no guild can have; 0 is the
 * quota probe's), so the monthly server budget bounds user installs together, each user's daily budget within it.
 */
export const USER_INSTALL_GUILD = '1';

/** Refuses a user the operator did not let in (USER_INSTALL off, or not on the allow-list), before anything is paid. */
export function requireUserInstall(context: Services<'config'>, interaction: ChatInputCommandInteraction): void {
  const setting = context.config.userInstall;
  if (setting.mode === 'everyone' || (setting.mode === 'allowlist' && setting.users.includes(interaction.user.id)))
    return;
  throw new UserError(setting.mode === 'off' ? 'userInstall.off' : 'userInstall.notAllowed');
}

/**
 * /say's and /emote's handler outside a server: the options, else the user's language's voice (no server's presets
 * or defaults leak), spoken into a file or voice message as the user in the pseudo-guild.
 */
export function outsideServerHandler(
  /** How the command makes its request from its text and the settings that apply; it may refuse (UserError). */
  requestOf: (text: string, settings: ResolvedSettings) => SpeechRequest,
): NonNullable<CommandModule<(typeof SPEAKING_COMMAND_USES)[number]>['executeOutsideServer']> {
  return async (interaction, context) => {
    const { text, output, ...query } = commandSpeech(interaction);
    requireUserInstall(context, interaction);
    const guildLocale = interaction.locale;
    const { store, engines } = context;
    const settings = await chooseSettings(store, { ...query, guildId: USER_INSTALL_GUILD, guildLocale, engines });
    const label = voiceLabel(interaction.locale, settings, 'outside');
    const request = requestOf(text, settings);
    // It holds one of the user's own shares (file-shares.ts) until posted; past them it is refused before acceptance.
    const release = context.fileShares.take({ userId: interaction.user.id });
    try {
      const requester = requesterOf(interaction, interaction.commandName, USER_INSTALL_GUILD);
      const said = {
        flavour: 'user-install',
        locale: interaction.locale,
        label,
        voiceId: request.voice,
        credit: context.engines?.voice(request.voice)?.credit,
        sizeLimit: interaction.attachmentSizeLimit,
      } as const;
      // A voice message: the member's own bar to posting it there, claimed before anything is paid.
      const bar = output === 'voice-message' ? memberBar(interaction, context.speech.rights) : undefined;
      const target: SpeechTarget =
        output === 'voice-message'
          ? { kind: 'voice-message' }
          : { kind: 'file', sizeLimit: interaction.attachmentSizeLimit };
      const effects = effectsAt(placeOutsideServer(interaction), target);
      const handed = handOver(context.speech, { request, requester, target, effects });
      await handed.accepted;
      if (target.kind === 'voice-message') {
        // The voice message will be the response itself; one the member may not post here is theirs alone.
        if (bar === undefined) await acknowledgeAsVoiceMessage(interaction);
        else await acknowledge(interaction, true);
        const answer = answerAs(
          wordOutcome(await handed.outcome, { ...said, where: 'voice-message' }),
          'voice-message',
        );
        await showVoiceMessage(interaction, context.logger, answer, bar);
        return;
      }
      // A file the member may not post in that server's channel themselves is theirs alone (gate.ts).
      await acknowledge(interaction, handed.privately);
      const answer = answerAs(wordOutcome(await handed.outcome, { ...said, where: 'file' }), 'reply');
      const notes = handed.privately ? [...answer.notes, privateFileNote] : answer.notes;
      await showWithFiles(interaction, answer.words, answer.files, undefined, notes, handed.privately, answer.paid);
    } finally {
      release();
    }
  };
}

/** Where the user install answers, for the gate: Attach Files, and in a server without SayBot the member's rights. */
function placeOutsideServer(interaction: ChatInputCommandInteraction): Place {
  return {
    guild: null,
    outsideServer: true,
    memberId: interaction.user.id,
    text: {
      thread: false,
      ...(interaction.inGuild() ? { member: interaction.memberPermissions } : {}),
      bot: interaction.appPermissions,
    },
  };
}

/** In a server SayBot is not in, the member's own bar to a voice message there: never posted for them otherwise. */
function memberBar(
  interaction: ChatInputCommandInteraction,
  rights: VoiceMessageRights,
): MemberVoiceMessageBar | undefined {
  if (!interaction.inGuild()) return undefined;
  const { user, channelId, memberPermissions } = interaction;
  return claimMemberVoiceMessage({ user, channelId, channel: null, memberPermissions }, rights);
}
