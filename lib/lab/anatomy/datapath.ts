/**
 * The datapath of a cluster, read from its synthesized stack (the kube-proxy
 * add-on's configuration values, the node user data, the Cilium Helm release
 * and its values, GKE's `datapath_provider`), and what it changes, or does not,
 * for each exposure. The words are the `dataplane` output's (`DATAPLANES`).
 */
import { parse as parseYaml } from 'yaml';
import { Dataplane, DATAPLANES, IPVS_DEPRECATED_IN, UNVERIFIED_DATAPATH_NOTES } from '../../model/datapaths';
import { CLUSTER_OUTPUTS } from '../../model/contract';
import { DatapathExplanation, ExposureExplanation } from './model';
import { block, isRecord, literalString, outputValue, resourcesOf, SynthStack } from '../../kit/terraform/terraform-json';

const KUBE_PROXY_SNAT = 'with externalTrafficPolicy: Cluster, kube-proxy SNATs every request that arrives on a NodePort, even when the Pod it picks is on the receiving node';
const CILIUM_SNAT =
  'with externalTrafficPolicy: Cluster, Cilium SNATs a NodePort request only when the Pod it picks is on another node; a request served on the receiving node keeps the client address';

const UNCHANGED = [
  'ip-target (ALB/NLB) and NEG exposures: the load balancer sends to Pod IPs, so no NodePort, DNAT or SNAT is on the path',
  'externalTrafficPolicy: Local exposures: the health check on healthCheckNodePort still passes only on nodes with a ready Pod, and nothing is SNATed',
  'the load balancers, their target types, health checks and the worst-case hop counts',
];

const PROBE_LIMITS = [
  'can show: on nodeport-l4, the share of requests whose TCP source was the node of the Pod that answered versus another node (compare --probe): the masquerade difference',
  'cannot show: latency differences between datapaths; 20-100 requests over the internet vary by milliseconds, a datapath lookup costs microseconds',
  'cannot show: rule-count scaling (iptables walks its rules, IPVS, nftables and eBPF look up hash tables); that needs thousands of Services, the lab has a handful',
];

function selection(dataplane: Dataplane | null, detail: { scheduler?: string; algorithm?: string }): string {
  switch (dataplane) {
    case 'kube-proxy-iptables':
      return 'random: iptables statistic rules give each ready endpoint the same probability';
    case 'kube-proxy-nftables':
      return 'random: an nftables numgen map gives each ready endpoint the same probability';
    case 'kube-proxy-ipvs':
      return `IPVS scheduler ${detail.scheduler ?? 'rr'}${detail.scheduler === undefined || detail.scheduler === 'rr' ? ' (round robin, kept per node)' : ''}`;
    case 'cilium-ebpf':
      return detail.algorithm === 'maglev' ? 'Maglev consistent hashing: every node maps the same connection to the same backend' : 'random: an eBPF service map lookup picks any ready endpoint';
    default:
      return 'unknown';
  }
}

function explanation(dataplane: Dataplane | null, implementation: string, evidence: string[], detail: { scheduler?: string; algorithm?: string }, notes: string[]): DatapathExplanation {
  return {
    dataplane,
    implementation,
    evidence,
    backend_selection: selection(dataplane, detail),
    cluster_policy_snat: dataplane === null ? 'unknown' : dataplane === 'cilium-ebpf' ? CILIUM_SNAT : KUBE_PROXY_SNAT,
    unchanged: UNCHANGED,
    probe_limits: PROBE_LIMITS,
    notes,
  };
}

function parseJson(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function dataplaneOutput(stack: SynthStack): Dataplane | null {
  const value = outputValue(stack, CLUSTER_OUTPUTS.dataplane);
  return (DATAPLANES as readonly unknown[]).includes(value) ? (value as Dataplane) : null;
}

/** EKS: kube-proxy add-on mode (and node user data for IPVS), or the Cilium release. */
export function awsDatapath(stack: SynthStack): DatapathExplanation {
  const evidence: string[] = [];
  const notes: string[] = [];
  const cluster = resourcesOf(stack, 'aws_eks_cluster')[0];
  if (cluster?.config.bootstrap_self_managed_addons === false) {
    evidence.push(`${cluster.address}: bootstrap_self_managed_addons = false (no vpc-cni, kube-proxy or CoreDNS from EKS)`);
  }
  const cilium = resourcesOf(stack, 'helm_release').find((r) => literalString(stack, r.config.chart) === 'cilium');
  if (cilium) {
    const values = ((cilium.config.values as unknown[] | undefined) ?? []).map((v) => (typeof v === 'string' ? (parseYaml(v) as unknown) : undefined)).find(isRecord) ?? {};
    const version = literalString(stack, cilium.config.version) ?? 'unknown';
    const algorithm = typeof block(values.loadBalancer)?.algorithm === 'string' ? (block(values.loadBalancer)!.algorithm as string) : 'random';
    const kpr = values.kubeProxyReplacement === true || values.kubeProxyReplacement === 'true';
    evidence.push(
      `${cilium.address}: chart cilium ${version}, ipam.mode ${String(block(values.ipam)?.mode ?? 'unknown')}, routingMode ${String(values.routingMode ?? 'unknown')}, ` +
        `kubeProxyReplacement ${String(values.kubeProxyReplacement ?? 'unset')}, loadBalancer.algorithm ${algorithm}`,
    );
    if (!kpr) {
      notes.push('the Cilium release does not set kubeProxyReplacement: true; without kube-proxy, Services would not work');
    }
    notes.push(UNVERIFIED_DATAPATH_NOTES.ciliumNativeL4);
    return explanation('cilium-ebpf', `Cilium ${version} (ENI IPAM, eBPF kube-proxy replacement)`, evidence, { algorithm }, notes);
  }
  const kubeProxy = resourcesOf(stack, 'aws_eks_addon').find((r) => literalString(stack, r.config.addon_name) === 'kube-proxy');
  const fromOutput = dataplaneOutput(stack);
  let mode: string | undefined;
  let scheduler: string | undefined;
  if (kubeProxy) {
    const raw = literalString(stack, kubeProxy.config.configuration_values);
    const values = parseJson(raw);
    mode = typeof values?.mode === 'string' ? values.mode : raw === undefined ? 'iptables' : undefined;
    scheduler = typeof block(values?.ipvs)?.scheduler === 'string' ? (block(values?.ipvs)!.scheduler as string) : undefined;
    evidence.push(`${kubeProxy.address}: configuration_values ${raw ?? '(none: the add-on default, iptables)'}`);
  } else if (fromOutput) {
    mode = fromOutput.replace(/^kube-proxy-/, '');
    notes.push('the kube-proxy add-on is not in this stack (emulator mode leaves add-ons out); the mode comes from the dataplane output');
  }
  const template = resourcesOf(stack, 'aws_launch_template')[0];
  const userData = literalString(stack, template?.config.user_data);
  if (userData !== undefined) {
    const text = Buffer.from(userData, 'base64').toString('utf8');
    const modules = /modules-load\.d\/ipvs\.conf <<'EOF'\n([\s\S]*?)\nEOF/.exec(text)?.[1]?.split('\n') ?? [];
    if (modules.length > 0) {
      evidence.push(`${template!.address}: node user data loads ${modules.join(', ')} (MIME multipart shell script)`);
    }
  }
  const dataplane = mode === undefined ? fromOutput : (`kube-proxy-${mode}` as Dataplane);
  if (dataplane === 'kube-proxy-ipvs') {
    notes.push(`kube-proxy's IPVS mode is deprecated upstream since Kubernetes ${IPVS_DEPRECATED_IN}; nftables is its successor`);
  }
  if (dataplane === 'kube-proxy-nftables') {
    notes.push(UNVERIFIED_DATAPATH_NOTES.nftables);
  }
  const implementation = dataplane === null ? 'unknown' : `kube-proxy add-on, mode ${mode}${scheduler ? ` (scheduler ${scheduler})` : ''}`;
  return explanation(dataplane, implementation, evidence, { scheduler }, notes);
}

/** GKE: `datapath_provider` of the cluster. */
export function gcpDatapath(stack: SynthStack): DatapathExplanation {
  const cluster = resourcesOf(stack, 'google_container_cluster')[0];
  const provider = cluster ? literalString(stack, cluster.config.datapath_provider) : undefined;
  if (!cluster) {
    return explanation(null, 'unknown', [], {}, ['no google_container_cluster in the stack']);
  }
  const evidence = [`${cluster.address}: datapath_provider ${provider ?? '(unset: LEGACY_DATAPATH)'}`];
  return provider === 'ADVANCED_DATAPATH'
    ? explanation('cilium-ebpf', 'GKE Dataplane V2 (Google-managed Cilium, eBPF, no kube-proxy)', evidence, {}, [])
    : explanation('kube-proxy-iptables', 'GKE kube-proxy (iptables mode)', evidence, {}, []);
}

/** What the datapath does to one exposure, in a line. */
export function datapathEffect(datapath: DatapathExplanation | null, exposure: Pick<ExposureExplanation, 'targets' | 'external_traffic_policy' | 'client_ip_via'>): string {
  if (!datapath || datapath.dataplane === null || exposure.targets === null) {
    return 'unknown';
  }
  if (exposure.targets === 'pods') {
    return 'unchanged by the datapath: the load balancer reaches Pod IPs directly';
  }
  const who = datapath.dataplane === 'cilium-ebpf' ? 'Cilium' : 'kube-proxy';
  if (exposure.external_traffic_policy === 'Local') {
    return `unchanged: ${who} DNATs to a Pod on the receiving node (${datapath.backend_selection.split(':')[0]}), no SNAT`;
  }
  const l7 = exposure.client_ip_via === 'x-forwarded-for';
  if (datapath.dataplane === 'cilium-ebpf') {
    return l7
      ? `${who} SNATs only when the Pod is on another node; the TCP peer is the proxy either way, X-Forwarded-For names the client`
      : `${who} SNATs only when the Pod is on another node: requests served on the receiving node keep the client address`;
  }
  return `${who} SNATs every request, even when the Pod is on the receiving node` + (l7 ? '; X-Forwarded-For still names the client' : ': the client address is always lost');
}
