// A guild's soundboard sounds, as Discord documents "Create Guild Soundboard Sound" (POST
// /guilds/{guild.id}/soundboard-sounds): `name` 2-32 characters, `sound` an mp3 or ogg data URI of at most 512 KB
// and (for the ogg this checks) 5.2 s, `volume` 0 to 1 (default 1), an emoji optional; the sender needs Create
// Expressions (1 << 43). A guild without boosts has 8 slots (30045 past them). Answers the soundboard sound object.
// "Delete Guild Soundboard Sound" (DELETE /guilds/{guild.id}/soundboard-sounds/{sound.id}): a sound the sender created
// needs Create Expressions or Manage Expressions (1 << 30), another's Manage Expressions; 10097 for an unknown
// sound; 204 No Content.
import { PermissionFlagsBits } from 'discord.js';
import type { Answer } from './interactions.ts';
import { apiError, asObject, type ApiError, type Json } from './messages.ts';
import { snowflake } from './snowflake.ts';
import { userPayload, type GuildRecord, type UserRecord } from './state.ts';
export type { StoredSound } from './state.ts';

export const SOUNDBOARD_MAX_BYTES = 512 * 1024;
export const SOUNDBOARD_MAX_SECONDS = 5.2;
/** Sound slots of a guild without Server Boosts. */
export const SOUNDBOARD_SLOTS = 8;

function fail(error: ApiError): Answer {
  return { status: error.status, json: error.body };
}

function invalid(field: string, code: string, message: string): Answer {
  return fail(apiError(400, 50035, 'Invalid Form Body', { [field]: { _errors: [{ code, message }] } }));
}

/** An Ogg Opus stream's length: the last page's granule position less the pre-skip, at 48 kHz. */
export function oggOpusSeconds(data: Buffer): number | undefined {
  const head = data.indexOf('OpusHead');
  const last = data.lastIndexOf('OggS');
  if (head < 0 || last < 0 || last + 14 > data.length || head + 12 > data.length) return undefined;
  const preSkip = data.readUInt16LE(head + 10);
  const granule = Number(data.readBigInt64LE(last + 6));
  return granule < 0 ? undefined : Math.max(0, granule - preSkip) / 48_000;
}

export function createSound(guild: GuildRecord, sender: UserRecord, json: unknown): Answer {
  if ((guild.permissionsOf(sender.id) & PermissionFlagsBits.CreateGuildExpressions) === 0n)
    return fail(apiError(403, 50013, 'Missing Permissions'));
  const body = asObject(json);
  const name = body.name;
  if (typeof name !== 'string' || [...name].length < 2 || [...name].length > 32)
    return invalid('name', 'BASE_TYPE_BAD_LENGTH', 'Must be between 2 and 32 in length.');
  const volume = body.volume ?? 1;
  if (typeof volume !== 'number' || volume < 0 || volume > 1)
    return invalid('volume', 'NUMBER_TYPE_MAX', 'Volume must be between 0 and 1.');
  const match =
    typeof body.sound === 'string'
      ? /^data:(audio\/(?:mpeg|mp3|ogg));base64,([A-Za-z0-9+/]+={0,2})$/.exec(body.sound)
      : null;
  if (!match) return invalid('sound', 'SOUND_INVALID_TYPE', 'Sound must be an mp3 or ogg data URI.');
  const contentType = match[1] ?? '';
  const data = Buffer.from(match[2] ?? '', 'base64');
  if (data.length > SOUNDBOARD_MAX_BYTES)
    return invalid('sound', 'BINARY_TYPE_MAX_SIZE', `File cannot be larger than ${SOUNDBOARD_MAX_BYTES / 1024} kb.`);
  if (contentType === 'audio/ogg') {
    const seconds = oggOpusSeconds(data);
    if (seconds === undefined) return invalid('sound', 'SOUND_INVALID', 'Sound could not be read.');
    if (seconds > SOUNDBOARD_MAX_SECONDS)
      return invalid('sound', 'SOUND_TOO_LONG', `Sound cannot be longer than ${SOUNDBOARD_MAX_SECONDS} seconds.`);
  }
  if (guild.soundboardSounds.length >= SOUNDBOARD_SLOTS)
    return fail(apiError(400, 30045, 'Maximum number of soundboard sounds reached'));
  const object: Json = {
    name,
    sound_id: snowflake(),
    volume,
    emoji_id: typeof body.emoji_id === 'string' ? body.emoji_id : null,
    emoji_name: typeof body.emoji_name === 'string' ? body.emoji_name : null,
    guild_id: guild.id,
    available: true,
    user: userPayload(sender),
  };
  guild.soundboardSounds.push({ object, contentType, data });
  return { status: 201, json: object };
}

export function deleteSound(guild: GuildRecord, sender: UserRecord, soundId: string): Answer {
  const index = guild.soundboardSounds.findIndex((s) => s.object['sound_id'] === soundId);
  const sound = guild.soundboardSounds[index];
  if (!sound) return fail(apiError(404, 10097, 'Unknown sound'));
  const permissions = guild.permissionsOf(sender.id);
  const own = (sound.object['user'] as { id?: unknown } | undefined)?.id === sender.id;
  const may =
    (permissions & PermissionFlagsBits.ManageGuildExpressions) !== 0n ||
    (own && (permissions & PermissionFlagsBits.CreateGuildExpressions) !== 0n);
  if (!may) return fail(apiError(403, 50013, 'Missing Permissions'));
  guild.soundboardSounds.splice(index, 1);
  return { status: 204 };
}
