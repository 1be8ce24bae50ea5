import { describe, expect, it } from 'vitest';
import { PermissionFlagsBits } from 'discord.js';
import { helperInviteLink } from '../../../src/app/doctor/helper-check.ts';

describe("a helper bot's invite link", () => {
  it('asks scope bot only, and the rights a seat uses: see, join, speak, ask to speak on a Stage, the status', () => {
    const link = new URL(helperInviteLink('123456789012345678', undefined));
    expect(link.origin + link.pathname).toBe('https://discord.com/oauth2/authorize');
    expect(link.searchParams.get('client_id')).toBe('123456789012345678');
    expect(link.searchParams.get('scope')).toBe('bot');
    const asked = BigInt(link.searchParams.get('permissions') ?? '0');
    for (const right of ['ViewChannel', 'Connect', 'Speak', 'RequestToSpeak', 'SetVoiceChannelStatus'] as const)
      expect(asked & PermissionFlagsBits[right]).toBe(PermissionFlagsBits[right]);
    // Nothing it never uses: no messages, no files, no moderation.
    const never = PermissionFlagsBits.SendMessages | PermissionFlagsBits.AttachFiles | PermissionFlagsBits.MuteMembers;
    expect(asked & never).toBe(0n);
  });

  it("is on the local Discord's site when DISCORD_API_BASE_URL points there", () => {
    expect(helperInviteLink('1', 'http://127.0.0.1:5000/api')).toMatch(
      /^http:\/\/127\.0\.0\.1:5000\/oauth2\/authorize\?/,
    );
  });
});
