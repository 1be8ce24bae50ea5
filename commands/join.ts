import { PermissionFlagsBits } from 'discord.js';
import { slashCommand } from '../src/core/interactions/command-builder.ts';
import type { CommandModule, ServiceName } from '../src/core/interactions/command.ts';
import type { Requirements } from '../src/core/interactions/preconditions.ts';
import { memberVoiceChannel } from '../src/features/speaking/index-targets.ts';
import { showContent, showResult } from '../src/core/interactions/replies.ts';
import { t } from '../src/core/i18n/catalogue.ts';
import { engineCredits } from '../src/features/player/index.ts';
import { acknowledge } from '../src/core/interactions/acknowledge.ts';
import '../src/features/player/index.ts';

export const uses = ['autoread', 'engines', 'seats', 'reading', 'speech'] as const satisfies readonly ServiceName[];
type Uses = (typeof uses)[number];

export const requires: Requirements = { inVoice: true };

export const data = slashCommand('join', requires);

/** Its result is for the channel: a deferral forced by the deadline is public too. */
export const publicReply = true;

export const execute: CommandModule<Uses>['execute'] = async (interaction, context) => {
  // While the server is read aloud, only a manager may move SayBot out of the channel it reads into.
  const { channelId, seat } = memberVoiceChannel(interaction, context, context.reading, {
    managersMove: true,
    joinOnly: true,
  });
  const channel = `<#${channelId}>`;
  // A helper names itself (a mention, never a ping): members see which bot sits where.
  const helper = seat.bot.index > 0 ? { bot: `<@${seat.userId}>`, channel } : undefined;
  const player = seat.player();
  if (player.channelId === channelId && player.state.kind === 'connected') {
    await showResult(interaction, helper ? 'join.alreadyAs' : 'join.already', helper ?? { channel });
    return;
  }
  await acknowledge(interaction);
  // A manager moving the seat auto-read keeps elsewhere pauses that reading and leaves, as their /leave there would:
  // what plays and waits there ends there (its members told so), never heard where its members may not be.
  const from = player.channelId === channelId ? undefined : player.channelId;
  const paused = from === undefined ? undefined : context.reading?.get(interaction.guildId)?.get(from);
  if (paused !== undefined) {
    await context.autoread?.pause(interaction.guildId, paused.voiceChannelId);
    player.leave('asked');
  }
  await player.connect(channelId);
  // A binding a manager's /leave paused is read again by a manager's /join in its voice channel.
  const manager = interaction.memberPermissions.has(PermissionFlagsBits.ManageGuild);
  const resumed = manager ? await context.autoread?.resume(interaction.guildId, channelId) : undefined;
  // Whose voices may be heard here, as the engines' terms ask (VOICEVOX:<speaker>), said as SayBot arrives.
  const credits = resumed === undefined ? engineCredits(context.engines?.voices() ?? []) : undefined;
  const lines = [
    paused &&
      t(interaction.locale, 'autoread.pausedByLeave', { channel: `<#${paused.textChannelId}>`, voice: `<#${from}>` }),
    resumed === undefined
      ? t(interaction.locale, helper ? 'join.joinedAs' : 'join.joined', helper ?? { channel })
      : t(interaction.locale, 'autoread.resumed', { channel: `<#${resumed}>`, voice: channel }),
    credits && t(interaction.locale, 'join.credits', { credits }),
  ];
  await showContent(interaction, lines.filter(Boolean).join('\n'));
};
