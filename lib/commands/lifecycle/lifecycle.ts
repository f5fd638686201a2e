import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { App } from 'cdktf';
import { LabConfig } from '../../config/schema';
import { LabStacks, synthFresh } from '../../stacks/hoplab-app';
import { addPlacedLab } from '../../lab/placement/placed-lab';
import { DeployedPlacement, placeDeployed } from '../../lab/placement/deployed-placement';
import { checkSlotLeftovers, LeftoverFinders } from '../../lab/leftovers/slot-leftovers';
import { Leftover } from '../../lab/leftovers/leftover';
import { labTerraformEnv } from '../../lab/files/terraform-env';
import { EMULATOR_STATE_DIR, ensureEmulatorStateBucket } from '../../stacks/state-backend';
import { formatRefusal, requestProblems } from '../../lab/selection/request-problems';
import { Shard } from '../../lab/selection/shard';
import { resolveParallelism } from '../../lab/selection/parallelism';
import { runGraph, TaskOutcome } from './run-graph';
import { StackRunner } from './stack-runner';
import { GkeSteps } from './gke-steps';
import { AwsSteps } from './aws-steps';
import { AccountLookup } from './aws-orphans';
import { Direction, STACK_KINDS, stackGraph, StackKind, StackTask } from '../../lab/selection/stack-graph';
import { selectEnvironments } from '../../lab/selection/selection';
import { countsText, LiveClock, LiveStatus, SYSTEM_CLOCK } from '../../kit/terminal/live-status';
import { plural, WritableTerminal } from '../../kit/terminal/terminal';
import { describeActivity, TerraformActivity } from '../../kit/terraform/terraform-progress';

export interface LifecycleOptions {
  readonly config: LabConfig;
  /** Environments to act on (names); all when undefined. */
  readonly envs?: readonly string[];
  /** Stack kinds to act on. @default all four */
  readonly kinds?: readonly StackKind[];
  /** Stacks at once, or `auto` (from free memory). @default config.deploy.parallelism */
  readonly parallelism?: number | 'auto';
  /** Project directory: cdktf.out, state files and logs go under it. @default process.cwd() */
  readonly cwd?: string;
  /** A local AWS emulator endpoint (only aws-cluster stacks can run there). @default - real AWS */
  readonly awsEndpoint?: string;
  readonly write: (line: string) => void;
  readonly signal?: AbortSignal;
  /**
   * Where to show the running stacks live (deploy and teardown pass process.stdout):
   * redrawn in place when it is a terminal, else a line per stack per minute at most.
   * @default - lines through `write`, a line per stack per minute at most
   */
  readonly progressStream?: WritableTerminal;
  /** The clock of the progress display (tests). @default SYSTEM_CLOCK */
  readonly clock?: LiveClock;
  /** The date the request is checked on (the workshop's expiry). @default the host's clock */
  readonly now?: Date;
  /** The lab placed where its states say it is, when the command has read them already. @default - read here (placeDeployed) */
  readonly deployed?: DeployedPlacement;
  /** How the leftover check asks the clouds (tests). @default - the clouds' APIs */
  readonly leftoverFinders?: Partial<LeftoverFinders>;
  /** How a cluster stack's orphans are looked for in its account (tests). @default - IAM and STS (aws-orphans.ts accountLookup) */
  readonly awsLookup?: (env: string) => AccountLookup;
}

/** What a deploy or teardown did. */
export interface LifecycleResult {
  readonly outcomes: readonly TaskOutcome[];
  /** Leftovers found after a teardown (empty for deploy). */
  readonly leftovers: readonly Leftover[];
  /** Clouds whose leftover check could not run, with why. */
  readonly uncheckedClouds: readonly string[];
  readonly ok: boolean;
  /** Stacks done with nothing to do: already applied (deploy run again), or already gone (destroy). */
  readonly unchanged?: readonly string[];
}

/**
 * Refuses a request that would go wrong, before anything runs, naming every reason at once (see
 * {@link requestProblems}): a placeholder project, world-open API endpoints (deploy), stacks the
 * emulator cannot run, a cluster destroyed without its lb stack (teardown), shards on local state,
 * a workshop.expiresAt before `now` (deploy), and with `deployed`: an environment deploy would move,
 * or whose state says not where it is.
 */
export function checkLifecycleRequest(
  direction: Direction,
  kinds: readonly StackKind[],
  awsEndpoint?: string,
  config?: LabConfig,
  shard?: Shard,
  now?: Date,
  deployed?: { readonly placed: DeployedPlacement; readonly envs?: readonly string[] },
): void {
  if (!config) return;
  const problems = requestProblems({ direction, kinds, awsEndpoint, config, shard, now, deployed: deployed?.placed, envs: deployed?.envs });
  if (problems.length > 0) throw new Error(formatRefusal(direction === 'deploy' ? 'deploy' : 'teardown', problems));
}

/**
 * Synthesizes the app and applies (`deploy`) or destroys (`destroy`) its
 * stacks in dependency order, AWS and GCP and environments in parallel up to
 * `parallelism`. After a destroy, checks each cloud for anything left of each
 * environment, including what the controllers created outside Terraform.
 */
export async function runLifecycle(direction: Direction, options: LifecycleOptions): Promise<LifecycleResult> {
  const cwd = resolve(options.cwd ?? process.cwd());
  const kinds = options.kinds ?? [...STACK_KINDS];
  const envs = selectEnvironments(options.config, options.envs);
  const chosen = resolveParallelism(options.parallelism ?? options.config.deploy.parallelism, kinds);
  const parallelism = chosen.parallelism;
  checkLifecycleRequest(direction, kinds, options.awsEndpoint, options.config, undefined, options.now);
  // Each environment where its state says it is (an environment never moves once deployed): deploy refuses a config that would move one.
  const placed = options.deployed ?? (await placeDeployed(options.config, { cwd, awsEndpoint: options.awsEndpoint, clouds: cloudsOf(kinds) }));
  checkLifecycleRequest(direction, kinds, options.awsEndpoint, options.config, undefined, options.now, { placed, envs });
  const outdir = join(cwd, 'cdktf.out');
  const app = new App({ outdir, stackTraces: false });
  const emulatorStateDir = join(cwd, EMULATOR_STATE_DIR);
  const awsEmulator = options.awsEndpoint ? { endpoint: options.awsEndpoint } : undefined;
  const labStacks = addPlacedLab(app, options.config, { awsEmulator, emulatorStateDir, placement: placed.placement }).stacks;
  synthFresh(app);
  if (options.awsEndpoint) await prepareEmulatorState(options.awsEndpoint, emulatorStateDir, labStacks, options.config);

  // One provider download per machine, not one per stack (30 attendees would otherwise fetch 120 copies).
  const tfEnv = labTerraformEnv(cwd, options.awsEndpoint);
  if (process.env.HOPLAB_PROVIDER_MIRROR && !options.awsEndpoint) {
    options.write('note: HOPLAB_PROVIDER_MIRROR is ignored for real clouds (providers come from the registry); it only applies with HOPLAB_AWS_ENDPOINT');
  }
  const tasks = stackGraph(envs, direction, kinds);
  const verb = direction === 'deploy' ? 'apply' : 'destroy';
  // While stacks run: each with its elapsed time and the resource Terraform waits on, in place on a
  // terminal, else a line per stack per minute at most; every other line goes through it too.
  let started = 0;
  let done = 0;
  let failedCount = 0;
  const live = new LiveStatus({
    stream: options.progressStream ?? { write: () => true },
    mode: options.progressStream ? undefined : 'lines',
    title: direction,
    write: options.write,
    clock: options.clock,
    summary: () => countsText({ done, failed: failedCount, waiting: tasks.length - started }),
  });
  const write = (line: string) => live.line(line);
  const activity = new Map<string, TerraformActivity>();
  const runner = new StackRunner({
    outdir,
    logDir: join(cwd, '.hoplab', 'logs'),
    env: tfEnv,
    onLine: (stack, line) => {
      if (line.startsWith('Error:')) write(`    ${stack}: ${line}`);
    },
    onOutput: (stack, line) => activity.get(stack)?.feed(line, (options.clock ?? SYSTEM_CLOCK).now()),
    onPhase: (stack, phase) => {
      activity.get(stack)?.reset();
      live.update(stack, { phase });
    },
  });
  const onAbort = () => runner.interrupt();
  options.signal?.addEventListener('abort', onAbort);
  const gke = new GkeSteps({ config: options.config, write, signal: options.signal, slots: placed.placement.gcp.slotOf });
  const aws = new AwsSteps({
    config: options.config,
    awsEndpoint: options.awsEndpoint,
    slotOf: placed.placement.aws.slotOf,
    write,
    stackFile: (stack) => join(outdir, 'stacks', stack, 'cdk.tf.json'),
    ...(options.awsLookup ? { overrides: { lookup: options.awsLookup } } : {}),
  });
  const run = stackTask(direction, options.awsEndpoint, { gke, aws }, (task, extraArgs, before) => runner.run(task, direction, extraArgs, before));
  if ((options.parallelism ?? options.config.deploy.parallelism) === 'auto') write(chosen.reason);
  write(`${direction}: ${plural(tasks.length, 'stack')} of ${plural(envs.length, 'environment')}, ${parallelism} at a time (logs: .hoplab/logs/)`);
  let outcomes: TaskOutcome[];
  try {
    outcomes = await runGraph(tasks, {
      parallelism,
      signal: options.signal,
      run,
      onEvent: (event) => {
        const stack = event.task.stack;
        if (event.type === 'start') {
          started += 1;
          const tracked = new TerraformActivity();
          activity.set(stack, tracked);
          write(`  start  ${stack} (${verb}; ${event.running} running)`);
          live.start(stack, 'init', (now) => describeActivity(tracked, now));
          return;
        }
        activity.delete(stack);
        if (event.outcome?.status === 'done') {
          done += 1;
          const unchanged = runner.unchanged.has(stack) ? (direction === 'deploy' ? ' (no changes, already applied)' : ' (nothing to destroy, already gone)') : '';
          live.end(stack, `  done   ${stack} in ${event.outcome.seconds.toFixed(1)} s${unchanged}`);
        } else if (event.outcome?.status === 'failed') {
          failedCount += 1;
          live.end(stack, `  FAILED ${stack} after ${event.outcome.seconds.toFixed(1)} s:\n${indent(event.outcome.error)}`);
        } else {
          live.end(stack);
        }
      },
    });
  } finally {
    live.stop();
    options.signal?.removeEventListener('abort', onAbort);
  }
  for (const outcome of outcomes.filter((o) => o.status === 'skipped')) {
    options.write(`  skip   ${outcome.stack} (${outcome.status === 'skipped' ? outcome.reason : ''})`);
  }
  const failed = outcomes.some((o) => o.status !== 'done');
  const unchanged = outcomes.filter((o) => o.status === 'done' && runner.unchanged.has(o.stack)).map((o) => o.stack);
  if (direction === 'deploy') {
    return { outcomes, leftovers: [], uncheckedClouds: [], ok: !failed, unchanged };
  }
  const check = await checkSlotLeftovers({
    config: options.config,
    envs,
    kinds,
    awsEndpoint: options.awsEndpoint,
    write: options.write,
    placement: placed.placement,
    finders: options.leftoverFinders,
  });
  return { outcomes, ...check, ok: !failed && check.leftovers.length === 0 && check.uncheckedClouds.length === 0, unchanged };
}

/**
 * What running one stack task is: Terraform's apply or destroy, with each
 * cloud's steps beside it. GKE (real clouds only): before `<env>-gcp-cluster`
 * is applied, the check that no backend service still holds a Cloud Armor
 * policy the config dropped; before `<env>-gcp-lb` is applied, the wait for
 * the CRDs its plan needs, and after it, the detach of that policy; around
 * `<env>-gcp-lb`'s destroy, the environment's orphaned backend services;
 * `<env>-gcp-cluster`'s destroy with those and the removal of the network's
 * GKE-made firewall rules before it (the graph runs it after `<env>-gcp-lb`'s
 * destroy). AWS: `<env>-aws-lb`'s destroy with the check for load balancers
 * hoplab did not make before it and the controller's backend security group
 * after it, and `<env>-aws-cluster`'s destroy with that group before it (also
 * against the emulator).
 */
export function stackTask(
  direction: Direction,
  awsEndpoint: string | undefined,
  steps: {
    readonly gke: Pick<GkeSteps, 'beforeClusterApply' | 'beforeLbApply' | 'afterLbApply' | 'destroyLb' | 'destroyCluster'>;
    readonly aws: Pick<AwsSteps, 'destroyLb' | 'destroyCluster' | 'beforeClusterApply'>;
  },
  terraform: (task: StackTask, extraArgs?: readonly string[], before?: (terraform: (args: readonly string[]) => Promise<string>) => Promise<void>) => Promise<void>,
): (task: StackTask) => Promise<void> {
  const { gke, aws } = steps;
  return async (task) => {
    if (task.cloud === 'aws') {
      if (direction !== 'destroy') return task.kind === 'aws-cluster' ? terraform(task, undefined, (tf) => aws.beforeClusterApply(task.env, task.stack, tf)) : terraform(task);
      if (task.kind === 'aws-lb') return aws.destroyLb(task.env, task.stack, (extraArgs) => terraform(task, extraArgs));
      return aws.destroyCluster(task.env, task.stack, () => terraform(task));
    }
    if (awsEndpoint) return terraform(task);
    if (direction === 'destroy') {
      if (task.kind === 'gcp-lb') return gke.destroyLb(task.env, task.stack, () => terraform(task));
      return gke.destroyCluster(task.env, task.stack, () => terraform(task));
    }
    if (task.kind === 'gcp-cluster') {
      await gke.beforeClusterApply(task.env, task.stack);
      return terraform(task);
    }
    await gke.beforeLbApply(task.env, task.stack);
    await terraform(task);
    await gke.afterLbApply(task.env, task.stack);
  };
}

export { providerMirrorFor } from '../../lab/files/terraform-env';

/** Makes the emulator's state places exist: the local directory, and the S3 bucket an `s3` backend is redirected to. */
async function prepareEmulatorState(endpoint: string, stateDir: string, labStacks: readonly LabStacks[], config: LabConfig): Promise<void> {
  mkdirSync(stateDir, { recursive: true });
  if (config.backend.type === 's3' && labStacks.length > 0) {
    await ensureEmulatorStateBucket(endpoint, config.backend.bucket, config.backend.region);
  }
}

/** The clouds of `kinds`. */
export function cloudsOf(kinds: readonly StackKind[]): ('aws' | 'gcp')[] {
  return (['aws', 'gcp'] as const).filter((cloud) => kinds.some((k) => k.startsWith(`${cloud}-`)));
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((l) => `      ${l}`)
    .join('\n');
}
