/**
 * Long work that shows it is alive. Tasks (a stack being applied, an exposure
 * being waited for) start and end; while they run:
 * - on a terminal, a block under the ordinary output lists each running task
 *   with its elapsed time and what it waits on, redrawn in place every second
 *   and fitted to the terminal's width (live-region.ts; colour per terminal.ts);
 * - off a terminal (CI logs, a pipe), one line per task per minute at most:
 *   `  ... lab-aws-cluster: apply 5m00s, waiting on aws_eks_cluster.eks (creating, 4m40s)`.
 * Ordinary lines (start, done, failed) go through {@link LiveStatus.line} so
 * they land above the block. The clock is injectable for tests.
 */
import { LiveRegion } from './live-region';
import { colorEnabled, formatElapsed, paint, redrawEnabled, terminalHeight, WritableTerminal } from './terminal';

/** Time and a repeating timer; {@link SYSTEM_CLOCK} in use, a fake one in tests. */
export interface LiveClock {
  now(): number;
  /** Calls `tick` every `ms` until the returned function is called. */
  every(ms: number, tick: () => void): () => void;
}

export const SYSTEM_CLOCK: LiveClock = {
  now: () => Date.now(),
  every: (ms, tick) => {
    const timer = setInterval(tick, ms);
    // Progress never keeps a finished command alive.
    timer.unref();
    return () => clearInterval(timer);
  },
};

/** What a running task is doing now, e.g. `waiting on aws_eks_cluster.eks (creating, 4m40s)`; undefined when nothing to say. */
export type TaskDetail = (now: number) => string | undefined;

interface Task {
  readonly name: string;
  phase: string;
  readonly startedAt: number;
  detail?: TaskDetail;
  /** Off a terminal: when a line last named this task. */
  lastLineAt: number;
}

export interface LiveStatusOptions {
  /** Where the output goes (stdout for deploy/teardown, stderr for verify's progress). */
  readonly stream: WritableTerminal;
  /** The work as a whole, first word of the block's header: `deploy`, `teardown`, `verify`. */
  readonly title: string;
  /** Ordinary lines off a terminal go here. @default - written to the stream, one per line */
  readonly write?: (line: string) => void;
  /** @default process.env (NO_COLOR, COLUMNS, TERM) */
  readonly env?: NodeJS.ProcessEnv;
  /** @default SYSTEM_CLOCK */
  readonly clock?: LiveClock;
  /** `tty` redraws in place, `lines` prints lines. @default tty when the stream is a terminal that can redraw */
  readonly mode?: 'tty' | 'lines';
  /** Off a terminal: at most one line per task per this many ms. @default 60000 */
  readonly quietMs?: number;
  /** On a terminal: redraw this often, ms. @default 1000 */
  readonly redrawMs?: number;
  /** Extra counts for the header, e.g. `3 waiting, 2 done`. @default - none */
  readonly summary?: () => string | undefined;
}

export const LINE_EVERY_MS = 60_000;

/** The terminal's height when neither `$LINES` nor the terminal says. */
const DEFAULT_ROWS = 24;
/** Task lines shown however short the terminal (the last of them may be `... and N more`). */
const MIN_TASK_LINES = 4;
/** Off a terminal: status lines printed at one time, the last of them `... and N more` when more are due. */
const MAX_DUE_LINES = 10;

export class LiveStatus {
  readonly mode: 'tty' | 'lines';
  private readonly tasks = new Map<string, Task>();
  private readonly clock: LiveClock;
  private readonly region: LiveRegion | undefined;
  private readonly color: boolean;
  private readonly startedAt: number;
  private stopTimer: (() => void) | undefined;

  constructor(private readonly options: LiveStatusOptions) {
    const env = options.env ?? process.env;
    this.clock = options.clock ?? SYSTEM_CLOCK;
    this.mode = options.mode ?? (redrawEnabled(options.stream, env) ? 'tty' : 'lines');
    this.region = this.mode === 'tty' ? new LiveRegion(options.stream, { env }) : undefined;
    this.color = this.mode === 'tty' && colorEnabled(options.stream, env);
    this.startedAt = this.clock.now();
  }

  /** Prints an ordinary line (above the block on a terminal). */
  line(text: string): void {
    if (this.region) {
      this.region.render(this.frame(), [text], (l, i) => this.style(l, i));
    } else if (this.options.write) {
      this.options.write(text);
    } else {
      this.options.stream.write(`${text}\n`);
    }
  }

  /** A task starts (its name must be unique among running ones). */
  start(name: string, phase: string, detail?: TaskDetail): void {
    const now = this.clock.now();
    this.tasks.set(name, { name, phase, startedAt: now, detail, lastLineAt: now });
    this.ensureTimer();
    this.redraw();
  }

  /** A running task moves to another phase (`init` -> `apply`) or gets another detail. */
  update(name: string, change: { readonly phase?: string; readonly detail?: TaskDetail }): void {
    const task = this.tasks.get(name);
    if (!task) return;
    if (change.phase !== undefined) task.phase = change.phase;
    if (change.detail !== undefined) task.detail = change.detail;
    this.redraw();
  }

  /** A task ends; `text`, when given, is printed as an ordinary line. */
  end(name: string, text?: string): void {
    this.tasks.delete(name);
    if (this.tasks.size === 0) this.stopTicking();
    if (text !== undefined) this.line(text);
    else this.redraw();
  }

  /** Stops the timer and removes the block (nothing is running any more). */
  stop(): void {
    this.tasks.clear();
    this.stopTicking();
    this.region?.clear();
  }

  /**
   * The block's lines now (plain text): a header, then one line per running task, at most as many as
   * leave half the terminal's height for the output above (verify waits for 330 exposures at once in
   * a room): the first ones, then `... and N more`. Empty when nothing runs.
   */
  frame(now: number = this.clock.now()): string[] {
    if (this.tasks.size === 0) return [];
    const all = [...this.tasks.values()];
    const rows = terminalHeight(this.options.stream, this.options.env ?? process.env) ?? DEFAULT_ROWS;
    const room = Math.max(MIN_TASK_LINES, Math.floor(rows / 2) - 1);
    const tasks = all.length > room ? all.slice(0, room - 1) : all;
    const extra = this.options.summary?.();
    const header = `${this.options.title}: ${all.length} running${extra ? `, ${extra}` : ''} (${formatElapsed(now - this.startedAt)} so far)`;
    const nameWidth = Math.min(28, Math.max(...tasks.map((t) => t.name.length)));
    const phaseWidth = Math.max(...tasks.map((t) => t.phase.length));
    return [
      header,
      ...tasks.map((t) => {
        const detail = t.detail?.(now);
        return `  ${t.name.padEnd(nameWidth)}  ${t.phase.padEnd(phaseWidth)} ${formatElapsed(now - t.startedAt).padStart(6)}${detail ? `  ${detail}` : ''}`;
      }),
      ...(tasks.length < all.length ? [`  ... and ${all.length - tasks.length} more`] : []),
    ];
  }

  /** Off a terminal: the line for a task still running, e.g. `  ... lab-aws-cluster: apply 5m00s, waiting on ...`. */
  statusLine(name: string, now: number = this.clock.now()): string | undefined {
    const task = this.tasks.get(name);
    if (!task) return undefined;
    const detail = task.detail?.(now);
    return `  ... ${task.name}: ${task.phase} ${formatElapsed(now - task.startedAt)}${detail ? `, ${detail}` : ''}`;
  }

  /** What a timer tick does: redraw the block, or print the lines that are due. */
  tick(): void {
    if (this.region) {
      this.redraw();
      return;
    }
    const now = this.clock.now();
    const quiet = this.options.quietMs ?? LINE_EVERY_MS;
    const due = [...this.tasks.values()].filter((task) => now - task.lastLineAt >= quiet);
    // A log gets a line per task, at most MAX_DUE_LINES at a time: the rest are counted, not listed.
    for (const task of due) task.lastLineAt = now;
    const listed = due.length > MAX_DUE_LINES ? due.slice(0, MAX_DUE_LINES - 1) : due;
    for (const task of listed) this.line(this.statusLine(task.name, now)!);
    if (listed.length < due.length) this.line(`  ... and ${due.length - listed.length} more still running (${this.options.title})`);
  }

  private redraw(): void {
    this.region?.render(this.frame(), [], (l, i) => this.style(l, i));
  }

  private style(line: string, index: number): string {
    // The header in bold; the task lines plain (they are read, not scanned).
    return index === 0 ? paint(line, 'bold', this.color) : line;
  }

  private ensureTimer(): void {
    if (this.stopTimer) return;
    // Off a terminal a tick only checks which lines are due; ten a minute is plenty for "at most one a minute".
    const every = this.mode === 'tty' ? this.options.redrawMs ?? 1000 : Math.max(1000, Math.floor((this.options.quietMs ?? LINE_EVERY_MS) / 10));
    this.stopTimer = this.clock.every(every, () => this.tick());
  }

  private stopTicking(): void {
    this.stopTimer?.();
    this.stopTimer = undefined;
  }
}

/** `2 done, 1 failed, 5 waiting`: the counts that are not zero. */
export function countsText(counts: Readonly<Record<string, number>>): string | undefined {
  const parts = Object.entries(counts)
    .filter(([, n]) => n > 0)
    .map(([what, n]) => `${n} ${what}`);
  return parts.length > 0 ? parts.join(', ') : undefined;
}
