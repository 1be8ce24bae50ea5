// FakeDiscord's voice: where people and bots are, what each server and each voice channel heard, the DAVE groups
// and the voice gateway's doings. Every call without a bot user ID means the main bot; voice is kept per (server,
// bot), and heard audio per server and per voice channel (AudioScope).
import type { DaveGroupState } from './dave/group.ts';
import type { AudioScope } from './heard-audio.ts';
import type { Parts } from './parts.ts';
import type { VoiceModeration } from './state.ts';
import type { HeardAudio, HeardPacket } from './types.ts';
import type { VoiceCloseEntry } from './voice-gateway.ts';
import { WAIT_MS } from './waits.ts';

export class FakeDiscordVoice {
  protected readonly parts: Parts;

  protected constructor(parts: Parts) {
    this.parts = parts;
  }

  /** The bot user ID a call means: the one given, else the main bot's. Throws for a user that is no bot of ours. */
  protected botId(botUserId?: string): string {
    return this.parts.world.application(botUserId).user.id;
  }

  /**
   * A member joins (channelId), moves, or leaves (null): VOICE_STATE_UPDATE to every bot in the server. For one of
   * the bots' own IDs this is a server-side move or kick of that bot: a kick also closes its voice connection with
   * 4014, as Discord does. `moderation`: a moderator server-mutes or deafens the member, or makes a Stage listener a
   * speaker (`suppress: false`) or sends a speaker back to the audience; unset flags stay as they were (a Stage
   * suppresses whoever enters it). For a bot in the channel it is in, only the moderation changes. In a server the
   * main bot left the member moves all the same (its members' clients see it; helpers still there are told).
   */
  setVoiceState(guildId: string, userId: string, channelId: string | null, moderation: VoiceModeration = {}): void {
    this.parts.signalling.set(guildId, userId, channelId, moderation);
  }

  /**
   * The guild's voice server goes away (a crash, a region change) while bots are still in its channels: their
   * voice sockets (only `botUserId`'s, when given) are closed with 4014 and no new VOICE_SERVER_UPDATE follows. Their
   * gateway voice states are unchanged.
   */
  dropVoiceServer(guildId: string, botUserId?: string): void {
    this.parts.voice.disconnectGuild(guildId, botUserId === undefined ? undefined : this.botId(botUserId));
  }

  /**
   * Discord moves a bot's voice server mid-call (default the main bot's): a new VOICE_SERVER_UPDATE (a new token) to
   * that bot alone, then its old voice socket is closed and that UDP session ends; packets sent on it count in
   * packetsToEndedSession and are never heard. Its gateway voice state is unchanged. With `updateAfterMs`, the old
   * session ends first and the new server's address comes that much later.
   */
  moveVoiceServer(guildId: string, options: { updateAfterMs?: number; botUserId?: string } = {}): void {
    const application = this.parts.world.application(options.botUserId);
    const botId = application.user.id;
    const state = this.parts.world.guild(guildId).voiceStates.get(botId);
    if (state?.channelId == null) throw new Error(`FakeDiscord: bot ${botId} is in no voice channel of ${guildId}`);
    const token = this.parts.voice.allocate(guildId, botId, state.sessionId, state.channelId);
    const update = () =>
      this.parts.gateway.dispatchTo(application, guildId, 'VOICE_SERVER_UPDATE', {
        token,
        guild_id: guildId,
        endpoint: this.parts.voice.endpoint,
      });
    if (options.updateAfterMs === undefined) update();
    this.parts.voice.endMoved(guildId, botId, token);
    if (options.updateAfterMs !== undefined) setTimeout(update, options.updateAfterMs);
  }

  /** RTP packets bots sent to a voice session of this guild after it ended (a move, a drop): nobody heard them. */
  packetsToEndedSession(guildId: string): number {
    return this.parts.udp.packetsToEnded(guildId);
  }

  /** The voice channel a bot (default the main one) is in, in this server, or null. */
  botVoiceChannel(guildId: string, botUserId?: string): string | null {
    return this.#anyGuild(guildId).voiceStates.get(this.botId(botUserId))?.channelId ?? null;
  }

  /** A voice channel's status (PUT /channels/{id}/voice-status, by whichever bot), undefined when none is set. */
  voiceChannelStatus(guildId: string, channelId: string): string | undefined {
    return this.#anyGuild(guildId).voiceStatuses.get(channelId);
  }

  /** Voice channel of any member as the fake knows it (also in a server the bot left: its members' clients see it). */
  voiceChannelOf(guildId: string, userId: string): string | null {
    return this.#anyGuild(guildId).voiceStates.get(userId)?.channelId ?? null;
  }

  #anyGuild(guildId: string) {
    const guild = this.parts.world.anyGuild(guildId);
    if (!guild) throw new Error(`FakeDiscord: unknown guild ${guildId}`);
    return guild;
  }

  /**
   * What was heard: `scope` a server's ID (what every bot said in any of its voice channels, in arrival order; with
   * one bot, what it said) or `{ guildId, channelId }` (what a listener in that voice channel heard, and nothing of
   * another channel's). The same scopes go to heardPackets, waitForPacket, waitForAudio, onHeard and clearAudio.
   */
  heard(scope: AudioScope): HeardAudio {
    return this.parts.audio.heard(scope);
  }

  /** The packets heard so far, without copying the decoded PCM as heard() does (cheap enough to poll). */
  heardPackets(scope: AudioScope): HeardPacket[] {
    return this.parts.audio.packets(scope);
  }

  /** Resolves with the first packet heard (so far or later) that matches, e.g. the first after a command went out. */
  waitForPacket(
    scope: AudioScope,
    predicate: (packet: HeardPacket) => boolean,
    timeoutMs = WAIT_MS,
  ): Promise<HeardPacket> {
    return this.parts.audio.waitForPacket(scope, predicate, timeoutMs);
  }

  /** Resolves once at least minSeconds of audio arrived in the scope and then no packet for quietMs. */
  waitForAudio(
    scope: AudioScope,
    opts?: { minSeconds?: number; quietMs?: number; timeoutMs?: number },
  ): Promise<HeardAudio> {
    return this.parts.audio.waitFor(scope, opts);
  }

  /**
   * Calls `listen` with the scope's audio as a listening member hears it, live: each decoded chunk (48 kHz stereo
   * interleaved s16, decrypted from DAVE as a client does), until the returned function is called.
   */
  onHeard(scope: AudioScope, listen: (pcm: Int16Array) => void): () => void {
    return this.parts.audio.tap(scope, listen);
  }

  /** Forgets what was heard in the scope (a server: in each of its channels too). */
  clearAudio(scope: AudioScope): void {
    this.parts.audio.clear(scope);
  }

  // ---- DAVE ----

  /** The MLS group of a bot's voice session in this guild (epoch, members, listeners' decrypt counts), if DAVE is on. */
  daveState(guildId: string, botUserId?: string): DaveGroupState | undefined {
    return this.parts.voice.daveState(guildId, this.botId(botUserId));
  }

  /**
   * Puts a mark in the order the voice socket receives datagrams, now (sent in the call: everything any thread sent
   * to it before is received first) and resolves with the bot's DAVE state in the guild as the mark arrives: what its
   * listeners had decrypted, or failed to, of the frames sent before this moment.
   */
  markVoice(guildId: string, botUserId?: string): Promise<DaveGroupState | undefined> {
    const botId = this.botId(botUserId);
    return new Promise((resolve) => this.parts.udp.mark(() => resolve(this.parts.voice.daveState(guildId, botId))));
  }

  /** Resolves once a bot's DAVE group state matches, e.g. `(s) => s.botEpoch >= 2` after a member joined. */
  waitForDave(
    guildId: string,
    predicate: (state: DaveGroupState) => boolean,
    timeoutMs = WAIT_MS,
    botUserId?: string,
  ): Promise<DaveGroupState> {
    const botId = this.botId(botUserId);
    return this.parts.waits.wait(
      () => {
        const state = this.parts.voice.daveState(guildId, botId);
        return state && predicate(state) ? state : undefined;
      },
      (notify) => {
        this.parts.daveWatchers.add(notify);
        return () => this.parts.daveWatchers.delete(notify);
      },
      timeoutMs,
      () =>
        `guild ${guildId}: DAVE state ${JSON.stringify(this.parts.voice.daveState(guildId, botId) ?? null, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v))}`,
    );
  }

  /** Resolves when a bot's current voice session has executed a DAVE transition (it can send E2EE audio). */
  daveReady(guildId: string, timeoutMs = WAIT_MS, botUserId?: string): Promise<DaveGroupState> {
    return this.waitForDave(guildId, (s) => s.botTransitions > 0 && s.botEpoch > 0n, timeoutMs, botUserId);
  }

  /**
   * The next op 29 (commit) or op 30 (welcome) the gateway sends a bot in this guild arrives damaged: the client
   * must answer op 31 (invalid commit/welcome), and the gateway removes and re-adds it with its new key package.
   */
  damageNextDaveMessage(guildId: string, kind: 'commit' | 'welcome'): void {
    this.parts.voice.damageNextDaveMessage(guildId, kind);
  }

  /**
   * From the next voice session of this guild on, the gateway sends the MLS proposals (op 27) before
   * CLIENTS_CONNECT (op 11): @discordjs/voice 0.19 throws inside its websocket handler on that order.
   */
  setDaveProposalsBeforeClientsConnect(guildId: string, on = true): void {
    this.parts.voice.setProposalsBeforeClientsConnect(guildId, on);
  }

  // ---- the voice gateway ----

  /**
   * Voice sockets the gateway closed (4014 kick, 4017 without DAVE when required, 1000 replaced, 1001 shutdown) of
   * a bot (default the main one; closes that matched no bot's session too).
   */
  voiceCloses(guildId?: string, botUserId?: string): VoiceCloseEntry[] {
    const botId = this.botId(botUserId);
    return this.parts.voice.closeLog.filter(
      (c) => (guildId === undefined || c.guildId === guildId) && (c.userId === undefined || c.userId === botId),
    );
  }

  /** Resolves with the first voice close of a bot in this guild with this code (so far or later). */
  waitForVoiceClose(guildId: string, code: number, timeoutMs = WAIT_MS, botUserId?: string): Promise<VoiceCloseEntry> {
    return this.parts.waits.wait(
      () => this.voiceCloses(guildId, botUserId).find((c) => c.code === code),
      (notify) => {
        this.parts.daveWatchers.add(notify);
        return () => this.parts.daveWatchers.delete(notify);
      },
      timeoutMs,
      () => `guild ${guildId}: no voice close ${code} among ${JSON.stringify(this.voiceCloses(guildId, botUserId))}`,
    );
  }

  /**
   * From now on, the bots' voice state requests (gateway op 4: a join, a move, a leave) in this guild wait
   * unanswered, as when Discord is slow to answer a join, until the returned release is called: then each is
   * answered in the order it came, and later ones at once. A join that lasts as long as a test needs.
   */
  holdVoiceRequests(guildId: string): () => void {
    return this.parts.signalling.hold(guildId);
  }

  /** Op 4 requests the bots sent in this guild that holdVoiceRequests holds unanswered now. */
  heldVoiceRequestCount(guildId: string): number {
    return this.parts.signalling.heldCount(guildId);
  }

  /** Joins a bot asked for in this guild (gateway op 4 with a channel): a library rejoin counts as one more. */
  voiceJoinRequests(guildId: string, botUserId?: string): number {
    const botId = this.botId(botUserId);
    return this.parts.voice.joinLog.filter((j) => j.guildId === guildId && j.userId === botId).length;
  }

  /** IDENTIFYs the voice gateway accepted from a bot for this guild: one per voice session attempt. */
  voiceIdentifies(guildId: string, botUserId?: string): number {
    const botId = this.botId(botUserId);
    return this.parts.voice.identifyLog.filter((i) => i.guildId === guildId && i.userId === botId).length;
  }

  /** The next `times` voice IDENTIFYs of this guild (any bot's) close with `code` (e.g. 4021, 4022); 0 disarms. */
  refuseNextVoiceIdentify(guildId: string, code: number, times = 1): void {
    this.parts.voice.refuseNextIdentify(guildId, code, times);
  }

  /**
   * Closes a bot's live voice session in the guild with `code`, as Discord does when it ends the call (4022), finds
   * the session no longer valid (4006) or its voice server crashed (4015: the session is lost with it, and the
   * client's RESUME is answered with 4006).
   */
  closeVoiceSession(guildId: string, code: number, botUserId?: string): void {
    this.parts.voice.closeGuildSessions(guildId, code, this.botId(botUserId));
  }
}
