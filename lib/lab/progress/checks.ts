/**
 * A machine check for every handout exercise whose result shows in the
 * cluster's state, built from the same facts as the exercise's words
 * (lib/commands/handout/exercises.ts; a test holds each check's values to the
 * text), and an explicit "not checkable" for the ones that leave no trace:
 * - snat on nodeport-local: the Service flipped to Cluster and back, so its
 *   externalTrafficPolicy is as the exercise leaves it (Local) and kubectl's
 *   write of it is in the Service's managedFields;
 * - local-health-check: Deployment echo scaled to 1 and back to the lab's
 *   replicas: back at that count, all ready, and kubectl's write of
 *   spec.replicas in its managedFields;
 * - readiness-gates: a `kubectl rollout restart` (its restartedAt annotation
 *   on the Pod template) rolled out completely, every Pod's load-balancer
 *   readiness gate True;
 * - drain: a node cordoned (spec.unschedulable), drained when no app Pod is
 *   left on it; once uncordoned nothing in the cluster shows it was, so a
 *   caller that looks again and again (the live page) keeps a "done" it saw.
 * Requests (curl, compare), reading a node's rules and Hubble's flows change
 * nothing in the cluster: those are "not checkable", never guessed.
 *
 * managedFields: the API server records, per field, which field manager last
 * set it; kubectl's commands write as `kubectl-<command>` (kubectl-scale,
 * kubectl-patch, kubectl-edit, ...), Terraform's provider as its own. See
 * https://kubernetes.io/docs/reference/using-api/server-side-apply/#field-management (read 2026-12-07).
 */
import { EXPOSURE_FACTS } from '../../model/exposure-facts';
import { Cloud } from '../../model/contract';
import { APP_NAMESPACE, DEMO_DEPLOYMENT } from '../../model/names';
import { isReadinessGate, READINESS_GATE_CONDITION } from '../../model/readiness-gates';
import { PlannedExercise } from './exercise-plan';

/** How an exercise stands. */
export type ExerciseStatus = 'done' | 'not yet' | 'could not check' | 'not checkable';

/** One exercise of one attendee: how it stands, and why, in words. */
export interface ExerciseResult {
  readonly id: string;
  readonly cloud: Cloud;
  readonly mode: string;
  readonly status: ExerciseStatus;
  readonly why: string;
}

const CLUSTER_KIND = { aws: 'EKS', gcp: 'GKE' } as const;

/** An exercise as every view names it: `snat (EKS nodeport-local)`. */
export const exerciseLabel = (e: Pick<ExerciseResult, 'id' | 'cloud' | 'mode'>) => `${e.id} (${CLUSTER_KIND[e.cloud]} ${e.mode})`;

/** A Kubernetes object as read (only the fields the checks use are typed). */
export interface KubeObject {
  readonly metadata?: {
    readonly name?: string;
    readonly generation?: number;
    readonly deletionTimestamp?: string;
    readonly annotations?: Readonly<Record<string, string>>;
    readonly managedFields?: readonly { readonly manager?: string; readonly subresource?: string; readonly fieldsV1?: unknown }[];
  };
  readonly spec?: Record<string, unknown>;
  readonly status?: Record<string, unknown>;
}

/** What one read of the cluster gave: the object(s), or why not. */
export type Read<T> = { readonly value: T } | { readonly why: string };

/** What progress reads of one cluster. */
export interface ClusterState {
  /** Deployment echo in namespace hoplab. */
  readonly deployment: Read<KubeObject>;
  /** The Services of namespace hoplab by the exposure they belong to (`hoplab.dev/exposure`). */
  readonly services: Read<Readonly<Record<string, KubeObject>>>;
  readonly nodes: Read<readonly KubeObject[]>;
  /** The demo app's Pods. */
  readonly pods: Read<readonly KubeObject[]>;
}

/** The facts of the snat exercise's nodeport-local case: the policy it flips to, and the one it leaves. */
export function snatFlip(cloud: Cloud): { readonly flippedTo: 'Cluster'; readonly leftAs: string } {
  return { flippedTo: 'Cluster', leftAs: EXPOSURE_FACTS[cloud]['nodeport-local']?.external_traffic_policy ?? 'Local' };
}

/** The facts of local-health-check: the replica count it scales down to, and back to (the lab's, config `app.replicas`). */
export function healthCheckScale(replicas: number): { readonly downTo: number; readonly backTo: number } {
  return { downTo: 1, backTo: replicas };
}

/** The annotation `kubectl rollout restart` puts on the Pod template (kubectl's own, in the well-known annotations). */
export const RESTARTED_AT = 'kubectl.kubernetes.io/restartedAt';

/** What a check needs to know beyond the cluster. */
export interface CheckFacts {
  /** config `app.replicas`. */
  readonly replicas: number;
}

/** How an exercise is checked: from which reads, or why it cannot be. */
export type ExerciseCheck =
  | {
      readonly kind: 'state';
      readonly needs: readonly (keyof ClusterState)[];
      /** Why this case of the exercise leaves no trace, if it does not. @default - every case leaves one */
      readonly notCheckable?: (exercise: PlannedExercise) => string | undefined;
      readonly run: (exercise: PlannedExercise, state: ClusterState, facts: CheckFacts) => { status: 'done' | 'not yet'; why: string };
    }
  | { readonly kind: 'not checkable'; readonly why: string };

/** Whether a managedFields entry of one of kubectl's field managers owns `path` (e.g. ['f:spec', 'f:replicas']). */
function kubectlWrote(object: KubeObject, path: readonly string[]): string | undefined {
  for (const entry of object.metadata?.managedFields ?? []) {
    if (!entry.manager?.startsWith('kubectl')) continue;
    let node: unknown = entry.fieldsV1;
    for (const key of path) node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
    if (node !== undefined) return entry.manager;
  }
  return undefined;
}

const num = (v: unknown) => (typeof v === 'number' ? v : 0);

/** The checks, by exercise id (every id of exercises.ts has one: a test holds them together). */
export const EXERCISE_CHECKS: Readonly<Record<string, ExerciseCheck>> = {
  snat: {
    kind: 'state',
    needs: ['services'],
    // With nodeport-l4 deployed the exercise is a curl only; with nodeport-local alone it flips the Service and back.
    notCheckable: (exercise) => (exercise.case === 'nodeport-local' ? undefined : 'a curl leaves nothing in the cluster (compare --probe measures it)'),
    run: (exercise, state) => {
      const services = (state.services as { value: Readonly<Record<string, KubeObject>> }).value;
      const service = services[exercise.mode];
      if (!service) return { status: 'not yet', why: `no Service of exposure ${exercise.mode} in namespace ${APP_NAMESPACE}` };
      const { flippedTo, leftAs } = snatFlip(exercise.cloud);
      const name = service.metadata?.name ?? exercise.mode;
      const policy = String(service.spec?.externalTrafficPolicy ?? 'Cluster');
      if (policy === flippedTo) return { status: 'not yet', why: `${name} is flipped to ${flippedTo}: flip it back to ${leftAs}` };
      const manager = kubectlWrote(service, ['f:spec', 'f:externalTrafficPolicy']);
      if (policy === leftAs && manager) return { status: 'done', why: `${name} flipped and back on ${leftAs} (${manager})` };
      return { status: 'not yet', why: `${name} is on ${policy} and was never flipped with kubectl` };
    },
  },
  'local-health-check': {
    kind: 'state',
    needs: ['deployment'],
    run: (_exercise, state, facts) => {
      const deployment = (state.deployment as { value: KubeObject }).value;
      const { downTo, backTo } = healthCheckScale(facts.replicas);
      const replicas = num(deployment.spec?.replicas);
      const ready = num(deployment.status?.readyReplicas);
      if (replicas === downTo && downTo !== backTo) return { status: 'not yet', why: `${DEMO_DEPLOYMENT} is at ${downTo} replica: scale it back to ${backTo}` };
      if (replicas !== backTo) return { status: 'not yet', why: `${DEMO_DEPLOYMENT} is at ${replicas} replicas; the exercise scales to ${downTo} and back to ${backTo}` };
      const manager = kubectlWrote(deployment, ['f:spec', 'f:replicas']);
      if (!manager) return { status: 'not yet', why: `${DEMO_DEPLOYMENT} was never scaled with kubectl` };
      if (ready < backTo) return { status: 'not yet', why: `${DEMO_DEPLOYMENT} back at ${backTo} replicas, ${ready} ready so far` };
      return { status: 'done', why: `${DEMO_DEPLOYMENT} scaled and back at ${backTo} replicas, all ready (${manager})` };
    },
  },
  'readiness-gates': {
    kind: 'state',
    needs: ['deployment', 'pods'],
    run: (exercise, state) => {
      const deployment = (state.deployment as { value: KubeObject }).value;
      const template = (deployment.spec?.template ?? {}) as KubeObject;
      if (!template.metadata?.annotations?.[RESTARTED_AT]) return { status: 'not yet', why: `no kubectl rollout restart of ${DEMO_DEPLOYMENT} yet` };
      const replicas = num(deployment.spec?.replicas);
      const updated = num(deployment.status?.updatedReplicas);
      const available = num(deployment.status?.availableReplicas);
      const total = num(deployment.status?.replicas);
      const observed = num(deployment.status?.observedGeneration) >= num(deployment.metadata?.generation);
      if (!observed || updated < replicas || available < replicas || total > updated) {
        return { status: 'not yet', why: `rollout of ${DEMO_DEPLOYMENT} under way: ${updated} of ${replicas} updated, ${available} available` };
      }
      const pods = (state.pods as { value: readonly KubeObject[] }).value.filter((p) => !p.metadata?.deletionTimestamp);
      const gate = READINESS_GATE_CONDITION[exercise.cloud].type;
      const gated = pods.filter((p) => ((p.spec?.readinessGates ?? []) as { conditionType?: string }[]).some((g) => isReadinessGate(exercise.cloud, g.conditionType ?? '')));
      if (gated.length < pods.length || pods.length === 0) {
        return { status: 'not yet', why: `rolled out, but ${pods.length - gated.length} of ${pods.length} Pods carry no ${gate}… readiness gate` };
      }
      const waiting = gated.filter((p) => ((p.status?.conditions ?? []) as { type?: string; status?: string }[]).some((c) => isReadinessGate(exercise.cloud, c.type ?? '') && c.status !== 'True'));
      if (waiting.length > 0) return { status: 'not yet', why: `readiness gate not yet True on ${waiting.map((p) => p.metadata?.name).join(', ')}` };
      return { status: 'done', why: `rolled out; every Pod's readiness gate is True (${pods.length} Pods)` };
    },
  },
  drain: {
    kind: 'state',
    needs: ['nodes', 'pods'],
    run: (_exercise, state) => {
      const nodes = (state.nodes as { value: readonly KubeObject[] }).value;
      const cordoned = nodes.filter((n) => n.spec?.unschedulable === true).map((n) => n.metadata?.name ?? '?');
      if (cordoned.length === 0) return { status: 'not yet', why: 'no node is cordoned now (put back, a drained node leaves no trace)' };
      const pods = (state.pods as { value: readonly KubeObject[] }).value.filter((p) => !p.metadata?.deletionTimestamp);
      const drained = cordoned.filter((node) => !pods.some((p) => p.spec?.nodeName === node));
      return drained.length > 0
        ? { status: 'done', why: `${drained.join(', ')} drained (no app Pod left on it); kubectl uncordon puts it back` }
        : { status: 'done', why: `${cordoned.join(', ')} cordoned; its Pods are being evicted` };
    },
  },
  'extra-hop': { kind: 'not checkable', why: 'requests only: nothing changes in the cluster (compare --probe measures it)' },
  datapath: { kind: 'not checkable', why: "reading a node's rules changes nothing in the cluster" },
  hubble: { kind: 'not checkable', why: "reading Hubble's flows changes nothing in the cluster (host-only)" },
};

/** The check of one planned exercise: a state check to run, why this exercise (or its case) cannot be checked, or undefined for an id with no entry. */
export function checkOf(exercise: PlannedExercise): Extract<ExerciseCheck, { kind: 'state' }> | { readonly kind: 'not checkable'; readonly why: string } | undefined {
  const check = EXERCISE_CHECKS[exercise.id];
  if (!check || check.kind === 'not checkable') return check;
  const why = check.notCheckable?.(exercise);
  return why ? { kind: 'not checkable', why } : check;
}
