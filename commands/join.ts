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
  await player.connect(channelId);
  // A binding a manager's /leave paused is read again by a manager's /join in its voice channel.
  const manager = interaction.memberPermissions.has(PermissionFlagsBits.ManageGuild);
  const resumed = manager ? await context.autoread?.resume(interaction.guildId, channelId) : undefined;
  if (resumed !== undefined)
    await showResult(interaction, 'autoread.resumed', { channel: `<#${resumed}>`, voice: channel });
  else {
    // Whose voices may be heard here, as the engines' terms ask (VOICEVOX:<speaker>), said as SayBot arrives.
    const credits = engineCredits(context.engines?.voices() ?? []);
    const joined = helper
      ? t(interaction.locale, 'join.joinedAs', helper)
      : t(interaction.locale, 'join.joined', { channel });
    await showContent(
      interaction,
      credits === undefined ? joined : `${joined}\n${t(interaction.locale, 'join.credits', { credits })}`,
    );
  }
};
