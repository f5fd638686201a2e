/**
 * A global bound on requests in flight, shared by every exposure being probed:
 * each exposure keeps its own concurrency, and all of them together never
 * hold more than `max` connections open at once (file descriptors, the
 * venue's NAT table, the prober's CPU).
 */
export class Limiter {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly max: number) {
    if (!Number.isInteger(max) || max < 1) throw new Error(`Limiter: max ${max} is not a whole number of at least 1`);
  }

  /** Requests in flight now. */
  get inFlight(): number {
    return this.active;
  }

  /** Takes a slot if one is free (for paced probing, which skips rather than queues). */
  tryAcquire(): boolean {
    if (this.active >= this.max) return false;
    this.active += 1;
    return true;
  }

  /** Waits for a slot, first come first served. */
  acquire(): Promise<void> {
    if (this.tryAcquire()) return Promise.resolve();
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** Gives a slot back; the longest waiter gets it. */
  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.active = Math.max(0, this.active - 1);
  }

  /** Runs `work` within a slot. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      return await work();
    } finally {
      this.release();
    }
  }
}
