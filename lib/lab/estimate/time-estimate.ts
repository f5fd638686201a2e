/**
 * How long a deploy or teardown takes on the wall clock: each stack's create
 * and destroy time, run through the same dependency graph and the same
 * start-in-order scheduling as `runGraph`, with `parallelism` stacks at once
 * in each shard and the shards side by side (one CI job each).
 *
 * Slots run side by side: the API rate limits that throttle a deploy are per
 * account and region (EC2's, for one, "for each AWS account on a per-Region
 * basis": Amazon EC2 API reference, "Request throttling for the Amazon EC2
 * API", read 2026-12-02) or per project, so stacks of different slots do not
 * slow each other down; what bounds the deploy is the host's parallelism
 * (its memory). Given each environment's slot, the estimate says how many
 * slots the stacks run in and the most stacks of one slot that run at once:
 * those share that slot's limits. No published figure says how much a
 * slot's throttling slows a stack, so the stack times do not change with it.
 */
import { assignShards } from '../selection/shard';
import type { LabPlacement } from '../placement/lab-placement';
import { Direction, STACK_KINDS, stackGraph, StackKind, StackTask } from '../selection/stack-graph';
import { plural } from '../../kit/terminal/terminal';
import { READY_WAIT } from '../probe/flags';
import { PROBE_LIMITS } from '../probe/probe';
import { wrapIndented } from '../../kit/terminal/text-table';
import { offeredModes } from '../../model/exposure-facts';
import { DEFAULT_EXPOSURES, ExposureMode } from '../../model/modes';

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
 * Minutes of one `terraform plan` in verify's drift check (a refresh of the stack's resources): an
 * estimate, like most figures above; replace it with your own from a verify report's plan times.
 */
export const VERIFY_PLAN_MINUTES = 1;

/**
 * Minutes of a stack that deploy finds applied (`no changes, already applied`): Terraform's apply plans
 * first and finds nothing to do, so one plan, as {@link VERIFY_PLAN_MINUTES} (an estimate). With shards,
 * the shard that holds the pipelines' canary deploys its stacks again, so.
 */
export const APPLIED_MINUTES = VERIFY_PLAN_MINUTES;

/** The deadline of the one request that asks the prober's own public address (learnPublicAddress's default). */
const OWN_ADDRESS_SECONDS = 5;

/** A verify at its worst: whole minutes, and what they are made of. */
export interface VerifyTime {
  readonly minutes: number;
  readonly source: string;
}

/**
 * A verify at its worst, as it runs with its defaults: deploy's canary (deploy applies one environment, verifies
 * it, then the rest), the pipelines' canary job (`verify --env`) and each shard job after its deploy (`verify
 * --shard K/N`: every environment of its shard in one run). A plan of each of its `stacks`, one after another
 * ({@link VERIFY_PLAN_MINUTES} each, an estimate). Then its `exposures` waited for side by side: an exposure's last
 * attempt is asked for within the default --wait, gets one of the `READY_WAIT.inFlight` requests in flight
 * (first come first served, each held at most one request's deadline: at most ceil(exposures / inFlight) - 1
 * deadlines' turn, none up to that many exposures) and lasts at most one deadline. Then its own public address
 * asked (one request's deadline, unless --my-ip) and every exposure probed side by side: count / concurrency
 * rounds of one request's deadline when every request takes its whole deadline, or, past the probe's requests in
 * flight over all exposures (maxInFlight), exposures x count / maxInFlight rounds (a simulation of that case gave
 * exactly these). The wait and the probe are bounds of the code; the plans are the estimate.
 * `whose` begins the source (`the canary's`).
 */
export function verifyTime(stacks: number, exposures: number, whose = "the canary's"): VerifyTime {
  const turns = Math.max(1, Math.ceil(exposures / READY_WAIT.inFlight));
  const waitSeconds = READY_WAIT.seconds.default + (turns * READY_WAIT.requestTimeoutMs) / 1000;
  const { count, concurrency, maxInFlight, timeout } = PROBE_LIMITS;
  const taking = exposures * concurrency.default > maxInFlight.default;
  const rounds = Math.max(Math.ceil(count.default / concurrency.default), Math.ceil((exposures * count.default) / maxInFlight.default));
  const probeSeconds = OWN_ADDRESS_SECONDS + (rounds * timeout.default) / 1000;
  const seconds = stacks * VERIFY_PLAN_MINUTES * 60 + waitSeconds + probeSeconds;
  const turn = turns > 1 ? `, a turn (${exposures} exposures, ${READY_WAIT.inFlight} requests in flight)` : '';
  return {
    minutes: Math.ceil(seconds / 60),
    source:
      `${whose} at worst: ${plural(stacks, 'plan')}, one after another (${VERIFY_PLAN_MINUTES} min each, an estimate), then every exposure at once: ` +
      `waited for up to --wait${turn} and a last attempt (${waitSeconds} s), probed (${taking ? `${exposures} exposures, ${maxInFlight.default} requests in flight: ` : ''}at most ${probeSeconds} s)`,
  };
}

/** The exposures verify waits for and probes in one environment: each mode of `modes` its cloud offers, of the lb stacks among `kinds`. */
export function exposuresPerEnvironment(modes: readonly ExposureMode[], kinds: readonly StackKind[]): number {
  return (['aws', 'gcp'] as const).filter((cloud) => kinds.includes(`${cloud}-lb`)).reduce((sum, cloud) => sum + offeredModes(cloud, modes).length, 0);
}

export interface TimeEstimateInput {
  /** All selected environments, in config order (the shards are dealt from them). */
  readonly envs: readonly string[];
  readonly kinds?: readonly StackKind[];
  /** Stacks at once in each shard. */
  readonly parallelism: number;
  /** Shards running side by side. @default 1 */
  readonly shards?: number;
  readonly times?: Readonly<Record<StackKind, StackTime>>;
  /**
   * The canary: this environment is applied and verified before the others start. Without jobs, deploy's own
   * canary; with jobs, the generated pipelines' canary job (`deploy --env`, then `verify --env`), which the
   * shard jobs wait for, and whose environment its shard then finds applied. @default - none
   */
  readonly canary?: string;
  /**
   * The shards are the generated pipelines' jobs: each shard job runs `deploy --shard K/N`, then `verify --shard
   * K/N` of its environments (where {@link jobsVerify}), after the canary job. @default - with more than one shard
   */
  readonly jobs?: boolean;
  /**
   * With jobs: whether the pipelines' jobs verify, the canary job and each shard job after its deploy (they run
   * verify only where a CI runner's address is let in: not with a narrowed `app.allowedSourceCidrs`). @default true
   */
  readonly jobsVerify?: boolean;
  /** The exposures of one environment that verify waits for and probes. @default - every mode each cloud offers, of the lb stacks of `kinds` */
  readonly exposures?: number;
  /** Each environment's slot on a cloud (`host/us-east-1`, `my-project/us-central1`). @default - not said */
  readonly slotOf?: SlotOf;
}

/** The slot an environment's stacks of a cloud are placed in. */
export type SlotOf = (env: string, cloud: 'aws' | 'gcp') => string | undefined;

/** The slots of a placement, as the estimate takes them. */
export function placementSlotOf(placement: LabPlacement): SlotOf {
  return (env, cloud) => (cloud === 'aws' ? placement.aws : placement.gcp).slotOf.get(env)?.id;
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
  /**
   * The canary: its environment, and the minutes before the others start (its stacks, then its verify at its worst;
   * no verify in a canary job that does not verify). With jobs, `job`: the pipelines' canary job, before the shards.
   */
  readonly canary?: { readonly env: string; readonly minutes: number; readonly others: number; readonly verify?: VerifyTime; readonly job?: true };
  /** With jobs that verify: the verify of the slowest shard job (its deploy, then its verify), at its worst; part of `minutes`. */
  readonly shardVerify?: VerifyTime;
  /** With each environment's slot: how many slots the stacks run in, and the most stacks of one slot at once (the busiest slot). */
  readonly slots?: { readonly count: number; readonly peak: number; readonly busiest: string };
}

/** Minutes one shard takes: the runGraph schedule (start ready tasks in graph order, `parallelism` at once). */
export function scheduleMinutes(envs: readonly string[], direction: Direction, kinds: readonly StackKind[], parallelism: number, times: Readonly<Record<StackKind, StackTime>>): number {
  return schedule(envs, direction, kinds, parallelism, times).minutes;
}

/**
 * The runGraph schedule of one shard: its minutes, and with slots the most stacks of each slot running at once.
 * The stacks of `applied` (an environment deployed before, the pipelines' canary) take {@link APPLIED_MINUTES} each.
 */
function schedule(
  envs: readonly string[],
  direction: Direction,
  kinds: readonly StackKind[],
  parallelism: number,
  times: Readonly<Record<StackKind, StackTime>>,
  slotOf?: SlotOf,
  applied?: string,
): { minutes: number; peak: Map<string, number> } {
  const tasks = stackGraph(envs, direction, kinds);
  const took = (task: StackTask) => (task.env === applied ? APPLIED_MINUTES : direction === 'deploy' ? times[task.kind].createMinutes : times[task.kind].destroyMinutes);
  const finished = new Map<string, number>();
  const running: { stack: string; end: number; slot?: string }[] = [];
  const started = new Set<string>();
  const peak = new Map<string, number>();
  let now = 0;
  while (finished.size < tasks.length) {
    for (const task of tasks) {
      if (running.length >= parallelism) break;
      if (started.has(task.stack) || !task.after.every((d) => finished.has(d))) continue;
      started.add(task.stack);
      running.push({ stack: task.stack, end: now + took(task), slot: slotOf?.(task.env, task.cloud) });
    }
    for (const slot of new Set(running.map((r) => r.slot))) {
      if (slot !== undefined) peak.set(slot, Math.max(peak.get(slot) ?? 0, running.filter((r) => r.slot === slot).length));
    }
    running.sort((a, b) => a.end - b.end);
    const next = running.shift()!;
    now = next.end;
    finished.set(next.stack, now);
  }
  return { minutes: now, peak };
}

/** The wall-clock estimate of a deploy or teardown of `envs`. */
export function estimateTime(direction: Direction, input: TimeEstimateInput): TimeEstimate {
  const kinds = input.kinds ?? STACK_KINDS;
  const times = input.times ?? STACK_TIMES;
  const shards = input.shards ?? 1;
  const exposures = input.exposures ?? exposuresPerEnvironment(DEFAULT_EXPOSURES, kinds);
  // The canary: its environment alone and its verify, then the others. Without jobs, deploy's own; with jobs, the
  // pipelines' canary job, then the shard jobs, the canary's shard finding its stacks applied.
  const others = input.envs.filter((e) => e !== input.canary);
  const job = input.jobs ?? shards > 1;
  const jobsVerify = job && input.jobsVerify !== false;
  const verify = job && !jobsVerify ? undefined : verifyTime(kinds.length, exposures);
  const canary =
    direction === 'deploy' && input.canary !== undefined && others.length > 0 && others.length < input.envs.length
      ? {
          env: input.canary,
          minutes: scheduleMinutes([input.canary], direction, kinds, input.parallelism, times) + (verify?.minutes ?? 0),
          others: others.length,
          ...(verify ? { verify } : {}),
          ...(job ? { job: true as const } : {}),
        }
      : undefined;
  const owner = assignShards(input.envs, shards);
  let minutes = 0;
  let largestShard = 0;
  let shardVerify: VerifyTime | undefined;
  const peak = new Map<string, number>();
  for (let k = 1; k <= shards; k++) {
    const envs = input.envs.filter((_, i) => owner[i] === k);
    largestShard = Math.max(largestShard, envs.length);
    const shard = schedule(envs, direction, kinds, input.parallelism, times, input.slotOf, canary?.job ? canary.env : undefined);
    // A shard job verifies its environments after its deploy (verify --shard K/N): the job is both; the slowest job counts.
    const verified = direction === 'deploy' && jobsVerify && envs.length > 0 ? verifyTime(envs.length * kinds.length, envs.length * exposures, "the slowest shard job's") : undefined;
    const jobMinutes = shard.minutes + (verified?.minutes ?? 0);
    if (jobMinutes > minutes) {
      minutes = jobMinutes;
      shardVerify = verified;
    }
    // Shards run side by side: their stacks of one slot add up.
    for (const [slot, n] of shard.peak) peak.set(slot, (peak.get(slot) ?? 0) + n);
  }
  const busiest = [...peak.entries()].sort((a, b) => b[1] - a[1])[0];
  const took = (kind: StackKind) => (direction === 'deploy' ? times[kind].createMinutes : times[kind].destroyMinutes);
  const chain = (cloud: 'aws' | 'gcp') => kinds.filter((k) => k.startsWith(cloud)).reduce((sum, k) => sum + took(k), 0);
  if (canary) minutes = canary.minutes + (canary.job ? minutes : scheduleMinutes(others, direction, kinds, input.parallelism, times));
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
    ...(shardVerify ? { shardVerify } : {}),
    ...(busiest ? { slots: { count: peak.size, peak: busiest[1], busiest: busiest[0] } } : {}),
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
  const out = wrapIndented(`Estimated wall time (${where}${first.parallelism} stack${first.parallelism === 1 ? '' : 's'} at a time${first.shards > 1 ? ' per shard' : ''}):`, 80, '', '  ');
  for (const e of estimates) {
    out.push(
      ...wrapIndented(
        `for ${e.stacks} stack${e.stacks === 1 ? '' : 's'} of ${e.environments} environment${e.environments === 1 ? '' : 's'} (one alone: ${duration(e.criticalPathMinutes)})`,
        80,
        `  ${e.direction === 'deploy' ? 'deploy  ' : 'teardown'} ${duration(e.minutes).padStart(11)} `,
        ' '.repeat(23),
      ),
    );
    if (e.canary) {
      // One line each, within 80 columns with the longest name (20 characters); the job's names no number of shards (the first line does).
      const c = e.canary;
      out.push(
        c.job
          ? `  canary job ${duration(c.minutes).padStart(8)} of it: ${c.env}, ${c.verify ? 'verified' : 'no verify'}, then the shards`
          : `  canary  ${duration(c.minutes).padStart(11)} of it: ${c.env}, verified before the other ${c.others === 1 ? 'one' : c.others}`,
      );
    }
    // One line, within 80 columns: the longest verify (50 environments in a shard) is under 10 hours.
    if (e.shardVerify) out.push(`  verify   ${duration(e.shardVerify.minutes).padStart(10)} of it: after the slowest shard job's deploy, at its worst`);
  }
  if (first.slots) {
    const s = first.slots;
    out.push(
      ...wrapIndented(
        `slots: ${plural(s.count, 'slot')} (account or project x region) side by side, each with API rate limits of its own; at most ${plural(s.peak, 'stack')} of one slot at once (${
          s.busiest
        }), sharing its limits (throttling, which Terraform's providers retry, is not in these times)`,
        80,
        '  ',
        '    ',
      ),
    );
  }
  out.push('  per stack, create / destroy:');
  for (const kind of kinds) {
    const t = times[kind];
    out.push(...wrapIndented(t.source, 80, `    ${kind.padEnd(11)} ${String(t.createMinutes).padStart(2)} / ${String(t.destroyMinutes).padStart(2)} min  `, ' '.repeat(29)));
  }
  const canary = estimates.find((e) => e.canary)?.canary;
  // Minutes in the width of the stacks' 'create / destroy' (a shard's verify may take 3 digits).
  const figure = (name: string, minutes: number, source: string) => wrapIndented(source, 80, `    ${name.padEnd(11)} ${String(minutes).padStart(2).padEnd(8)}min  `, ' '.repeat(29));
  if (canary?.verify) out.push(...figure('verify', canary.verify.minutes, canary.verify.source));
  if (canary?.job) out.push(...figure('applied', APPLIED_MINUTES, "each of the canary's stacks again, in its shard: found applied, one plan with no changes (an estimate, as verify's)"));
  const shardVerify = estimates.find((e) => e.shardVerify)?.shardVerify;
  if (shardVerify) out.push(...figure('verify', shardVerify.minutes, shardVerify.source));
  return out;
}
