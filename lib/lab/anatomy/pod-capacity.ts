/**
 * Pod capacity limits from a cluster stack: the literal outputs of the output
 * contract where they are there, else the resources (node group instance
 * type, GKE node pool and IP allocation policy).
 */
import { parseCidr } from '../../model/cidr';
import { ENI_LIMITS, vpcCniAddressesPerNode, vpcCniMaxPods } from '../../model/eni-limits';
import { gkeMaxNodesForPodRange, gkePerNodeRangePrefix } from '../../model/gke-limits';
import { CLUSTER_OUTPUTS } from '../../model/contract';
import { PodCapacity } from './model';
import { block, dig, literalNumber, literalString, outputValue, resourcesOf, SynthStack } from '../../kit/terraform/terraform-json';

/** Addresses AWS reserves in every subnet. */
const AWS_RESERVED_PER_SUBNET = 5;

/** GKE Standard's default max Pods per node. */
const GKE_DEFAULT_MAX_PODS = 110;

function stringList(value: unknown): string[] {
  if (typeof value === 'string') {
    return value
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
  }
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && !v.includes('${')) : [];
}

function prefixOf(cidr: string): number | undefined {
  const match = /\/(\d{1,2})$/.exec(cidr);
  return match && parseCidr(cidr).ok ? Number(match[1]) : undefined;
}

function numberOutput(stack: SynthStack, name: string): number | undefined {
  const value = outputValue(stack, name);
  return typeof value === 'number' ? value : undefined;
}

/** AWS: VPC CNI limits of the node group's instance type. */
export function awsCapacity(stack: SynthStack): PodCapacity {
  const notes: string[] = [];
  const nodeGroup = resourcesOf(stack, 'aws_eks_node_group')[0];
  const instanceTypes = nodeGroup ? stringList(resolveList(stack, nodeGroup.config.instance_types)) : [];
  const instanceType = instanceTypes[0] ?? null;
  const limits = instanceType ? ENI_LIMITS[instanceType] : undefined;
  const reasonOutput = outputValue(stack, CLUSTER_OUTPUTS.maxPodsPerNodeReason);
  let maxPods = numberOutput(stack, CLUSTER_OUTPUTS.maxPodsPerNode) ?? null;
  let reason = typeof reasonOutput === 'string' ? reasonOutput : null;
  if (maxPods === null && limits) {
    maxPods = vpcCniMaxPods(limits);
    reason = `VPC CNI on ${instanceType}: ${limits.maxEnis} ENIs x (${limits.ipv4PerEni} IPv4 per ENI - 1) + 2`;
  }
  if (instanceType && !limits) {
    notes.push(`ENI limits of ${instanceType} are not in lib/model/eni-limits.ts`);
  }
  const nodeCount = numberOutput(stack, CLUSTER_OUTPUTS.nodeCount) ?? (nodeGroup ? literalNumber(stack, dig(nodeGroup.config, 'scaling_config.desired_size')) : undefined) ?? null;
  const ranges = stringList(outputValue(stack, CLUSTER_OUTPUTS.podAddressRange));
  let maxNodes: number | null = null;
  if (limits && ranges.length > 0) {
    const perNode = vpcCniAddressesPerNode(limits);
    const prefixes = ranges.map(prefixOf);
    if (prefixes.every((p): p is number => p !== undefined)) {
      maxNodes = prefixes.reduce((sum, p) => sum + Math.floor((2 ** (32 - p) - AWS_RESERVED_PER_SUBNET) / perNode), 0);
      notes.push(`each node can claim up to ${perNode} addresses (${limits.maxEnis} ENIs x ${limits.ipv4PerEni}) from the Pod subnets`);
    }
  }
  if (maxPods !== null && nodeCount !== null) {
    notes.push(`cluster holds at most ${maxPods * nodeCount} Pods (${nodeCount} nodes x ${maxPods}), system Pods included`);
  }
  if (!nodeGroup) {
    notes.push('no aws_eks_node_group in the stack');
  }
  return {
    max_pods_per_node: maxPods,
    max_pods_per_node_reason: reason,
    node_count: nodeCount,
    machine_type: instanceType,
    pod_address_range: ranges,
    per_node_range: null,
    max_nodes_for_pod_range: maxNodes,
    notes,
  };
}

function resolveList(stack: SynthStack, value: unknown): unknown {
  return Array.isArray(value) ? value.map((v) => literalString(stack, v) ?? v) : literalString(stack, value);
}

/** GKE: per-node alias range and how many nodes the Pod range serves. */
export function gcpCapacity(stack: SynthStack): PodCapacity {
  const notes: string[] = [];
  const cluster = resourcesOf(stack, 'google_container_cluster')[0];
  const pool = resourcesOf(stack, 'google_container_node_pool')[0];
  const maxPods =
    numberOutput(stack, CLUSTER_OUTPUTS.maxPodsPerNode) ??
    (pool ? literalNumber(stack, pool.config.max_pods_per_node) : undefined) ??
    (cluster ? literalNumber(stack, cluster.config.default_max_pods_per_node) : undefined) ??
    (cluster ? GKE_DEFAULT_MAX_PODS : null);
  const policy = cluster ? block(cluster.config.ip_allocation_policy) : undefined;
  let podRange = stringList(outputValue(stack, CLUSTER_OUTPUTS.podAddressRange));
  if (podRange.length === 0 && policy) {
    const direct = literalString(stack, policy.cluster_ipv4_cidr_block);
    const rangeName = literalString(stack, policy.cluster_secondary_range_name);
    if (direct) {
      podRange = [direct];
    } else if (rangeName) {
      for (const subnet of resourcesOf(stack, 'google_compute_subnetwork')) {
        const ranges = subnet.config.secondary_ip_range;
        for (const range of Array.isArray(ranges) ? ranges : [ranges]) {
          if (literalString(stack, block(range)?.range_name) === rangeName) {
            const cidr = literalString(stack, block(range)?.ip_cidr_range);
            if (cidr) {
              podRange = [cidr];
            }
          }
        }
      }
    }
  }
  if (cluster && !policy) {
    notes.push('no ip_allocation_policy: not a VPC-native cluster, so no alias IPs and no NEGs');
  }
  const prefix = podRange.length === 1 ? prefixOf(podRange[0]) : undefined;
  const perNode = maxPods !== null ? `/${gkePerNodeRangePrefix(maxPods)}` : null;
  const maxNodes = maxPods !== null && prefix !== undefined ? gkeMaxNodesForPodRange(prefix, maxPods) : null;
  const reasonOutput = outputValue(stack, CLUSTER_OUTPUTS.maxPodsPerNodeReason);
  const reason = typeof reasonOutput === 'string' ? reasonOutput : maxPods !== null ? `GKE max_pods_per_node ${maxPods}: each node gets a ${perNode} alias range (at least twice the Pods)` : null;
  const zones = cluster ? zoneCount(stack, cluster.config, pool?.config) : undefined;
  const perZone = pool ? literalNumber(stack, pool.config.node_count) : undefined;
  const nodeCount = numberOutput(stack, CLUSTER_OUTPUTS.nodeCount) ?? (perZone !== undefined && zones !== undefined ? perZone * zones : null);
  if (maxNodes !== null && prefix !== undefined) {
    notes.push(`Pod range ${podRange[0]} holds ${maxNodes} per-node ${perNode} ranges: the cluster cannot grow past ${maxNodes} nodes`);
  }
  if (!cluster) {
    notes.push('no google_container_cluster in the stack');
  }
  const machine = pool ? literalString(stack, dig(pool.config, 'node_config.machine_type')) : undefined;
  return {
    max_pods_per_node: maxPods,
    max_pods_per_node_reason: reason,
    node_count: nodeCount,
    machine_type: machine ?? null,
    pod_address_range: podRange,
    per_node_range: perNode,
    max_nodes_for_pod_range: maxNodes,
    notes,
  };
}

function zoneCount(stack: SynthStack, cluster: Record<string, unknown>, pool: Record<string, unknown> | undefined): number | undefined {
  const locations = pool?.node_locations ?? cluster.node_locations;
  if (Array.isArray(locations) && locations.length > 0) {
    return locations.length;
  }
  const location = literalString(stack, pool?.location ?? cluster.location);
  if (location === undefined) {
    return undefined;
  }
  // A zone (us-central1-a) is one zone; a region's default is three zones.
  return /-[a-z]$/.test(location) ? 1 : 3;
}

/** Whether the GKE cluster is VPC-native; `null` without a cluster. */
export function gcpVpcNative(stack: SynthStack): boolean | null {
  const cluster = resourcesOf(stack, 'google_container_cluster')[0];
  if (!cluster) {
    return null;
  }
  const mode = literalString(stack, cluster.config.networking_mode);
  if (mode !== undefined) {
    return mode === 'VPC_NATIVE';
  }
  return block(cluster.config.ip_allocation_policy) !== undefined;
}
