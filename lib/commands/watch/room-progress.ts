/**
 * `watch --serve --progress`: each attendee's progress through their handout's
 * exercises on the live page, read from their clusters as `npx hoplab progress`
 * reads them (lib/lab/progress: the same plans, reads and checks) and kept up to
 * date while the watch runs. Reading a cluster is slower and costlier than a
 * probe (four API requests, a token), so each cluster is read at most every
 * `--progress-interval` seconds, never twice at once (a read that has not ended
 * holds the next one back, however long it takes), at most
 * {@link PROGRESS_CONCURRENCY} clusters at once, each read on its own schedule
 * so that one cluster that does not answer holds up no other.
 * {@link ProgressPoller.tick} starts what is due; the watch calls it with every
 * snapshot. What was seen done stays done (progressOf, given the previous
 * results): a node put back leaves no trace in the cluster.
 */
import { HostTokens } from '../../lab/cluster/cluster-access';
import { CheckFacts, checkOf, ClusterState, exerciseLabel, ExerciseResult } from '../../lab/progress/checks';
import { AttendeePlan, AttendeeProgress, ProgressCluster, progressOf, readCluster, stateKey } from '../../lab/progress/progress';
import { ClusterReads } from './cluster-reads';
import { clockTime } from './render-watch';
import { AttendeePanel, PanelRow, ProgressCell, RoomProgress } from './room-page';

/** Clusters read at once (as `npx hoplab progress`). */
export const PROGRESS_CONCURRENCY = 8;

/**
 * How long the host's Google token and AWS credentials (or the failure to get them) are kept before
 * they are asked again: both last about an hour, and a host who signs in during the watch is seen
 * within this long.
 */
export const PROGRESS_CREDENTIALS_REASK_MS = 2 * 60_000;

/** A cell's state: how an exercise stands, or `checking` before its cluster was first read. */
export type ProgressCellState = ExerciseResult['status'] | 'checking';

/** The glyph of each state on the page, and its meaning (the legend). */
export const PROGRESS_GLYPHS: Readonly<Record<ProgressCellState, { readonly glyph: string; readonly meaning: string }>> = {
  done: { glyph: '✓', meaning: 'done' },
  'not yet': { glyph: '·', meaning: 'not yet' },
  'could not check': { glyph: '?', meaning: 'could not check (why: point at it, or open the attendee)' },
  checking: { glyph: '…', meaning: 'not read yet' },
  'not checkable': { glyph: '–', meaning: 'not checkable (leaves no trace in the cluster)' },
};

/** Which state a cell of several results shows: the first of this order that any of them has. */
const CELL_ORDER: readonly ProgressCellState[] = ['could not check', 'checking', 'not yet', 'done', 'not checkable'];

/** The short names of the exercises in the room's header (the detail names them in full). */
export const EXERCISE_CODES: Readonly<Record<string, string>> = {
  snat: 'snat',
  'local-health-check': 'hc',
  'readiness-gates': 'rg',
  drain: 'drn',
  'extra-hop': 'hop',
  datapath: 'dp',
  hubble: 'hub',
};

export interface ProgressPollerOptions {
  /** Each attendee's exercises (planProgress). */
  readonly plans: readonly AttendeePlan[];
  /** The clusters their state checks read (planProgress). */
  readonly clusters: readonly ProgressCluster[];
  readonly facts: CheckFacts;
  /** The least time between the starts of two reads of one cluster. */
  readonly intervalMs: number;
  readonly tokens: HostTokens;
  /** Milliseconds since the watch began (the page's times are on that clock). */
  readonly now: () => number;
  /** Bound of each request. @default - the Kubernetes client's (20 s) */
  readonly timeoutMs?: number;
  /** @default PROGRESS_CONCURRENCY */
  readonly concurrency?: number;
  /** Called when a read of a cluster (`<env>/<cloud>`) has ended (the report may have changed). */
  readonly onRead?: (cluster: string) => void;
}

/** Reads every attendee's clusters again and again, as {@link tick} finds them due, and shows the results. */
export class ProgressPoller {
  private readonly states = new Map<string, ClusterState | { readonly why: string }>();
  private readonly reads: ClusterReads<ClusterState | { readonly why: string }>;
  private report: AttendeeProgress[];
  private lastReadAt: number | undefined;

  constructor(private readonly options: ProgressPollerOptions) {
    this.report = progressOf(options.plans, this.states, options.facts);
    const targets = new Map(options.clusters.map((c) => [c.key, c.target]));
    this.reads = new ClusterReads({
      keys: options.clusters.map((c) => c.key),
      read: (key) => readCluster(targets.get(key)!, options.tokens, options.timeoutMs),
      intervalMs: options.intervalMs,
      now: options.now,
      concurrency: options.concurrency ?? PROGRESS_CONCURRENCY,
      onRead: (key, state) => {
        this.states.set(key, state);
        this.report = progressOf(options.plans, this.states, options.facts, this.report);
        this.lastReadAt = options.now();
        options.onRead?.(key);
      },
    });
  }

  /** Reads started, per cluster (`<env>/<cloud>`). */
  get started(): ReadonlyMap<string, number> {
    return this.reads.started;
  }

  /** Starts a read of every cluster that is due and not being read. */
  tick(): void {
    this.reads.tick();
  }

  /** Starts nothing more; reads under way end on their own (each request is bounded) and are not shown. */
  stop(): void {
    this.reads.stop();
  }

  /** The clusters being read now. */
  get reading(): number {
    return this.reads.reading;
  }

  /** How an exercise stands on the page: `checking` until its cluster was read. */
  private cellState(env: string, result: ExerciseResult): ProgressCellState {
    if (result.status === 'could not check' && !this.states.has(stateKey(env, result.cloud)) && this.options.clusters.some((c) => c.key === stateKey(env, result.cloud))) return 'checking';
    return result.status;
  }

  /** The room's progress columns (the exercises someone's cluster shows), their cells, the note and the legend. */
  view(): RoomProgress {
    const ids = [...new Set(this.options.plans.flatMap((plan) => plan.exercises.filter((e) => checkOf(e)?.kind === 'state').map((e) => e.id)))];
    const every = `every ${Math.round(this.options.intervalMs / 1000)} s`;
    const failed = this.options.clusters.map((c) => this.states.get(c.key)).filter((s): s is { why: string } => s !== undefined && 'why' in s);
    const note =
      this.options.clusters.length === 0
        ? "Progress: no exercise of these attendees' handouts leaves a trace in a cluster: nothing to read"
        : this.lastReadAt === undefined
        ? `Progress: reading each attendee's clusters (then ${every}, as npx hoplab progress)...`
        : `Progress: each attendee's clusters read ${every} (as npx hoplab progress); last read ${clockTime(this.lastReadAt)}` +
          (failed.length > 0 ? `; ${failed.length} of ${this.options.clusters.length} clusters could not be read, e.g. ${failed[0].why}` : '');
    return {
      title: 'progress',
      note,
      columns: ids.map((id) => ({ id, code: EXERCISE_CODES[id] ?? id })),
      legend: (Object.keys(PROGRESS_GLYPHS) as ProgressCellState[]).map((state) => ({ state, ...PROGRESS_GLYPHS[state] })),
      cells: (env) => {
        const attendee = this.report.find((p) => p.env === env);
        return ids.map((id): ProgressCell => {
          const results = (attendee?.exercises ?? []).filter((e) => e.id === id);
          if (results.length === 0) return { state: '', glyph: '', text: 'not in their handout' };
          const states = results.map((e) => this.cellState(env, e));
          const state = CELL_ORDER.find((s) => states.includes(s))!;
          const shown = results[states.indexOf(state)];
          return { state, glyph: PROGRESS_GLYPHS[state].glyph, text: `${exerciseLabel(shown)}: ${state === 'checking' ? 'not read yet' : `${state}: ${shown.why}`}` };
        });
      },
    };
  }

  /** An attendee's progress panel for their detail: each exercise of their handout, done or not, and why. */
  panels(env: string): AttendeePanel[] {
    const attendee = this.report.find((p) => p.env === env);
    const title = `Progress through the handout's exercises (read every ${Math.round(this.options.intervalMs / 1000)} s)`;
    if (!attendee) return [{ title, rows: [{ label: env, state: 'unknown', text: 'not an environment of this config: progress reads the config’s environments' }] }];
    if (attendee.why) return [{ title, rows: [{ label: env, state: 'unknown', text: `could not check: ${attendee.why}` }] }];
    const rowState = (state: ProgressCellState): PanelRow['state'] => (state === 'done' ? 'good' : state === 'could not check' ? 'unknown' : 'neutral');
    return [
      {
        title,
        rows: attendee.exercises.map((e) => {
          const state = this.cellState(env, e);
          return { label: exerciseLabel(e), state: rowState(state), text: state === 'checking' ? 'not read yet' : `${state}: ${e.why}` };
        }),
      },
    ];
  }
}
