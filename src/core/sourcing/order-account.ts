// What the part source sees of an order (src/core/order/order-record.ts `Order`) and hands back for each part: types only.
import type { Readable } from 'node:stream';
import type { AudioResponse } from '../api/client.ts';
import type { QuoteAllowance } from '../quota/ledger.ts';
import type { Charge } from '../quota/paid-call.ts';
import type { Refusal } from '../refusal.ts';
import type { StandIn } from '../settings/speech-request.ts';

/** What the part source reads of one accepted order, never writes; it lives on the order. */
export interface OrderAccount {
  readonly charge: Charge;
  /** What parts counted free at acceptance may still cost (a scene's quote's rest); absent: the budgets, unbounded. */
  readonly late?: QuoteAllowance | undefined;
  /** What its parts counted free as in flight were counted under: each gets the flight it was counted free by. */
  readonly waits?: AbortSignal | undefined;
  /** A clone's first line (SpeechOrder's followUp): heard in its new voice or not at all, never a free voice's. */
  readonly followUp?: boolean | undefined;
  /** The refusal for money the free voice speaks for since acceptance (Accepted.fallback). */
  readonly fallback?: Refusal | undefined;
  /** The free voice standing in since the service failed a part: later parts go to it at once. */
  readonly standIn?: StandIn | undefined;
  /** Aborted when it ends (settled, or its render ended by a /stop or a right taken away): its parts are let go of. */
  readonly ended?: AbortSignal | undefined;
}

/** One part's fetch (PartSource.fetchPart): its audio or failure, and what the order learns (order.ts `learnt`). */
export type FetchedPart = ({ audio: SpeechAudio } | { failure: unknown }) & {
  /** The service failed it uncharged and the free voice stood in: why, and which (known even if the stand-in fails). */
  standIn?: StandIn;
  /** A free line whose audio proved longer than its cap (seconds): cut there. */
  cutAt?: number;
};

/** A part's audio: the service's bytes, its Opus packets (except audio handed in whole), `cutAt` as PartAudio's. */
export type SpeechAudio = AudioResponse & { packets?: (signal?: AbortSignal) => Readable; cutAt?: number };
