import { slashCommand } from '../src/core/interactions/command-builder.ts';
import type { CommandModule, ServiceName } from '../src/core/interactions/command.ts';
import { UserError } from '../src/core/interactions/failures.ts';
import { showContent } from '../src/core/interactions/replies.ts';
import { t, type MessageKey, type MessageParams } from '../src/core/i18n/catalogue.ts';
import { nothingToStop, playerControl, playerHere, stoppable } from '../src/features/player/index.ts';

export const uses = ['seats', 'speech'] as const satisfies readonly ServiceName[];
type Uses = (typeof uses)[number];

export const data = slashCommand('stop');

export const execute: CommandModule<Uses>['execute'] = async (interaction, context) => {
  // The member's own files, voice messages and clones being made end first: theirs wherever they are, nobody else's.
  const { files, clones } = context.speech.stopRenders(interaction.guildId, interaction.user.id);
  const made = [
    ...(files > 0 ? [t(interaction.locale, 'stop.files', { count: files })] : []),
    ...(clones > 0 ? [t(interaction.locale, 'stop.clones', { count: clones })] : []),
  ];
  const say = (key: MessageKey, params: MessageParams) =>
    showContent(interaction, [t(interaction.locale, key, params), ...made].join('\n'));
  const filesOnly = () => showContent(interaction, made.join('\n'));
  const player = playerHere(interaction, context.seats);
  const channelId = player?.channelId;
  // In no voice channel: nothing of anyone's plays or waits, so nothing was stopped there, whoever asks.
  if (!player || channelId === undefined) return made.length > 0 ? filesOnly() : say(nothingToStop(interaction), {});
  let control;
  try {
    control = playerControl(interaction, channelId);
  } catch (error) {
    // Not theirs to act on in voice: what they did stop is the answer.
    if (made.length > 0 && error instanceof UserError) return filesOnly();
    throw error;
  }
  const which = stoppable(control);
  if (!which) return say('stop.stopped', { count: player.stop() });
  const current = player.playing;
  const cleared = player.stop(which);
  const stoppedCurrent = current !== undefined && which(current);
  if (cleared === 0 && !stoppedCurrent && made.length > 0) return filesOnly();
  await say(cleared > 0 || stoppedCurrent ? 'stop.own' : 'stop.nothingOwn', { count: cleared });
};
