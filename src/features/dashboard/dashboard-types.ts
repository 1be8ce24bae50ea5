// What the dashboard needs of the running bot and how it is set up (types only). src/app/ supplies them from the
// discord.js client and the core; the tests supply their own.
import type { Logger } from '../../core/log.ts';
import type { Accounting } from '../../core/quota/accounting.ts';
import type { SpeechPipeline } from '../../core/speech/pipeline.ts';
import type { PresetVoice } from '../../core/voice-catalogue/preset-voices.ts';
import type { Store } from '../../core/store/types.ts';
import type { AutoreadControl } from '../autoread/index.ts';
import type { Forgetting } from '../privacy/index.ts';
import type { StudioVoice } from '../scenes/index.ts';
import type { UsageReport } from '../../core/quota/accounting.ts';
import type { DashboardLimits } from './limits.ts';

/** A member of a server as SayBot sees them there (never as the browser or Discord's guild list says). */
export interface Membership {
  guildId: string;
  guildName: string;
  /** The server's language (Discord's preferred locale): how auto-read says links and names there. */
  guildLanguage: string;
  /** Manage Server, from SayBot's data for that server: the owner, or a role granting it (Administrator included). */
  manager: boolean;
  /** The server's icon on Discord's CDN (DISCORD_CDN_BASE_URL); undefined when it has none (its initials show). */
  iconUrl?: string | undefined;
  /** The member's avatar there (their server avatar, else their own) on Discord's CDN; undefined when none. */
  avatarUrl?: string | undefined;
}

/** The running bot, as the dashboard may use it. */
export interface DashboardBot {
  /** Whether SayBot is in this server and serves it (ALLOWED_GUILDS). */
  serves(guildId: string): boolean;
  /** Those of these servers SayBot is in and serves, in every shard (at login: where to look for the member). */
  servedAmong(guildIds: readonly string[]): Promise<string[]>;
  /**
   * The member in that server as SayBot sees them, or undefined when they are not one (or SayBot does not serve
   * it). `fresh`: asked of Discord now, not the cache (before every change).
   */
  membership(guildId: string, userId: string, fresh: boolean): Promise<Membership | undefined>;
  /** A member's display name from SayBot's cache (no request), for "changed by"; undefined when unknown. */
  displayName(guildId: string, userId: string): string | undefined;
  /** A channel's name from SayBot's cache (no request); undefined when unknown. */
  channelName(guildId: string, channelId: string): string | undefined;
  /** A server's dictionary changed: its reader reloads it from the store (in whichever shard reads the server). */
  dictionaryChanged(guildId: string): Promise<void>;
  /** Auto-read's settings or ignore list changed: the shard that reads the guild reloads them from the store. */
  autoreadChanged(guildId: string): Promise<void>;
  /** Auto-read in this process: a deleted member is forgotten there. */
  autoread: AutoreadControl | undefined;
  /** The preset voices on offer (the catalogue and VOICES_FILE's), and whether members may choose the free voice. */
  voices: { presets: readonly PresetVoice[]; free: boolean };
  /** The speech pipeline: samples are spoken through it as any /say to a file. */
  speech: SpeechPipeline;
  /** The month's figures and the budgets, as /usage and /budget have them. */
  accounting: Accounting;
  /** The bot's owner: sees the whole plan's figures, as in /usage. */
  isOperator(userId: string): boolean;
  /** What /privacy delete needs (src/features/privacy/forget.ts' one deletion path). */
  forgetting: Forgetting;
  /** What the studio's Scenes page needs beyond the above (scenes-routes.ts); absent: the page is not offered. */
  scenes?: DashboardScenes;
}

/** The running bot as the studio's scenes use it. */
export interface DashboardScenes {
  /** The member's budgets and the month (Accounting.report, as /usage and /scene read them). */
  report(guildId: string, userId: string): Promise<UsageReport>;
  /** QUEUE_MAX_SECONDS: a scene longer than this is refused for voice (0: no limit). */
  voiceSeconds: number;
  /**
   * The voice channel the member sits in, checked as /scene checks it (their rights there, SayBot's, auto-read's
   * channel, a player busy elsewhere); the member's answer (UserError) thrown when it may not play there.
   */
  memberVoice(guildId: string, userId: string): Promise<StudioVoice>;
  /** A channel's name from SayBot's cache (no request), for the member's words; undefined when unknown. */
  channelName(guildId: string, channelId: string): string | undefined;
}

/** The dashboard's own settings (DASHBOARD_URL and the rest, validated by src/core/config.ts). */
export interface DashboardSettings {
  /** The public origin, e.g. https://saybot.example.org. */
  url: string;
  port: number;
  host: string;
  /** The https proxy's address (DASHBOARD_TRUSTED_PROXY): its X-Forwarded-For names the member's address. */
  trustedProxy?: string | undefined;
  clientId: string;
  clientSecret: string;
  /** Discord's API base (DISCORD_API_BASE_URL, or https://discord.com/api). */
  discordApi: string;
}

export interface DashboardDeps {
  settings: DashboardSettings;
  store: Store;
  bot: DashboardBot;
  logger: Logger;
  /** The clock sessions expire by (tests move it). */
  now?: () => number;
  /** Session lifetimes and rate limits, for tests; production's defaults otherwise (limits.ts). */
  limits?: Partial<DashboardLimits>;
}
