// The voice channel's status ("Reading #general aloud"): a courtesy, skipped without the right, never failing reading.
import { DiscordAPIError, PermissionFlagsBits, type Client, type Guild } from 'discord.js';
import type { Logger } from '../../core/log.ts';
import { t } from './strings.ts';

/** Discord's bound on a voice channel status. */
export const VOICE_STATUS_MAX_LENGTH = 500;
/** A status request never holds up a stop or a shutdown longer than this. */
const REQUEST_DEADLINE_MS = 3_000;

/** The status text: "Reading #general aloud", in the server's language, within Discord's 500 characters. */
export function readingStatus(language: string | null | undefined, channelName: string): string {
  const status = t(language, 'voiceStatus.reading', { channel: `#${channelName}` });
  return [...status].slice(0, VOICE_STATUS_MAX_LENGTH).join('');
}

/** Each status is set and cleared by the bot that sits in its channel (a seat's own client): Discord takes it only so. */
export class VoiceChannelStatus {
  /** The server as the bot sitting in the voice channel holds it; undefined: none sits there. */
  readonly #seatGuild: (guildId: string, voiceChannelId: string) => Guild | undefined;
  readonly #log: Logger;
  /** The voice channels whose status SayBot set, by guild (one per binding reading there), with the client that set it. */
  readonly #set = new Map<string, Map<string, Client>>();
  /** Guilds already told about in the log as lacking the permission (one line each, until it is granted). */
  readonly #skipped = new Set<string>();
  /** A status being set, per voice channel: a clear waits for it, so a quick stop never leaves a status behind. */
  readonly #pending = new Map<string, { guildId: string; task: Promise<void> }>();

  constructor(options: { seatGuild: (guildId: string, voiceChannelId: string) => Guild | undefined; logger: Logger }) {
    this.#seatGuild = options.seatGuild;
    this.#log = options.logger;
  }

  /** Shows that `textChannelId` is read aloud in `voiceChannelId`; skipped (one log line) without the permission. */
  async reading(guildId: string, voiceChannelId: string, textChannelId: string): Promise<void> {
    const task = this.#setReading(guildId, voiceChannelId, textChannelId);
    this.#pending.set(voiceChannelId, { guildId, task });
    await task;
    if (this.#pending.get(voiceChannelId)?.task === task) this.#pending.delete(voiceChannelId);
  }

  async #setReading(guildId: string, voiceChannelId: string, textChannelId: string): Promise<void> {
    const guild = this.#seatGuild(guildId, voiceChannelId);
    const voice = guild?.channels.cache.get(voiceChannelId);
    if (!guild || !voice?.isVoiceBased()) return;
    const { client } = guild;
    const me = guild.members.me;
    if (!me || !voice.permissionsFor(me).has(PermissionFlagsBits.SetVoiceChannelStatus)) {
      this.#skip(guildId, voiceChannelId, 'missing-permission');
      return;
    }
    const text = guild.channels.cache.get(textChannelId);
    const status = readingStatus(guild.preferredLocale, text?.name ?? textChannelId);
    if (await this.#put(client, guildId, voiceChannelId, status)) {
      this.#set.set(guildId, (this.#set.get(guildId) ?? new Map()).set(voiceChannelId, client));
      this.#skipped.delete(guildId);
    }
  }

  /** Clears the status SayBot set in this voice channel (every one of the guild's without it): reading stopped. */
  async clear(guildId: string, voiceChannelId?: string): Promise<void> {
    const pending = [...this.#pending].filter(([id, set]) => set.guildId === guildId && (voiceChannelId ?? id) === id);
    await Promise.all(pending.map(([, set]) => set.task));
    const set = this.#set.get(guildId);
    const cleared = [...(set ?? [])].filter(([id]) => (voiceChannelId ?? id) === id);
    for (const [id] of cleared) set?.delete(id);
    if (set?.size === 0) this.#set.delete(guildId);
    await Promise.all(cleared.map(([id, client]) => this.#put(client, guildId, id, '')));
  }

  /** Clears every status set through `client` (a helper's, before it is destroyed: no other bot could clear them). */
  async clearSetBy(client: Client): Promise<void> {
    await Promise.all([...this.#pending.values()].map((set) => set.task));
    const mine = [...this.#set].flatMap(([guildId, set]) =>
      [...set].filter(([, by]) => by === client).map(([voiceChannelId]) => [guildId, voiceChannelId] as const),
    );
    await Promise.all(mine.map(([guildId, voiceChannelId]) => this.clear(guildId, voiceChannelId)));
  }

  /** Clears every status SayBot set (shutting down), within the request deadline. */
  async clearAll(): Promise<void> {
    // A status still being set counts: clear() waits for it, then clears it.
    const guilds = new Set([...this.#set.keys(), ...[...this.#pending.values()].map((set) => set.guildId)]);
    await Promise.all([...guilds].map((guildId) => this.clear(guildId)));
  }

  /** True when Discord took the status. A refusal is logged once and never thrown: reading goes on. */
  async #put(client: Client, guildId: string, voiceChannelId: string, status: string): Promise<boolean> {
    try {
      await client.rest.put(`/channels/${voiceChannelId}/voice-status`, {
        body: { status },
        signal: AbortSignal.timeout(REQUEST_DEADLINE_MS),
      });
      return true;
    } catch (error) {
      if (error instanceof DiscordAPIError && (error.status === 403 || error.status === 404)) {
        this.#skip(guildId, voiceChannelId, `refused-${error.code}`);
      } else {
        this.#log.warn(
          { code: 'voice-status-failed', guildId, voiceChannelId, clearing: status === '', err: error },
          'voice channel status not changed',
        );
      }
      return false;
    }
  }

  #skip(guildId: string, voiceChannelId: string, reason: string): void {
    if (this.#skipped.has(guildId)) return;
    if (this.#skipped.size >= 10_000) this.#skipped.clear();
    this.#skipped.add(guildId);
    this.#log.info(
      { code: 'voice-status-skipped', guildId, voiceChannelId, reason },
      'voice channel status not shown: SayBot needs Set Voice Channel Status there (and to be connected)',
    );
  }
}
