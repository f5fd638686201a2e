/**
 * The output contract of DESIGN.md: output names every stack of a kind exports,
 * so programs (`compare`, users' scripts) can read environments alike. Names are
 * stable; renaming one breaks users' scripts.
 */
import { ExposureMode } from './modes';

export type Cloud = 'aws' | 'gcp';

/** Where a Pod can find the client's address (see {@link ExposureOutput.client_ip_via}). */
export const CLIENT_IP_VIA = ['tcp-source', 'x-forwarded-for', 'none'] as const;
export type ClientIpVia = (typeof CLIENT_IP_VIA)[number];

/** `client_ip_preserved` as the contract defines it. */
export function clientIpPreserved(via: ClientIpVia): boolean {
  return via !== 'none';
}

/** Outputs of every `<env>-<cloud>-cluster` stack. */
export const CLUSTER_OUTPUTS = {
  /** Cloud of the stack: `aws` or `gcp`. */
  cloud: 'cloud',
  /** Kubernetes cluster name. */
  clusterName: 'cluster_name',
  /** AWS region or GCP region of the cluster. */
  region: 'region',
  /** Where the nodes run: the AZs or zones, comma-separated. */
  location: 'location',
  /** Nodes in the cluster. */
  nodeCount: 'node_count',
  /** Most Pods one node takes. */
  maxPodsPerNode: 'max_pods_per_node',
  /** Why that is the limit, in words. */
  maxPodsPerNodeReason: 'max_pods_per_node_reason',
  /** CIDR blocks Pod IPs come from (AWS: the private subnets; GCP: the Pod secondary range). */
  podAddressRange: 'pod_address_range',
  /** How Pods get VPC-routable addresses. */
  podNetworking: 'pod_networking',
  /**
   * Who handles Service traffic on the nodes, in the same words on both clouds:
   * `kube-proxy-iptables`, `kube-proxy-nftables`, `kube-proxy-ipvs` or `cilium-ebpf` (see `DATAPLANES`).
   */
  dataplane: 'dataplane',
} as const;

/** Extra outputs of `<env>-aws-cluster`, read by `<env>-aws-lb`. */
export const AWS_CLUSTER_OUTPUTS = {
  clusterEndpoint: 'cluster_endpoint',
  vpcId: 'vpc_id',
  oidcProviderArn: 'oidc_provider_arn',
  lbControllerRoleArn: 'lb_controller_role_arn',
  kubernetesVersion: 'kubernetes_version',
} as const;

/** Extra outputs of `<env>-gcp-cluster` (next to {@link CLUSTER_OUTPUTS}). Names are stable: scripts read them. */
export const GCP_CLUSTER_OUTPUTS = {
  /** Zone (zonal cluster) or region (regional cluster) of the cluster. */
  clusterLocation: 'cluster_location',
  /** The control plane's public endpoint (IP address). */
  clusterEndpoint: 'cluster_endpoint',
  /** The control plane's Kubernetes version (changes as the release channel upgrades it). */
  kubernetesVersion: 'kubernetes_version',
  /** Release channel. */
  releaseChannel: 'release_channel',
  /** Prefix length of the alias range each node gets from the Pod range, e.g. 24. */
  perNodePodRangePrefix: 'per_node_pod_range_prefix',
  /** Addresses in that per-node range, e.g. 256. */
  perNodePodRangeSize: 'per_node_pod_range_size',
  /** Most nodes the Pod range can serve at this max Pods per node. */
  maxNodesForPodRange: 'max_nodes_for_pod_range',
  /** Secondary range for Service cluster IPs. */
  serviceAddressRange: 'service_address_range',
  /** Primary range of the node subnet. */
  nodeAddressRange: 'node_address_range',
  /** VPC network name (the leftover check and `gcloud` commands use it). */
  networkName: 'network_name',
  /** Network tag of the nodes. */
  nodeNetworkTag: 'node_network_tag',
} as const;

/** The object each `-lb` stack exports per exposure, as output `exposure_<mode>`. */
export interface ExposureOutput {
  /** One of `EXPOSURE_MODES`: `native`, `gateway`, `nodeport`, `nodeport-l4`, `nodeport-local`, `native-l4`. */
  readonly mode: ExposureMode;
  readonly cloud: Cloud;
  /** http URL of the load balancer, read back from the Kubernetes object's status. */
  readonly url: string;
  /** e.g. `alb`, `nlb`, `gclb-http` (external Application LB), `gcp-passthrough-nlb`. */
  readonly lb_kind: string;
  /** `ip` (Pod IPs), `instance` (node NodePorts), `neg` or `instance-group`. */
  readonly target_type: string;
  /** Hops from the load balancer to the Pod in the worst case. */
  readonly expected_hops: number;
  /** Whether a node rewrites the source address on the way to the Pod (kube-proxy / eBPF SNAT with `externalTrafficPolicy: Cluster`). */
  readonly source_nat: boolean;
  /**
   * Where a Pod can find the client's address: `tcp-source` (its TCP peer is the
   * client), `x-forwarded-for` (an L7 proxy is the peer and names the client in
   * the header), or `none` (L4 with SNAT: the client is gone).
   */
  readonly client_ip_via: ClientIpVia;
  /** Whether the client's address reaches the Pod at all: always exactly `client_ip_via !== 'none'`. */
  readonly client_ip_preserved: boolean;
  /** Where the Pod finds the client address, and what its TCP peer is. */
  readonly client_ip_seen_as: string;
  /** What the load balancer's health check probes. */
  readonly health_check: string;
  /**
   * The load balancer's backends, in words: Pod IPs or the nodes, and in what
   * kind of group. On GKE passthrough load balancers it follows the configured
   * GKE version (instance groups before 1.32, `GCE_VM_IP` NEGs of the nodes after).
   */
  readonly backends: string;
  /** The Service's externalTrafficPolicy. */
  readonly external_traffic_policy: 'Cluster' | 'Local';
}

/** Output name of an exposure: `exposure_native`, `exposure_nodeport_l4`, `exposure_nodeport_local`, ... */
export function exposureOutputName(mode: ExposureMode): string {
  return `exposure_${mode.replace(/-/g, '_')}`;
}
