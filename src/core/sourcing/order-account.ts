// What the part source sees of an order (src/core/order/order-record.ts `Order`) and hands back for each part: types only.
import type { Readable } from 'node:stream';
import type { AudioResponse } from '../api/client.ts';
import type { PayingOrder } from '../quota/paid-call.ts';
import type { Refusal } from '../refusal.ts';
import type { SpeechRequest, StandIn } from '../settings/speech-request.ts';

/** What the part source reads of one accepted order (its charge, its late allowance), and where its parts' fetches'
 * findings go (`learnt`); on the order. */
export interface OrderAccount extends PayingOrder {
  /** What its parts counted free as in flight were counted under: each gets the flight it was counted free by. */
  readonly waits?: AbortSignal | undefined;
  /** A clone's first line (SpeechOrder's followUp): heard in its new voice or not at all, never a free voice's. */
  readonly followUp?: boolean | undefined;
  /** The refusal for money the free voice speaks for since acceptance (MoneyTerms.fallback). */
  readonly fallback?: Refusal | undefined;
  /** The free voice standing in since the service failed a part: later parts go to it at once. */
  readonly standIn?: StandIn | undefined;
  /** Aborted when it ends (settled, or its render ended by a /stop or a right taken away): its parts are let go of. */
  readonly ended?: AbortSignal | undefined;
  /** What a part's fetch learnt (a stand-in, a cut), recorded before its audio goes on (orderedPart). */
  learnt?(part: FetchedPart, line: SpeechRequest): void;
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
