/**
 * Which of the demo app's Pods serve now, as the cluster's API says, for
 * `watch --endpoints`: one list of the app's Pods (`GET .../pods` with the
 * app's labels, from the API server's cache: the first `resourceVersion=0`,
 * each next one nothing older than the list before, so that a read answered
 * by another API server whose cache lags, as EKS and regional GKE run
 * several, never goes back in time). A Pod
 * serves while it is Ready (its readiness probe, and on AWS its load
 * balancers' readiness gates) and not being deleted: that is when its
 * Services' EndpointSlices count it ready, and kube-proxy and the
 * container-native controllers send it new connections. One that is
 * terminating, not ready or deleted has left them; a node with no serving Pod
 * left has none to answer from. That is known the moment the API knows it,
 * while the replies can only show it once a Pod has been missing from too
 * many of them to be chance (lib/commands/watch/changes.ts).
 */
import { KubernetesClient } from '../../kit/kubernetes/kubernetes-client';
import { DEMO_APP_LABELS } from '../../constructs/k8s/demo-app';
import { APP_NAMESPACE } from '../../model/names';

/** The app's Pods at one read: those serving (Pod → its node) and why each other one does not. */
export interface ServingPods {
  readonly serving: ReadonlyMap<string, string>;
  readonly notServing: ReadonlyMap<string, string>;
  /** The list's `metadata.resourceVersion`: the next read asks for nothing older. @default - none (the API gave none) */
  readonly resourceVersion?: string;
}

/** A Pod that stopped serving between two reads, its node and why. */
export interface PodLeft {
  readonly pod: string;
  readonly node: string;
  readonly why: string;
}

/** What changed between two reads: the Pods that left (in name order), and the nodes left without a serving Pod. */
export interface ServingChange {
  readonly podsLeft: readonly PodLeft[];
  readonly nodesLeft: readonly string[];
}

interface PodObject {
  readonly metadata?: { readonly name?: string; readonly deletionTimestamp?: string };
  readonly spec?: { readonly nodeName?: string };
  readonly status?: { readonly conditions?: readonly { readonly type?: string; readonly status?: string }[] };
}

/** The label selector of the app's Pods. */
export const APP_POD_SELECTOR = Object.entries(DEMO_APP_LABELS)
  .map(([k, v]) => `${k}=${v}`)
  .join(',');

/** Which of `pods` serve (Ready, not being deleted, on a node) and why the others do not. */
export function servingOf(pods: readonly PodObject[]): ServingPods {
  const serving = new Map<string, string>();
  const notServing = new Map<string, string>();
  for (const pod of pods) {
    const name = pod.metadata?.name;
    if (!name) continue;
    const ready = (pod.status?.conditions ?? []).find((c) => c.type === 'Ready')?.status === 'True';
    if (pod.metadata?.deletionTimestamp) notServing.set(name, 'terminating');
    else if (!ready) notServing.set(name, 'not ready');
    else if (!pod.spec?.nodeName) notServing.set(name, 'on no node');
    else serving.set(name, pod.spec.nodeName);
  }
  return { serving, notServing };
}

/**
 * Reads the app's Pods of one cluster from the API server's cache: any version of it
 * (`resourceVersion=0`), or with `notOlderThan` (the last list's resourceVersion) one no older
 * (`resourceVersionMatch=NotOlderThan`): `0` may answer with a list older than one already read
 * when another API server, whose cache lags, answers (https://kubernetes.io/docs/reference/using-api/api-concepts/#semantics-for-get-and-list).
 */
export async function readServingPods(client: KubernetesClient, notOlderThan?: string): Promise<ServingPods> {
  const version: Record<string, string> = notOlderThan ? { resourceVersion: notOlderThan, resourceVersionMatch: 'NotOlderThan' } : { resourceVersion: '0' };
  const list = await client.get<{ metadata?: { resourceVersion?: string }; items?: PodObject[] }>(`/api/v1/namespaces/${APP_NAMESPACE}/pods`, {
    labelSelector: APP_POD_SELECTOR,
    ...version,
  });
  const resourceVersion = list.metadata?.resourceVersion;
  return { ...servingOf(list.items ?? []), ...(resourceVersion ? { resourceVersion } : {}) };
}

/** The Pods that served at `before` and do not at `after` (`deleted` when gone from the list), and the nodes left without a serving Pod. */
export function servingChange(before: ServingPods, after: ServingPods): ServingChange {
  const podsLeft = [...before.serving]
    .filter(([pod]) => !after.serving.has(pod))
    .map(([pod, node]) => ({ pod, node, why: after.notServing.get(pod) ?? 'deleted' }))
    .sort((a, b) => a.pod.localeCompare(b.pod));
  const nodesAfter = new Set(after.serving.values());
  const nodesLeft = [...new Set(before.serving.values())].filter((node) => !nodesAfter.has(node)).sort();
  return { podsLeft, nodesLeft };
}
