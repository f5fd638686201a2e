/**
 * `watch --endpoints`: reads which of the app's Pods serve in each watched
 * cluster (lib/lab/cluster/serving-pods.ts) every {@link ENDPOINTS_READ_MS},
 * with the host's credentials, and hands the watch what changed since its last
 * snapshot: a Pod that left the endpoints (deleted, terminating, not ready) and
 * a node left without a serving Pod, which the watch reports at once
 * (changes.ts, clusterSays). Each cluster on its own schedule (cluster-reads.ts):
 * one that does not answer holds up no other, and its Pods gone show from the
 * replies alone, later. The first read of a cluster is what is there; changes
 * are counted from it, and after a failed read from the last one that succeeded.
 */
import { ClusterTarget, isUnreachable, Unreachable } from '../../lab/cluster/cluster-access';
import { ServingPods, servingChange } from '../../lab/cluster/serving-pods';
import { WaitClock } from '../../kit/cli/wait-clock';
import { Cloud } from '../../model/contract';
import { ClusterNews } from './changes';
import { ClusterReads } from './cluster-reads';

/**
 * Milliseconds between the starts of two reads of one cluster. A Pod that leaves is reported at
 * the first snapshot (every second) after the read that sees it: at most this, the read's own
 * time and a second after it left.
 */
export const ENDPOINTS_READ_MS = 500;

/** Milliseconds between two looks at which clusters are due: their reads are spread over the interval (cluster-reads.ts). */
const TICK_MS = 50;

/** Clusters read at once: a room's (30 attendees, 2 clouds) all at once. */
export const ENDPOINTS_CONCURRENCY = 64;

/** Bound of one read: a read later than this is of no use to a change shown within 2 s, and the next one starts. */
export const ENDPOINTS_REQUEST_TIMEOUT_MS = 5000;

/** One watched cluster: whose, which cloud's, where it is (or why it cannot be reached from the outputs). */
export interface EndpointsCluster {
  /** `<env>/<cloud>` */
  readonly key: string;
  readonly env: string;
  readonly cloud: Cloud;
  readonly target: ClusterTarget | Unreachable;
}

export interface ServingPollerOptions {
  readonly clusters: readonly EndpointsCluster[];
  /** Reads one cluster's app Pods (readServingPods through the host's client), none older than `notOlderThan` (the last read's resourceVersion) when given. */
  readonly read: (target: ClusterTarget, notOlderThan?: string) => Promise<ServingPods>;
  /** Milliseconds on the watch's clock. */
  readonly now: () => number;
  /** @default ENDPOINTS_READ_MS */
  readonly intervalMs?: number;
  /** @default ENDPOINTS_CONCURRENCY */
  readonly concurrency?: number;
}

/** Reads each cluster's serving Pods again and again, and keeps what changed for the watch to take. */
export class ServingPoller {
  private readonly last = new Map<string, ServingPods>();
  private readonly failed = new Map<string, string>();
  private readonly reads: ClusterReads<ServingPods>;
  private news: ClusterNews[] = [];
  readonly intervalMs: number;

  constructor(private readonly options: ServingPollerOptions) {
    this.intervalMs = options.intervalMs ?? ENDPOINTS_READ_MS;
    const clusters = new Map(options.clusters.map((c) => [c.key, c]));
    this.reads = new ClusterReads({
      keys: options.clusters.map((c) => c.key),
      read: async (key) => {
        const { target } = clusters.get(key)!;
        if (isUnreachable(target)) throw new Error(target.why);
        // Nothing older than what was read (a lagging API server's cache would take it back in time).
        return options.read(target, this.last.get(key)?.resourceVersion);
      },
      intervalMs: this.intervalMs,
      now: options.now,
      concurrency: options.concurrency ?? ENDPOINTS_CONCURRENCY,
      spread: true,
      onRead: (key, result) => {
        if ('why' in result) {
          this.failed.set(key, result.why);
          return;
        }
        this.failed.delete(key);
        const before = this.last.get(key);
        this.last.set(key, result);
        if (!before) return;
        const change = servingChange(before, result);
        const { env, cloud } = clusters.get(key)!;
        if (change.podsLeft.length > 0 || [...result.serving.keys()].some((pod) => !before.serving.has(pod))) this.news.push({ env, cloud, change, serving: result });
      },
    });
  }

  /** Starts the reads that are due. */
  tick(): void {
    this.reads.tick();
  }

  /** Ticks every {@link TICK_MS} on `clock` (each cluster is read when its turn in the interval comes) until `signal` aborts, then starts nothing more. */
  async run(clock: WaitClock, signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      this.tick();
      await clock.sleep(Math.min(TICK_MS, this.intervalMs), signal);
    }
    this.reads.stop();
  }

  /** What changed since the last take, oldest first. */
  take(): ClusterNews[] {
    const taken = this.news;
    this.news = [];
    return taken;
  }

  /** The clusters whose last read failed, and why, in the clusters' order. */
  failures(): { readonly key: string; readonly why: string }[] {
    return this.options.clusters.filter((c) => this.failed.has(c.key)).map((c) => ({ key: c.key, why: this.failed.get(c.key)! }));
  }

  /** The clusters it reads. */
  get clusters(): number {
    return this.options.clusters.length;
  }
}
