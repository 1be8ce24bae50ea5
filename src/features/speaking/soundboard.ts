// "Save as sound": a reply's audio as a soundboard sound within Discord's limits (mp3 or ogg, 512 KB, 5.2 s, name
// 2-32 characters), rendered from the cache (nothing paid), only for a member with Create Expressions too. A sound
// from a cloned voice is noted (store.voiceLibrary.recordSound) so deleting the voice removes it.
import { isPresetVoiceId } from '../../core/voice-catalogue/voices.ts';
import './strings.ts';
import { DiscordAPIError, type ButtonInteraction, type Client } from 'discord.js';
import type { Logger } from '../../core/log.ts';
import { SpeechInputError } from '../../core/order-errors.ts';
import { handOver, placeOf, requesterOf } from './speaking-command.ts';
import { answerAs, wordOutcome } from './outcome-words.ts';
import type { CommandContext } from '../../core/interactions/command.ts';
import { UserError } from '../../core/interactions/failures.ts';
import type { ReplyAudio } from './reply-audio.ts';
import { SOUND_MAX_SECONDS } from './reply-button-row.ts';

export const SOUND_MAX_BYTES = 512 * 1024;
const MAX_RESULT_SECONDS_SHOWN = 1;
/** Discord's: Maximum number of soundboard sounds reached. */
const SOUNDBOARD_FULL = 30045;
/** Discord's: Unknown sound (someone removed it already). */
const UNKNOWN_SOUND = 10097;

/** Removes soundboard sounds SayBot saved from a deleted voice; a failure is logged and the rest still go. */
export function soundRemover(
  client: Client,
  log: Logger,
): (guildId: string, soundIds: readonly string[]) => Promise<void> {
  return async (guildId, soundIds) => {
    for (const soundId of soundIds) {
      try {
        await client.rest.delete(`/guilds/${guildId}/soundboard-sounds/${soundId}`, {
          reason: 'Saved by SayBot from a cloned voice that was deleted',
        });
        log.info(
          { code: 'soundboard-sound-removed', guildId, soundId },
          'removed a soundboard sound saved from a deleted voice',
        );
      } catch (error) {
        if (error instanceof DiscordAPIError && error.code === UNKNOWN_SOUND) continue;
        log.warn(
          { code: 'soundboard-sound-not-removed', guildId, soundId, err: error },
          'could not remove a soundboard sound saved from a deleted voice',
        );
      }
    }
  };
}

/** The sound's name: the start of what it says (2-32 characters), as the soundboard shows it. */
export function soundName(text: string): string {
  const said = [...text.normalize('NFC').trim().replace(/\s+/gu, ' ')].slice(0, 32).join('');
  return [...said].length >= 2 ? said : [...`SayBot ${said}`].slice(0, 32).join('').trim();
}

const seconds = (s: number) => s.toFixed(MAX_RESULT_SECONDS_SHOWN);

/** Saves the reply's audio as a soundboard sound; the words of the result, or a UserError saying why not. */
export async function saveAsSound(
  interaction: ButtonInteraction<'cached'>,
  { speech, store, logger }: Pick<CommandContext, 'speech' | 'store' | 'logger'>,
  audio: ReplyAudio,
): Promise<{ name: string; seconds: string }> {
  // The checks that cost nothing and need no audio first.
  if (audio.seconds > SOUND_MAX_SECONDS)
    throw new UserError('sound.tooLong', { max: SOUND_MAX_SECONDS, seconds: seconds(audio.seconds) });
  // The rights' refusal comes before the cache is read: the core asks them as it takes the order.
  const handed = handOver(speech, {
    request: audio.request,
    requester: requesterOf(interaction, 'save-as-sound'),
    target: { kind: 'voice-message' },
    effects: { does: ['save-sound'], at: placeOf(interaction) },
    cachedOnly: true,
  });
  const answer = answerAs(wordOutcome(await handed.outcome, { flavour: 'sound' }), 'audio');
  const ogg = answer.data;
  if (answer.seconds > SOUND_MAX_SECONDS)
    throw new UserError('sound.tooLong', { max: SOUND_MAX_SECONDS, seconds: seconds(answer.seconds) });
  if (ogg.length > SOUND_MAX_BYTES)
    throw new UserError('sound.tooLarge', { max: SOUND_MAX_BYTES / 1024, size: Math.ceil(ogg.length / 1024) });
  const name = soundName(audio.request.text);
  let created: unknown;
  try {
    created = await interaction.client.rest.post(`/guilds/${interaction.guildId}/soundboard-sounds`, {
      body: { name, sound: `data:audio/ogg;base64,${ogg.toString('base64')}`, volume: 1 },
      reason: `Save as sound, asked by ${interaction.user.username} (${interaction.user.id})`,
    });
  } catch (error) {
    if (!(error instanceof DiscordAPIError)) throw error;
    if (error.code === SOUNDBOARD_FULL) throw new UserError('sound.full', {}, { cause: error });
    if (error.status === 403) throw new UserError('sound.botPermission', {}, { cause: error });
    throw new UserError('sound.refused', { reason: error.message.slice(0, 200) }, { cause: error });
  }
  const voice = audio.request.voice;
  const soundId = (created as { sound_id?: unknown } | null)?.sound_id;
  if (
    !isPresetVoiceId(voice) &&
    typeof soundId === 'string' &&
    !(await store.voiceLibrary.recordSound(interaction.guildId, voice, soundId))
  ) {
    // Its voice was deleted while the sound was being made: the sound goes too.
    await soundRemover(interaction.client, logger)(interaction.guildId, [soundId]);
    throw new SpeechInputError({ code: 'voice-deleted', voice });
  }
  return { name, seconds: seconds(answer.seconds) };
}
