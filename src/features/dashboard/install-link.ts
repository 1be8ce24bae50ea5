// The link that adds SayBot to a server, with the scopes and rights docs/guide-owners.md gives, on the login's site.
import { PermissionFlagsBits } from 'discord.js';

/** The rights SayBot asks for when it is added: what it reads, posts, joins and speaks with. */
export const INSTALL_PERMISSIONS =
  PermissionFlagsBits.ViewChannel |
  PermissionFlagsBits.SendMessages |
  PermissionFlagsBits.AttachFiles |
  PermissionFlagsBits.Connect |
  PermissionFlagsBits.Speak |
  PermissionFlagsBits.SendVoiceMessages;

export const INSTALL_SCOPES = ['bot', 'applications.commands'] as const;

/** The install link for the application `clientId`; `discordApi` is Discord's API base (its site is the origin). */
export function installLink(clientId: string, discordApi: string): string {
  const url = new URL('/oauth2/authorize', new URL(discordApi).origin);
  url.searchParams.set('client_id', clientId);
  url.searchParams.set('scope', INSTALL_SCOPES.join(' '));
  url.searchParams.set('permissions', INSTALL_PERMISSIONS.toString());
  return url.toString();
}
