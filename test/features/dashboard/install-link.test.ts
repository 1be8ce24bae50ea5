// The install link: Discord's OAuth2 install URL with the scopes and rights the owners' guide gives (its link, the
// Application ID in place of YOUR_CLIENT_ID), on the site of the API base SayBot is set to.
import { readFileSync } from 'node:fs';
import { PermissionFlagsBits } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { INSTALL_PERMISSIONS, installLink } from '../../../src/features/dashboard/install-link.ts';

const guide = readFileSync(new URL('../../../docs/guide-owners.md', import.meta.url), 'utf8');

describe('the install link', () => {
  it("is the owners' guide's link, with the application's ID", () => {
    const documented = /https:\/\/discord\.com\/oauth2\/authorize\?client_id=YOUR_CLIENT_ID\S*/.exec(guide)?.[0];
    expect(documented).toBeDefined();
    expect(installLink('123456789012345678', 'https://discord.com/api')).toBe(
      documented?.replace('YOUR_CLIENT_ID', '123456789012345678'),
    );
  });

  it("asks for the guide's integer without Send Voice Messages too, and goes to the site of the API base", () => {
    expect(INSTALL_PERMISSIONS & ~PermissionFlagsBits.SendVoiceMessages).toBe(3181568n);
    expect(guide).toContain('Without\n   Send Voice Messages the integer is `3181568`');
    const local = new URL(installLink('42', 'http://127.0.0.1:9999/api/v10'));
    expect(local.origin + local.pathname).toBe('http://127.0.0.1:9999/oauth2/authorize');
    expect(local.searchParams.get('scope')).toBe('bot applications.commands');
  });
});
