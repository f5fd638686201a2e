/** `npm run cost`: the estimated cost and wall time of the configured lab, as `deploy` prints them first. */
import { readLabConfig } from '../../lab/files/config-file';
import { estimateCost, formatCostEstimate } from '../../lab/estimate/cost-estimate';
import { UsageError } from '../../kit/cli/cli';
import { selectEnvironments, stackKinds } from '../../lab/selection/selection';
import { resolveParallelism } from '../../lab/selection/parallelism';
import { estimateTime, exposuresPerEnvironment, formatTimeEstimate, placementSlotOf } from '../../lab/estimate/time-estimate';
import { COST_COMMAND } from './command';
import { environmentNeeds } from '../../lab/estimate/environment-needs';
import { placeWithState } from '../../lab/placement/deployed-placement';
import { readDeployedSlots } from '../../lab/files/deployed-slots';
import { formatPlacement, perEnvironmentNeeds, placementReport } from '../../lab/placement/placement-report';
import { terminalWidth } from '../../kit/terminal/terminal';
import { admitsAnyAddress } from '../../model/cidr';

/** The command: parses `argv` (the arguments after the command's name) and runs it; resolves with the exit code. */
export async function cost(argv: readonly string[]): Promise<number> {
  const values = COST_COMMAND.parse(argv);
  if (!values) return 0;
  if (values.json && values.format === 'table') throw new UsageError('--json and --format table contradict each other; give one of them');
  const json = values.json || values.format === 'json';
  const { shards } = values;
  const p = values.parallelism;
  const kinds = stackKinds(values.stacks);
  const loaded = readLabConfig();
  const config = loaded.config;
  let envs: string[];
  try {
    envs = selectEnvironments(config, values.env);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const chosen = resolveParallelism(p ?? config.deploy.parallelism, kinds);
  // Where each environment goes (one environment synthesized on its own gives the figures when quotas size the slots),
  // deployed ones where their local state says, as synth places them: each is priced in its slot's region, and the
  // time says how the slots run side by side.
  const placement = placeWithState(config, await readDeployedSlots(config, { cwd: process.cwd(), remote: false }), { source: loaded.source }).placement;
  const estimate = estimateCost(config, { envs, kinds, placement });
  const slotOf = placementSlotOf(placement);
  const time = {
    // The canary, as deploy and the pipelines pick it: the first environment, verified before the others; with shards, in
    // the pipelines' canary job before the shard jobs, each of which verifies its shard after its deploy: the jobs verify
    // only where a runner is let in (as pipeline decides).
    deploy: estimateTime('deploy', {
      envs,
      kinds,
      parallelism: chosen.parallelism,
      shards,
      slotOf,
      canary: envs[0],
      jobsVerify: admitsAnyAddress(config.app.allowedSourceCidrs),
      exposures: exposuresPerEnvironment(config.exposures, kinds),
    }),
    teardown: estimateTime('destroy', { envs, kinds, parallelism: chosen.parallelism, shards, slotOf }),
  };
  const report = placement.configured ? placementReport(placement, perEnvironmentNeeds(placement, environmentNeeds(config))) : undefined;
  if (json) {
    console.log(JSON.stringify({ ...estimate, time, ...(report ? { placement: report } : {}) }, null, 2));
    return 0;
  }
  for (const line of formatCostEstimate(estimate, terminalWidth(process.stdout))) console.log(line);
  if (chosen.reason.startsWith('parallelism auto')) console.log(chosen.reason);
  for (const line of formatTimeEstimate([time.deploy, time.teardown], kinds)) console.log(line);
  if (report) for (const line of formatPlacement(report, placement.envs, terminalWidth(process.stdout))) console.log(line);
  return 0;
}
