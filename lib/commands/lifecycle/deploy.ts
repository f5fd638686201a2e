/**
 * `npm run deploy`: applies every stack of every environment to the real
 * clouds, each cloud's cluster stack before its lb stack, AWS and GCP and
 * attendees in parallel. Runs preflight first and stops on a blocking finding
 * (--skip-preflight overrides, loudly), then prints the cost estimate and asks to go on.
 * With more than one environment, one goes first as the canary (canary.ts).
 */
import { CostEstimate, estimateCost, formatCostEstimate } from '../../lab/estimate/cost-estimate';
import { abortOnSignals, confirm } from '../../kit/cli/cli';
import { SYSTEM_WALL_CLOCK, WallClock } from '../../kit/cli/wall-clock';
import { plural } from '../../kit/terminal/terminal';
import { parseLifecycleArgs } from './cli';
import { DEPLOY_COMMAND } from './command';
import { checkLifecycleRequest, cloudsOf, LifecycleOptions, LifecycleResult, runLifecycle } from './lifecycle';
import { runCanary } from './canary';
import { chooseCanary } from '../../lab/selection/canary';
import { placeDeployed } from '../../lab/placement/deployed-placement';
import { emptyShardText, selectEnvironments } from '../../lab/selection/selection';
import { resolveParallelism } from '../../lab/selection/parallelism';
import { estimateTime, formatTimeEstimate, placementSlotOf } from '../../lab/estimate/time-estimate';
import { preflightGate } from '../preflight/preflight-cli';
import { runVerify, VerifyOptions } from '../verify/verify';
import { parseVerifyArgs } from '../verify/verify-cli';
import { terminalWidth } from '../../kit/terminal/terminal';

/** `$0.62/h (AWS $0.41/h + GCP $0.21/h) at list prices read 2026-12-05`: the estimate's cost per hour (one environment's), with the clouds priced. */
function perHour(estimate: CostEstimate): string {
  const clouds = (['aws', 'gcp'] as const).filter((c) => estimate.stacks.some((k) => k.startsWith(`${c}-`)));
  const parts = clouds.map((c) => `${c.toUpperCase()} $${estimate.hour[c].toFixed(2)}/h`);
  return `$${estimate.hour.total.toFixed(2)}/h${parts.length > 1 ? ` (${parts.join(' + ')})` : ''} at list prices read ${estimate.asOf}`;
}

/** What deploy asks outside itself (tests). */
export interface DeployDeps {
  /** The date it runs on: the workshop's expiry, the config's hints. @default SYSTEM_WALL_CLOCK */
  readonly clock?: WallClock;
  /** Which clouds lack credentials, for the canary's verify. @default verify's own check (STS, a Google token) */
  readonly credentials?: VerifyOptions['credentials'];
  /** How a cluster stack's orphans are looked for in its account. @default - IAM and STS */
  readonly awsLookup?: LifecycleOptions['awsLookup'];
}

/** The command: parses `argv` (the arguments after the command's name) and runs it; resolves with the exit code. */
export async function deploy(argv: readonly string[], deps: DeployDeps = {}): Promise<number> {
  const now = (deps.clock ?? SYSTEM_WALL_CLOCK).now();
  const options = parseLifecycleArgs(DEPLOY_COMMAND, argv, now);
  if (!options) return 0;
  const awsEndpoint = process.env.HOPLAB_AWS_ENDPOINT || undefined;
  checkLifecycleRequest('deploy', options.kinds, awsEndpoint, options.config, options.shard, now);
  // Where each environment is deployed, from its state: a config that would move one is refused here, before preflight.
  const deployed = await placeDeployed(options.config, { cwd: process.cwd(), awsEndpoint, clouds: cloudsOf(options.kinds) });
  checkLifecycleRequest('deploy', options.kinds, awsEndpoint, options.config, options.shard, now, { placed: deployed, envs: options.envs });
  // Said before anything runs: a deprecated datapath, or a change that recreates a cluster.
  for (const note of options.notes) console.log(`hoplab: note: ${note}`);
  if (options.shard && options.envs?.length === 0) {
    console.log(`hoplab deploy: ${emptyShardText(options.config, options.shard, options.requested)}; nothing to do`);
    return 0;
  }
  const preflight = { config: options.config, envs: options.envs, kinds: options.kinds, shard: options.shard, awsEndpoint, now, deployed };
  if (!(await preflightGate({ ...preflight, skip: options.skipPreflight, write: (line) => console.log(line), width: process.stdout.isTTY ? terminalWidth(process.stdout) : undefined }))) {
    return 1;
  }
  const envs = selectEnvironments(options.config, options.envs);
  const canary = chooseCanary(envs, { noCanary: options.noCanary, shard: options.shard });
  for (const line of formatCostEstimate(estimateCost(options.config, { envs, kinds: options.kinds, placement: deployed.placement }))) console.log(line);
  const chosen = resolveParallelism(options.parallelism ?? options.config.deploy.parallelism, options.kinds);
  if (chosen.reason.startsWith('parallelism auto')) console.log(chosen.reason);
  const placement = deployed.placement;
  const slotOf = placementSlotOf(placement);
  for (const line of formatTimeEstimate([estimateTime('deploy', { envs, kinds: options.kinds, parallelism: chosen.parallelism, slotOf, canary: canary.env })], options.kinds)) {
    console.log(line);
  }
  if (canary.note) console.log(`hoplab deploy: ${canary.note}`);
  if (!(await confirm('deploy', 'Deploy and start paying for these resources?', options.yes))) {
    return 1;
  }
  const abort = abortOnSignals('deploy', 'no new stacks start; running Terraform stops gracefully');
  const apply = (selected: readonly string[]) =>
    runLifecycle('deploy', {
      config: options.config,
      envs: [...selected],
      kinds: options.kinds,
      parallelism: chosen.parallelism,
      awsEndpoint,
      write: (line) => console.log(line),
      signal: abort.signal,
      progressStream: process.stdout,
      now,
      // Read once: the canary goes where this placement put it, so the others' placement is the same after it.
      deployed,
      ...(deps.awsLookup ? { awsLookup: deps.awsLookup } : {}),
    });
  const applied: LifecycleResult[] = [];
  if (canary.env) {
    const stopped = await runCanary({
      env: canary.env,
      others: canary.others,
      apply: async (selected) => {
        const result = await apply(selected);
        applied.push(result);
        return result;
      },
      // As `npx hoplab verify --env <canary> --stacks <these>` runs it, progress on stdout with deploy's.
      verify: async (env) => {
        const args = parseVerifyArgs(['--env', env, '--stacks', options.kinds.join(','), ...(options.myIp ? ['--my-ip', options.myIp] : [])]);
        // Deploy's Ctrl-C stops it too: its waits and probes end at once, and the canary stops as interrupted.
        return runVerify({ ...args!.options, awsEndpoint, progress: (line) => console.log(line), progressStream: process.stdout, credentials: deps.credentials, signal: abort.signal });
      },
      costPerHour: perHour(estimateCost(options.config, { envs: [canary.env], kinds: options.kinds, placement })),
      write: (line) => console.log(line),
      error: (line) => console.error(line),
      signal: abort.signal,
    });
    if (stopped !== undefined) return stopped;
  }
  const result = await apply(canary.env ? canary.others : envs);
  applied.push(result);
  const unchanged = applied.reduce((n, r) => n + (r.unchanged?.length ?? 0), 0);
  if (!result.ok) {
    console.error(
      'hoplab deploy: not every stack applied (see above and .hoplab/logs); stacks that did apply keep costing money: ' +
        'fix the cause and deploy again (what applied shows no changes, the rest continue), or run npm run teardown',
    );
    return abort.signal.aborted ? 130 : 1;
  }
  const already = unchanged > 0 ? ` (${plural(unchanged, 'stack')} already applied: no changes)` : '';
  console.log(`hoplab deploy: every stack applied${already}; see the outputs with npm run compare`);
  return 0;
}
