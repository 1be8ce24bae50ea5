/** Why SayBot declines a request, in domain terms; worded by src/features/speaking/failure-words.ts. */
export type RefusalReason =
  /** A member may spend once every `limit` seconds; `waitSeconds` remain. */
  | { code: 'budget-cooldown'; waitSeconds: number; limit: number }
  | { code: 'budget-member-day'; limit: number; used: number; needed: number; resetAt: Date }
  | { code: 'budget-guild-month'; limit: number; used: number; needed: number; resetAt: Date }
  /** The whole bot's month (BUDGET_BOT_MONTHLY_CHARS): its figures are the operator's, told to members without them. */
  | { code: 'budget-bot-month'; limit: number; used: number; needed: number; resetAt: Date }
  /**
   * The month is marked used up and another request is on its way to find out whether it is back: refused at
   * acceptance, or (`beforeSending`) as a part of an order already accepted was about to leave.
   */
  | { code: 'quota-used-up'; markedAt: Date; resetAt: Date; beforeSending?: true; asking?: true }
  /**
   * The service has some characters left, fewer than this request needs: its answer to this request, or (`saidAt`)
   * its last figure, said then, told without asking while another request asks it whether more were bought.
   */
  | { code: 'quota-too-few-left'; left: number; needed: number; resetAt: Date; saidAt?: Date }
  /** Spends the store refused are not written yet: nothing more is spent until they are. */
  | { code: 'spends-unrecorded' }
  /** The server's voice queue holds `queued` clips or estimated seconds (`bound`) and this would pass `limit`. */
  | { code: 'queue-guild-full'; bound: 'clips' | 'seconds'; limit: number; queued: number }
  /** The member already has `queued` requests under way in this server, the most allowed. */
  | { code: 'queue-member-full'; limit: number; queued: number }
  /** The member asked for `limit` things that cost no characters within a minute; the next fits in `waitSeconds`. */
  | { code: 'free-rate'; limit: number; waitSeconds: number }
  /** The store did not answer in time (a lock held elsewhere, a server gone quiet): nothing was spent. */
  | { code: 'storage-unavailable' }
  /** SayBot is shutting down: nothing new is taken. */
  | { code: 'stopping' }
  /** A server the owner did not choose (ALLOWED_GUILDS): nothing there is looked up or paid. */
  | { code: 'guild-not-chosen' };

export class Refusal extends Error {
  readonly reason: RefusalReason;
  /** How loudly the operator hears of it: `info` for a member's own limits, `warn` where something is wrong. */
  readonly level: 'info' | 'warn';

  constructor(reason: RefusalReason, options: { cause?: unknown; level?: 'info' | 'warn' } = {}) {
    super(reason.code, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'Refusal';
    this.reason = reason;
    this.level = options.level ?? 'info';
  }
}
