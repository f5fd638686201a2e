import { ContainerNodePool } from '@cdktf/provider-google/lib/container-node-pool';
import { ITerraformDependable } from 'cdktf';
import { Construct } from 'constructs';

/**
 * Node pool fields GKE fills in on its own, ignored so a plan after apply is
 * empty: GKE adds `goog-gke-*` resource labels and kubelet defaults (such as
 * the read-only port setting) to the node config; hoplab sets neither.
 */
export const GKE_NODE_POOL_IGNORED_CHANGES = ['node_config[0].resource_labels', 'node_config[0].kubelet_config'] as const;

export interface GkeNodePoolProps {
  /** Node pool name. Required. */
  readonly name: string;
  /** The cluster's name. Required. */
  readonly clusterName: string;
  /** The cluster's location (zone or region). Required. */
  readonly location: string;
  /** Zones to run nodes in; `nodeCountPerZone` nodes go to each. Required. */
  readonly zones: readonly string[];
  /** Nodes per zone. Required. */
  readonly nodeCountPerZone: number;
  /** Compute Engine machine type, e.g. `e2-standard-2`. Required. */
  readonly machineType: string;
  /** Max Pods per node; GKE gives each node an alias range of the next power of two >= 2x this (110 -> /24). Required. */
  readonly maxPodsPerNode: number;
  /** Network tags on every node; the health-check firewall rules target them. Required. */
  readonly networkTags: readonly string[];
  /**
   * Boot disk size in GB.
   * @default 50
   */
  readonly diskSizeGb?: number;
  /**
   * Kubernetes labels on every node.
   * @default - none
   */
  readonly labels?: Readonly<Record<string, string>>;
  /**
   * Email of the service account the nodes run as.
   * @default - the Compute Engine default service account
   */
  readonly serviceAccount?: string;
  /**
   * Serve Pods the GKE metadata server (`GKE_METADATA`, Workload Identity), which
   * hides the node service account's token from them. The cluster needs a workload pool.
   * @default false - Pods can read the node account's token from the metadata server
   */
  readonly workloadIdentity?: boolean;
  /**
   * Resources the nodes need while they exist (Cloud NAT for image pulls):
   * created before the pool, destroyed after it.
   * @default - none
   */
  readonly dependsOn?: ITerraformDependable[];
}

/**
 * The cluster's own node pool (the default pool is removed): a fixed number
 * of nodes per zone, Shielded VMs on Container-Optimized OS, auto-repair and
 * auto-upgrade on (release channels require both), and network tags for the
 * load-balancer health-check firewall rules. Nodes run as `serviceAccount`
 * with the `cloud-platform` scope, so IAM alone decides what they may do.
 */
export class GkeNodePool extends Construct {
  /** The node pool resource. */
  public readonly nodePool: ContainerNodePool;

  constructor(scope: Construct, id: string, props: GkeNodePoolProps) {
    super(scope, id);
    if (props.zones.length === 0) {
      throw new Error(`GkeNodePool ${id}: zones is empty; give the zones to run nodes in (e.g. ["us-central1-a"])`);
    }
    if (!Number.isInteger(props.nodeCountPerZone) || props.nodeCountPerZone < 1) {
      throw new Error(`GkeNodePool ${id}: nodeCountPerZone is ${props.nodeCountPerZone}; use a whole number of at least 1`);
    }
    this.nodePool = new ContainerNodePool(this, 'pool', {
      name: props.name,
      cluster: props.clusterName,
      location: props.location,
      nodeLocations: [...props.zones],
      nodeCount: props.nodeCountPerZone,
      maxPodsPerNode: props.maxPodsPerNode,
      management: { autoRepair: true, autoUpgrade: true },
      upgradeSettings: { strategy: 'SURGE', maxSurge: 1, maxUnavailable: 0 },
      nodeConfig: {
        machineType: props.machineType,
        imageType: 'COS_CONTAINERD',
        diskSizeGb: props.diskSizeGb ?? 50,
        diskType: 'pd-balanced',
        serviceAccount: props.serviceAccount,
        oauthScopes: ['https://www.googleapis.com/auth/cloud-platform'],
        tags: [...props.networkTags],
        labels: props.labels ? { ...props.labels } : undefined,
        metadata: { 'disable-legacy-endpoints': 'true' },
        workloadMetadataConfig: props.workloadIdentity ? { mode: 'GKE_METADATA' } : undefined,
        shieldedInstanceConfig: { enableSecureBoot: true, enableIntegrityMonitoring: true },
      },
      dependsOn: props.dependsOn,
      lifecycle: { ignoreChanges: [...GKE_NODE_POOL_IGNORED_CHANGES] },
    });
  }
}
