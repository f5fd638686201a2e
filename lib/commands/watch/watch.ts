/**
 * Probes exposures continuously for `watch`: every exposure at the same time,
 * each at a fixed pace (requests per second, never more, whatever the
 * endpoint does), and every interval a snapshot per exposure: over a sliding
 * window, requests per second, errors, latency p50/p99 and the Pods and nodes
 * that answered; from the newest replies (changes.ts), whether it fails now
 * and the client-IP verdict measured as `compare --probe` measures it
 * (summarizeProbe). A change (errors start or stop, the verdict flips, a Pod
 * or node appears or is gone) becomes an event when the newest replies show
 * it, whatever the window. How late each request went out (pacing) and the
 * process's CPU time are in the result. The clock is injected so tests can
 * drive time.
 */
import { ClientIpVia, Cloud } from '../../model/contract';
import { Limiter } from '../../lab/probe/limiter';
import { probeOnce, Sample, STOPPED } from '../../lab/probe/probe';
import { proberAddressFor, summarizeProbe } from '../../lab/probe/probe-summary';
import { ProbeTarget } from '../../lab/probe/compare-model';
import { REAL_WAIT_CLOCK, WaitClock } from '../../kit/cli/wait-clock';
import { ClusterNews, ExposureChanges, Timed, WatchEventKind } from './changes';

export type { WatchEventKind } from './changes';

/** Bounds of the watch settings. */
export const WATCH_LIMITS = {
  /** Requests per second per exposure. */
  rate: { min: 1, max: 50, default: 5 },
  /**
   * Requests per second over all exposures together: each exposure's rate is lowered to fit. The
   * default lets a room of 30 attendees (330 exposures) run at the default rate: 1,650 requests per
   * second, which one machine keeps pace with (docs/benchmarks.md, "watch: a room of 30").
   */
  maxRate: { min: 1, max: 2000, default: 2000 },
  /** Seconds; 0 runs until Ctrl-C. */
  duration: { min: 0, max: 86_400, default: 0 },
  /** Seconds between snapshots. */
  interval: { min: 1, max: 60, default: 1 },
  /** Seconds of the sliding window the snapshot's figures cover. */
  window: { min: 1, max: 600, default: 10 },
  /** Deadline of one request, ms. */
  timeout: { min: 100, max: 60_000, default: 2000 },
  /** Seconds between the starts of two reads of one cluster (--progress): reading a cluster costs more than a probe. */
  progressInterval: { min: 5, max: 600, default: 30 },
} as const;

export interface WatchOptions {
  /** Requests per second per exposure. */
  readonly rate: number;
  /** Requests per second over all exposures. */
  readonly maxRate: number;
  /** Milliseconds to run; `0` until `signal` aborts. */
  readonly durationMs: number;
  readonly intervalMs: number;
  readonly windowMs: number;
  readonly timeoutMs: number;
  /** @default - the prober's address is known for loopback URLs only */
  readonly myIp?: string;
  /** Stops the watch (Ctrl-C): requests in flight are cut off and not counted. */
  readonly signal?: AbortSignal;
  /** @default REAL_WAIT_CLOCK */
  readonly clock?: WaitClock;
  /** Called with every snapshot, in order; the watch waits for it. */
  readonly onFrame?: (frame: WatchFrame) => void | Promise<void>;
  /** Sends one request. @default probeOnce */
  readonly send?: (url: URL, timeoutMs: number, stop: AbortSignal) => Promise<Sample>;
  /**
   * What the clusters' APIs said of the app's Pods since the last snapshot (watch --endpoints), asked
   * at every snapshot: a Pod or node that left is gone at once (changes.ts). @default - nothing: the replies alone
   */
  readonly clusterNews?: () => readonly ClusterNews[];
  /** Called with every request that is counted (not one Ctrl-C cut off), as it ends, before the snapshot that counts it. @default - none */
  readonly onSample?: (label: string, sample: Sample) => void;
}

/** One exposure's figures at one snapshot. */
export interface ExposureSnapshot {
  readonly env: string;
  readonly cloud: Cloud;
  readonly mode: string;
  readonly label: string;
  /** Why it is not probed (no URL, a bad one), else `null`. */
  readonly not_probed_because: string | null;
  /** Requests sent since the watch began. */
  readonly sent_total: number;
  /** Replies (or failures) per second over the last interval. */
  readonly rps: number;
  /** Over the window: requests answered, successes, failures by kind. */
  readonly window_requests: number;
  readonly ok: number;
  readonly errors: Readonly<Record<string, number>>;
  /** Over the window, successful requests only; `null` without one. */
  readonly p50_ms: number | null;
  readonly p99_ms: number | null;
  readonly pods: Readonly<Record<string, number>>;
  readonly nodes: Readonly<Record<string, number>>;
  /** It fails now: errors started and have not stopped (from the newest replies, see changes.ts). */
  readonly failing: boolean;
  /** Measured over the window's replies whose kind is still seen in the newest ones (see changes.ts); `null` when not measurable. */
  readonly client_ip_via: ClientIpVia | null;
  readonly source_nat: boolean | null;
  /** Whether the measured verdict matches the output's claims; `null` when nothing could be checked. */
  readonly as_expected: boolean | null;
  /** What changed since the previous snapshot (the events' texts). */
  readonly changes: readonly string[];
}

export interface WatchEvent {
  /** Milliseconds since the watch began. */
  readonly t_ms: number;
  readonly label: string;
  readonly kind: WatchEventKind;
  readonly text: string;
}

export interface WatchFrame {
  /** Milliseconds since the watch began. */
  readonly t_ms: number;
  /** The snapshot's number, from 1. */
  readonly index: number;
  /** The last snapshot (the watch ended). */
  readonly final: boolean;
  readonly exposures: readonly ExposureSnapshot[];
  /** The events of this snapshot. */
  readonly events: readonly WatchEvent[];
}

/** How late the requests went out: each is due at start + k / rate. */
export interface Pacing {
  /** Turns that came due (requests sent plus turns skipped). */
  readonly due: number;
  readonly sent: number;
  /** Requests sent within 50 ms of their due time. */
  readonly within_50ms: number;
  /** Lateness of the requests sent, ms (nearest rank, to the millisecond; 1000 means 1000 or more). */
  readonly late_p50_ms: number;
  readonly late_p99_ms: number;
  readonly late_max_ms: number;
}

export interface WatchResult {
  readonly frames: number;
  readonly duration_ms: number;
  /** Ended by the signal (Ctrl-C) rather than the duration. */
  readonly stopped: boolean;
  /** Requests per second each exposure was paced at (the rate, lowered to fit the global cap). */
  readonly rate_per_exposure: number;
  readonly exposures: readonly {
    readonly label: string;
    readonly sent: number;
    readonly ok: number;
    readonly failed: number;
    /** Requests not sent because the exposure already had its fill in flight (a slow endpoint). */
    readonly skipped: number;
  }[];
  /** Every event, in order. */
  readonly events: readonly WatchEvent[];
  /** The last snapshot. */
  readonly last: WatchFrame | null;
  readonly pacing: Pacing;
  /** CPU seconds this process used during the watch (process.cpuUsage: the prober's own, user and system). */
  readonly cpu_s: number;
}

/** Lateness in whole milliseconds, counted per millisecond up to a second. */
class LatenessHistogram {
  private readonly counts = new Uint32Array(1001);
  private n = 0;
  private max = 0;

  add(ms: number): void {
    const bucket = Math.min(1000, Math.max(0, Math.round(ms)));
    this.counts[bucket] += 1;
    this.n += 1;
    this.max = Math.max(this.max, ms);
  }

  private rank(p: number): number {
    if (this.n === 0) return 0;
    const wanted = Math.max(1, Math.ceil((p / 100) * this.n));
    let seen = 0;
    for (let i = 0; i < this.counts.length; i += 1) {
      seen += this.counts[i];
      if (seen >= wanted) return i;
    }
    return 1000;
  }

  result(due: number): Pacing {
    let within = 0;
    for (let i = 0; i <= 50; i += 1) within += this.counts[i];
    return { due, sent: this.n, within_50ms: within, late_p50_ms: this.rank(50), late_p99_ms: this.rank(99), late_max_ms: Math.round(this.max) };
  }
}

/** The rate each exposure is paced at: `rate`, lowered so that all of them together stay within `maxRate`. */
export function pacedRate(rate: number, maxRate: number, exposures: number): number {
  return exposures === 0 ? rate : Math.min(rate, maxRate / exposures);
}

/** Exposures a snapshot sums up between two chances for the senders to run. */
const SNAPSHOT_CHUNK = 25;

/** Requests one exposure may have in flight: enough for its rate at the deadline, at least 1. */
function inFlightCap(rate: number, timeoutMs: number): number {
  return Math.max(1, Math.ceil((rate * timeoutMs) / 1000));
}

/**
 * Watches `targets` until the duration ends or `signal` aborts. Each exposure
 * sends at most one request per 1/rate seconds (so never more than
 * rate × duration + 1 requests), skips a turn while it has its fill in flight,
 * and all of them together share the global rate.
 */
export async function watchTargets(targets: readonly ProbeTarget[], options: WatchOptions): Promise<WatchResult> {
  const clock = options.clock ?? REAL_WAIT_CLOCK;
  const send = options.send ?? ((url: URL, timeoutMs: number, stop: AbortSignal) => probeOnce(url, timeoutMs, stop));
  const probed = targets.filter((t) => typeof t.url !== 'string');
  const rate = pacedRate(options.rate, options.maxRate, probed.length);
  const gapMs = 1000 / rate;
  const perExposureCap = inFlightCap(rate, options.timeoutMs);
  // All exposures together: what their rates need at the deadline, no more.
  const global = new Limiter(Math.max(1, Math.ceil((Math.min(options.maxRate, rate * probed.length) * options.timeoutMs) / 1000)));
  const cpuAtStart = process.cpuUsage();
  const start = clock.now();
  const end = options.durationMs > 0 ? start + options.durationMs : Infinity;
  /** Ends the loops (duration over or Ctrl-C). */
  const over = new AbortController();
  /** Cuts requests in flight off (Ctrl-C only; at the end of the duration they finish). */
  const cut = new AbortController();
  const onSignal = () => {
    over.abort();
    cut.abort();
  };
  if (options.signal?.aborted) onSignal();
  options.signal?.addEventListener('abort', onSignal, { once: true });

  /**
   * Sleeps until `due` on the clock. A Node timer can fire before its time by
   * performance.now (libuv schedules it from the loop's cached time, which lags
   * more on a busy machine), and an interval's snapshot taken at 999 ms would be
   * labelled 00:00; so it sleeps again for what is left.
   */
  const sleepUntil = async (due: number) => {
    for (let wait = due - clock.now(); wait > 0 && !over.signal.aborted; wait = due - clock.now()) await clock.sleep(wait, over.signal);
  };

  const state = targets.map((target) => ({
    samples: [] as Timed[],
    sent: 0,
    ok: 0,
    failed: 0,
    skipped: 0,
    inFlight: 0,
    lastCount: 0,
    changes: new ExposureChanges(target, options.myIp),
  }));
  const lateness = new LatenessHistogram();
  let due = 0;
  const pending = new Set<Promise<void>>();

  /**
   * Exposure number `slot` of the probed ones sends at start + (k + slot / probed) / rate: the
   * exposures take turns across each gap rather than all at its start, so that a room's 330
   * connections are not opened in one burst every 200 ms (the last of them tens of milliseconds late).
   */
  const sender = async (target: ProbeTarget, s: (typeof state)[number], slot: number) => {
    const url = target.url as URL;
    const offset = (slot / probed.length) * gapMs;
    for (let k = 0; ; k += 1) {
      const dueAt = start + offset + k * gapMs;
      if (dueAt >= end) break;
      await sleepUntil(dueAt);
      if (over.signal.aborted) break;
      due += 1;
      if (s.inFlight >= perExposureCap || !global.tryAcquire()) {
        s.skipped += 1;
        continue;
      }
      lateness.add(clock.now() - dueAt);
      s.sent += 1;
      s.inFlight += 1;
      const request = send(url, options.timeoutMs, cut.signal).then((sample) => {
        s.inFlight -= 1;
        global.release();
        if (!sample.ok && sample.error === STOPPED) return;
        s.samples.push({ at: clock.now(), sample });
        if (sample.ok) s.ok += 1;
        else s.failed += 1;
        options.onSample?.(target.label, sample);
      });
      pending.add(request);
      void request.finally(() => pending.delete(request));
    }
  };

  const allEvents: WatchEvent[] = [];
  let index = 0;
  let lastAt = start;
  let last: WatchFrame | null = null;
  const snapshot = async (final: boolean) => {
    const now = clock.now();
    index += 1;
    const tMs = Math.round(now - start);
    const seconds = Math.max(0.001, (now - lastAt) / 1000);
    const events: WatchEvent[] = [];
    const news = options.clusterNews?.() ?? [];
    const snapshotOf = (target: ProbeTarget, i: number): ExposureSnapshot => {
      const s = state[i];
      const base = { env: target.env, cloud: target.cloud, mode: target.mode, label: target.label };
      if (typeof target.url === 'string') {
        return {
          ...base,
          not_probed_because: target.url,
          sent_total: 0,
          rps: 0,
          window_requests: 0,
          ok: 0,
          errors: {},
          p50_ms: null,
          p99_ms: null,
          pods: {},
          nodes: {},
          failing: false,
          client_ip_via: null,
          source_nat: null,
          as_expected: null,
          changes: [],
        };
      }
      const from = now - options.windowMs;
      const drop = s.samples.findIndex((t) => t.at > from);
      s.samples.splice(0, drop < 0 ? s.samples.length : drop);
      const answered = s.ok + s.failed;
      const inInterval = answered - s.lastCount;
      s.lastCount = answered;
      const summary = summarizeProbe(
        s.samples.map((t) => t.sample),
        {
          url: target.url.href,
          planned: s.samples.length,
          gaveUp: false,
          proberAddress: proberAddressFor(target.url, options.myIp),
          expectedPreserved: target.exposure.client_ip_preserved,
          expectedVia: target.exposure.client_ip_via,
          expectedSourceNat: target.exposure.source_nat,
          nodeRanges: target.nodeRanges,
        },
      );
      const told = news.filter((n) => n.env === target.env && n.cloud === target.cloud).flatMap((n) => s.changes.clusterSays(n));
      const advanced = s.changes.advance(s.samples, inInterval, summary.client_ip);
      const { verdict } = advanced;
      const changes = [...told, ...advanced.changes];
      const snap: ExposureSnapshot = {
        ...base,
        not_probed_because: null,
        sent_total: s.sent,
        rps: Math.round((inInterval / seconds) * 10) / 10,
        window_requests: summary.sent,
        ok: summary.ok,
        errors: summary.errors,
        p50_ms: summary.latency_ms ? summary.latency_ms.p50 : null,
        p99_ms: summary.latency_ms ? summary.latency_ms.p99 : null,
        pods: summary.pods,
        nodes: summary.nodes,
        failing: s.changes.failing,
        ...verdict,
        changes: changes.map((c) => c.text),
      };
      events.push(...changes.map((c) => ({ t_ms: tMs, label: target.label, ...c })));
      return snap;
    };
    const exposures: ExposureSnapshot[] = [];
    for (const [i, target] of targets.entries()) {
      // A room's snapshot takes tens of milliseconds: let the requests due meanwhile go out on time.
      if (i > 0 && i % SNAPSHOT_CHUNK === 0) await clock.sleep(0, over.signal);
      exposures.push(snapshotOf(target, i));
    }
    lastAt = now;
    allEvents.push(...events);
    last = { t_ms: tMs, index, final, exposures, events };
    await options.onFrame?.(last);
  };

  const senders = Promise.all(targets.map((target, i) => (typeof target.url === 'string' ? Promise.resolve() : sender(target, state[i], probed.indexOf(target)))));
  for (let k = 1; ; k += 1) {
    const due = Math.min(start + k * options.intervalMs, end);
    await sleepUntil(due);
    if (over.signal.aborted || clock.now() >= end) break;
    await snapshot(false);
  }
  over.abort();
  await senders;
  // At the end of the duration the last requests finish (each within its deadline); Ctrl-C cut them off.
  await Promise.all([...pending]);
  await snapshot(true);
  options.signal?.removeEventListener('abort', onSignal);
  return {
    frames: index,
    duration_ms: Math.round(clock.now() - start),
    stopped: options.signal?.aborted ?? false,
    rate_per_exposure: Math.round(rate * 100) / 100,
    exposures: targets.map((target, i) => ({ label: target.label, sent: state[i].sent, ok: state[i].ok, failed: state[i].failed, skipped: state[i].skipped })),
    events: allEvents,
    last,
    pacing: lateness.result(due),
    cpu_s: cpuSeconds(process.cpuUsage(cpuAtStart)),
  };
}

function cpuSeconds(usage: NodeJS.CpuUsage): number {
  return Math.round((usage.user + usage.system) / 1e4) / 100;
}
