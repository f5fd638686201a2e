/**
 * GKE gives every node an alias IP range for its Pods that holds at least twice
 * the node's max Pods (so addresses are not reused right away when Pods churn):
 * the smallest power of two >= 2 x maxPodsPerNode. 110 Pods -> /24 (256 addresses).
 */
export function gkePerNodeRangeSize(maxPodsPerNode: number): number {
  let size = 1;
  while (size < 2 * maxPodsPerNode) {
    size *= 2;
  }
  return size;
}

/** Prefix length of the per-node alias range (110 Pods -> 24). */
export function gkePerNodeRangePrefix(maxPodsPerNode: number): number {
  return 32 - Math.log2(gkePerNodeRangeSize(maxPodsPerNode));
}

/** Most nodes a Pod secondary range of the given prefix length can serve. */
export function gkeMaxNodesForPodRange(podRangePrefix: number, maxPodsPerNode: number): number {
  return Math.floor(2 ** (32 - podRangePrefix) / gkePerNodeRangeSize(maxPodsPerNode));
}
