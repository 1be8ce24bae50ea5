// The local Discord's voice moderation as Discord documents it: a member's voice state carries the moderator's
// `mute` and `deaf` and a Stage's `suppress` (VOICE_STATE_UPDATE, GUILD_CREATE's voice_states), a voice channel's
// overwrites decide who may Speak there, and a Stage channel (type 13) suppresses whoever enters it.
import { ChannelType, Events, PermissionFlagsBits as P, type VoiceState } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { voiceStatePayload } from '@saybot/local-discord/state.ts';
import { guildState, useLoggedInClient } from './helpers.ts';

const GUILD = '400000000000000021';
const TEXT = '410000000000000021';
const VOICE = '420000000000000021';
const STAGE = '420000000000000022';
const MUTED = '430000000000000021';
const LISTENER = '430000000000000022';
const QUIET = '430000000000000023';

const spec = {
  id: GUILD,
  name: 'g',
  textChannelId: TEXT,
  voiceChannels: [{ id: VOICE, name: 'v', overwrites: [{ id: QUIET, type: 1 as const, deny: P.Speak }] }],
  stageChannels: [{ id: STAGE, name: 'stage' }],
  members: [
    { id: MUTED, username: 'muted', voiceChannelId: VOICE },
    { id: LISTENER, username: 'listener', voiceChannelId: STAGE },
    { id: QUIET, username: 'quiet', voiceChannelId: VOICE },
  ],
};

describe('voice moderation (the local Discord, state)', () => {
  it('suppresses whoever enters a Stage, keeps a server mute across channels, and lifts suppress on leaving the Stage', () => {
    const g = guildState(spec);
    expect(g.voiceStates.get(LISTENER)).toMatchObject({ channelId: STAGE, suppress: true, mute: false });
    expect(g.voiceStates.get(MUTED)).toMatchObject({ suppress: false, mute: false, deaf: false });
    g.setVoiceState(MUTED, VOICE, undefined, { mute: true, deaf: true });
    g.setVoiceState(MUTED, STAGE);
    expect(g.voiceStates.get(MUTED)).toMatchObject({ channelId: STAGE, mute: true, deaf: true, suppress: true });
    g.setVoiceState(MUTED, STAGE, undefined, { suppress: false });
    expect(g.voiceStates.get(MUTED)?.suppress).toBe(false);
    g.setVoiceState(MUTED, VOICE);
    expect(g.voiceStates.get(MUTED)).toMatchObject({ channelId: VOICE, mute: true, suppress: false });
    expect(g.permissionsIn(QUIET, VOICE) & P.Speak).toBe(0n);
    expect(g.permissionsIn(MUTED, VOICE) & P.Speak).toBe(P.Speak);
  });

  it("keeps a server mute on the member across a leave and a join, and sends it in the leave's voice state", () => {
    const g = guildState(spec);
    g.setVoiceState(MUTED, VOICE, undefined, { mute: true });
    expect(g.setVoiceState(MUTED, null)).toBeUndefined();
    // The leave's VOICE_STATE_UPDATE: channel_id null, the member's guild mute still on.
    expect(voiceStatePayload(g, MUTED, undefined)).toMatchObject({ channel_id: null, mute: true, deaf: false });
    expect(g.setVoiceState(MUTED, VOICE)).toMatchObject({ channelId: VOICE, mute: true });
    g.setVoiceState(MUTED, VOICE, undefined, { mute: false });
    g.setVoiceState(MUTED, null);
    expect(voiceStatePayload(g, MUTED, undefined)).toMatchObject({ mute: false });
  });
});

describe('voice moderation (the local Discord, seen by discord.js)', () => {
  const rig = useLoggedInClient({ guilds: [spec], dave: 'off' });

  it("shows a Stage channel, its suppressed listener, and a member denied Speak by the voice channel's overwrite", () => {
    const guild = rig.client.guilds.cache.get(GUILD);
    const stage = guild?.channels.cache.get(STAGE);
    expect(stage?.type).toBe(ChannelType.GuildStageVoice);
    const listener = guild?.voiceStates.cache.get(LISTENER);
    expect(listener?.channelId).toBe(STAGE);
    expect(listener?.suppress).toBe(true);
    const voice = guild?.channels.cache.get(VOICE);
    if (!voice?.isVoiceBased()) throw new Error('no voice channel');
    const quiet = guild?.members.cache.get(QUIET);
    if (!quiet) throw new Error('no member');
    expect(voice.permissionsFor(quiet).has(P.Speak)).toBe(false);
    expect(voice.permissionsFor(quiet).has(P.Connect)).toBe(true);
  });

  it('sends a server mute and a Stage speaker as VOICE_STATE_UPDATE', async () => {
    const next = () =>
      new Promise<VoiceState>((resolve) =>
        rig.client.once(Events.VoiceStateUpdate, (_before, after) => resolve(after)),
      );
    let update = next();
    rig.fake.setVoiceState(GUILD, MUTED, VOICE, { mute: true });
    expect((await update).serverMute).toBe(true);
    update = next();
    rig.fake.setVoiceState(GUILD, LISTENER, STAGE, { suppress: false });
    const speaker = await update;
    expect(speaker.suppress).toBe(false);
    expect(speaker.channelId).toBe(STAGE);
    // As the other tests found them (they run in any order): unmuted, and the listener in the audience again.
    update = next();
    rig.fake.setVoiceState(GUILD, MUTED, VOICE, { mute: false });
    await update;
    update = next();
    rig.fake.setVoiceState(GUILD, LISTENER, STAGE, { suppress: true });
    expect((await update).suppress).toBe(true);
  });
});

describe('Modify Current User Voice State (the local Discord, state)', () => {
  const BOT = '430000000000000029';
  const withBot = (allow: bigint) => {
    const g = guildState({
      ...spec,
      stageChannels: [{ id: STAGE, name: 'stage', overwrites: [{ id: BOT, type: 1 as const, allow }] }],
      members: [...spec.members, { id: BOT, username: 'bot', voiceChannelId: STAGE }],
    });
    return g;
  };

  it('lets a user unsuppress itself only with Mute Members on the Stage, and raise its hand only with Request to Speak', () => {
    const plain = withBot(P.RequestToSpeak);
    expect(plain.voiceStates.get(BOT)?.suppress).toBe(true);
    expect(plain.editOwnVoiceState(BOT, { channelId: STAGE, suppress: false })).toMatchObject({
      status: 403,
      code: 50013,
    });
    expect(plain.voiceStates.get(BOT)?.suppress).toBe(true);
    expect(plain.editOwnVoiceState(BOT, { channelId: STAGE, suppress: true })).toBeUndefined();
    const hand = new Date().toISOString();
    expect(plain.editOwnVoiceState(BOT, { channelId: STAGE, requestToSpeakTimestamp: hand })).toBeUndefined();
    expect(plain.voiceStates.get(BOT)?.requestToSpeakTimestamp).toBe(hand);
    expect(plain.editOwnVoiceState(BOT, { channelId: STAGE, requestToSpeakTimestamp: null })).toBeUndefined();
    expect(plain.voiceStates.get(BOT)?.requestToSpeakTimestamp).toBeNull();

    const moderator = withBot(P.MuteMembers);
    expect(moderator.editOwnVoiceState(BOT, { channelId: STAGE, suppress: false })).toBeUndefined();
    expect(moderator.voiceStates.get(BOT)?.suppress).toBe(false);
  });

  it('refuses a channel that is not the Stage the user is in', () => {
    const g = withBot(P.MuteMembers);
    expect(g.editOwnVoiceState(BOT, { channelId: VOICE, suppress: false })).toMatchObject({ status: 400 });
    g.setVoiceState(BOT, VOICE);
    expect(g.editOwnVoiceState(BOT, { channelId: VOICE, suppress: false })).toMatchObject({
      status: 400,
      code: 50024,
    });
    expect(g.editOwnVoiceState(BOT, { suppress: false, channelId: undefined })).toMatchObject({ status: 400 });
  });
});
