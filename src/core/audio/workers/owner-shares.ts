// Jobs each owner (a server) has under way or waiting, so a burst takes only its share; bounded by jobs in flight.
export class OwnerShares {
  readonly #limit: number;
  readonly #refusal: () => Error;
  readonly #jobs = new Map<string, number>();

  /** `refusal` is the error a job past its owner's share gets (the worker system's own type). */
  constructor(limit: number, refusal: () => Error) {
    this.#limit = limit;
    this.#refusal = refusal;
  }

  /** The work of `owner` ('' when none, which has no share) counted against its share while it runs. */
  async run<T>(owner: string, work: () => Promise<T>): Promise<T> {
    const jobs = this.#jobs.get(owner) ?? 0;
    if (owner !== '' && jobs >= this.#limit) throw this.#refusal();
    this.#jobs.set(owner, jobs + 1);
    try {
      return await work();
    } finally {
      const left = (this.#jobs.get(owner) ?? 1) - 1;
      if (left > 0) this.#jobs.set(owner, left);
      else this.#jobs.delete(owner);
    }
  }
}
