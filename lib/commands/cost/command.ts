/** `npm run cost`'s command line. */
import { booleanFlag, choiceFlag, defineCommand } from '../../kit/cli/command';
import { envsFlag, parallelismFlag, shardsFlag, stacksFlag } from '../../lab/selection/flags';

export const COST_COMMAND = defineCommand({
  name: 'cost',
  summary: 'estimated cost and wall time of deploy and teardown',
  description: `The estimated cost of the configured lab, each environment priced in the region its
slot is in, per hour and for workshop.durationHours, per cloud and in total, from
lib/lab/estimate/price-table.ts (list prices per region, each with its public source and the
date it was read). An item the table has no price for in a region is named with the region and
counted as $0, never priced as another region; CloudWatch Logs ingestion of the EKS
control-plane logs is named as not priced (per GB ingested, a volume not estimated).

And the estimated wall time of deploy and teardown: each stack's create/destroy time
(documented or estimated, with its source, in lib/lab/estimate/time-estimate.ts) through the
dependency graph (cluster before lb, clouds and environments in parallel), N stacks at a time,
in --shards CI jobs side by side. With more than one environment the canary comes first: the
first environment deployed and verified (at its worst) before the others, as deploy does; with
--shards, as the pipelines (npx hoplab pipeline) run it, in a canary job before the shard jobs,
whose shard then finds its stacks applied. Each shard job verifies its shard after its deploy
(verify --shard K/N, at its worst: a plan of each stack, one after another, then one wait and
one probe for all its exposures), where the pipelines verify; the deploy's wall time is the
canary job and the slowest shard job (its verify: the JSON's time.deploy.shardVerify). Slots (account or project x region) run side by side,
each with API rate limits of its own; the estimate says the most stacks of one slot that run
at once. deploy prints the same first.

When the config places environments (aws.regions, aws.accounts, gcp.regions, gcp.projects,
placement), the table ends with where each goes: per slot, the binding quota and vCPUs (the JSON
form has it as "placement").`,
  flags: {
    format: choiceFlag(['table', 'json'] as const, {
      defaultText: 'table',
      description: 'table, or json: the estimates as JSON ({...cost, time: {deploy, teardown}}, and placement when the config places environments)',
    }),
    json: booleanFlag({ description: 'the same as --format json' }),
    env: envsFlag('only these environments (cost and time)'),
    stacks: stacksFlag("only these stack kinds, in the cost (a cluster stack's network and nodes, an lb stack's load balancers) and in the time"),
    shards: shardsFlag('shards (CI jobs) side by side'),
    parallelism: parallelismFlag('stacks at once per shard'),
  },
});
