/**
 * The config's datapath rules: the combinations a cloud does not offer are
 * refused, and accepted choices get the notes validation prints (the values
 * themselves are in lib/model/datapaths.ts).
 */
import { ConfigProblem } from './problems';
import { AwsDatapath, CiliumLbAlgorithm, GCP_DATAPATHS, GcpDatapath, IPVS_DEPRECATED_IN, NFTABLES_MIN_EKS_VERSION, UNVERIFIED_DATAPATH_NOTES } from '../model/datapaths';

/** Fields that were renamed: the old path, and the fix for a config that still uses it. */
export const RENAMED_FIELDS: Readonly<Record<string, (value: unknown) => string>> = {
  'gcp.dataplaneV2': (value) =>
    `was replaced by gcp.datapath; write gcp.datapath: ${value === true ? '"dataplane-v2"' : value === false ? '"legacy"' : '"legacy" or "dataplane-v2"'} instead (allowed: ${GCP_DATAPATHS.join(
      ', ',
    )})`,
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

/** What validation says about an accepted datapath choice: deprecations, what is unverified, and what changing it recreates. */
export function datapathNotes(config: { readonly aws: AwsDatapathConfig; readonly gcp: { readonly datapath: GcpDatapath }; readonly exposures?: readonly string[] }): string[] {
  const notes: string[] = [];
  if (config.aws.datapath === 'nftables') {
    notes.push(`aws.datapath: ${UNVERIFIED_DATAPATH_NOTES.nftables}`);
  }
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
    if (config.exposures?.includes('native-l4')) {
      notes.push(`aws.datapath: ${UNVERIFIED_DATAPATH_NOTES.ciliumNativeL4}`);
    }
  }
  if (config.gcp.datapath === 'dataplane-v2') {
    notes.push('gcp.datapath: "dataplane-v2" is fixed when the GKE cluster is created; changing gcp.datapath later recreates the cluster and everything in it');
  }
  return notes;
}
