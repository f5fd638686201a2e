/**
 * The datapath a lab's clusters use: who turns a Service's virtual address into
 * a Pod's, and how. Config values, the rules that refuse combinations a cloud
 * does not offer, and the notes validation prints for accepted choices.
 */
import { ConfigProblem } from './problems';

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

/** Fields that were renamed: the old path, and the fix for a config that still uses it. */
export const RENAMED_FIELDS: Readonly<Record<string, (value: unknown) => string>> = {
  'gcp.dataplaneV2': (value) =>
    `was replaced by gcp.datapath; write gcp.datapath: ${value === true ? '"dataplane-v2"' : value === false ? '"legacy"' : '"legacy" or "dataplane-v2"'} instead (allowed: ${GCP_DATAPATHS.join(', ')})`,
};

function minor(version: string): number {
  return Number(version.split('.')[1]);
}

/** The parts of the AWS config the datapath rules read. */
export interface AwsDatapathConfig {
  readonly datapath: AwsDatapath;
  readonly kubernetesVersion: string;
  readonly cilium?: { readonly loadBalancerAlgorithm: CiliumLbAlgorithm };
}

/** Combinations EKS or hoplab does not offer. */
export function checkAwsDatapath(aws: AwsDatapathConfig): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  if (aws.datapath === 'nftables' && minor(aws.kubernetesVersion) < minor(NFTABLES_MIN_EKS_VERSION)) {
    problems.push({
      path: 'aws.datapath',
      value: aws.datapath,
      reason:
        `needs EKS ${NFTABLES_MIN_EKS_VERSION} or later (the kube-proxy add-on offers mode "nftables" from Kubernetes ${NFTABLES_MIN_EKS_VERSION}), ` +
        `but aws.kubernetesVersion is "${aws.kubernetesVersion}"; set aws.kubernetesVersion to "${NFTABLES_MIN_EKS_VERSION}" or later, or use "iptables" or "ipvs"`,
    });
  }
  if (aws.cilium !== undefined && aws.datapath !== 'cilium') {
    problems.push({
      path: 'aws.cilium',
      value: aws.cilium,
      reason: `only applies with aws.datapath "cilium", but aws.datapath is "${aws.datapath}"; set aws.datapath: "cilium" or remove aws.cilium`,
    });
  }
  return problems;
}

/** What validation says about an accepted datapath choice: deprecations and what changing it recreates. */
export function datapathNotes(config: { readonly aws: AwsDatapathConfig; readonly gcp: { readonly datapath: GcpDatapath } }): string[] {
  const notes: string[] = [];
  if (config.aws.datapath === 'ipvs') {
    notes.push(
      `aws.datapath: "ipvs" is deprecated upstream since Kubernetes ${IPVS_DEPRECATED_IN} (kube-proxy may drop it in a later release); ` +
        'hoplab still offers it for comparison. "nftables" is its successor for large Service counts',
    );
  }
  if (config.aws.datapath === 'cilium') {
    notes.push(
      'aws.datapath: "cilium" creates the EKS cluster without the vpc-cni and kube-proxy add-ons; ' +
        'switching to or from "cilium" later recreates the cluster and everything in it: tear the environment down first',
    );
  }
  if (config.gcp.datapath === 'dataplane-v2') {
    notes.push('gcp.datapath: "dataplane-v2" is fixed when the GKE cluster is created; changing gcp.datapath later recreates the cluster and everything in it');
  }
  return notes;
}
