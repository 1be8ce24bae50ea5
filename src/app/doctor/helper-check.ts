// `npm run doctor` on each helper bot (HELPER_BOT_TOKENS): its token, Public Bot, the servers it is in against the
// main bot's (and ALLOWED_GUILDS), and its invite link. A helper is named by its place in the list, never its token.
import { DiscordAPIError, PermissionFlagsBits, REST, Routes } from 'discord.js';
import type { Config } from '../../core/config.ts';
import { redactSecrets } from '../../core/log.ts';
import { botGuilds, oneShotRest } from '../bot-guilds.ts';
import type { DoctorCheck } from '../../features/dashboard/index.ts';

/** A helper's rights, each for a reason docs/guide-owners.md gives: see, join and speak; ask to speak on a Stage; the status. */
export const HELPER_PERMISSIONS =
  PermissionFlagsBits.ViewChannel |
  PermissionFlagsBits.Connect |
  PermissionFlagsBits.Speak |
  PermissionFlagsBits.RequestToSpeak |
  PermissionFlagsBits.SetVoiceChannelStatus;

const DISCORD_SITE = 'https://discord.com';

/** The link that adds a helper to a server: scope bot only (a helper has no commands). */
export function helperInviteLink(applicationId: string, discordApi: string | undefined): string {
  const url = new URL('/oauth2/authorize', discordApi === undefined ? DISCORD_SITE : new URL(discordApi).origin);
  url.searchParams.set('client_id', applicationId);
  url.searchParams.set('scope', 'bot');
  url.searchParams.set('permissions', HELPER_PERMISSIONS.toString());
  return url.toString();
}

const restFor = (config: Config, token: string): REST =>
  new REST({
    ...oneShotRest,
    ...(config.discord.apiBaseUrl === undefined ? {} : { api: config.discord.apiBaseUrl }),
  }).setToken(token);

/** One line per helper: whether it can serve as a seat, and where. */
export async function checkHelpers(config: Config): Promise<DoctorCheck[]> {
  const tokens = config.discord.helperTokens;
  if (tokens.length === 0) return [];
  const secrets = [config.discord.token, ...tokens];
  const main = await botGuilds(restFor(config, config.discord.token)).catch(() => undefined);
  const served = new Set(
    (main?.guilds ?? []).map((g) => g.id).filter((id) => config.allowedGuilds?.includes(id) ?? true),
  );
  const checks: DoctorCheck[] = [];
  for (const [at, token] of tokens.entries()) {
    const name = `Helper bot ${at + 1}`;
    try {
      checks.push(await checkHelper(config, token, name, main === undefined ? undefined : served));
    } catch (error) {
      if (error instanceof DiscordAPIError && error.status === 401) {
        checks.push({
          name,
          ok: false,
          detail: `Discord refused its token (number ${at + 1} in HELPER_BOT_TOKENS): reset it on the Bot page of that application and update it`,
        });
        continue;
      }
      const why = redactSecrets(error instanceof Error ? error.message : String(error), secrets);
      checks.push({ name, ok: true, warn: true, detail: `could not be checked: ${why}` });
    }
  }
  return checks;
}

async function checkHelper(
  config: Config,
  token: string,
  name: string,
  served: ReadonlySet<string> | undefined,
): Promise<DoctorCheck> {
  const rest = restFor(config, token);
  const me = (await rest.get(Routes.user())) as { id: string; username?: string };
  const app = (await rest.get(Routes.currentApplication())) as { id: string; bot_public?: boolean };
  const link = helperInviteLink(app.id, config.discord.apiBaseUrl);
  const who = `${me.username ?? '?'} (${me.id})`;
  if (app.id === config.discord.clientId || me.id === config.discord.clientId)
    return { name, ok: false, detail: `${who} is the main bot itself: a helper is an application of its own` };
  if (app.bot_public !== false)
    return {
      name,
      ok: false,
      detail: `${who}: Public Bot is on, so anyone could add it: turn it off on the Bot page of its application. Invite: ${link}`,
    };
  const { guilds } = await botGuilds(rest);
  const outside = served === undefined ? [] : guilds.filter((g) => !served.has(g.id));
  const inServed = guilds.length - outside.length;
  const where = `in ${guilds.length} server(s)${guilds.length > 0 ? `: ${guilds.map((g) => g.name).join(', ')}` : ''}`;
  const stray =
    outside.length === 0
      ? ''
      : `. Not a seat in ${outside.map((g) => `${g.name} (${g.id})`).join(', ')}: the main bot does not serve it (not in it, or not in ALLOWED_GUILDS)`;
  return {
    name,
    ok: true,
    ...(inServed === 0 || outside.length > 0 ? { warn: true } : {}),
    detail: `${who}, Public Bot off, ${where}${stray}. Invite it with: ${link}`,
  };
}
