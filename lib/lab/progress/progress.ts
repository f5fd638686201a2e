/**
 * Each attendee's progress through their handout's exercises, as the host
 * sees it: every cluster read with the host's admin access (what the checks
 * need: Deployment echo, the app's Services and Pods, the nodes), then each
 * exercise checked. `progressOf` is a pure function of what was read, for any
 * view (the progress command's table and JSON; a live page that reads again
 * and again, passing its previous results so that what was done stays done).
 */
import { LabEnvironment } from '../../config/environments';
import { LabConfig } from '../../config/schema';
import { EXPOSURE_LABEL } from '../../constructs/k8s/demo-app';
import { KubernetesClient } from '../../kit/kubernetes/kubernetes-client';
import { Cloud } from '../../model/contract';
import { APP_NAMESPACE, DEMO_DEPLOYMENT } from '../../model/names';
import { ClusterTarget, clusterTarget, hostClusterClient, HostTokens, isUnreachable, Unreachable } from '../cluster/cluster-access';
import { APP_POD_SELECTOR } from '../cluster/serving-pods';
import { LabOutputs } from '../files/outputs';
import { Limiter } from '../probe/limiter';
import { CheckFacts, checkOf, ClusterState, ExerciseResult, KubeObject, Read } from './checks';
import { hubbleClouds, PlannedExercise, plannedExercises } from './exercise-plan';

/** One attendee's exercises, as their handout gives them. */
export interface AttendeePlan {
  readonly env: string;
  /** The attendee's name; the environment's for a lab that is no attendee's. */
  readonly attendee: string;
  readonly exercises: readonly PlannedExercise[];
  /** Why none could be planned (no outputs of the environment). @default - planned */
  readonly why?: string;
}

export interface AttendeeProgress {
  readonly env: string;
  readonly attendee: string;
  readonly exercises: readonly ExerciseResult[];
  /** Why no exercise could be looked at (no outputs of the environment). @default - looked at */
  readonly why?: string;
}

/** What was read of each cluster, by `<env>/<cloud>`, or why it could not be read at all. */
export type ClusterStates = ReadonlyMap<string, ClusterState | { readonly why: string }>;

export const stateKey = (env: string, cloud: Cloud) => `${env}/${cloud}`;

/** What a read failed with, in one line. */
const whyOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Each attendee's exercises checked against what was read. An exercise done in `previous` stays done
 * (a drained node put back leaves no trace; a live view keeps what it saw).
 */
export function progressOf(plans: readonly AttendeePlan[], states: ClusterStates, facts: CheckFacts, previous: readonly AttendeeProgress[] = []): AttendeeProgress[] {
  return plans.map((plan) => {
    const before = previous.find((p) => p.env === plan.env);
    const exercises = plan.exercises.map((exercise): ExerciseResult => {
      const base = { id: exercise.id, cloud: exercise.cloud, mode: exercise.mode };
      const check = checkOf(exercise);
      if (!check) return { ...base, status: 'could not check', why: `no check for exercise ${exercise.id}` };
      if (check.kind === 'not checkable') return { ...base, status: 'not checkable', why: check.why };
      const state = states.get(stateKey(plan.env, exercise.cloud));
      let result: ExerciseResult;
      if (!state) result = { ...base, status: 'could not check', why: `${plan.env}'s ${exercise.cloud === 'aws' ? 'EKS' : 'GKE'} cluster was not read` };
      else if ('why' in state) result = { ...base, status: 'could not check', why: state.why };
      else {
        const failed = check.needs.map((need) => state[need]).find((read): read is { why: string } => 'why' in read);
        result = failed ? { ...base, status: 'could not check', why: failed.why } : { ...base, ...check.run(exercise, state, facts) };
      }
      const earlier = before?.exercises.find((e) => e.id === exercise.id && e.cloud === exercise.cloud && e.mode === exercise.mode);
      return earlier?.status === 'done' && result.status !== 'done' ? { ...earlier, why: `${earlier.why.replace(/ \(seen earlier\)$/, '')} (seen earlier)` } : result;
    });
    return { env: plan.env, attendee: plan.attendee, exercises, ...(plan.why ? { why: plan.why } : {}) };
  });
}

/** Reads what the checks need of one cluster, each read on its own (one failing leaves the others). */
export async function readClusterState(client: KubernetesClient): Promise<ClusterState> {
  const read = async <T>(work: () => Promise<T>): Promise<Read<T>> => {
    try {
      return { value: await work() };
    } catch (error) {
      return { why: whyOf(error) };
    }
  };
  const items = (list: { items?: KubeObject[] }) => list.items ?? [];
  const [deployment, services, nodes, pods] = await Promise.all([
    read(() => client.get<KubeObject>(`/apis/apps/v1/namespaces/${APP_NAMESPACE}/deployments/${DEMO_DEPLOYMENT}`)),
    read(async () => {
      const list = items(await client.get<{ items?: KubeObject[] }>(`/api/v1/namespaces/${APP_NAMESPACE}/services`, { labelSelector: EXPOSURE_LABEL }));
      return Object.fromEntries(list.map((s) => [((s.metadata as { labels?: Record<string, string> } | undefined)?.labels ?? {})[EXPOSURE_LABEL] ?? '', s]));
    }),
    read(async () => items(await client.get<{ items?: KubeObject[] }>('/api/v1/nodes'))),
    read(async () => items(await client.get<{ items?: KubeObject[] }>(`/api/v1/namespaces/${APP_NAMESPACE}/pods`, { labelSelector: APP_POD_SELECTOR }))),
  ]);
  return { deployment, services, nodes, pods };
}

/** One cluster progress reads: whose, which cloud's, and where it is (or why it cannot be reached from the outputs). */
export interface ProgressCluster {
  /** `<env>/<cloud>` ({@link stateKey}). */
  readonly key: string;
  readonly env: string;
  readonly cloud: Cloud;
  readonly target: ClusterTarget | Unreachable;
}

export interface PlanProgressOptions {
  readonly outputs: LabOutputs;
  readonly config: LabConfig;
  /** The environments to check, in order. */
  readonly environments: readonly LabEnvironment[];
}

/** Each environment's plan, and the clusters a state check of it looks at (only those are read). */
export function planProgress(options: PlanProgressOptions): { plans: AttendeePlan[]; clusters: ProgressCluster[] } {
  const hubble = hubbleClouds(options.config);
  const plans: AttendeePlan[] = options.environments.map((environment) => {
    const attendee = environment.attendee?.name ?? environment.name;
    const outputs = options.outputs.environments.find((e) => e.env === environment.name);
    if (!outputs) return { env: environment.name, attendee, exercises: [], why: `no outputs for environment ${environment.name} (not deployed, or not in the outputs read)` };
    return { env: environment.name, attendee, exercises: plannedExercises(outputs, hubble) };
  });
  const clusters = plans.flatMap((plan) =>
    [...new Set(plan.exercises.filter((e) => checkOf(e)?.kind === 'state').map((e) => e.cloud))].map((cloud) => ({
      key: stateKey(plan.env, cloud),
      env: plan.env,
      cloud,
      target: clusterTarget(options.outputs.environments.find((e) => e.env === plan.env)!, cloud, options.config),
    })),
  );
  return { plans, clusters };
}

/**
 * What progress reads of one cluster, as the host: the host's token first (without one, the
 * whole cluster could not be checked, saying why once), then each read.
 */
export async function readCluster(target: ClusterTarget | Unreachable, tokens: HostTokens, timeoutMs?: number): Promise<ClusterState | { readonly why: string }> {
  if (isUnreachable(target)) return target;
  try {
    await tokens.token(target);
  } catch (error) {
    return { why: `no token for ${target.clusterName}: ${whyOf(error)}` };
  }
  return readClusterState(hostClusterClient(target, tokens, timeoutMs));
}

export interface ReadProgressOptions extends PlanProgressOptions {
  /** The host's access. */
  readonly tokens: HostTokens;
  /** Bound of each request. @default - the Kubernetes client's */
  readonly timeoutMs?: number;
  /** Clusters read at once. @default 8 */
  readonly concurrency?: number;
}

/** Each environment's plan, and what was read of each of its clusters that a check needs. */
export async function readProgress(options: ReadProgressOptions): Promise<{ plans: AttendeePlan[]; states: ClusterStates }> {
  const { plans, clusters } = planProgress(options);
  const states = new Map<string, ClusterState | { why: string }>();
  const limiter = new Limiter(options.concurrency ?? 8);
  await Promise.all(clusters.map((cluster) => limiter.run(async () => void states.set(cluster.key, await readCluster(cluster.target, options.tokens, options.timeoutMs)))));
  return { plans, states };
}
