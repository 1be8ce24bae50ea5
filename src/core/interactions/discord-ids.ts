// A Discord ID read from a payload is checked before any request is built from it: discord.js takes an absent ID for
// "all" (a member fetch of everyone closes the gateway with 4013) and a malformed one for a path.
import type { Channel, Client, Guild, GuildMember } from 'discord.js';

/** Discord's IDs: snowflakes, 17 to 20 digits. */
const SNOWFLAKE = /^\d{17,20}$/;

/** The ID when `value` is one, else undefined (absent, empty, not a string, not a snowflake). */
export function snowflakeOf(value: unknown): string | undefined {
  return typeof value === 'string' && SNOWFLAKE.test(value) ? value : undefined;
}

/** A payload field that should have held an ID did not: nothing was asked of Discord with it. */
export class MissingIdError extends Error {
  /** Which field (for the log line; never its value, which may be anything). */
  readonly field: string;

  constructor(field: string) {
    super(`the payload's ${field} is not a Discord ID: nothing was asked of Discord with it`);
    this.name = 'MissingIdError';
    this.field = field;
  }
}

function requireId(value: unknown, field: string): string {
  const id = snowflakeOf(value);
  if (id === undefined) throw new MissingIdError(field);
  return id;
}

/** One member of `guild`, never all of them: an absent or malformed `userId` throws MissingIdError before any request. */
export async function fetchOneMember(
  guild: Guild,
  userId: unknown,
  field: string,
  options: { force?: boolean; cache?: boolean } = {},
): Promise<GuildMember> {
  return guild.members.fetch({ ...options, user: requireId(userId, field) });
}

/** One channel by ID (never a request for a path built from an absent one). */
export async function fetchOneChannel(client: Client, channelId: unknown, field: string): Promise<Channel | null> {
  return client.channels.fetch(requireId(channelId, field));
}
