/**
 * `npm run deploy`: applies every stack of every environment to the real
 * clouds, each cloud's cluster stack before its lb stack, AWS and GCP and
 * attendees in parallel. Runs preflight first and stops on a blocking finding
 * (--skip-preflight overrides, loudly), then prints the cost estimate and asks to go on.
 */
import { estimateCost, formatCostEstimate } from '../../lab/estimate/cost-estimate';
import { abortOnSignals, confirm } from '../../kit/cli/cli';
import { parseLifecycleArgs } from './cli';
import { DEPLOY_COMMAND } from './command';
import { checkLifecycleRequest, runLifecycle } from './lifecycle';
import { emptyShardText, selectEnvironments } from '../../lab/selection/selection';
import { resolveParallelism } from '../../lab/selection/parallelism';
import { estimateTime, formatTimeEstimate, placementSlotOf } from '../../lab/estimate/time-estimate';
import { placeLab } from '../../lab/placement/lab-placement';
import { preflightGate } from '../preflight/preflight-cli';

/** The command: parses `argv` (the arguments after the command's name) and runs it; resolves with the exit code. */
export async function deploy(argv: readonly string[]): Promise<number> {
  const options = parseLifecycleArgs(DEPLOY_COMMAND, argv);
  if (!options) return 0;
  checkLifecycleRequest('deploy', options.kinds, process.env.HOPLAB_AWS_ENDPOINT || undefined, options.config, options.shard);
  // Said before anything runs: a deprecated datapath, or a change that recreates a cluster.
  for (const note of options.notes) console.log(`hoplab: note: ${note}`);
  if (options.shard && options.envs?.length === 0) {
    console.log(`hoplab deploy: ${emptyShardText(options.config, options.shard, options.requested)}; nothing to do`);
    return 0;
  }
  const preflight = { config: options.config, envs: options.envs, kinds: options.kinds, shard: options.shard, awsEndpoint: process.env.HOPLAB_AWS_ENDPOINT || undefined };
  if (!(await preflightGate({ ...preflight, skip: options.skipPreflight, write: (line) => console.log(line) }))) {
    return 1;
  }
  const envs = selectEnvironments(options.config, options.envs);
  for (const line of formatCostEstimate(estimateCost(options.config, { envs, kinds: options.kinds }))) console.log(line);
  const chosen = resolveParallelism(options.parallelism ?? options.config.deploy.parallelism, options.kinds);
  if (chosen.reason.startsWith('parallelism auto')) console.log(chosen.reason);
  const slotOf = placementSlotOf(placeLab(options.config));
  for (const line of formatTimeEstimate([estimateTime('deploy', { envs, kinds: options.kinds, parallelism: chosen.parallelism, slotOf })], options.kinds)) console.log(line);
  if (!(await confirm('deploy', 'Deploy and start paying for these resources?', options.yes))) {
    return 1;
  }
  const abort = abortOnSignals('deploy', 'no new stacks start; running Terraform stops gracefully');
  const result = await runLifecycle('deploy', {
    config: options.config,
    envs: options.envs,
    kinds: options.kinds,
    parallelism: chosen.parallelism,
    awsEndpoint: process.env.HOPLAB_AWS_ENDPOINT || undefined,
    write: (line) => console.log(line),
    signal: abort.signal,
    progressStream: process.stdout,
  });
  if (!result.ok) {
    console.error('hoplab deploy: not every stack applied (see above and .hoplab/logs); stacks that did apply keep costing money: fix and deploy again, or run npm run teardown');
    return abort.signal.aborted ? 130 : 1;
  }
  console.log('hoplab deploy: every stack applied; see the outputs with npm run compare');
  return 0;
}
