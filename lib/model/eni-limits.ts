/**
 * Network interface limits of the EC2 instance types a lab is likely to use,
 * from the EC2 User Guide's "IP addresses per network interface per instance
 * type" table (the same numbers as the Amazon VPC CNI's `eni-max-pods.txt`).
 * The VPC CNI gives every Pod an ENI secondary IPv4 address, so these numbers
 * bound Pods per node: ENIs x (IPv4 per ENI - 1) + 2.
 */
export interface EniLimits {
  /** Most network interfaces the instance type can attach. */
  readonly maxEnis: number;
  /** Most private IPv4 addresses per interface, the primary one included. */
  readonly ipv4PerEni: number;
}

export const ENI_LIMITS: Readonly<Record<string, EniLimits>> = {
  't3.small': { maxEnis: 3, ipv4PerEni: 4 },
  't3.medium': { maxEnis: 3, ipv4PerEni: 6 },
  't3.large': { maxEnis: 3, ipv4PerEni: 12 },
  't3.xlarge': { maxEnis: 4, ipv4PerEni: 15 },
  't3a.medium': { maxEnis: 3, ipv4PerEni: 6 },
  't3a.large': { maxEnis: 3, ipv4PerEni: 12 },
  'm5.large': { maxEnis: 3, ipv4PerEni: 10 },
  'm5.xlarge': { maxEnis: 4, ipv4PerEni: 15 },
  'm6i.large': { maxEnis: 3, ipv4PerEni: 10 },
  'm6i.xlarge': { maxEnis: 4, ipv4PerEni: 15 },
  'm7i.large': { maxEnis: 3, ipv4PerEni: 10 },
  'c5.large': { maxEnis: 3, ipv4PerEni: 10 },
  'c6i.large': { maxEnis: 3, ipv4PerEni: 10 },
  'r5.large': { maxEnis: 3, ipv4PerEni: 10 },
};

/**
 * vCPUs of the same instance types (EC2 `DescribeInstanceTypes`, `VCpuInfo.DefaultVCpus`; the Amazon EC2
 * Instance Types guide's specification tables list the same), for the EC2 vCPU quota an environment's
 * nodes take: node count x vCPUs. A test keeps its keys those of {@link ENI_LIMITS}.
 */
export const INSTANCE_VCPUS: Readonly<Record<string, number>> = {
  't3.small': 2,
  't3.medium': 2,
  't3.large': 2,
  't3.xlarge': 4,
  't3a.medium': 2,
  't3a.large': 2,
  'm5.large': 2,
  'm5.xlarge': 4,
  'm6i.large': 2,
  'm6i.xlarge': 4,
  'm7i.large': 2,
  'c5.large': 2,
  'c6i.large': 2,
  'r5.large': 2,
};

/** Instance types hoplab knows the ENI limits of, sorted. */
export const KNOWN_INSTANCE_TYPES: readonly string[] = Object.keys(ENI_LIMITS).sort();

/** Pods the VPC CNI allows on one node of this type (without prefix delegation). */
export function vpcCniMaxPods(limits: EniLimits): number {
  return limits.maxEnis * (limits.ipv4PerEni - 1) + 2;
}

/** Addresses the VPC CNI can claim from the node's subnet for one node of this type. */
export function vpcCniAddressesPerNode(limits: EniLimits): number {
  return limits.maxEnis * limits.ipv4PerEni;
}
