// What the dashboard needs of the running bot and how it is set up (types only): src/app/ supplies them, tests too.
import type { Context } from 'hono';
import { type PresetVoice } from '../../core/voice-catalogue/voices.ts';
import type { Config } from '../../core/config.ts';
import type { Logger } from '../../core/log.ts';
import type { Accounting } from '../../core/quota/accounting.ts';
import type { SpeechPipeline } from '../../core/order/pipeline.ts';
import type { OfferedVoice } from '../../core/sourcing/engine-port.ts';
import type { Saving } from '../../core/sourcing/voice-choice.ts';
import type { Store } from '../../core/store/types.ts';
import type { AutoreadWiring } from '../autoread/index.ts';
import type { Forgetting } from '../privacy/index.ts';
import type { StudioServices, StudioVoice } from '../scenes/index.ts';
import type { DashboardLimits } from './limits.ts';
import type { KeyStateSnapshot } from '../../core/api/response.ts';
import type { FreeVoiceState } from '../../core/free-voice/free-voice-engine.ts';
import type { DashboardSession } from './store/session-store.ts';

/** A member of a server as SayBot sees them there (never as the browser or Discord's guild list says). */
export interface Membership {
  guildId: string;
  guildName: string;
  /** The server's language (Discord's preferred locale): how auto-read says links and names there. */
  guildLanguage: string;
  /** Manage Server, from SayBot's data for that server: the owner, or a role granting it (Administrator included). */
  manager: boolean;
  /** The server's owner (a manager too): badged as its owner, not as one of its managers. */
  owner: boolean;
  /** The server's icon on Discord's CDN (DISCORD_CDN_BASE_URL); undefined when it has none (its initials show). */
  iconUrl?: string | undefined;
  /** The member's avatar there (their server avatar, else their own) on Discord's CDN; undefined when none. */
  avatarUrl?: string | undefined;
}

/** A live session for this request: its row, its ID (from the cookie) and its CSRF token. */
export interface LiveSession extends DashboardSession {
  id: string;
  csrf: string;
}

/** What a request carries through the dashboard's middleware. */
export interface DashboardEnv {
  Variables: {
    locale: string;
    session: LiveSession | undefined;
    /** The member in the server the path names, as SayBot sees them (guards.ts' serverAccess). */
    membership: Membership;
  };
}

/** A dashboard route's request, as every route module takes it. */
export type Ctx = Context<DashboardEnv>;

/** One seat of a server in voice now: which bot, where, and what it plays. */
export interface SeatNow {
  kind: 'joining' | 'in';
  /** The bot's name in the server (never its token); `main`: SayBot's own account, not a helper. */
  bot: string;
  main: boolean;
  channelId: string;
  channelName: string | undefined;
  /** The member may not see that channel: neither its name nor its ID is theirs to read. */
  hidden?: true;
  speaking: boolean;
  waiting: number;
}

/** What SayBot's seats do in a server's voice now; 'elsewhere' when another shard holds the server. */
export type VoiceNow = { kind: 'out' } | { kind: 'elsewhere' } | { kind: 'seats'; seats: readonly SeatNow[] };

/** A helper bot as the owner console shows it: never its token. */
export interface HelperStatus {
  /** 1 for the first token in HELPER_BOT_TOKENS. */
  index: number;
  /** Its user name once logged in. */
  name: string | undefined;
  state: 'online' | 'offline' | 'refused' | 'closed';
  /** `closed`: the gateway close code Discord ended it with for good. */
  closeCode?: number;
  servers: number;
  /** Voice connections it holds now. */
  inVoice: number;
}

/** The running bot, as the dashboard may use it. */
export interface DashboardBot {
  /** Whether SayBot is in this server and serves it (ALLOWED_GUILDS). */
  serves(guildId: string): boolean;
  /** Those of these servers SayBot is in and serves, in every shard (at login: where to look for the member). */
  servedAmong(guildIds: readonly string[]): Promise<string[]>;
  /** The member there as SayBot sees them, trusted about a minute; `fresh` asks Discord now (before every change). */
  membership(guildId: string, userId: string, fresh: boolean): Promise<Membership | undefined>;
  /** The member logged in again: what SayBot knew of them is asked of Discord again. */
  forgetMember(userId: string): void;
  /** A member's display name from SayBot's cache (no request), for "changed by"; undefined when unknown. */
  displayName(guildId: string, userId: string): string | undefined;
  /** A channel's name from SayBot's cache (no request); undefined when unknown. */
  channelName(guildId: string, channelId: string): string | undefined;
  /** What every seat does in the server's voice now (their players' states, no request). */
  voiceNow(guildId: string, userId: string): VoiceNow;
  /** Auto-read's settings, ignore list or dictionary changed: the shard that reads the guild reloads them. */
  autoreadChanged(guildId: string): Promise<void>;
  /** Auto-read in this process: a deleted member is forgotten there. */
  autoread: AutoreadWiring | undefined;
  /** The preset voices on offer (the catalogue and VOICES_FILE's), and whether members may choose the free voice. */
  voices: {
    presets: readonly PresetVoice[];
    free: boolean;
    /** The owner's engines' voices offered now (VOICEVOX_URL, SPEECH_SERVER_URL); none when no engine is set. */
    engines: () => readonly OfferedVoice[];
    /** What may be saved now (src/core/sourcing/voice-choice.ts usableVoice's Saving), as /myvoice asks. */
    saving: Saving;
  };
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
  /** What the owner console shows and does (console-routes.ts); absent: no console. */
  console?: OwnerConsole;
}

/** One line of `npm run doctor` (src/app/doctor/checks.ts) and of the owner console's checks. */
export interface DoctorCheck {
  name: string;
  ok: boolean;
  /** What was found, or what is wrong and what to do, in plain words. */
  detail: string;
  /** A warning: works, but could be better. */
  warn?: boolean;
}

/** The running bot as the owner console sees it (src/app/dashboard-bot.ts supplies it). */
export interface OwnerConsole {
  /** Every server SayBot is in, whatever shard holds it (its guild list over REST); `complete` false past the cap. */
  servers(): Promise<{ guilds: ReadonlyArray<{ id: string; name: string }>; complete: boolean }>;
  /** What the Voice API last said about the key (the shared client's record). */
  keyState(): KeyStateSnapshot;
  /** The free voice and the Japanese analyser in this process: installed, threads running, memory. */
  freeVoice(): Promise<FreeVoiceState>;
  /** FREE_VOICE: whether members may choose it, and whether it speaks what is refused for money. */
  freeVoiceSetting: { chosen: boolean; fallback: boolean };
  /** The audio cache: entries, bytes, its cap, and lookups since start. */
  cache(): { entries: number; bytes: number; maxBytes: number; hits: number; misses: number };
  /** `npm run doctor`'s checks, of the running bot's configuration. */
  doctor(): Promise<DoctorCheck[]>;
  /** Public Bot as Discord says it now; undefined when it could not be read. */
  publicBot(): Promise<boolean | undefined>;
  /** ALLOWED_GUILDS (undefined: any server) and ALLOWED_GUILDS_LEAVE. */
  allowedGuilds: { list: readonly string[] | undefined; leaveAtStart: boolean };
  /** VOICE_API_PLAN's name, and whether a real Voice API is set (not the built-in sandbox). */
  plan: { name: string; sandbox: boolean };
  /** The helper bots (HELPER_BOT_TOKENS), in their order; none when none is set. */
  helpers(): readonly HelperStatus[];
  /** SayBot leaves the server (DELETE /users/@me/guilds/{id}); false when it was not in it. */
  leave(guildId: string): Promise<boolean>;
}

/** The running bot as the studio's scenes use it. */
export interface DashboardScenes extends Pick<StudioServices, 'report' | 'voiceSeconds'> {
  /** The voice channel the member sits in, checked as /scene checks it; throws the member's UserError otherwise. */
  memberVoice(guildId: string, userId: string): Promise<StudioVoice>;
}

/** The dashboard's own settings (DASHBOARD_URL and the rest, validated by src/core/config.ts). */
export interface DashboardSettings extends Omit<NonNullable<Config['dashboard']>, 'loginsPerMinute'> {
  clientId: string;
  /** Discord's API base (DISCORD_API_BASE_URL, or https://discord.com/api). */
  discordApi: string;
  /** Discord's CDN (DISCORD_CDN_BASE_URL, or https://cdn.discordapp.com): the one host pictures come from (CSP img-src). */
  discordCdn?: string | undefined;
}

export interface DashboardDeps {
  settings: DashboardSettings;
  store: Store;
  bot: DashboardBot;
  logger: Logger;
  /** The clock sessions expire by (tests move it). */
  now?: () => number;
  /** Session lifetimes and rate limits: tests', and the owner's DASHBOARD_LOGINS_PER_MINUTE; limits.ts's otherwise. */
  limits?: Partial<DashboardLimits>;
}

/** What every page's routes are given. */
export type RouteDeps = Pick<DashboardDeps, 'store' | 'bot' | 'logger'>;
