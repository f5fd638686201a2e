/**
 * How long a deploy or teardown takes on the wall clock: each stack's create
 * and destroy time, run through the same dependency graph and the same
 * start-in-order scheduling as `runGraph`, with `parallelism` stacks at once
 * in each shard and the shards side by side (one CI job each).
 */
import { assignShards } from '../selection/shard';
import { Direction, STACK_KINDS, stackGraph, StackKind } from '../selection/stack-graph';

/** Minutes one stack takes, with where the figure comes from. */
export interface StackTime {
  readonly createMinutes: number;
  readonly destroyMinutes: number;
  readonly source: string;
}

/**
 * Per stack kind, for the real clouds (the emulator's seconds say nothing about them).
 * Documented: AWS gives EKS control-plane creation as averaging 15 minutes
 * (aws/containers-roadmap issue 1227, "EKS cluster control plane provisioning time
 * currently averages 15 minutes"). The rest are estimates from the resources each stack
 * waits on; replace them with times from your own .hoplab/logs (each log's run
 * shows `done <stack> in N s`).
 */
export const STACK_TIMES: Readonly<Record<StackKind, StackTime>> = {
  'aws-cluster': {
    createMinutes: 20,
    destroyMinutes: 12,
    source: 'EKS control plane 15 min (documented: aws/containers-roadmap#1227) + managed node group and VPC/NAT gateway about 5 (estimate); destroy: estimate',
  },
  'aws-lb': { createMinutes: 5, destroyMinutes: 4, source: 'estimate: controller Helm release about 1-2 min, load balancers active about 2-3 min' },
  'gcp-cluster': { createMinutes: 10, destroyMinutes: 6, source: 'estimate: GKE cluster several minutes plus its node pool' },
  'gcp-lb': { createMinutes: 6, destroyMinutes: 5, source: 'estimate: Ingress/NEG load balancer provisioning and health checks passing' },
};

/**
 * Minutes of the canary's verify (deploy applies one environment, verifies it, then the rest):
 * an estimate, like most figures above; replace it with your own from its report's timestamps.
 */
export const CANARY_VERIFY_TIME = { minutes: 5, source: 'estimate: a plan of each stack, then each exposure waited for and probed' } as const;

export interface TimeEstimateInput {
  /** All selected environments, in config order (the shards are dealt from them). */
  readonly envs: readonly string[];
  readonly kinds?: readonly StackKind[];
  /** Stacks at once in each shard. */
  readonly parallelism: number;
  /** Shards running side by side. @default 1 */
  readonly shards?: number;
  readonly times?: Readonly<Record<StackKind, StackTime>>;
  /** Deploy's canary: this environment is applied and verified before the others start (one shard only). @default - none */
  readonly canary?: string;
}

export interface TimeEstimate {
  readonly direction: Direction;
  readonly stacks: number;
  readonly environments: number;
  readonly shards: number;
  /** Environments in the largest shard. */
  readonly largestShard: number;
  readonly parallelism: number;
  /** Wall-clock minutes until the slowest shard is done. */
  readonly minutes: number;
  /** Minutes of the longest single chain (the floor no parallelism goes under). */
  readonly criticalPathMinutes: number;
  /** Deploy's canary: its environment, and the minutes before the others start (its stacks, then verify). */
  readonly canary?: { readonly env: string; readonly minutes: number; readonly others: number };
}

/** Minutes one shard takes: the runGraph schedule (start ready tasks in graph order, `parallelism` at once). */
export function scheduleMinutes(envs: readonly string[], direction: Direction, kinds: readonly StackKind[], parallelism: number, times: Readonly<Record<StackKind, StackTime>>): number {
  const tasks = stackGraph(envs, direction, kinds);
  const took = (kind: StackKind) => (direction === 'deploy' ? times[kind].createMinutes : times[kind].destroyMinutes);
  const finished = new Map<string, number>();
  const running: { stack: string; end: number }[] = [];
  const started = new Set<string>();
  let now = 0;
  while (finished.size < tasks.length) {
    for (const task of tasks) {
      if (running.length >= parallelism) break;
      if (started.has(task.stack) || !task.after.every((d) => finished.has(d))) continue;
      started.add(task.stack);
      running.push({ stack: task.stack, end: now + took(task.kind) });
    }
    running.sort((a, b) => a.end - b.end);
    const next = running.shift()!;
    now = next.end;
    finished.set(next.stack, now);
  }
  return now;
}

/** The wall-clock estimate of a deploy or teardown of `envs`. */
export function estimateTime(direction: Direction, input: TimeEstimateInput): TimeEstimate {
  const kinds = input.kinds ?? STACK_KINDS;
  const times = input.times ?? STACK_TIMES;
  const shards = input.shards ?? 1;
  const owner = assignShards(input.envs, shards);
  let minutes = 0;
  let largestShard = 0;
  for (let k = 1; k <= shards; k++) {
    const envs = input.envs.filter((_, i) => owner[i] === k);
    largestShard = Math.max(largestShard, envs.length);
    minutes = Math.max(minutes, scheduleMinutes(envs, direction, kinds, input.parallelism, times));
  }
  const took = (kind: StackKind) => (direction === 'deploy' ? times[kind].createMinutes : times[kind].destroyMinutes);
  const chain = (cloud: 'aws' | 'gcp') => kinds.filter((k) => k.startsWith(cloud)).reduce((sum, k) => sum + took(k), 0);
  // The canary: its environment alone and its verify, then the others (deploy chooses one only without shards).
  const others = input.envs.filter((e) => e !== input.canary);
  const canary =
    direction === 'deploy' && input.canary !== undefined && shards === 1 && others.length > 0 && others.length < input.envs.length
      ? { env: input.canary, minutes: scheduleMinutes([input.canary], direction, kinds, input.parallelism, times) + CANARY_VERIFY_TIME.minutes, others: others.length }
      : undefined;
  if (canary) minutes = canary.minutes + scheduleMinutes(others, direction, kinds, input.parallelism, times);
  return {
    direction,
    stacks: stackGraph(input.envs, direction, kinds).length,
    environments: input.envs.length,
    shards,
    largestShard,
    parallelism: input.parallelism,
    minutes,
    criticalPathMinutes: input.envs.length === 0 ? 0 : Math.max(chain('aws'), chain('gcp')),
    ...(canary ? { canary } : {}),
  };
}

function duration(minutes: number): string {
  const m = Math.round(minutes);
  return m < 60 ? `${m} min` : `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, '0')} min`;
}

/** The estimates as lines for the terminal, with the per-stack figures and their sources. */
export function formatTimeEstimate(estimates: readonly TimeEstimate[], kinds: readonly StackKind[] = STACK_KINDS, times: Readonly<Record<StackKind, StackTime>> = STACK_TIMES): string[] {
  const first = estimates[0];
  if (!first) return [];
  const where = first.shards > 1 ? `${first.shards} shards side by side (at most ${first.largestShard} environment${first.largestShard === 1 ? '' : 's'} each), ` : '';
  const out = [`Estimated wall time (${where}${first.parallelism} stack${first.parallelism === 1 ? '' : 's'} at a time${first.shards > 1 ? ' per shard' : ''}):`];
  for (const e of estimates) {
    out.push(
      `  ${e.direction === 'deploy' ? 'deploy  ' : 'teardown'} ${duration(e.minutes).padStart(11)} for ${e.stacks} stack${e.stacks === 1 ? '' : 's'} of ${e.environments} environment${
        e.environments === 1 ? '' : 's'
      }` + ` (one environment alone: ${duration(e.criticalPathMinutes)})`,
    );
    if (e.canary) {
      out.push(`  canary  ${duration(e.canary.minutes).padStart(11)} of it: ${e.canary.env}, verified before the other ${e.canary.others === 1 ? 'one' : e.canary.others}`);
    }
  }
  out.push('  per stack, create / destroy:');
  for (const kind of kinds) {
    const t = times[kind];
    out.push(`    ${kind.padEnd(11)} ${String(t.createMinutes).padStart(2)} / ${String(t.destroyMinutes).padStart(2)} min  ${t.source}`);
  }
  if (estimates.some((e) => e.canary)) out.push(`    ${'verify'.padEnd(11)} ${String(CANARY_VERIFY_TIME.minutes).padStart(2)}      min  the canary's; ${CANARY_VERIFY_TIME.source}`);
  return out;
}
