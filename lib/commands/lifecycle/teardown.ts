/**
 * `npm run teardown`: destroys every stack in reverse dependency order (lb
 * stacks first, so the controllers delete their load balancers while the
 * clusters run), then checks each cloud for anything left of each environment.
 */
import { abortOnSignals, confirm } from '../../kit/cli/cli';
import { parseLifecycleArgs } from './cli';
import { TEARDOWN_COMMAND } from './command';
import { checkLeftovers, checkLifecycleRequest, runLifecycle } from './lifecycle';
import { emptyShardText, selectEnvironments } from '../../lab/selection/selection';
import { stackGraph } from '../../lab/selection/stack-graph';
import { nothingDeployedFor } from '../../lab/files/local-state';
import { missingCredentials } from '../../lab/checks/credentials';

/** What teardown asks outside itself (tests). */
export interface TeardownDeps {
  /** Which clouds lack credentials. @default missingCredentials */
  readonly credentials?: typeof missingCredentials;
}

/** The command: parses `argv` (the arguments after the command's name) and runs it; resolves with the exit code. */
export async function teardown(argv: readonly string[], deps: TeardownDeps = {}): Promise<number> {
  const options = parseLifecycleArgs(TEARDOWN_COMMAND, argv);
  if (!options) return 0;
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
