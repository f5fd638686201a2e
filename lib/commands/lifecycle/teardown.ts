/**
 * `npm run teardown`: destroys every stack in reverse dependency order (lb
 * stacks first, so the controllers delete their load balancers while the
 * clusters run), then checks each cloud for anything left of each environment.
 */
import { abortOnSignals, confirm } from '../../kit/cli/cli';
import { parseLifecycleArgs } from './cli';
import { checkLeftovers, checkLifecycleRequest, runLifecycle } from './lifecycle';
import { emptyShardText, selectEnvironments } from '../../lab/selection/selection';
import { stackGraph } from '../../lab/selection/stack-graph';
import { nothingDeployedFor } from '../../lab/files/local-state';
import { missingCredentials } from './credentials-check';

export const TEARDOWN_HELP = `usage: npm run teardown -- [--env a,b] [--stacks kinds] [--parallelism N|auto] [--shard K/N] [--yes] [--leftovers-only]

Destroys the lab's stacks with Terraform in reverse dependency order (<env>-aws-lb before
<env>-aws-cluster, <env>-gcp-lb before <env>-gcp-cluster; clouds and environments in parallel),
then lists anything of each environment still in AWS (VPC pieces, NAT gateways, Elastic IPs,
launch templates, instances, volumes, ENIs (also those the VPC CNI tagged), IAM, the cluster,
its control-plane log group, and the load balancers, target groups and security groups the
controller made) and in GCP (network, firewall rules, NEGs, instance groups, backend services,
URL maps, proxies, forwarding rules, target pools, health checks, reserved addresses, SSL
certificates, the cluster, the nodes' service account and its IAM binding). It only reports;
it never deletes. Exit 0 only if every stack was destroyed and nothing is left.

  --env a,b         only these environments
  --stacks kinds    only these stack kinds (aws-cluster,aws-lb,gcp-cluster,gcp-lb)
  --parallelism N   stacks at once (1-32), or auto (see deploy --help)
  --shard K/N       only the K-th of N shards of the environments (as deploy --shard);
                    the leftover check then covers that shard's environments
  --yes, -y         do not ask (required when not on a terminal)
  --leftovers-only  skip the destroy; only check for leftovers (of every selected
                    environment: without --shard, all of them: a sharded pipeline's last job)`;

/** What teardown asks outside itself (tests). */
export interface TeardownDeps {
  /** Which clouds lack credentials. @default missingCredentials */
  readonly credentials?: typeof missingCredentials;
}

/** The command: parses `argv` (the arguments after the command's name) and runs it; resolves with the exit code. */
export async function teardown(argv: readonly string[], deps: TeardownDeps = {}): Promise<number> {
  const options = parseLifecycleArgs(argv);
  if (options.help) {
    console.log(TEARDOWN_HELP);
    return 0;
  }
  const awsEndpoint = process.env.HOPLAB_AWS_ENDPOINT || undefined;
  const write = (line: string) => console.log(line);
  if (!options.leftoversOnly) checkLifecycleRequest('destroy', options.kinds, awsEndpoint, options.config, options.shard);
  if (options.shard && options.envs?.length === 0) {
    console.log(`hoplab teardown: ${emptyShardText(options.config, options.shard, options.requested)}; nothing to do`);
    return 0;
  }
  if (options.leftoversOnly) {
    const check = await checkLeftovers({ config: options.config, envs: selectEnvironments(options.config, options.envs), kinds: options.kinds, awsEndpoint, write });
    return check.leftovers.length === 0 && check.uncheckedClouds.length === 0 ? 0 : 1;
  }
  const envs = selectEnvironments(options.config, options.envs);
  // Local state with nothing in it: one line now, not a Terraform error per stack after the question.
  const nothing = nothingDeployedFor(
    options.config.backend,
    stackGraph(envs, 'destroy', options.kinds).map((t) => t.stack),
    process.cwd(),
    awsEndpoint,
  );
  if (nothing) {
    // No Terraform to run; what the controllers or an earlier, failed teardown left is still looked for.
    console.log(`hoplab teardown: ${nothing}; nothing to destroy, only checking for leftovers`);
    const check = await checkLeftovers({ config: options.config, envs, kinds: options.kinds, awsEndpoint, write });
    if (check.leftovers.length > 0 || check.uncheckedClouds.length > 0) {
      console.error('hoplab teardown: NOT clean (see above); resources may still cost money');
      return 1;
    }
    console.log('hoplab teardown: every stack destroyed and nothing left');
    return 0;
  }
  // Without credentials every stack's refresh would fail after the question: say so at once, per cloud.
  if (!awsEndpoint) {
    const clouds = (['aws', 'gcp'] as const).filter((cloud) => options.kinds.some((k) => k.startsWith(`${cloud}-`)));
    const missing = await (deps.credentials ?? missingCredentials)({ clouds, awsRegion: options.config.aws.region });
    if (missing.length > 0) {
      for (const line of missing) console.error(`hoplab teardown: ${line}`);
      console.error('hoplab teardown: nothing destroyed; run it again with credentials');
      return 1;
    }
  }
  const what = `${options.kinds.join(', ')} of ${envs.length === 1 ? `environment ${envs[0]}` : `${envs.length} environments (${envs.join(', ')})`}`;
  if (!(await confirm('teardown', `Destroy ${what}?`, options.yes))) {
    return 1;
  }
  const abort = abortOnSignals('teardown', 'no new stacks start; running Terraform stops gracefully');
  const result = await runLifecycle('destroy', {
    config: options.config,
    envs: options.envs,
    kinds: options.kinds,
    parallelism: options.parallelism,
    awsEndpoint,
    write,
    signal: abort.signal,
    progressStream: process.stdout,
  });
  if (!result.ok) {
    console.error('hoplab teardown: NOT clean (see above); resources may still cost money');
    return abort.signal.aborted ? 130 : 1;
  }
  console.log('hoplab teardown: every stack destroyed and nothing left');
  return 0;
}
