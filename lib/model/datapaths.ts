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

/**
 * What hoplab's datapaths rest on but nobody could verify from documentation or
 * a running cluster, one line each; validation's notes and `explain` say them.
 * nftables: the EKS kube-proxy add-on accepts `mode: nftables` and an AWS AMI
 * maintainer said it works on 1.33+ (awslabs/amazon-eks-ami #2329), but the
 * add-on's documentation names only iptables and ipvs (aws/containers-roadmap
 * #2313 is open). Cilium: in ENI mode Cilium takes the VPC CIDR as its
 * native-routing range and masquerades only what leaves it (Cilium's
 * masquerading docs); native-l4 keeps the client address only if that holds.
 */
export const UNVERIFIED_DATAPATH_NOTES = {
  nftables: 'kube-proxy mode "nftables" works with the EKS kube-proxy add-on (1.33 and later) but is not in EKS\'s documentation: unverified',
  ciliumNativeL4: "native-l4 under Cilium rests on masquerading being off for traffic inside the VPC in ENI mode (the VPC CIDR is Cilium's native-routing range): unverified on a running cluster",
} as const;

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
