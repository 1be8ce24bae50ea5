import { beforeAll, describe, expect, it } from 'vitest';
import {
  ApplicationCommandOptionType,
  ChannelType,
  DiscordAPIError,
  Events,
  MessageFlags,
  PermissionFlagsBits,
  type ChatInputCommandInteraction,
  type VoiceState,
} from 'discord.js';
import { APP_ID, TOKEN, guildSpec, nextInteraction, useLoggedInClient } from './helpers.ts';

const g1 = guildSpec(1);
const g2 = guildSpec(2);
const alice = g1.members[0]!;
const bob = g1.members[1]!;

describe('FakeDiscord with a real discord.js client: login, interactions, REST', () => {
  /** What the fake had reported by the end of the login (later tests provoke problems on purpose). */
  let problemsAtLogin: string[] = [];

  const rig = useLoggedInClient({ guilds: [g1, g2] });
  beforeAll(async () => {
    problemsAtLogin = [...rig.fake.problems];
  });

  /** Moves a member as Discord would and waits until discord.js has seen it. */
  async function moveMember(userId: string, channelId: string | null): Promise<VoiceState> {
    const update = new Promise<VoiceState>((resolve) => {
      const listener = (_old: VoiceState, state: VoiceState) => {
        if (state.id !== userId) return;
        rig.client.off(Events.VoiceStateUpdate, listener);
        resolve(state);
      };
      rig.client.on(Events.VoiceStateUpdate, listener);
    });
    rig.fake.setVoiceState(g1.id, userId, channelId);
    return update;
  }

  it('logs in: READY then GUILD_CREATE give guilds, channels, roles, members in voice and their voice states', () => {
    expect(rig.client.isReady()).toBe(true);
    expect(rig.client.user?.id).toBe(APP_ID);
    expect(rig.client.application?.id).toBe(APP_ID);
    const guild = rig.client.guilds.cache.get(g1.id);
    expect(guild?.name).toBe('Guild 1');
    expect(rig.client.guilds.cache.has(g2.id)).toBe(true);
    expect(guild?.channels.cache.get(g1.voiceChannels[0]!.id)?.isVoiceBased()).toBe(true);
    expect(guild?.channels.cache.get(g1.textChannelId)?.isTextBased()).toBe(true);
    expect(guild?.roles.everyone.id).toBe(g1.id);
    expect(guild?.members.me?.id).toBe(APP_ID);
    expect(guild?.voiceStates.cache.get(alice.id)?.channelId).toBe(g1.voiceChannels[0]!.id);
    expect(guild?.members.cache.get(alice.id)?.voice.channel?.name).toBe('Lounge');
    // The bot can join and speak in the voice channel with its default role.
    const lounge = guild?.channels.cache.get(g1.voiceChannels[0]!.id);
    expect(lounge?.type === ChannelType.GuildVoice && lounge.joinable && lounge.speakable).toBe(true);
    const gatewayBot = rig.fake.restLog.find((r) => r.path === '/api/v10/gateway/bot');
    expect(gatewayBot?.headers.authorization).toBe(`Bot ${TOKEN}`);
    expect(problemsAtLogin).toEqual([]);
  });

  it('a slash command: defer, edit @original, follow-up with a file; the handle sees all three in order', async () => {
    let seen: ChatInputCommandInteraction | undefined;
    const handled = nextInteraction(rig.client, async (i) => {
      if (!i.isChatInputCommand()) throw new Error('expected a chat input command');
      seen = i;
      await i.deferReply();
      await i.editReply({
        content: `said: ${i.options.getString('text', true)} x${i.options.getInteger('times') ?? 1}`,
        allowedMentions: { parse: [] },
      });
      await i.followUp({
        content: 'here is the file',
        files: [{ attachment: Buffer.from('RIFF....WAVEfmt '), name: 'speech.wav' }],
        flags: MessageFlags.Ephemeral,
      });
    });
    const handle = await rig.fake.command({
      guildId: g1.id,
      userId: alice.id,
      name: 'say',
      options: [
        { name: 'text', value: 'hello <@210000000000000001>' },
        { name: 'times', value: 2 },
      ],
    });
    // When INTERACTION_CREATE went out, for benchmarks (bench/, where speed is measured): only its presence here.
    expect(Number.isFinite(handle.dispatchedAtMs)).toBe(true);
    const final = await handle.waitForFinal();
    const followUp = await handle.waitFor((r) => r.kind === 'follow-up');
    await handled;

    expect(handle.responses.map((r) => r.kind)).toEqual(['callback', 'edit-original', 'follow-up']);
    expect(handle.responses[0]?.type).toBe(5);
    expect(final.kind).toBe('edit-original');
    expect(final.content).toBe('said: hello <@210000000000000001> x2');
    expect(final.allowedMentions).toEqual({ parse: [] });
    expect(final.mentioned).toEqual({ users: [], roles: [], everyone: false });
    expect(followUp.files).toHaveLength(1);
    expect(followUp.files[0]?.name).toBe('speech.wav');
    expect(followUp.files[0]?.data.toString()).toBe('RIFF....WAVEfmt ');
    expect(followUp.flags).toBe(MessageFlags.Ephemeral);
    const attachments = followUp.message?.attachments as Array<{ url: string; size: number }>;
    expect(attachments[0]?.size).toBe(16);
    expect(Buffer.from(await (await fetch(attachments[0]!.url)).arrayBuffer()).toString()).toBe('RIFF....WAVEfmt ');

    // What discord.js saw in the interaction.
    expect(seen?.locale).toBe('ko');
    expect(seen?.guildLocale).toBe('en-US');
    expect(seen?.inCachedGuild() ? seen.member.voice.channelId : 'not cached').toBe(g1.voiceChannels[0]!.id);
    expect(seen?.memberPermissions?.has(PermissionFlagsBits.ManageGuild)).toBe(false);
    expect(seen?.appPermissions.has(PermissionFlagsBits.Speak)).toBe(true);
    // Interaction routes carry no bot token.
    const interactionRequests = rig.fake.restLog.filter((r) => r.path.includes(handle.token));
    expect(interactionRequests.length).toBe(3);
    expect(interactionRequests.every((r) => r.headers.authorization === undefined)).toBe(true);
    expect(interactionRequests.some((r) => r.path.includes('/messages/%40original'))).toBe(true);
  });

  it('member permissions and an attachment option arrive resolved; the attachment downloads from the fake CDN', async () => {
    const handled = nextInteraction(rig.client, async (i) => {
      if (!i.isChatInputCommand()) throw new Error('expected a chat input command');
      const attachment = i.options.getAttachment('sample', true);
      const bytes = Buffer.from(await (await fetch(attachment.url)).arrayBuffer());
      const canManage = i.memberPermissions?.has(PermissionFlagsBits.ManageGuild) ?? false;
      const response = await i.reply({
        content: `${attachment.name} ${attachment.contentType} ${attachment.size} ${bytes.toString()} manage=${canManage}`,
        withResponse: true,
      });
      replyId = response.resource?.message?.id;
    });
    let replyId: string | undefined;
    const handle = await rig.fake.command({
      guildId: g1.id,
      userId: bob.id,
      name: 'clone',
      locale: 'ja',
      attachments: [
        { option: 'sample', data: Buffer.from('voice-bytes'), filename: 'me.mp3', contentType: 'audio/mpeg' },
      ],
    });
    const final = await handle.waitForFinal();
    await handled;
    expect(final.kind).toBe('callback');
    expect(final.type).toBe(4);
    expect(final.content).toBe('me.mp3 audio/mpeg 11 voice-bytes manage=true');
    expect(replyId).toBe(final.message?.id);
    expect(rig.fake.restLog.some((r) => r.path.endsWith('/callback?with_response=true'))).toBe(true);
    expect(rig.fake.cdnLog.some((r) => r.path.includes('me.mp3') && r.status === 200)).toBe(true);
  });

  it('autocomplete: the choices the bot answers come back', async () => {
    const handled = nextInteraction(rig.client, async (i) => {
      if (!i.isAutocomplete()) throw new Error('expected autocomplete');
      const focused = i.options.getFocused(true);
      await i.respond([
        { name: `${focused.name}:${focused.value}-one`, value: 'v1' },
        { name: 'two', value: 'v2' },
      ]);
    });
    const choices = await rig.fake.autocomplete({
      guildId: g1.id,
      userId: alice.id,
      name: 'say',
      options: [
        { name: 'text', value: 'hi' },
        { name: 'voice', value: 'mi', focused: true },
      ],
    });
    await handled;
    expect(choices).toEqual([
      { name: 'voice:mi-one', value: 'v1' },
      { name: 'two', value: 'v2' },
    ]);
  });

  it('commands registered with PUT (guild and global) are stored with ids, and interactions name those ids', async () => {
    const data = [
      {
        name: 'say',
        description: 'Say something',
        options: [
          { name: 'text', description: 'Text', type: ApplicationCommandOptionType.String as const, required: true },
          // The other tests' /say (the order is shuffled) uses this one too.
          { name: 'times', description: 'Times', type: ApplicationCommandOptionType.Integer as const },
        ],
      },
    ];
    const guildCommands = await rig.client.application!.commands.set(data, g1.id);
    await rig.client.application!.commands.set([{ name: 'ping', description: 'Ping' }]);
    expect(guildCommands.first()?.name).toBe('say');
    const stored = rig.fake.registeredCommands(g1.id) as Array<{ id: string; name: string; guild_id: string }>;
    expect(stored.map((c) => c.name)).toEqual(['say']);
    expect(stored[0]?.id).toBe(guildCommands.first()?.id);
    expect((rig.fake.registeredCommands() as Array<{ name: string }>).map((c) => c.name)).toEqual(['ping']);
    const fetched = await rig.client.application!.commands.fetch({ guildId: g1.id });
    expect(fetched.map((c) => c.name)).toEqual(['say']);

    const handled = nextInteraction(rig.client, async (i) => {
      if (!i.isChatInputCommand()) throw new Error('expected a chat input command');
      await i.reply({ content: `${i.commandId === stored[0]?.id} ${i.commandGuildId}` });
    });
    const handle = await rig.fake.command({
      guildId: g1.id,
      userId: alice.id,
      name: 'say',
      options: [{ name: 'text', value: 'x' }],
    });
    expect((await handle.waitForFinal()).content).toBe(`true ${g1.id}`);
    await handled;
  });

  it('a second callback is refused with 40060, as Discord does, and recorded as a problem', async () => {
    let secondError: unknown;
    const handled = nextInteraction(rig.client, async (i) => {
      if (!i.isChatInputCommand()) throw new Error('expected a chat input command');
      await i.reply({ content: 'first' });
      // Bypass discord.js's own guard to send a second callback, as a buggy bot might.
      i.replied = false;
      await i.reply({ content: 'second' }).catch((error: unknown) => {
        secondError = error;
      });
    });
    const handle = await rig.fake.command({ guildId: g2.id, userId: g2.members[0]!.id, name: 'say' });
    await handled;
    expect(secondError).toBeInstanceOf(DiscordAPIError);
    expect((secondError as DiscordAPIError).code).toBe(40060);
    expect(handle.responses).toHaveLength(1);
    expect(handle.problems[0]).toContain('40060');
    expect(rig.fake.problems.some((p) => p.includes(handle.id) && p.includes('40060'))).toBe(true);
  });

  it('an over-long message is refused with 50035, and an unknown REST route answers 404 JSON and is reported', async () => {
    let error: unknown;
    const handled = nextInteraction(rig.client, async (i) => {
      if (!i.isChatInputCommand()) throw new Error('expected a chat input command');
      await i.reply({ content: 'x'.repeat(2001) }).catch((e: unknown) => {
        error = e;
      });
    });
    const handle = await rig.fake.command({
      guildId: g1.id,
      userId: alice.id,
      name: 'say',
      options: [{ name: 'text', value: 'hi' }],
    });
    await handled;
    expect((error as DiscordAPIError).code).toBe(50035);
    expect(handle.responses).toHaveLength(0);

    const unknown = await rig.client.rest.get('/no/such/route').catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(DiscordAPIError);
    expect((unknown as DiscordAPIError).status).toBe(404);
    expect(rig.fake.problems.some((p) => p.includes('GET /api/v10/no/such/route'))).toBe(true);
  });

  it('setVoiceState: members joining, moving and leaving reach discord.js as VOICE_STATE_UPDATE', async () => {
    const guild = rig.client.guilds.cache.get(g1.id)!;
    const quiet = g1.voiceChannels[1]!.id;
    const next = (): Promise<VoiceState> =>
      new Promise((resolve) => rig.client.once(Events.VoiceStateUpdate, (_old, state) => resolve(state)));

    let update = next();
    rig.fake.setVoiceState(g1.id, bob.id, quiet);
    expect((await update).channelId).toBe(quiet);
    expect(guild.members.cache.get(bob.id)?.voice.channelId).toBe(quiet);

    update = next();
    rig.fake.setVoiceState(g1.id, alice.id, quiet);
    expect((await update).channelId).toBe(quiet);

    update = next();
    rig.fake.setVoiceState(g1.id, bob.id, null);
    expect((await update).channelId).toBeNull();
    expect(guild.voiceStates.cache.get(bob.id)?.channelId ?? null).toBeNull();
    expect(rig.fake.voiceChannelOf(g1.id, alice.id)).toBe(quiet);
    // Back where the guild spec puts her, for the tests that read the login state.
    await moveMember(alice.id, g1.voiceChannels[0]!.id);
  });

  it('GET routes discord.js uses for guilds, channels, members and voice states answer', async () => {
    const guild = rig.client.guilds.cache.get(g1.id)!;
    // A voice state that differs from the one at login, so the GET below must come from the fake's current state.
    await moveMember(alice.id, g1.voiceChannels[1]!.id);
    const owner = await guild.fetchOwner();
    expect(owner.user.username).toBe(`owner-${g1.id}`);
    const member = await guild.members.fetch({ user: bob.id, force: true });
    expect(member.user.username).toBe('bob1');
    const channel = await rig.client.channels.fetch(g1.textChannelId, { force: true });
    expect(channel?.id).toBe(g1.textChannelId);
    const state = await guild.voiceStates.fetch(alice.id);
    expect(state.channelId).toBe(g1.voiceChannels[1]!.id);
    const text = guild.channels.cache.get(g1.textChannelId);
    if (!text?.isSendable()) throw new Error('expected a sendable text channel');
    const sent = await text.send('left the channel');
    expect(sent.content).toBe('left the channel');
    expect(rig.fake.channelMessages(g1.textChannelId).map((m) => m.message.content)).toEqual(['left the channel']);
    await moveMember(alice.id, g1.voiceChannels[0]!.id);
  });
  it("an ephemeral reply exists only for its member: another's Speak menu or button on it is Unknown Message", async () => {
    // Alice's command is answered privately, with a button.
    const handled = nextInteraction(rig.client, async (i) => {
      if (!i.isChatInputCommand()) throw new Error('expected a chat input command');
      await i.reply({
        content: 'only for alice',
        flags: MessageFlags.Ephemeral,
        components: [{ type: 1, components: [{ type: 2, style: 1, label: 'More', custom_id: 'more' }] }],
      });
    });
    const handle = await rig.fake.command({
      guildId: g1.id,
      userId: alice.id,
      name: 'say',
      options: [{ name: 'text', value: 'hi' }],
    });
    const reply = await handle.waitForFinal();
    await handled;
    const messageId = String(reply.message?.id);
    const sent = rig.fake.interactions().length;
    // Bob's client never has that message: nothing he does on it reaches the bot.
    await expect(
      rig.fake.messageCommand({
        guildId: g1.id,
        userId: bob.id,
        name: 'Speak',
        message: { id: messageId, author: { id: APP_ID, username: 'bot', bot: true }, content: 'only for alice' },
      }),
    ).rejects.toThrow(/Unknown Message/);
    await expect(rig.fake.pressButton({ guildId: g1.id, userId: bob.id, messageId, customId: 'more' })).rejects.toThrow(
      /Unknown Message/,
    );
    expect(rig.fake.interactions().length).toBe(sent);
    // Alice's own client does.
    const pressed = nextInteraction(rig.client, async (i) => {
      if (!i.isButton()) throw new Error('expected a button');
      await i.deferUpdate();
    });
    await rig.fake.pressButton({ guildId: g1.id, userId: alice.id, messageId, customId: 'more' });
    await pressed;
  });

  it("answers' messages say how they were asked, as Discord's: a command's /name, a button's reply to its message", async () => {
    const asked = nextInteraction(rig.client, async (i) => {
      if (!i.isChatInputCommand()) throw new Error('expected a chat input command');
      await i.reply({
        content: 'Spoke',
        files: [{ attachment: Buffer.from('not really a png'), name: 'chart.png', description: 'A chart' }],
        components: [{ type: 1, components: [{ type: 2, style: 2, label: 'Again', custom_id: 'say:again' }] }],
      });
    });
    const handle = await rig.fake.command({
      guildId: g1.id,
      userId: alice.id,
      name: 'scene',
      options: [{ name: 'save', options: [{ name: 'name', value: 'x' }] }],
    });
    const spoke = (await handle.waitForFinal()).message!;
    await asked;
    expect(spoke.type).toBe(20);
    expect(spoke.interaction_metadata).toMatchObject({ type: 2, name: 'scene save', user: { id: alice.id } });
    expect((spoke.attachments as Array<{ description?: string }>)[0]?.description).toBe('A chart');
    const pressed = nextInteraction(rig.client, async (i) => {
      if (!i.isButton()) throw new Error('expected a button');
      await i.reply({ content: 'Again' });
    });
    const press = await rig.fake.pressButton({
      guildId: g1.id,
      userId: alice.id,
      messageId: String(spoke.id),
      customId: 'say:again',
    });
    const again = (await press.waitForFinal()).message!;
    await pressed;
    expect(again.type).toBe(19);
    expect(again.interaction_metadata).toMatchObject({ type: 3, interacted_message_id: spoke.id });
    expect(again.interaction_metadata).not.toHaveProperty('name');
    expect(again.message_reference).toMatchObject({ type: 0, message_id: spoke.id, channel_id: spoke.channel_id });
    expect((again.referenced_message as { content?: string }).content).toBe('Spoke');
  });

  it("an interaction left unanswered past Discord's 3 s (its clock) is marked didNotRespond; an answered one never", async () => {
    const answered = nextInteraction(rig.client, async (i) => {
      if (!i.isChatInputCommand()) throw new Error('expected a chat input command');
      await i.reply({ content: 'here' });
    });
    const replied = await rig.fake.command({
      guildId: g1.id,
      userId: alice.id,
      name: 'say',
      options: [{ name: 'text', value: 'hi' }],
    });
    await replied.waitForFinal();
    await answered;
    // The bot ignores the next one (a hung or dead bot): nothing acknowledges it.
    const ignored = nextInteraction(rig.client, async () => undefined);
    const unanswered = await rig.fake.command({
      guildId: g1.id,
      userId: alice.id,
      name: 'say',
      options: [{ name: 'text', value: 'hi' }],
    });
    await ignored;
    expect(unanswered.didNotRespond).toBe(false);
    rig.fake.advanceClock(3001);
    expect(unanswered.didNotRespond).toBe(true);
    expect(replied.didNotRespond).toBe(false);
  });
});
