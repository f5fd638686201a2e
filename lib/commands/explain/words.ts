/**
 * The words every `explain` view shares: the facts of an exposure in short
 * and long form, the datapath and capacity lines, the notes, and the URLs
 * from deployed outputs.
 */
import { Cloud } from '../../model/contract';
import { neighbourText } from '../../lab/anatomy/matrix';
import { CloudExplanation, DatapathExplanation, ExposureExplanation, PodCapacity, shown } from '../../lab/anatomy/model';
import { LabOutputs } from '../../lab/files/outputs';

export { CLOUD_TITLE } from '../../lab/pictures/path-diagram';

/** `2 (LB -> node -> Pod), SNAT on the node`. */
export function hopsText(e: ExposureExplanation): string {
  if (e.expected_hops === null) {
    return 'unknown';
  }
  const snat = e.snat === null ? '' : e.snat ? ', SNAT on the node' : ', no SNAT';
  return `${e.expected_hops} (LB -> ${e.expected_hops === 1 ? 'Pod' : 'node -> Pod'})${snat}`;
}

export const VIA_TEXT = { 'tcp-source': 'TCP source', 'x-forwarded-for': 'X-Forwarded-For', none: 'LOST' } as const;

/** `kept (X-Forwarded-For): ...`, `kept (TCP source): ...` or `LOST: ...`: where the Pod finds the client, then the detail. */
export function clientText(e: ExposureExplanation): string {
  if (e.client_ip_via === null) return e.client_ip_seen_as;
  return `${e.client_ip_via === 'none' ? 'LOST' : `kept (${VIA_TEXT[e.client_ip_via]})`}: ${e.client_ip_seen_as}`;
}

/** The short form for the summary: `client IP via X-Forwarded-For`, `client IP LOST`. */
export function clientShort(e: ExposureExplanation): string {
  if (e.client_ip_via === null) return 'client IP unknown';
  return e.client_ip_via === 'none' ? 'client IP LOST' : `client IP via ${VIA_TEXT[e.client_ip_via]}`;
}

/** The shortest: `X-Forwarded-For`, `TCP source`, `LOST`, `unknown`. */
export function clientWord(e: ExposureExplanation): string {
  return e.client_ip_via === null ? 'unknown' : VIA_TEXT[e.client_ip_via];
}

/** `SNAT`, `no` or `unknown`. */
export function snatWord(e: ExposureExplanation): string {
  return e.snat === null ? 'unknown' : e.snat ? 'SNAT' : 'no';
}

/** `client -> NLB -> node -> Pod`: the steps' places, without their details. */
export function shortPath(e: ExposureExplanation): string {
  if (e.path.length === 0) return 'unknown';
  return e.path.map((s) => s.at.replace(/^(node|Pod) \(.*\)$/, '$1')).join(' -> ');
}

/**
 * Why two exposures of `cloud` that the summary shows on the same path have
 * different hops (`nodeport-local`'s 1 and `nodeport-l4`'s 2): the traffic
 * policy decides whether the receiving node may send the packet on to a Pod
 * on another node. One line per such pair, in the words of the facts.
 */
export function hopsReasons(cloud: CloudExplanation): string[] {
  const lines: string[] = [];
  for (const local of cloud.exposures.filter((e) => e.targets === 'nodes' && e.external_traffic_policy === 'Local' && e.expected_hops !== null)) {
    for (const other of cloud.exposures) {
      if (other.targets !== 'nodes' || other.external_traffic_policy !== 'Cluster' || other.expected_hops === null || other.expected_hops === local.expected_hops) continue;
      if (shortPath(other) !== shortPath(local)) continue;
      lines.push(
        `${local.mode} is ${hopsCount(local.expected_hops ?? 0)} on the same path as ${other.mode}'s ${other.expected_hops}: with externalTrafficPolicy Local the load balancer sends ` +
          'only to nodes with a ready Pod, and each hands the packet to its own Pod; with Cluster any node may send it on to a Pod on another node (the second hop)',
      );
    }
  }
  return lines;
}

const hopsCount = (n: number) => `${n} hop${n === 1 ? '' : 's'}`;

/** What the node does, in words: `yes: kube-proxy-iptables: DNAT ... + SNAT ...`, or why not. */
export function snatText(e: ExposureExplanation): string {
  const nodeStep = e.path.find((s) => s.at.startsWith('node'));
  if (e.snat === null) return 'unknown';
  if (e.snat) return `yes, on the node: ${nodeStep?.then ?? 'the node rewrites the source address'}`;
  return nodeStep ? `no: ${nodeStep.then}` : 'no: the load balancer sends to the Pod IP itself, no node rewrites the packet';
}

const KIND_OF_TYPE: Readonly<Record<string, string>> = { kubernetes_ingress_v1: 'Ingress', kubernetes_service_v1: 'Service' };

/** `kubernetes_ingress_v1.native-ingress` -> `Ingress native-ingress`. */
function objectText(address: string): string {
  const dot = address.indexOf('.');
  const kind = KIND_OF_TYPE[address.slice(0, dot)];
  return kind ? `${kind} ${address.slice(dot + 1)}` : address;
}

export function objectsText(e: ExposureExplanation): string {
  if (e.kubernetes_objects) return e.kubernetes_objects;
  const addresses = [e.entry, e.service].filter((a, i, all): a is string => a !== null && all.indexOf(a) === i);
  return addresses.length ? addresses.map(objectText).join(' -> ') : 'unknown';
}

/** `gateway (api: Gateway API vs core API); ...`, `none` or `unknown`. */
export function neighboursText(e: ExposureExplanation): string {
  return e.differs_in_one.length ? e.differs_in_one.map(neighbourText).join('; ') : e.variables ? 'none' : 'unknown';
}

/** Rows of facts per exposure: [label, value(e)]. */
export const FACT_ROWS: readonly (readonly [string, (e: ExposureExplanation) => string])[] = [
  ['path', (e) => e.path_summary],
  ['hops LB -> Pod', hopsText],
  ['client IP at the Pod', clientText],
  ['health check', (e) => e.health_check],
  ['LB / target type', (e) => `${shown(e.lb_kind)} / ${shown(e.target_type)}${e.targets ? ` (${e.targets})` : ''}`],
  ['externalTrafficPolicy', (e) => shown(e.external_traffic_policy)],
  ['datapath', (e) => e.datapath_effect],
  ['layer / API', (e) => `${shown(e.layer)} / ${shown(e.api)}`],
  ['differs in one variable from', neighboursText],
  ['objects', objectsText],
];

export function datapathLines(datapath: DatapathExplanation | null): string[] {
  if (!datapath) {
    return ['datapath: unknown (cluster stack not synthesized)'];
  }
  return [
    `datapath: ${shown(datapath.dataplane)} (${datapath.implementation})`,
    ...datapath.evidence.map((e) => `  from ${e}`),
    `  backend selection: ${datapath.backend_selection}`,
    `  SNAT: ${datapath.cluster_policy_snat}`,
    ...datapath.unchanged.map((u) => `  unchanged: ${u}`),
    ...datapath.probe_limits.map((p) => `  a small probe ${p}`),
    ...datapath.notes.map((n) => `  note: ${n}`),
  ];
}

/** The matrix of one cloud: a row and a column per exposure, the one variable where two differ only in it. */
export function matrixRows(cloud: CloudExplanation): string[][] {
  return cloud.exposures.map((row) => [row.mode, ...cloud.exposures.map((column) => (column === row ? '-' : row.differs_in_one.find((n) => n.mode === column.mode)?.variable ?? ''))]);
}

/** Each pair one variable apart once, grouped by the variable: `targets: native<->nodeport, ...`. */
export function pairsText(cloud: CloudExplanation): string[] {
  const byVariable = new Map<string, string[]>();
  cloud.exposures.forEach((e, i) => {
    for (const n of e.differs_in_one) {
      if (cloud.exposures.findIndex((x) => x.mode === n.mode) > i) {
        byVariable.set(n.variable, [...(byVariable.get(n.variable) ?? []), `${e.mode}<->${n.mode}`]);
      }
    }
  });
  return [...byVariable].map(([variable, pairs]) => `${variable}: ${pairs.join(', ')}`);
}

/** `17 Pods per node on 2 x t3.medium`, or what is unknown. */
export function capacityShort(capacity: PodCapacity | null): string {
  if (!capacity) return 'Pod capacity unknown';
  return `${shown(capacity.max_pods_per_node)} Pods per node` + (capacity.node_count !== null ? ` on ${capacity.node_count}${capacity.machine_type ? ` x ${capacity.machine_type}` : ' nodes'}` : '');
}

export function capacityLines(capacity: PodCapacity | null): string[] {
  if (!capacity) {
    return ['Pod capacity: unknown (cluster stack not synthesized)'];
  }
  const lines = [
    `Pod capacity: ${shown(capacity.max_pods_per_node)} Pods per node` + (capacity.max_pods_per_node_reason ? ` (${capacity.max_pods_per_node_reason})` : ''),
    `  nodes: ${shown(capacity.node_count)}${capacity.machine_type ? ` x ${capacity.machine_type}` : ''}; ` +
      `Pod addresses: ${capacity.pod_address_range.length ? capacity.pod_address_range.join(', ') : 'unknown'}` +
      (capacity.per_node_range ? `; per-node alias range ${capacity.per_node_range}` : '') +
      (capacity.max_nodes_for_pod_range !== null ? `; addresses for at most ${capacity.max_nodes_for_pod_range} nodes` : ''),
  ];
  return [...lines, ...capacity.notes.map((n) => `  - ${n}`)];
}

/** What the cloud does not offer, and every note of the cloud and its exposures. */
export function cloudNotes(cloud: CloudExplanation): string[] {
  const lines = [...cloud.not_offered.map((n) => `not offered: ${n.mode}: ${n.reason}`), ...cloud.notes.map((n) => `note: ${n}`)];
  for (const e of cloud.exposures) {
    lines.push(...e.notes.map((n) => `note (${e.mode}): ${n}`));
  }
  return lines;
}

/** URLs of deployed exposures: environment -> cloud -> mode -> URL. */
export type ExposureUrls = ReadonlyMap<string, Partial<Record<Cloud, ReadonlyMap<string, string>>>>;

/** The URLs in `cdktf output` outputs (see `compare --outputs`). */
export function urlsFromOutputs(outputs: LabOutputs): ExposureUrls {
  const urls = new Map<string, Partial<Record<Cloud, Map<string, string>>>>();
  for (const env of outputs.environments) {
    const byCloud: Partial<Record<Cloud, Map<string, string>>> = {};
    for (const cloud of ['aws', 'gcp'] as const) {
      const found = new Map<string, string>();
      for (const exposure of env.exposures[cloud] ?? []) {
        if (exposure.url) found.set(exposure.mode, exposure.url);
      }
      if (found.size) byCloud[cloud] = found;
    }
    urls.set(env.env, byCloud);
  }
  return urls;
}

/** The URL of one exposure, if the outputs gave it. */
export function urlOf(urls: ExposureUrls | undefined, env: string, cloud: Cloud, mode: string): string | undefined {
  return urls?.get(env)?.[cloud]?.get(mode);
}
