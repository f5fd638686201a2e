import { StackTask } from '../../lab/selection/stack-graph';

/** What happened to one stack. */
export type TaskOutcome =
  | { readonly stack: string; readonly status: 'done'; readonly seconds: number }
  | { readonly stack: string; readonly status: 'failed'; readonly seconds: number; readonly error: string }
  | { readonly stack: string; readonly status: 'skipped'; readonly reason: string };

export interface RunGraphOptions {
  /** Most tasks running at once. */
  readonly parallelism: number;
  /** Does one task; rejects on failure. */
  readonly run: (task: StackTask) => Promise<void>;
  /** Told when a task starts and ends. @default - nothing */
  readonly onEvent?: (event: { readonly type: 'start' | 'end'; readonly task: StackTask; readonly outcome?: TaskOutcome; readonly running: number }) => void;
  /** Start no new task once this is aborted; running ones finish. @default - never */
  readonly signal?: AbortSignal;
}

/**
 * Runs a dependency graph of stack tasks with bounded parallelism. A task
 * starts when everything it comes after is done; when a task fails, the tasks
 * after it are skipped, and independent chains (the other cloud, the other
 * attendees) go on. Resolves with one outcome per task, in the graph's order.
 */
export async function runGraph(tasks: readonly StackTask[], options: RunGraphOptions): Promise<TaskOutcome[]> {
  if (!Number.isInteger(options.parallelism) || options.parallelism < 1) {
    throw new Error(`runGraph: parallelism must be a whole number of at least 1, got ${options.parallelism}`);
  }
  const known = new Set(tasks.map((t) => t.stack));
  for (const task of tasks) {
    for (const dependency of task.after) {
      if (!known.has(dependency)) throw new Error(`runGraph: ${task.stack} comes after ${dependency}, which is not in the graph`);
    }
  }
  const outcomes = new Map<string, TaskOutcome>();
  const running = new Set<string>();
  return new Promise((resolve) => {
    const settleSkips = () => {
      let changed = true;
      while (changed) {
        changed = false;
        for (const task of tasks) {
          if (outcomes.has(task.stack) || running.has(task.stack)) continue;
          const blocker = task.after.map((d) => outcomes.get(d)).find((o) => o !== undefined && o.status !== 'done');
          if (blocker) {
            outcomes.set(task.stack, { stack: task.stack, status: 'skipped', reason: `${blocker.stack} ${blocker.status}` });
            changed = true;
          } else if (options.signal?.aborted) {
            outcomes.set(task.stack, { stack: task.stack, status: 'skipped', reason: 'interrupted' });
            changed = true;
          }
        }
      }
    };
    const pump = () => {
      settleSkips();
      for (const task of tasks) {
        if (running.size >= options.parallelism) break;
        if (outcomes.has(task.stack) || running.has(task.stack)) continue;
        if (!task.after.every((d) => outcomes.get(d)?.status === 'done')) continue;
        running.add(task.stack);
        options.onEvent?.({ type: 'start', task, running: running.size });
        const started = Date.now();
        options.run(task).then(
          () => finish(task, { stack: task.stack, status: 'done', seconds: (Date.now() - started) / 1000 }),
          (error: unknown) => finish(task, { stack: task.stack, status: 'failed', seconds: (Date.now() - started) / 1000, error: error instanceof Error ? error.message : String(error) }),
        );
      }
      if (running.size === 0 && outcomes.size < tasks.length) {
        // Nothing runs and nothing can start: the rest wait on each other.
        for (const task of tasks) {
          if (!outcomes.has(task.stack)) outcomes.set(task.stack, { stack: task.stack, status: 'skipped', reason: 'dependency cycle' });
        }
      }
      if (running.size === 0 && outcomes.size === tasks.length) {
        resolve(tasks.map((t) => outcomes.get(t.stack)!));
      }
    };
    const finish = (task: StackTask, outcome: TaskOutcome) => {
      running.delete(task.stack);
      outcomes.set(task.stack, outcome);
      options.onEvent?.({ type: 'end', task, outcome, running: running.size });
      pump();
    };
    pump();
  });
}
