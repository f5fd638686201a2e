/**
 * `npx hoplab reap`: nothing outlives the workshop. Once `workshop.expiresAt`
 * has passed, it tears down every environment of the config whose state is
 * here, as teardown does (the same steps: credentials, where each state says,
 * the accounts' roles, the question, runLifecycle), and then, expired or not,
 * searches every slot the config and the states name for hoplab's tags
 * (tag-search.ts): labs still standing after their `hoplab-expires`, whoever
 * made them, named with what they cost per hour and, when no state here knows
 * them, the commands that delete them. It deletes nothing it has no state for.
 */
import { UsageError, confirm } from '../../kit/cli/cli';
import { SYSTEM_WALL_CLOCK, WallClock } from '../../kit/cli/wall-clock';
import { plural } from '../../kit/terminal/terminal';
import { wrapIndented } from '../../kit/terminal/text-table';
import { expiryExample, hasExpired, utcMinute } from '../../config/expiry';
import { Cloud } from '../../model/contract';
import { DEFAULT_GCP_PROJECT } from '../../config/schema';
import { readLabConfig } from '../../lab/files/config-file';
import { nothingDeployedFor } from '../../lab/files/local-state';
import { DeployedSlots } from '../../lab/files/deployed-slots';
import { DeployedPlacement, placeDeployed } from '../../lab/placement/deployed-placement';
import { selectEnvironments } from '../../lab/selection/selection';
import { STACK_KINDS, stackGraph, StackKind } from '../../lab/selection/stack-graph';
import { deleteSteps } from '../../lab/leftovers/delete-steps';
import { judgeLabs, labsOf } from '../../lab/leftovers/tagged-labs';
import { searchPlaces, searchTags, TagFinders, TagSearchOptions } from '../../lab/leftovers/tag-search';
import { REAP_COMMAND } from './command';
import { cloudsOf, checkLifecycleRequest } from './lifecycle';
import { ReapReport, ReapTeardown, reapVerdict, reportedLab, searchLines } from './reap-report';
import { accountProblems, credentialsProblems, destroyPlaced, DestroyIo, destroyQuestion, refuseWithout, TeardownDeps } from './teardown';

/** What reap asks outside itself (tests). */
export interface ReapDeps extends TeardownDeps {
  /** The date it runs on. @default the host's clock */
  readonly clock?: WallClock;
  /** How the search asks the clouds. @default - the clouds' APIs */
  readonly tagFinders?: Partial<TagFinders>;
  /** The Google APIs' bases for the search (tests: loopback). @default - Google's */
  readonly gcpApis?: TagSearchOptions['gcpApis'];
}

/** The command: parses `argv` and runs it; resolves with the exit code. */
export async function reap(argv: readonly string[], deps: ReapDeps = {}): Promise<number> {
  const values = REAP_COMMAND.parse(argv);
  if (!values) return 0;
  const now = (deps.clock ?? SYSTEM_WALL_CLOCK).now();
  const { config } = readLabConfig({ now });
  let envs: string[];
  try {
    envs = selectEnvironments(config, values.env);
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const json = values.format === 'json';
  // With --format json, stdout holds the report alone: everything else goes to stderr.
  const io: DestroyIo = json
    ? { command: 'reap', say: (line) => console.error(line), warn: (line) => console.error(line), progressStream: process.stderr }
    : { command: 'reap', say: (line) => console.log(line), warn: (line) => console.error(line), progressStream: process.stdout };
  const awsEndpoint = process.env.HOPLAB_AWS_ENDPOINT || undefined;
  // The emulator runs the aws-cluster stacks only, and holds AWS only; a config whose gcp.project is the placeholder
  // has no GCP (deploy refuses it there), so there is no GCP to tear down or search.
  const noGcp = config.gcp.project === DEFAULT_GCP_PROJECT;
  const kinds: StackKind[] = awsEndpoint ? ['aws-cluster'] : STACK_KINDS.filter((k) => !(noGcp && k.startsWith('gcp-')));
  const clouds = cloudsOf(kinds);
  const cwd = process.cwd();
  // reap's own lines fit 80 columns (teardown's progress lines are teardown's).
  const say = (text: string) => wrapIndented(text, 80, '', '  ').forEach((line) => io.say(line));
  if (awsEndpoint) say('note: HOPLAB_AWS_ENDPOINT is set (the emulator): only the aws-cluster stacks are torn down, and only AWS is searched');
  else if (noGcp) say(`note: gcp.project is the placeholder "${DEFAULT_GCP_PROJECT}" (no GCP lab): only AWS is torn down and searched`);

  const expiresAt = config.workshop.expiresAt;
  const expired = hasExpired(expiresAt, now);
  const teardown: { -readonly [K in keyof ReapTeardown]: ReapTeardown[K] } = { ran: false, environments: [], failed: [], leftovers: [], unchecked: [] };
  let placed: DeployedPlacement | undefined;
  if (!expired) {
    teardown.why = expiresAt === undefined ? 'workshop.expiresAt is unset' : `workshop.expiresAt (${expiresAt}) has not passed`;
    const until =
      expiresAt === undefined
        ? `workshop.expiresAt is unset: nothing is torn down until it is set and has passed (e.g. ${expiryExample(now)})`
        : `workshop.expiresAt (${expiresAt}) has not passed (it is ${utcMinute(now)} now): nothing is torn down before then`;
    say(`hoplab reap: ${until}; searching for expired labs all the same`);
  } else {
    say(`hoplab reap: workshop.expiresAt (${expiresAt}) has passed (it is ${utcMinute(now)} now)`);
    checkLifecycleRequest('destroy', kinds, awsEndpoint, config);
    // Local state with nothing in it: nothing to destroy, and no credentials needed to know it.
    const nothing = nothingDeployedFor(
      config.backend,
      stackGraph(envs, 'destroy', kinds).map((t) => t.stack),
      cwd,
      awsEndpoint,
    );
    if (nothing) {
      teardown.why = 'nothing is deployed here';
      say(`reap: ${nothing}; nothing to tear down`);
    } else {
      const missing = await credentialsProblems(config, clouds, awsEndpoint, deps);
      if (missing.length > 0) return refuseWithout(io, missing);
      placed = await placeDeployed(config, { cwd, awsEndpoint, clouds });
      const state = placed.state;
      const standing = envs.filter((env) => state.aws.has(env) || state.gcp.has(env) || state.unread.some((u) => u.env === env));
      if (standing.length === 0) {
        teardown.why = 'no environment has state here';
        say(`reap: none of ${plural(envs.length, 'environment')} has state here; nothing to tear down`);
      } else {
        checkLifecycleRequest('destroy', kinds, awsEndpoint, config, undefined, undefined, { placed, envs: standing });
        const unreachable = await accountProblems(config, placed, standing, clouds, awsEndpoint, deps);
        if (unreachable.length > 0) return refuseWithout(io, unreachable);
        say(`reap: ${plural(standing.length, 'environment')} ${standing.length === 1 ? 'has' : 'have'} state here, torn down where ${standing.length === 1 ? 'it is' : 'each is'}:`);
        for (const env of standing) wrapIndented(`${env}: ${whereState(state, env, clouds)}`, 80, '  ', '    ').forEach((line) => io.say(line));
        if (json && !values.yes) {
          io.warn('hoplab reap: --format json asks nothing; add --yes to tear down (nothing destroyed)');
          return 1;
        }
        if (!(await confirm('reap', destroyQuestion(kinds, standing), values.yes))) return 1;
        const { result, aborted } = await destroyPlaced(io, {
          config,
          envs: standing,
          kinds,
          parallelism: values.parallelism,
          awsEndpoint,
          placed,
          leftoverFinders: deps.leftoverFinders,
        });
        if (aborted) {
          io.warn('hoplab reap: interrupted; nothing searched (run it again)');
          return 130;
        }
        const envOf = new Map(stackGraph(standing, 'destroy', kinds).map((t) => [t.stack, t.env]));
        const failed = new Set(result.outcomes.filter((o) => o.status !== 'done').map((o) => envOf.get(o.stack) ?? o.stack));
        Object.assign(teardown, {
          ran: true,
          environments: standing,
          failed: standing.filter((env) => failed.has(env)),
          leftovers: result.leftovers,
          unchecked: result.uncheckedClouds,
        });
      }
    }
  }

  // Where this host's states said each environment was (before this run tore any down): a lab found there is its own.
  placed ??= await placeDeployed(config, { cwd, awsEndpoint, clouds });
  const state = placed.state;
  const places = searchPlaces(config, state, clouds);
  const search = await searchTags(places, { awsEndpoint, finders: deps.tagFinders, gcpApis: deps.gcpApis });
  const tornDown = new Map(teardown.environments.map((env) => [env, teardown.failed.includes(env) ? ('failed' as const) : ('destroyed' as const)]));
  const stateSlot = (cloud: Cloud, env: string) => (cloud === 'aws' ? state.aws : state.gcp).get(env)?.slot.id ?? (state.unread.some((u) => u.env === env && u.cloud === cloud) ? 'unread' : undefined);
  const judged = judgeLabs(labsOf(search.resources), { now, stateSlot, tornDown }).filter((lab) => values.env === undefined || envs.includes(lab.env));
  const roleOf = (slot: string) => places.aws.find((s) => s.id === slot)?.account?.roleArn;
  const report: ReapReport = {
    schema: 'hoplab.reap/v1',
    now: now.toISOString(),
    workshop: { name: config.workshop.name, expiresAt: expiresAt ?? null, expired },
    teardown,
    searched: search.places,
    labs: judged.map((lab) => reportedLab(lab, lab.status === 'no state here' ? { role: lab.cloud === 'aws' ? roleOf(lab.slot) : undefined, delete: deleteSteps(lab) } : {})),
    clean: false,
  };
  const verdict = reapVerdict(report);
  const final = { ...report, clean: verdict.code === 0 };
  const last = wrapIndented(verdict.line, 80, '', '  ');
  if (json) {
    console.log(JSON.stringify(final, null, 2));
    last.forEach((line) => io.warn(line));
    return verdict.code;
  }
  for (const line of searchLines(final)) io.say(line);
  last.forEach((line) => (verdict.code === 0 ? io.say(line) : io.warn(line)));
  return verdict.code;
}

/** `aws host/us-east-1, gcp acme-lab-1/us-central1`: where an environment's states say it is; or that one could not be read. */
function whereState(state: DeployedSlots, env: string, clouds: readonly Cloud[]): string {
  return clouds
    .map((cloud) => {
      const deployed = (cloud === 'aws' ? state.aws : state.gcp).get(env);
      if (deployed) return `${cloud} ${deployed.slot.id}`;
      return state.unread.some((u) => u.env === env && u.cloud === cloud) ? `${cloud}: its state could not be read` : `${cloud}: no state`;
    })
    .join(', ');
}
