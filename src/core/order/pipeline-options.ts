// What the speech pipeline (src/core/order/pipeline.ts) is made with: types only.
import type { Logger } from '../log.ts';
import type { Metrics } from '../metrics/metrics.ts';
import type { Accounting } from '../quota/money.ts';
import type { FreeSpeaker, FreeVoiceCause } from '../store/free-voice-lines-store.ts';
import type { PlayerRegistry } from '../voice/player-registry.ts';
import type { PartSource } from '../sourcing/part-source.ts';
import type { QueueBounds } from '../quota/seconds-bounds.ts';
import type { OrderRights } from './rights.ts';

export interface SpeechPipelineOptions {
  /** Where each part comes from (cache, a flight under way, the API), and where it is recorded. */
  source: PartSource;
  /** Budgets and the monthly quota: every paid part is checked and held before anything is sent. */
  accounting: Accounting;
  /** One player per guild: a voice target is played on its guild's. */
  players: PlayerRegistry;
  logger: Logger;
  /** The longest part the service takes: longer text is split at sentence ends. */
  maxCharsPerRequest: number;
  /** Time to first audio, from the requester's `askedAt`; absent when no metrics are served. */
  metrics?: Pick<Metrics, 'timeToFirstAudio'> | undefined;
  /** How much may wait to be heard per server and per member (config.queue); absent: no limit. */
  queue?: QueueBounds;
  /** Requests costing no characters one member may make per minute in a server (quota/money.ts); 0 or absent: any. */
  freePerMinute?: number;
  /** The clock the free-request rate counts by (default the real one). */
  now?: () => Date;
  /** Whether SayBot still serves this server (ALLOWED_GUILDS), asked before each part; absent: every server. */
  serves?: (guildId: string) => boolean;
  /** FREE_VOICE: `chosen`, members may ask for its voices; `fallback`, a request refused for money is spoken in it. */
  freeVoice?: { chosen: boolean; fallback: boolean };
  /** Counts a line the free voice spoke (for /usage), once per request heard or delivered; absent: not counted. */
  countFreeLine?: (guildId: string, cause: FreeVoiceCause, speaker: FreeSpeaker) => void;
  /** The rights port (rights.ts), the speaking gate in the app; absent, only the pipeline's own checks hold. */
  rights?: OrderRights;
}
