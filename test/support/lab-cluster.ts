/**
 * A lab's cluster as its API answers (for test/support/kubernetes-api.ts): the demo
 * app's Deployment, its Pods, the exposures' Services and the nodes, in the shape the
 * API returns them, at a point of an attendee's exercises: scaled or not, a Service
 * flipped or not, a rollout restarted and how far, a node cordoned.
 */
import { Cloud } from '../../lib/model/contract';
import { Json } from './synth';

export interface LabClusterState {
  readonly cloud: Cloud;
  /** config `app.replicas`. @default 2 */
  readonly labReplicas?: number;
  /** The Deployment's spec.replicas now. @default labReplicas */
  readonly replicas?: number;
  /** Ready replicas. @default replicas */
  readonly ready?: number;
  /** Whether kubectl scale wrote spec.replicas (its managedFields entry). @default false */
  readonly scaledWithKubectl?: boolean;
  /** `kubectl rollout restart` done: updated replicas so far (undefined: no restart). */
  readonly restarted?: { readonly updated: number; readonly gatesTrue: boolean };
  /** nodeport-local's policy, and whether kubectl patch wrote it. @default Local, not patched */
  readonly localPolicy?: 'Local' | 'Cluster';
  readonly patchedWithKubectl?: boolean;
  /** Nodes cordoned now (of node-a, node-b, node-c), and whether the app's Pods have left them. */
  readonly cordoned?: readonly string[];
}

const NODES = ['node-a', 'node-b', 'node-c'];
const GATES: Readonly<Record<Cloud, string>> = { aws: 'target-health.elbv2.k8s.aws/k8s-hoplab-echonati-3f1c2a9b7d', gcp: 'cloud.google.com/load-balancer-neg-ready' };
const terraform = { manager: 'Terraform', operation: 'Update', apiVersion: 'v1', time: '2026-12-07T07:00:00Z', fieldsV1: { 'f:metadata': { 'f:labels': {} }, 'f:spec': {} } };

/** The recorded objects of one cluster, by path. */
export function labClusterObjects(state: LabClusterState): Record<string, Json> {
  const labReplicas = state.labReplicas ?? 2;
  const replicas = state.replicas ?? labReplicas;
  const ready = state.ready ?? replicas;
  const generation = state.restarted ? 3 : 2;
  const deployment = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: 'echo',
      namespace: 'hoplab',
      generation,
      managedFields: [
        { ...terraform, fieldsV1: { 'f:spec': { 'f:replicas': {}, 'f:template': {} } } },
        ...(state.scaledWithKubectl ? [{ manager: 'kubectl-scale', operation: 'Update', subresource: 'scale', time: '2026-12-07T09:10:00Z', fieldsV1: { 'f:spec': { 'f:replicas': {} } } }] : []),
        ...(state.restarted
          ? [
              {
                manager: 'kubectl-rollout',
                operation: 'Update',
                time: '2026-12-07T09:20:00Z',
                fieldsV1: { 'f:spec': { 'f:template': { 'f:metadata': { 'f:annotations': { 'f:kubectl.kubernetes.io/restartedAt': {} } } } } },
              },
            ]
          : []),
      ],
    },
    spec: {
      replicas,
      template: { metadata: { labels: { 'app.kubernetes.io/name': 'hoplab-echo' }, ...(state.restarted ? { annotations: { 'kubectl.kubernetes.io/restartedAt': '2026-12-07T09:20:00Z' } } : {}) } },
    },
    status: {
      observedGeneration: generation,
      // While a rollout is under way an old Pod is still there beside the new ones (maxSurge).
      replicas: state.restarted && state.restarted.updated < replicas ? replicas + 1 : replicas,
      updatedReplicas: state.restarted ? state.restarted.updated : replicas,
      readyReplicas: ready,
      availableReplicas: ready,
    },
  };
  const cordoned = state.cordoned ?? [];
  const free = NODES.filter((n) => !cordoned.includes(n));
  const pods = Array.from({ length: replicas }, (_, i) => ({
    metadata: { name: `echo-7d9f-${i}`, namespace: 'hoplab', labels: { 'app.kubernetes.io/name': 'hoplab-echo', 'app.kubernetes.io/part-of': 'hoplab' } },
    spec: { nodeName: free[i % free.length], readinessGates: [{ conditionType: GATES[state.cloud] }] },
    status: {
      conditions: [
        { type: 'Ready', status: 'True' },
        { type: GATES[state.cloud], status: !state.restarted || state.restarted.gatesTrue ? 'True' : 'False' },
      ],
    },
  }));
  const service = (mode: string, policy: string, patched: boolean) => ({
    metadata: {
      name: `echo-${mode}`,
      namespace: 'hoplab',
      labels: { 'hoplab.dev/exposure': mode },
      managedFields: [terraform, ...(patched ? [{ manager: 'kubectl-patch', operation: 'Update', time: '2026-12-07T09:00:00Z', fieldsV1: { 'f:spec': { 'f:externalTrafficPolicy': {} } } }] : [])],
    },
    spec: { type: 'LoadBalancer', externalTrafficPolicy: policy },
  });
  return {
    '/apis/apps/v1/namespaces/hoplab/deployments/echo': deployment,
    '/api/v1/namespaces/hoplab/pods': { kind: 'PodList', apiVersion: 'v1', metadata: {}, items: pods },
    '/api/v1/namespaces/hoplab/services': {
      kind: 'ServiceList',
      apiVersion: 'v1',
      metadata: {},
      items: [service('native', 'Cluster', false), service('nodeport', 'Cluster', false), service('nodeport-local', state.localPolicy ?? 'Local', state.patchedWithKubectl ?? false)],
    },
    '/api/v1/nodes': { kind: 'NodeList', apiVersion: 'v1', metadata: {}, items: NODES.map((name) => ({ metadata: { name }, spec: cordoned.includes(name) ? { unschedulable: true } : {} })) },
  };
}

/** The same objects as answers of a cluster that changes: each request answers as `now()` says then (a test changes it while something reads). */
export function labClusterAnswers(now: () => LabClusterState): Record<string, () => Json> {
  // The paths are the same whatever the state.
  return Object.fromEntries(Object.keys(labClusterObjects({ cloud: 'aws' })).map((path) => [path, () => labClusterObjects(now())[path]]));
}
