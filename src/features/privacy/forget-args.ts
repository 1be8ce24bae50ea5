import { parseArgs } from 'node:util';

/** What `npm run forget` was asked to delete: a member everywhere, a server, or a member in one server. */
export type ForgetTarget = { userId: string; guildId?: string } | { userId?: undefined; guildId: string };

export const FORGET_USAGE = [
  'Usage: npm run forget -- --user <member ID>                 (a member, in every server)',
  '       npm run forget -- --guild <server ID>                (a whole server)',
  '       npm run forget -- --user <member ID> --guild <server ID>   (a member, in one server)',
].join('\n');

const SNOWFLAKE = /^\d{17,20}$/;

/** The target, or the one-line reason the arguments are not one (the caller exits 2 with the usage). */
export function parseForgetArgs(args: readonly string[]): ForgetTarget | { problem: string } {
  let values: { user?: string | undefined; guild?: string | undefined };
  try {
    ({ values } = parseArgs({
      args: [...args],
      options: { user: { type: 'string' }, guild: { type: 'string' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    return { problem: error instanceof Error ? (error.message.split('\n')[0] ?? 'bad arguments') : 'bad arguments' };
  }
  for (const [name, value] of Object.entries(values)) {
    if (value !== undefined && !SNOWFLAKE.test(value))
      return { problem: `--${name} must be a Discord ID (17 to 20 digits)` };
  }
  if (values.user !== undefined)
    return values.guild === undefined ? { userId: values.user } : { userId: values.user, guildId: values.guild };
  if (values.guild !== undefined) return { guildId: values.guild };
  return { problem: 'say whom to forget: --user, --guild, or both' };
}
