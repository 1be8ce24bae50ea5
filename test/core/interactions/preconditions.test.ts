import { MessageFlags, PermissionFlagsBits } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { t } from '../../../src/core/i18n/catalogue.ts';
import type { Requirements } from '../../../src/core/interactions/command.ts';
import { unmetPrecondition, type Facts } from '../../../src/core/interactions/router.ts';
import { letMembersUse } from '../../support/command-access.ts';
import { defaultGuilds, runCommand, startHarness, type Harness } from '../../support/harness.ts';

const member: Facts = { inGuild: true, subcommand: null, manageGuild: false, inVoice: false };
const admin: Facts = { ...member, manageGuild: true, inVoice: true };

describe('unmetPrecondition', () => {
  it('answers each precondition with what is unmet, and nothing when all hold', () => {
    expect(unmetPrecondition(undefined, { ...member, inGuild: false })).toEqual({ code: 'guild-only' });
    expect(unmetPrecondition({ manageGuild: true }, member)).toEqual({ code: 'manage-server' });
    expect(unmetPrecondition({ manageGuild: { refusal: 'error.permission.budget' } }, member)).toEqual({
      code: 'manage-server',
      refusal: 'error.permission.budget',
    });
    expect(unmetPrecondition({ inVoice: true }, member)).toEqual({ code: 'not-in-voice' });
    expect(unmetPrecondition({ manageGuild: true, inVoice: true }, admin)).toBeUndefined();
    expect(unmetPrecondition(undefined, member)).toBeUndefined();
  });

  it("checks a subcommand's own preconditions on that subcommand only", () => {
    const requires: Requirements = { subcommands: { save: { manageGuild: true } } };
    expect(unmetPrecondition(requires, { ...member, subcommand: 'save' })).toEqual({ code: 'manage-server' });
    expect(unmetPrecondition(requires, { ...member, subcommand: 'list' })).toBeUndefined();
    expect(unmetPrecondition(requires, { ...admin, subcommand: 'save' })).toBeUndefined();
  });

  it('refuses for the server first, then permissions, then voice', () => {
    const requires: Requirements = { manageGuild: true, inVoice: true };
    expect(unmetPrecondition(requires, { ...member, inGuild: false })).toEqual({ code: 'guild-only' });
    expect(unmetPrecondition(requires, member)).toEqual({ code: 'manage-server' });
    expect(unmetPrecondition(requires, { ...member, manageGuild: true })).toEqual({ code: 'not-in-voice' });
  });

  it('lets a member without Manage Server use a command that is only shown to admins by default', () => {
    expect(unmetPrecondition({ adminsByDefault: true }, member)).toBeUndefined();
  });
});

describe('declared preconditions, end to end', () => {
  const guilds = defaultGuilds();
  const london = guilds[1] as (typeof guilds)[0];
  const seoul = guilds[0] as (typeof guilds)[0];
  const BOB = '300000000000000012'; // London, not in voice, Japanese client, no Manage Server
  const OUTSIDE = '300000000000000002'; // Seoul, not in voice, Korean client, no Manage Server
  const ADMIN = '300000000000000014'; // London, Manage Server, not in voice
  london.members.push({ id: ADMIN, username: 'admin', locale: 'en-US', permissions: PermissionFlagsBits.ManageGuild });
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ guilds });
  });
  afterAll(async () => {
    await h?.close();
  });
  const ephemeral = (flags: number | undefined) => ((flags ?? 0) & MessageFlags.Ephemeral) === MessageFlags.Ephemeral;

  it('/join outside voice: told privately, in their language, to join a channel first', async () => {
    const { handle, content } = await runCommand(h, { guildId: london.id, userId: BOB, name: 'join' });
    expect(content).toBe(t('ja', 'error.voice.notInVoice'));
    expect(ephemeral(handle.responses.at(-1)?.flags)).toBe(true);
    expect(h.discord.botVoiceChannel(london.id)).toBeNull();
  });

  it('/budget without Manage Server: refused with its own message; with it, allowed', async () => {
    const asked = { guildId: seoul.id, userId: OUTSIDE, name: 'budget', options: { cooldown_seconds: 5 } };
    // Discord offers /budget only to Manage Server (its default member permissions) and sends nothing else; a server
    // that lets the member see it (Integrations) still has SayBot's own precondition refuse them.
    await expect(runCommand(h, asked)).rejects.toThrow(/ManageGuild/);
    letMembersUse(h.discord, seoul.id, 'budget', [OUTSIDE]);
    const refused = await runCommand(h, asked);
    expect(refused.content).toBe(t('ko', 'error.permission.budget'));
    expect(ephemeral(refused.handle.responses.at(-1)?.flags)).toBe(true);
    const allowed = await runCommand(h, {
      guildId: london.id,
      userId: ADMIN,
      name: 'budget',
      options: { cooldown_seconds: 0 },
    });
    expect(allowed.content).toContain(t('en-US', 'budget.name.memberCooldownSeconds'));
  });

  it('/preset: save needs Manage Server, list does not', async () => {
    const save = await runCommand(h, {
      guildId: london.id,
      userId: BOB,
      name: 'preset',
      subcommand: 'save',
      options: { name: 'x', voice: 'voice-b-en-f-01' },
    });
    expect(save.content).toBe(t('ja', 'error.permission.manageServer'));
    const list = await runCommand(h, { guildId: london.id, userId: BOB, name: 'preset', subcommand: 'list' });
    expect(list.content).toBe(t('ja', 'preset.list.empty'));
  });
});
