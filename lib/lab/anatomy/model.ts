/**
 * The structured result of `explain` (also its `--format json` output, under
 * `schema: "hoplab.explain/v1"`). A `null` field means "not known from the
 * synthesized JSON" (the table shows `unknown`). Field names are stable.
 */
import { ClientIpVia, Cloud } from '../../model/contract';
import { Dataplane } from '../../model/datapaths';

/** One step of the way from the client to the Pod. */
export interface PathStep {
  /** Where the packet is: `client`, `load balancer`, `node (NodePort)`, `Pod`. */
  readonly at: string;
  /** What happens on the way to the next step (empty for the last). */
  readonly then: string;
  /** This step rewrites the source address to a node address (SNAT). */
  readonly snat: boolean;
}

/** The variables of the comparison matrix (see lib/lab/anatomy/matrix.ts). */
export interface MatrixVariables {
  readonly layer: 'L7' | 'L4';
  readonly api: 'Gateway API' | 'core API';
  readonly targets: 'pods' | 'nodes';
  /** The Service's externalTrafficPolicy: the same value as {@link ExposureExplanation.external_traffic_policy}, whatever the targets. */
  readonly traffic_policy: 'Cluster' | 'Local' | null;
}

/** Another exposure of the same cloud that differs from this one in exactly one variable. */
export interface MatrixNeighbour {
  readonly mode: string;
  /** `layer`, `api`, `targets` or `traffic policy`. */
  readonly variable: string;
  /** This exposure's value, e.g. `L7`. */
  readonly this: string;
  /** The other exposure's value, e.g. `L4`. */
  readonly other: string;
}

/** What the synthesized resources say about one exposure. */
export interface ExposureExplanation {
  /** The exposure mode from the `hoplab.dev/exposure` label. */
  readonly mode: string;
  /** Terraform address of the object the load balancer is made from (Ingress or Service). */
  readonly entry: string | null;
  /** Terraform address of the Service behind it. */
  readonly service: string | null;
  /** The Kubernetes objects as `kubectl` names them: `Ingress echo-native -> Service echo-native` (names from the synthesized metadata, when literal). */
  readonly kubernetes_objects: string | null;
  /** `alb`, `nlb`, `clb`, `gclb-application`, `gcp-passthrough-nlb`, ... */
  readonly lb_kind: string | null;
  /** `ip`, `instance`, `neg`, `instance-group` or `target-pool`. */
  readonly target_type: string | null;
  /** Whether the load balancer targets Pods or nodes. */
  readonly targets: 'pods' | 'nodes' | null;
  /** The Service's externalTrafficPolicy. */
  readonly external_traffic_policy: 'Cluster' | 'Local' | null;
  /** Hops from the load balancer to the Pod in the worst case. */
  readonly expected_hops: number | null;
  /** Whether a node rewrites the source address on the way (kube-proxy / eBPF SNAT). */
  readonly snat: boolean | null;
  /** The output contract's name for {@link snat}: whether a node rewrites the source address on the way to the Pod. */
  readonly source_nat: boolean | null;
  /** Where the Pod finds the client's address: `tcp-source`, `x-forwarded-for` (L7 proxies) or `none` (L4 with SNAT). */
  readonly client_ip_via: ClientIpVia | null;
  /** Whether the client's address reaches the Pod at all: exactly `client_ip_via !== 'none'`. */
  readonly client_ip_preserved: boolean | null;
  /** What the Pod sees as the client. */
  readonly client_ip_seen_as: string;
  /** What the load balancer's health check probes. */
  readonly health_check: string;
  /** What the cluster's datapath (kube-proxy mode, Cilium, Dataplane V2) changes for this exposure, or that it changes nothing. */
  readonly datapath_effect: string;
  /** The way, step by step. Empty when not known. */
  readonly path: readonly PathStep[];
  /** Path in one line, e.g. `client -> ALB -> Pod`. */
  readonly path_summary: string;
  /** `L7` (the load balancer proxies) or `L4` (passthrough). */
  readonly layer: 'L7' | 'L4' | null;
  /** The Kubernetes API that asks for the load balancer: `Gateway API`, or `core API` (Ingress, Service). */
  readonly api: 'Gateway API' | 'core API' | null;
  /** The variables of the comparison matrix, or null when not all are known. */
  readonly variables: MatrixVariables | null;
  /** The other exposures of this cloud that differ from this one in exactly one variable (every other one known and equal). */
  readonly differs_in_one: readonly MatrixNeighbour[];
  /** Things that could not be derived, or that a reader should know. */
  readonly notes: readonly string[];
  /**
   * The addresses and ports the synthesized stacks give this exposure's way,
   * for the packet's journey of the html page and the handout. Not in
   * `--format json`: hoplab.explain/v1 is what it was (see renderExplainJson).
   */
  readonly plan?: ExposurePlan;
}

/**
 * What the synthesized stacks say about the addresses and ports on an
 * exposure's way (lib/lab/anatomy/exposure-plan.ts); `null` and empty lists
 * mean the plan does not say. Ranges are CIDR blocks.
 */
export interface ExposurePlan {
  readonly cloud: Cloud;
  /** Who does the NodePort DNAT/SNAT, in the `dataplane` output's words. */
  readonly dataplane: Dataplane | null;
  /** The port the load balancer listens on (a Gateway's listener, an Ingress's HTTP listener, a LoadBalancer Service's port). */
  readonly listener_port: number | null;
  /** The port the Pod's container listens on (the Service's targetPort, a named one resolved through the Deployment). */
  readonly target_port: number | null;
  /** The Service's nodePort when the plan sets one; null when Kubernetes allocates it (30000-32767). */
  readonly node_port: number | null;
  /** Without SNAT on a node, whether the load balancer hands the client's address on as the TCP source (L4); false for proxies. */
  readonly lb_keeps_client: boolean | null;
  /** Where the nodes' addresses come from (AWS: the node group's subnets; GKE: the node subnet). */
  readonly node_ranges: readonly string[];
  /** Where Pod IPs come from (AWS: the same subnets, VPC CNI; GKE: the Pod secondary range). */
  readonly pod_ranges: readonly string[];
  /** GKE: the prefix of each node's alias range in the Pod range, e.g. 24; null on AWS. */
  readonly per_node_pod_prefix: number | null;
  /** Where the load balancer's own side connects from (AWS: the subnets tagged kubernetes.io/role/elb; GKE: the Google Front End ranges the L7 firewall rule admits). */
  readonly lb_ranges: readonly string[];
}

/** Pod capacity limits of a cluster. */
export interface PodCapacity {
  /** Most Pods per node. */
  readonly max_pods_per_node: number | null;
  /** Why, in words. */
  readonly max_pods_per_node_reason: string | null;
  /** Nodes (AWS: the node group size; GCP: nodes per zone x zones). */
  readonly node_count: number | null;
  /** EC2 instance type or Compute Engine machine type. */
  readonly machine_type: string | null;
  /** Where Pod IPs come from. */
  readonly pod_address_range: readonly string[];
  /** GKE: size of each node's alias range, e.g. `/24`. */
  readonly per_node_range: string | null;
  /** GKE: most nodes the Pod range can serve; AWS: most nodes the Pod subnets can give addresses to. */
  readonly max_nodes_for_pod_range: number | null;
  /** Lines for the reader, e.g. what bounds the cluster. */
  readonly notes: readonly string[];
}

/** One cloud of one environment. */
export interface CloudExplanation {
  readonly cloud: Cloud;
  readonly cluster_stack: string;
  readonly lb_stack: string;
  readonly cluster_synthesized: boolean;
  readonly lb_synthesized: boolean;
  /** Who does the NodePort DNAT/SNAT, in the `dataplane` output's words: `kube-proxy-iptables`, `kube-proxy-nftables`, `kube-proxy-ipvs` or `cilium-ebpf`. */
  readonly dataplane: string | null;
  /** The datapath read from the cluster stack, and what it changes; null without a cluster stack. */
  readonly datapath: DatapathExplanation | null;
  readonly capacity: PodCapacity | null;
  /** Exposures in mode order (`native`, `nodeport`, `nodeport-local`, then others). */
  readonly exposures: readonly ExposureExplanation[];
  /** Exposure modes this cloud does not offer, with the reason (GKE: `native-l4`). */
  readonly not_offered: readonly { readonly mode: string; readonly reason: string }[];
  readonly notes: readonly string[];
}

export interface EnvironmentExplanation {
  /** The environment name, `<env>` of the stack names. */
  readonly env: string;
  readonly clouds: readonly CloudExplanation[];
}

export interface ExplainModel {
  readonly schema: 'hoplab.explain/v1';
  /** The directory that was read. */
  readonly dir: string;
  readonly environments: readonly EnvironmentExplanation[];
  /** Stacks in the directory that are not `<env>-<aws|gcp>-<cluster|lb>`. */
  readonly ignored_stacks: readonly string[];
}

/** `null` shown as `unknown`. */
export function shown(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) {
    return 'unknown';
  }
  if (typeof value === 'boolean') {
    return value ? 'yes' : 'no';
  }
  return String(value);
}

/** What a cluster's datapath is and does, per cloud. */
export interface DatapathExplanation {
  /** The `dataplane` word: `kube-proxy-iptables`, `kube-proxy-nftables`, `kube-proxy-ipvs` or `cilium-ebpf`; null when unknown. */
  readonly dataplane: Dataplane | null;
  /** What runs it, e.g. `kube-proxy add-on, mode ipvs (scheduler rr)`. */
  readonly implementation: string;
  /** The synthesized settings this is read from, one a line. */
  readonly evidence: readonly string[];
  /** How a Service's backend is picked. */
  readonly backend_selection: string;
  /** When a node SNATs NodePort traffic under `externalTrafficPolicy: Cluster`. */
  readonly cluster_policy_snat: string;
  /** What the datapath does not change. */
  readonly unchanged: readonly string[];
  /** What `compare --probe` (20-100 requests) can and cannot show about it. */
  readonly probe_limits: readonly string[];
  /** Deprecations and other things to know. */
  readonly notes: readonly string[];
}
