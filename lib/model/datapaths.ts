/**
 * The datapaths a lab's clusters can use (who turns a Service's virtual address
 * into a Pod's, and how), and the one word each is known by in outputs, explain and compare.
 */
/** `aws.datapath`: kube-proxy in one of its modes, or Cilium's eBPF kube-proxy replacement (ENI mode). */
export const AWS_DATAPATHS = ['iptables', 'nftables', 'ipvs', 'cilium'] as const;

export type AwsDatapath = (typeof AWS_DATAPATHS)[number];

/** `gcp.datapath`: GKE's kube-proxy (`LEGACY_DATAPATH`) or Dataplane V2 (`ADVANCED_DATAPATH`). */
export const GCP_DATAPATHS = ['legacy', 'dataplane-v2'] as const;

export type GcpDatapath = (typeof GCP_DATAPATHS)[number];

/** `aws.cilium.loadBalancerAlgorithm`: Cilium's backend selection (Helm `loadBalancer.algorithm`). */
export const CILIUM_LB_ALGORITHMS = ['random', 'maglev'] as const;

export type CiliumLbAlgorithm = (typeof CILIUM_LB_ALGORITHMS)[number];

/** First EKS version whose kube-proxy add-on offers `mode: nftables` (nftables mode is GA upstream from Kubernetes 1.33). */
export const NFTABLES_MIN_EKS_VERSION = '1.33';

/** Kubernetes release that deprecated kube-proxy's IPVS mode. */
export const IPVS_DEPRECATED_IN = '1.35';

/** The IPVS scheduler hoplab sets (`ipvs.scheduler` in the add-on's configuration): round robin. */
export const IPVS_SCHEDULER = 'rr';

/**
 * The words both cluster stacks' `dataplane` outputs, `explain` and `compare`
 * use for a datapath. The same word means the same NodePort behaviour on both clouds.
 */
export const DATAPLANES = ['kube-proxy-iptables', 'kube-proxy-nftables', 'kube-proxy-ipvs', 'cilium-ebpf'] as const;

export type Dataplane = (typeof DATAPLANES)[number];

/** The `dataplane` word of an EKS cluster with this `aws.datapath`. */
export function awsDataplane(datapath: AwsDatapath): Dataplane {
  return datapath === 'cilium' ? 'cilium-ebpf' : `kube-proxy-${datapath}`;
}

/** The `dataplane` word of a GKE cluster with this `gcp.datapath` (GKE's kube-proxy runs in iptables mode; Dataplane V2 is Cilium). */
export function gcpDataplane(datapath: GcpDatapath): Dataplane {
  return datapath === 'dataplane-v2' ? 'cilium-ebpf' : 'kube-proxy-iptables';
}
