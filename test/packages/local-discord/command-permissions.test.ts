// Who may use a command, as Discord decides it: default_member_permissions hides a command from members without
// those permissions (and their client sends nothing), the owner and administrators use every command, the server's
// command permissions (set with a member's Bearer token through the API, as Integrations does) allow or deny by
// user, role and channel, and a global command's contexts (or its dm_permission) say where it is offered.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  ApplicationCommandOptionType,
  ApplicationCommandType,
  ApplicationIntegrationType,
  Events,
  InteractionContextType,
  PermissionFlagsBits,
  type ApplicationCommandPermissionsUpdateData,
} from 'discord.js';
import { CommandPermissionType, DiscordRefusal, allChannelsId, type CommandPermission } from '@saybot/local-discord';
import { APP_ID, TOKEN, nextInteraction, useLoggedInClient } from './helpers.ts';

const GUILD = '100000000000000007';
const GENERAL = '110000000000000007';
const QUIET = '110000000000000008';
const ALICE = '200000000000000071'; // @everyone's permissions only
const CAROL = '200000000000000072'; // a role of her own that grants nothing
const DANA = '200000000000000073'; // Manage Server and Manage Roles through a role
const ADAM = '200000000000000074'; // Administrator through a role
const OLIVIA = '200000000000000075'; // the owner, no role
const REDIRECT = 'http://127.0.0.1:9/callback';
const MANAGE_SERVER = PermissionFlagsBits.ManageGuild;

describe('command permissions in the local Discord', () => {
  const rig = useLoggedInClient({
    guilds: [
      {
        id: GUILD,
        name: 'Permissions',
        textChannelId: GENERAL,
        textChannels: [{ id: QUIET, name: 'quiet' }],
        voiceChannels: [{ id: '120000000000000007', name: 'Lounge' }],
        ownerId: OLIVIA,
        members: [
          { id: ALICE, username: 'alice' },
          { id: CAROL, username: 'carol', permissions: 0n },
          { id: DANA, username: 'dana', permissions: MANAGE_SERVER | PermissionFlagsBits.ManageRoles },
          { id: ADAM, username: 'adam', permissions: PermissionFlagsBits.Administrator },
          { id: OLIVIA, username: 'olivia' },
        ],
      },
    ],
    oauth2: { clientSecret: 'secret', redirectUris: [REDIRECT] },
  });

  const ids = new Map<string, string>();
  beforeAll(async () => {
    const guildCommands = await rig.client.application!.commands.set(
      [
        { name: 'say', description: 'Say something', options: [textOption()] },
        { name: 'clone', description: 'Clone a voice', defaultMemberPermissions: MANAGE_SERVER },
        { name: 'zero', description: 'Nobody but admins', defaultMemberPermissions: 0n },
        {
          name: 'budget',
          description: 'Budgets',
          defaultMemberPermissions: MANAGE_SERVER,
          options: [{ ...textOption(), autocomplete: true }],
        },
        { name: 'Speak', type: ApplicationCommandType.Message, defaultMemberPermissions: MANAGE_SERVER },
      ],
      GUILD,
    );
    const globalCommands = await rig.client.application!.commands.set([
      { name: 'dmonly', description: 'Only in the bot DM', contexts: [InteractionContextType.BotDM] },
      {
        name: 'nodm',
        description: 'Not in the bot DM',
        dmPermission: false,
        integrationTypes: [ApplicationIntegrationType.GuildInstall, ApplicationIntegrationType.UserInstall],
      },
      { name: 'mine', description: 'User install only', integrationTypes: [ApplicationIntegrationType.UserInstall] },
    ]);
    for (const command of [...guildCommands.values(), ...globalCommands.values()]) ids.set(command.name, command.id);
  });

  // Each case starts from a server without command permissions, whatever the case before it left.
  afterEach(() => {
    for (const commandId of [...ids.values(), APP_ID]) rig.fake.setCommandPermissions(GUILD, commandId, []);
  });

  const id = (name: string) => ids.get(name)!;
  const offered = (userId: string, channelId = GENERAL) =>
    rig.fake
      .commandsFor({ guildId: GUILD, userId, channelId })
      .map((c) => String(c.name))
      .sort();
  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => undefined,
      (error: unknown) => error,
    );
  const set = (command: string, permissions: CommandPermission[]) =>
    rig.fake.setCommandPermissions(GUILD, command === APP_ID ? APP_ID : id(command), permissions);

  /** A Bearer token of `userId` with these scopes, as a dashboard gets one (the authorization code grant). */
  async function bearerOf(userId: string, scopes: Array<'identify' | 'applications.commands.permissions.update'>) {
    const code = rig.fake.oauth2.issueCode({ userId, redirectUri: REDIRECT, scopes });
    const answer = await fetch(rig.fake.oauth2.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT,
        client_id: APP_ID,
        client_secret: 'secret',
      }).toString(),
    });
    return ((await answer.json()) as { access_token: string }).access_token;
  }

  const permissionsUrl = (commandId: string) =>
    `${rig.fake.restUrl}/v10/applications/${APP_ID}/guilds/${GUILD}/commands/${commandId}/permissions`;
  const put = (commandId: string, authorization: string, permissions: unknown) =>
    fetch(permissionsUrl(commandId), {
      method: 'PUT',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify({ permissions }),
    });

  it('a command with default_member_permissions is offered only to members with them, the owner and administrators', () => {
    expect(offered(ALICE)).toEqual(['nodm', 'say']);
    expect(offered(CAROL)).toEqual(['nodm', 'say']);
    expect(offered(DANA)).toEqual(['Speak', 'budget', 'clone', 'nodm', 'say']);
    // "0": nobody but administrators (and the owner, who has every permission).
    expect(offered(ADAM)).toEqual(['Speak', 'budget', 'clone', 'nodm', 'say', 'zero']);
    expect(offered(OLIVIA)).toEqual(['Speak', 'budget', 'clone', 'nodm', 'say', 'zero']);
  });

  it('a member without them who sends the command anyway is refused, naming the permission, and no interaction is made', async () => {
    const before = rig.fake.interactions().length;
    const slash = await refusal(rig.fake.command({ guildId: GUILD, userId: ALICE, name: 'clone' }));
    expect(slash).toBeInstanceOf(DiscordRefusal);
    expect(slash).toMatchObject({ status: 403, code: 50013 });
    expect(String((slash as Error).message)).toContain('ManageGuild');
    const typed = await refusal(
      rig.fake.autocomplete({
        guildId: GUILD,
        userId: ALICE,
        name: 'budget',
        options: [{ name: 'text', value: 'x', focused: true }],
      }),
    );
    expect(typed).toMatchObject({ status: 403, code: 50013 });
    const menu = await refusal(
      rig.fake.messageCommand({
        guildId: GUILD,
        userId: ALICE,
        name: 'Speak',
        message: { author: { id: CAROL, username: 'carol' }, content: 'hello' },
      }),
    );
    expect(menu).toMatchObject({ status: 403, code: 50013 });
    const zero = await refusal(rig.fake.command({ guildId: GUILD, userId: DANA, name: 'zero' }));
    expect(String((zero as Error).message)).toContain('default_member_permissions "0"');
    expect(rig.fake.interactions().length).toBe(before);
  });

  it('members with the permissions, the owner and an administrator get the interaction', async () => {
    for (const userId of [DANA, ADAM, OLIVIA]) {
      const handled = nextInteraction(rig.client, async (i) => {
        if (!i.isChatInputCommand()) throw new Error('expected a chat input command');
        await i.reply({ content: `ran ${i.commandName} for ${i.user.id}` });
      });
      const handle = await rig.fake.command({ guildId: GUILD, userId, name: userId === DANA ? 'clone' : 'zero' });
      expect((await handle.waitForFinal()).content).toBe(`ran ${userId === DANA ? 'clone' : 'zero'} for ${userId}`);
      await handled;
    }
  });

  it('PUT permissions takes a Bearer token with the scope, of a member with Manage Server and Manage Roles', async () => {
    const allowAlice = [{ id: ALICE, type: CommandPermissionType.User, permission: true }];
    const bot = await put(id('clone'), `Bot ${TOKEN}`, allowAlice);
    expect([bot.status, ((await bot.json()) as { code: number }).code]).toEqual([403, 20001]);
    const unscoped = await put(id('clone'), `Bearer ${await bearerOf(OLIVIA, ['identify'])}`, allowAlice);
    expect([unscoped.status, ((await unscoped.json()) as { code: number }).code]).toEqual([403, 50026]);
    const member = await put(
      id('clone'),
      `Bearer ${await bearerOf(ALICE, ['applications.commands.permissions.update'])}`,
      allowAlice,
    );
    expect([member.status, ((await member.json()) as { code: number }).code]).toEqual([403, 50013]);
    const nobody = await put(id('clone'), 'Bearer not-a-token', allowAlice);
    expect(nobody.status).toBe(401);
    const unknownRole = await put(
      id('clone'),
      `Bearer ${await bearerOf(OLIVIA, ['applications.commands.permissions.update'])}`,
      [{ id: '999999999999999999', type: CommandPermissionType.Role, permission: true }],
    );
    expect([unknownRole.status, ((await unknownRole.json()) as { code: number }).code]).toEqual([400, 50035]);
    const tooMany = await put(
      id('clone'),
      `Bearer ${await bearerOf(OLIVIA, ['applications.commands.permissions.update'])}`,
      Array.from({ length: 101 }, () => ({ id: ALICE, type: CommandPermissionType.User, permission: true })),
    );
    expect(tooMany.status).toBe(400);
    expect(offered(ALICE)).not.toContain('clone');
  });

  it('a user override set through the API lets a member use a command she lacks the permissions for; the bot is told', async () => {
    // The update this PUT makes (another case's may still be on its way to the client).
    const told = new Promise<ApplicationCommandPermissionsUpdateData>((resolve) => {
      const listener = (data: ApplicationCommandPermissionsUpdateData) => {
        if (data.id !== id('clone') || !data.permissions.some((p) => p.id === ALICE)) return;
        rig.client.off(Events.ApplicationCommandPermissionsUpdate, listener);
        resolve(data);
      };
      rig.client.on(Events.ApplicationCommandPermissionsUpdate, listener);
    });
    const answer = await put(
      id('clone'),
      `Bearer ${await bearerOf(DANA, ['applications.commands.permissions.update'])}`,
      [{ id: ALICE, type: CommandPermissionType.User, permission: true }],
    );
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({
      id: id('clone'),
      application_id: APP_ID,
      guild_id: GUILD,
      permissions: [{ id: ALICE, type: CommandPermissionType.User, permission: true }],
    });
    expect((await told).permissions).toEqual([{ id: ALICE, type: CommandPermissionType.User, permission: true }]);
    // The bot reads them back with its own token.
    const fetched = await rig.client.application!.commands.permissions.fetch({ guild: GUILD, command: id('clone') });
    expect(fetched).toEqual([{ id: ALICE, type: CommandPermissionType.User, permission: true }]);
    expect(offered(ALICE)).toContain('clone');
    expect(offered(CAROL)).not.toContain('clone');
    const handled = nextInteraction(rig.client, async (i) => {
      if (!i.isChatInputCommand()) throw new Error('expected a chat input command');
      await i.reply({ content: `manage=${i.memberPermissions?.has(MANAGE_SERVER) ?? false}` });
    });
    const handle = await rig.fake.command({ guildId: GUILD, userId: ALICE, name: 'clone' });
    // She uses the command; her permissions are still her own (the bot's own checks see she lacks Manage Server).
    expect((await handle.waitForFinal()).content).toBe('manage=false');
    await handled;
    set('clone', []);
    expect(offered(ALICE)).not.toContain('clone');
  });

  it('role overrides: a role allowed widens the command to its members, a role denied hides it from them', () => {
    const carolsRole = rig.fake.memberRoles(GUILD, CAROL)[0]!;
    const danasRole = rig.fake.memberRoles(GUILD, DANA)[0]!;
    set('clone', [
      { id: carolsRole, type: CommandPermissionType.Role, permission: true },
      { id: danasRole, type: CommandPermissionType.Role, permission: false },
    ]);
    expect(offered(CAROL)).toContain('clone');
    expect(offered(DANA)).not.toContain('clone');
    expect(offered(ALICE)).not.toContain('clone');
    // A member's own override wins over their roles'.
    set('clone', [
      { id: danasRole, type: CommandPermissionType.Role, permission: false },
      { id: DANA, type: CommandPermissionType.User, permission: true },
    ]);
    expect(offered(DANA)).toContain('clone');
    // Administrators and the owner cannot be locked out.
    set('clone', [
      { id: ADAM, type: CommandPermissionType.User, permission: false },
      { id: OLIVIA, type: CommandPermissionType.User, permission: false },
    ]);
    expect(offered(ADAM)).toContain('clone');
    expect(offered(OLIVIA)).toContain('clone');
  });

  it('@everyone: a deny hides the command from every member; an allow does not widen default_member_permissions', () => {
    set('say', [{ id: GUILD, type: CommandPermissionType.Role, permission: false }]);
    expect(offered(ALICE)).not.toContain('say');
    expect(offered(DANA)).not.toContain('say');
    expect(offered(ADAM)).toContain('say');
    set('clone', [{ id: GUILD, type: CommandPermissionType.Role, permission: true }]);
    expect(offered(ALICE)).not.toContain('clone');
    expect(offered(DANA)).toContain('clone');
  });

  it('channel overrides: a channel denied, or All Channels denied but one, decides where the command is offered', async () => {
    set('say', [{ id: QUIET, type: CommandPermissionType.Channel, permission: false }]);
    expect(offered(ALICE, GENERAL)).toContain('say');
    expect(offered(ALICE, QUIET)).not.toContain('say');
    const there = await refusal(rig.fake.command({ guildId: GUILD, userId: ALICE, name: 'say', channelId: QUIET }));
    expect(there).toMatchObject({ status: 403, code: 50013 });
    set('say', [
      { id: allChannelsId(GUILD), type: CommandPermissionType.Channel, permission: false },
      { id: QUIET, type: CommandPermissionType.Channel, permission: true },
    ]);
    expect(offered(ALICE, GENERAL)).not.toContain('say');
    expect(offered(ALICE, QUIET)).toContain('say');
    // The app-wide overrides (the application's ID) apply where a command has none of its own.
    set('say', []);
    set(APP_ID, [{ id: QUIET, type: CommandPermissionType.Channel, permission: false }]);
    expect(offered(ALICE, QUIET)).not.toContain('say');
    set('say', [{ id: QUIET, type: CommandPermissionType.Channel, permission: true }]);
    expect(offered(ALICE, QUIET)).toContain('say');
  });

  it('GET answers every overridden command of the server, and 404 10066 for one without', async () => {
    set('say', [{ id: CAROL, type: CommandPermissionType.User, permission: false }]);
    const all = await fetch(`${rig.fake.restUrl}/v10/applications/${APP_ID}/guilds/${GUILD}/commands/permissions`, {
      headers: { authorization: `Bot ${TOKEN}` },
    });
    expect(await all.json()).toEqual([
      {
        id: id('say'),
        application_id: APP_ID,
        guild_id: GUILD,
        permissions: [{ id: CAROL, type: CommandPermissionType.User, permission: false }],
      },
    ]);
    const none = await fetch(permissionsUrl(id('zero')), { headers: { authorization: `Bot ${TOKEN}` } });
    expect([none.status, ((await none.json()) as { code: number }).code]).toEqual([404, 10066]);
  });

  it('contexts: a global command not offered in servers is refused there; dm_permission false keeps it out of the bot DM', async () => {
    expect(offered(OLIVIA)).not.toContain('dmonly');
    expect(offered(OLIVIA)).not.toContain('mine');
    const inServer = await refusal(rig.fake.command({ guildId: GUILD, userId: OLIVIA, name: 'dmonly' }));
    expect(inServer).toMatchObject({ status: 404, code: 10063 });
    await expect(rig.fake.privateCommand({ userId: ALICE, name: 'nodm', context: 1 })).rejects.toThrow(/contexts/);
    const handled = nextInteraction(rig.client, async (i) => {
      if (!i.isChatInputCommand()) throw new Error('expected a chat input command');
      await i.reply({ content: `context ${i.context}` });
    });
    const handle = await rig.fake.privateCommand({ userId: ALICE, name: 'nodm', context: 2 });
    expect((await handle.waitForFinal()).content).toBe('context 2');
    await handled;
  });
});

function textOption() {
  return { name: 'text', description: 'Text', type: ApplicationCommandOptionType.String as const };
}
