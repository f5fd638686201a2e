/** `npm run cost`: the estimated cost and wall time of the configured lab, as `deploy` prints them first. */
import { loadConfig } from '../../config/load';
import { estimateCost, formatCostEstimate } from '../../lab/estimate/cost-estimate';
import { strictArgs, UsageError } from '../../kit/cli/cli';
import { parseKinds, selectEnvironments, selectRequested } from '../../lab/selection/selection';
import { resolveParallelism } from '../../lab/selection/parallelism';
import { MAX_SHARDS } from '../../lab/selection/shard';
import { estimateTime, formatTimeEstimate } from '../../lab/estimate/time-estimate';
import { environmentNeeds } from '../../lab/estimate/environment-needs';
import { placeLab } from '../../lab/placement/lab-placement';
import { formatPlacement, perEnvironmentNeeds, placementReport } from '../../lab/placement/placement-report';
import { terminalWidth } from '../../kit/terminal/terminal';

export const COST_HELP = `usage: npm run cost -- [--format table|json] [--env a,b] [--stacks kinds] [--shards N] [--parallelism N|auto]

The estimated cost of the configured lab per environment, per hour and for
workshop.durationHours, per cloud and in total, from lib/lab/estimate/price-table.ts
(list prices of its stated date and regions); and the estimated wall time of
deploy and teardown: each stack's create/destroy time (documented or estimated,
with its source, in lib/lab/estimate/time-estimate.ts) through the dependency graph
(cluster before lb, clouds and environments in parallel), N stacks at a time,
in --shards CI jobs side by side. deploy prints the same first.

  --env a,b            only these environments (cost and time)
  --stacks kinds       only these stack kinds (aws-cluster,aws-lb,gcp-cluster,gcp-lb), in the
                       cost (a cluster stack's network and nodes, an lb stack's load balancers)
                       and in the time
  --shards N           shards (CI jobs) side by side (1-${MAX_SHARDS}; default 1)
  --parallelism N|auto stacks at once per shard (default deploy.parallelism)
  --format FORMAT      table (default) or json: the estimates as JSON
                       ({...cost, time: {deploy, teardown}}, and placement when the config
                       places environments); --json is the same as --format json
When the config places environments (aws.regions, aws.accounts, gcp.regions, gcp.projects,
placement), the table ends with where each goes: per slot, the binding quota and vCPUs.
Prices are those of the table's regions for every slot (per-region prices: not yet).`;

/** The command: parses `argv` (the arguments after the command's name) and runs it; resolves with the exit code. */
export async function cost(argv: readonly string[]): Promise<number> {
  const values = strictArgs(argv, {
    format: { type: 'string' },
    json: { type: 'boolean' },
    shards: { type: 'string' },
    parallelism: { type: 'string' },
    stacks: { type: 'string' },
    env: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    console.log(COST_HELP);
    return 0;
  }
  if (values.format !== undefined && values.format !== 'table' && values.format !== 'json') {
    throw new UsageError(`--format: ${JSON.stringify(values.format)} is not supported; use one of table, json`);
  }
  if (values.json && values.format === 'table') throw new UsageError('--json and --format table contradict each other; give one of them');
  const json = values.json === true || values.format === 'json';
  const shards = values.shards === undefined ? 1 : Number(values.shards);
  if (!Number.isInteger(shards) || shards < 1 || shards > MAX_SHARDS) throw new UsageError(`--shards: ${JSON.stringify(values.shards)} is not a whole number from 1 to ${MAX_SHARDS}`);
  const p = values.parallelism;
  if (p !== undefined && p !== 'auto' && !(/^\d+$/.test(p) && Number(p) >= 1 && Number(p) <= 32))
    throw new UsageError(`--parallelism: ${JSON.stringify(p)} is not a whole number from 1 to 32, or auto`);
  let kinds;
  try {
    kinds = parseKinds(values.stacks);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const config = loadConfig().config;
  let requested;
  try {
    requested = selectRequested(config, values.env, undefined).envs;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const chosen = resolveParallelism(p === undefined ? config.deploy.parallelism : p === 'auto' ? 'auto' : Number(p), kinds);
  const envs = selectEnvironments(config, requested);
  const estimate = estimateCost(config, { envs, kinds });
  const time = {
    deploy: estimateTime('deploy', { envs, kinds, parallelism: chosen.parallelism, shards }),
    teardown: estimateTime('destroy', { envs, kinds, parallelism: chosen.parallelism, shards }),
  };
  // Where each environment goes, when the config places them (one environment synthesized on its own gives the figures).
  const placement = placeLab(config);
  const report = placement.configured ? placementReport(placement, perEnvironmentNeeds(placement, environmentNeeds(config))) : undefined;
  if (json) {
    console.log(JSON.stringify({ ...estimate, time, ...(report ? { placement: report } : {}) }, null, 2));
    return 0;
  }
  for (const line of formatCostEstimate(estimate)) console.log(line);
  if (chosen.reason.startsWith('parallelism auto')) console.log(chosen.reason);
  for (const line of formatTimeEstimate([time.deploy, time.teardown], kinds)) console.log(line);
  if (report) for (const line of formatPlacement(report, placement.envs, terminalWidth(process.stdout))) console.log(line);
  return 0;
}
