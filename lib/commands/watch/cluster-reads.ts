/**
 * Reads of many clusters on a schedule, for what `watch` reads of the
 * attendees' clusters beside its probes (--progress, --endpoints): each
 * cluster is read at most every `intervalMs` and never twice at once (a read
 * that has not ended holds that cluster's next one back, however long it
 * takes, and no other cluster's), at most `concurrency` clusters at once. A
 * read that fails ends as its error's message. {@link ClusterReads.tick}
 * starts what is due; after {@link ClusterReads.stop} nothing starts and
 * reads that end are not reported.
 */
import { Limiter } from '../../lab/probe/limiter';

export interface ClusterReadsOptions<T> {
  /** The clusters, by key. */
  readonly keys: readonly string[];
  /** Reads one cluster. */
  readonly read: (key: string) => Promise<T>;
  /** The least time between the starts of two reads of one cluster. */
  readonly intervalMs: number;
  /** Milliseconds on the caller's clock. */
  readonly now: () => number;
  /** Clusters read at once. */
  readonly concurrency: number;
  /**
   * Spread the clusters' reads over the interval (cluster i of n first read at i/n of it, then each
   * every interval), rather than all of them at each tick: a room's 60 clusters read twice a second
   * would otherwise answer in one burst that delays the probes due meanwhile. @default false: all at the first tick
   */
  readonly spread?: boolean;
  /** Called when a read has ended, with what it read or why it failed. */
  readonly onRead: (key: string, result: T | { readonly why: string }) => void;
}

/** Starts the reads that are due, each cluster on its own schedule. */
export class ClusterReads<T> {
  private readonly nextAt = new Map<string, number>();
  private readonly inFlight = new Set<string>();
  private readonly limiter: Limiter;
  private stopped = false;
  /** Reads started, per cluster. */
  readonly started = new Map<string, number>();

  constructor(private readonly options: ClusterReadsOptions<T>) {
    this.limiter = new Limiter(options.concurrency);
  }

  /** Starts a read of every cluster that is due and not being read. */
  tick(): void {
    if (this.stopped) return;
    const now = this.options.now();
    if (this.options.spread && this.nextAt.size === 0) {
      const n = this.options.keys.length;
      this.options.keys.forEach((key, i) => this.nextAt.set(key, now + (i / n) * this.options.intervalMs));
    }
    for (const key of this.options.keys) {
      if (this.inFlight.has(key) || now < (this.nextAt.get(key) ?? -Infinity)) continue;
      this.inFlight.add(key);
      this.nextAt.set(key, now + this.options.intervalMs);
      this.started.set(key, (this.started.get(key) ?? 0) + 1);
      void this.limiter
        .run(() => this.options.read(key))
        .catch((error: unknown) => ({ why: error instanceof Error ? error.message : String(error) }))
        .then((result) => {
          this.inFlight.delete(key);
          if (!this.stopped) this.options.onRead(key, result);
        });
    }
  }

  /** Starts nothing more; reads under way end on their own and are not reported. */
  stop(): void {
    this.stopped = true;
  }

  /** The clusters being read now. */
  get reading(): number {
    return this.inFlight.size;
  }
}
