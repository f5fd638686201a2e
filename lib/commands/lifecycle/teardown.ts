/**
 * `npm run teardown`: destroys every stack in reverse dependency order (lb
 * stacks first, so the controllers delete their load balancers while the
 * clusters run), then checks each cloud for anything left of each environment.
 */
import { abortOnSignals, confirm } from '../../kit/cli/cli';
import { WritableTerminal } from '../../kit/terminal/terminal';
import { LabConfig } from '../../config/schema';
import { Cloud } from '../../model/contract';
import { StackKind } from '../../lab/selection/stack-graph';
import { parseLifecycleArgs } from './cli';
import { TEARDOWN_COMMAND } from './command';
import { checkLifecycleRequest, cloudsOf, LifecycleResult, runLifecycle } from './lifecycle';
import { emptyShardText, selectEnvironments } from '../../lab/selection/selection';
import { stackGraph } from '../../lab/selection/stack-graph';
import { nothingDeployedFor } from '../../lab/files/local-state';
import { DeployedPlacement, deployedPlacementProblems, placeDeployed } from '../../lab/placement/deployed-placement';
import { checkSlotLeftovers, LeftoverFinders } from '../../lab/leftovers/slot-leftovers';
import { AccountToReach, missingCredentials, unreachableAccounts } from '../../lab/checks/credentials';

/** What teardown asks outside itself (tests). */
export interface TeardownDeps {
  /** Which clouds lack credentials. @default missingCredentials */
  readonly credentials?: typeof missingCredentials;
  /** Which AWS accounts the credentials cannot act in as the states say. @default unreachableAccounts */
  readonly accounts?: typeof unreachableAccounts;
  /** How the leftover check asks the clouds. @default - the clouds' APIs */
  readonly leftoverFinders?: Partial<LeftoverFinders>;
}

const NOT_CLEAN = 'hoplab teardown: NOT clean (see above); resources may still cost money';
const NOT_LOOKED = 'not confirmed clean: the leftover check could not look everywhere (see above)';

/** The command: parses `argv` (the arguments after the command's name) and runs it; resolves with the exit code. */
export async function teardown(argv: readonly string[], deps: TeardownDeps = {}): Promise<number> {
  const options = parseLifecycleArgs(TEARDOWN_COMMAND, argv);
  if (!options) return 0;
  const awsEndpoint = process.env.HOPLAB_AWS_ENDPOINT || undefined;
  const write = (line: string) => console.log(line);
  const cwd = process.cwd();
  const clouds = cloudsOf(options.kinds);
  if (!options.leftoversOnly) checkLifecycleRequest('destroy', options.kinds, awsEndpoint, options.config, options.shard);
  if (options.shard && options.envs?.length === 0) {
    console.log(`hoplab teardown: ${emptyShardText(options.config, options.shard, options.requested)}; nothing to do`);
    return 0;
  }
  const envs = selectEnvironments(options.config, options.envs);
  // Each environment is looked for, and destroyed, where its state says it is.
  const leftovers = (placed: DeployedPlacement) =>
    checkSlotLeftovers({ config: options.config, envs, kinds: options.kinds, awsEndpoint, write, placement: placed.placement, finders: deps.leftoverFinders });
  if (options.leftoversOnly) {
    const placed = await placeDeployed(options.config, { cwd, awsEndpoint, clouds });
    for (const problem of deployedPlacementProblems(options.config, placed, { moves: false, envs, clouds })) {
      write(`note: ${problem.detail}; it is looked for where the config places it`);
    }
    const check = await leftovers(placed);
    return check.leftovers.length === 0 && check.uncheckedClouds.length === 0 ? 0 : 1;
  }
  // Local state with nothing in it: one line now, not a Terraform error per stack after the question.
  const nothing = nothingDeployedFor(
    options.config.backend,
    stackGraph(envs, 'destroy', options.kinds).map((t) => t.stack),
    cwd,
    awsEndpoint,
  );
  if (nothing) {
    // No Terraform to run; what the controllers or an earlier, failed teardown left is still looked for.
    console.log(`hoplab teardown: ${nothing}; nothing to destroy, only checking for leftovers`);
    const check = await leftovers(await placeDeployed(options.config, { cwd, awsEndpoint, clouds }));
    return cleanEnd('nothing to destroy', check.leftovers.length > 0, check.uncheckedClouds.length > 0);
  }
  // Without credentials every stack's refresh would fail after the question: say so at once, per cloud.
  const missing = await credentialsProblems(options.config, clouds, awsEndpoint, deps);
  if (missing.length > 0) return refuseWithout(TEARDOWN_IO, missing);
  // Where each environment is (remote state is read with the credentials just checked); a state that says not where refuses.
  const placed = await placeDeployed(options.config, { cwd, awsEndpoint, clouds });
  checkLifecycleRequest('destroy', options.kinds, awsEndpoint, options.config, options.shard, undefined, { placed, envs });
  const unreachable = await accountProblems(options.config, placed, envs, clouds, awsEndpoint, deps);
  if (unreachable.length > 0) return refuseWithout(TEARDOWN_IO, unreachable);
  if (!(await confirm('teardown', destroyQuestion(options.kinds, envs), options.yes))) {
    return 1;
  }
  const { result, aborted } = await destroyPlaced(TEARDOWN_IO, {
    config: options.config,
    envs: options.envs,
    kinds: options.kinds,
    parallelism: options.parallelism,
    awsEndpoint,
    placed,
    leftoverFinders: deps.leftoverFinders,
  });
  const failed = result.outcomes.some((o) => o.status !== 'done');
  const code = cleanEnd('every stack destroyed', failed || result.leftovers.length > 0, result.uncheckedClouds.length > 0);
  return code !== 0 && aborted ? 130 : code;
}

/** The question before a destroy: `Destroy aws-cluster, aws-lb of 2 environments (ann, bob)?`. */
export function destroyQuestion(kinds: readonly StackKind[], envs: readonly string[]): string {
  return `Destroy ${kinds.join(', ')} of ${envs.length === 1 ? `environment ${envs[0]}` : `${envs.length} environments (${envs.join(', ')})`}?`;
}

/** Where a destroy writes: its command's name, its lines, and the terminal its live progress goes to. */
export interface DestroyIo {
  readonly command: 'teardown' | 'reap';
  /** Progress and results. */
  readonly say: (line: string) => void;
  /** Refusals. */
  readonly warn: (line: string) => void;
  readonly progressStream: WritableTerminal;
}

const TEARDOWN_IO: DestroyIo = { command: 'teardown', say: (line) => console.log(line), warn: (line) => console.error(line), progressStream: process.stdout };

/** Before anything is read of remote state: one line per cloud of `clouds` without credentials (none against the emulator). */
export async function credentialsProblems(config: LabConfig, clouds: readonly Cloud[], awsEndpoint: string | undefined, deps: TeardownDeps): Promise<string[]> {
  if (awsEndpoint) return [];
  return (deps.credentials ?? missingCredentials)({ clouds, awsRegion: config.aws.region });
}

/** One line per AWS account the credentials cannot act in as the states of `envs` say. */
export async function accountProblems(
  config: LabConfig,
  placed: DeployedPlacement,
  envs: readonly string[],
  clouds: readonly Cloud[],
  awsEndpoint: string | undefined,
  deps: TeardownDeps,
): Promise<string[]> {
  if (!clouds.includes('aws')) return [];
  return (deps.accounts ?? unreachableAccounts)({ accounts: accountsOf(placed, envs), region: config.aws.region, endpoint: awsEndpoint });
}

/** What {@link destroyPlaced} destroys. */
export interface DestroyRequest {
  readonly config: LabConfig;
  /** @default every environment of the config */
  readonly envs?: readonly string[];
  readonly kinds: readonly StackKind[];
  readonly parallelism?: number | 'auto';
  readonly awsEndpoint?: string;
  /** Where each environment is, as its state says. */
  readonly placed: DeployedPlacement;
  readonly leftoverFinders?: Partial<LeftoverFinders>;
}

/**
 * The destroy itself, once asked: every selected stack where its state says (runLifecycle), Ctrl-C
 * stopping new stacks, then the leftover check of each environment.
 */
export async function destroyPlaced(io: DestroyIo, request: DestroyRequest): Promise<{ readonly result: LifecycleResult; readonly aborted: boolean }> {
  const abort = abortOnSignals(io.command, 'no new stacks start; running Terraform stops gracefully');
  const result = await runLifecycle('destroy', {
    config: request.config,
    envs: request.envs,
    kinds: request.kinds,
    parallelism: request.parallelism,
    awsEndpoint: request.awsEndpoint,
    write: io.say,
    signal: abort.signal,
    progressStream: io.progressStream,
    deployed: request.placed,
    leftoverFinders: request.leftoverFinders,
  });
  return { result, aborted: abort.signal.aborted };
}

/** The last line and the exit code: NOT clean only for something found or not destroyed; a check that could not look is said as that. */
function cleanEnd(done: string, dirty: boolean, unlooked: boolean): number {
  if (dirty) {
    console.error(NOT_CLEAN);
    return 1;
  }
  if (unlooked) {
    console.error(`hoplab teardown: ${done}; ${NOT_LOOKED}`);
    return 1;
  }
  console.log('hoplab teardown: every stack destroyed and nothing left');
  return 0;
}

/** The lines of a refusal for want of credentials; exit 1. */
export function refuseWithout(io: DestroyIo, lines: readonly string[]): number {
  for (const line of lines) io.warn(`hoplab ${io.command}: ${line}`);
  io.warn(`hoplab ${io.command}: nothing destroyed; run it again with credentials`);
  return 1;
}

/**
 * The AWS accounts the selected environments are in: one per role (its account is in its ARN), and the
 * host's own per account its states name (environments not deployed yet go with the first).
 */
function accountsOf(placed: DeployedPlacement, envs: readonly string[]): AccountToReach[] {
  const accounts = new Map<string, { roleArn?: string; accountId?: string; envs: string[] }>();
  const undeployedHost: string[] = [];
  for (const env of envs) {
    const roleArn = placed.placement.aws.slotOf.get(env)?.account?.roleArn;
    const accountId = placed.state.aws.get(env)?.accountId;
    if (!roleArn && !accountId) {
      undeployedHost.push(env);
      continue;
    }
    const key = roleArn ?? `host ${accountId}`;
    const entry = accounts.get(key) ?? { ...(roleArn ? { roleArn } : {}), envs: [] };
    if (accountId && !entry.accountId) entry.accountId = accountId;
    entry.envs.push(env);
    accounts.set(key, entry);
  }
  if (undeployedHost.length > 0) {
    const host = [...accounts.values()].find((a) => !a.roleArn);
    if (host) host.envs.push(...undeployedHost);
    else accounts.set('host', { envs: undeployedHost });
  }
  return [...accounts.values()].map((a) => ({ ...(a.roleArn ? { roleArn: a.roleArn } : {}), ...(a.accountId ? { accountId: a.accountId } : {}), envs: a.envs }));
}
