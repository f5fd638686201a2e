import { ContainerCluster } from '@cdktf/provider-google/lib/container-cluster';
import { Fn, ITerraformDependable } from 'cdktf';
import { Construct } from 'constructs';

/** `datapath_provider` values: kube-proxy (iptables) or GKE Dataplane V2 (eBPF, Cilium). */
export const DATAPATH = { kubeProxy: 'LEGACY_DATAPATH', dataplaneV2: 'ADVANCED_DATAPATH' } as const;

/**
 * Cluster fields GKE fills in or changes after creation, ignored so a plan
 * after apply is empty: the default node pool is removed right after creation
 * (its `node_config`, `node_pool` and `initial_node_count` no longer describe
 * anything hoplab manages; nodes live in {@link GkeNodePool}).
 */
export const GKE_CLUSTER_IGNORED_CHANGES = ['node_config', 'node_pool', 'initial_node_count'] as const;

/** Where a GKE cluster lives: one zone makes a zonal cluster, several a regional one limited to those zones. */
export interface GkeLocation {
  /** The cluster's `location`: the zone (zonal) or the region (regional). */
  readonly location: string;
  /** The cluster's `node_locations`: the zones of a regional cluster; unset for a zonal one. */
  readonly nodeLocations?: string[];
}

/** One zone: a zonal cluster (one control plane replica, cheaper). Several: a regional cluster with nodes in exactly those zones. */
export function gkeLocation(region: string, zones: readonly string[]): GkeLocation {
  if (zones.length === 0) {
    throw new Error('gkeLocation: zones is empty; give at least one zone of the region (e.g. ["us-central1-a"])');
  }
  return zones.length === 1 ? { location: zones[0] } : { location: region, nodeLocations: [...zones] };
}

export interface GkeClusterProps {
  /** Cluster name (at most 40 characters). Required. */
  readonly name: string;
  /** Zone (zonal cluster) or region (regional cluster); see {@link gkeLocation}. Required. */
  readonly location: string;
  /**
   * Zones of a regional cluster's nodes (for the default pool created and
   * removed at creation time).
   * @default - the zone of a zonal cluster
   */
  readonly nodeLocations?: readonly string[];
  /** The VPC network's id. Required. */
  readonly networkId: string;
  /** The node subnet's id. Required. */
  readonly subnetId: string;
  /** Name of the subnet's secondary range for Pods. Required. */
  readonly podRangeName: string;
  /** Name of the subnet's secondary range for Services. Required. */
  readonly serviceRangeName: string;
  /** Release channel: RAPID, REGULAR, STABLE or EXTENDED. Required. */
  readonly releaseChannel: string;
  /**
   * Lowest control plane version (`min_master_version`), e.g. `1.33`.
   * @default - the channel's default version
   */
  readonly minMasterVersion?: string;
  /**
   * GKE Dataplane V2 (eBPF/Cilium, no kube-proxy) instead of kube-proxy.
   * Cannot be changed on an existing cluster: changing it replaces the cluster.
   * @default false
   */
  readonly dataplaneV2?: boolean;
  /**
   * Dataplane V2 observability (managed Hubble): flow metrics and Hubble Relay
   * (`monitoring_config.advanced_datapath_observability_config`). Only with `dataplaneV2`.
   * @default false
   */
  readonly observability?: boolean;
  /** CIDR blocks allowed to reach the control plane's public endpoint. Required (use ['0.0.0.0/0'] for any). */
  readonly masterAuthorizedCidrs: readonly string[];
  /**
   * Max Pods per node of the (removed) default pool; node pools set their own.
   * @default 110
   */
  readonly defaultMaxPodsPerNode?: number;
  /**
   * Service account of the default pool GKE creates and hoplab removes right
   * away. Set it to the nodes' own account: creating the cluster otherwise
   * needs the Compute Engine default service account, which some projects disable.
   * @default - the Compute Engine default service account
   */
  readonly defaultPoolServiceAccount?: string;
  /**
   * Gateway API on the cluster: `CHANNEL_STANDARD` makes GKE install the
   * standard-channel Gateway API CRDs and its GatewayClasses (such as
   * `gke-l7-global-external-managed`), which the `gateway` exposure uses.
   * @default 'CHANNEL_STANDARD'
   */
  readonly gatewayApiChannel?: 'CHANNEL_STANDARD' | 'CHANNEL_DISABLED';
  /**
   * The project, for the Workload Identity pool `<project>.svc.id.goog`. With it,
   * nodes serve Pods the GKE metadata server, which hides the node service
   * account's token from them.
   * @default - no Workload Identity: every Pod can fetch the node account's token
   */
  readonly workloadIdentityProject?: string;
  /**
   * Resources the cluster must wait for, such as the node service account's
   * project IAM binding: the default pool runs as that account at once.
   * @default - none
   */
  readonly dependsOn?: ITerraformDependable[];
}

/**
 * A VPC-native GKE Standard cluster: Pods get alias IPs from the subnet's
 * named Pod range (one per-node range sized by max Pods per node), Services
 * get cluster IPs from the Service range. Nodes are private (internal IPs
 * only; the control plane reaches them through Private Service Connect) and
 * the control plane's public endpoint only answers `masterAuthorizedCidrs`.
 * The default node pool is removed; add a {@link GkeNodePool}.
 *
 * `deletion_protection` is off so `cdktf destroy` can delete the lab without
 * manual steps. HTTP load balancing (the GKE Ingress and NEG controllers) is
 * on explicitly: the `native` and `nodeport` exposures need it.
 */
export class GkeCluster extends Construct {
  /** The cluster resource. */
  public readonly cluster: ContainerCluster;
  /** The cluster's name. */
  public readonly clusterName: string;
  /** The cluster's location (zone or region). */
  public readonly location: string;
  /** The control plane's public endpoint (an IP address, no scheme). */
  public readonly endpoint: string;
  /** The cluster CA certificate, PEM (decoded from the API's base64). */
  public readonly caCertificate: string;

  constructor(scope: Construct, id: string, props: GkeClusterProps) {
    super(scope, id);
    if (props.masterAuthorizedCidrs.length === 0) {
      throw new Error(`GkeCluster ${id}: masterAuthorizedCidrs is empty; list the CIDR blocks that may reach the control plane (["0.0.0.0/0"] for any)`);
    }
    if (props.observability && !props.dataplaneV2) {
      throw new Error(`GkeCluster ${id}: observability (managed Hubble) needs dataplaneV2; set dataplaneV2: true or observability: false`);
    }
    this.cluster = new ContainerCluster(this, 'cluster', {
      name: props.name,
      location: props.location,
      nodeLocations: props.nodeLocations ? [...props.nodeLocations] : undefined,
      network: props.networkId,
      subnetwork: props.subnetId,
      networkingMode: 'VPC_NATIVE',
      ipAllocationPolicy: {
        clusterSecondaryRangeName: props.podRangeName,
        servicesSecondaryRangeName: props.serviceRangeName,
        stackType: 'IPV4',
      },
      defaultMaxPodsPerNode: props.defaultMaxPodsPerNode ?? 110,
      datapathProvider: props.dataplaneV2 ? DATAPATH.dataplaneV2 : DATAPATH.kubeProxy,
      monitoringConfig: props.observability ? { advancedDatapathObservabilityConfig: { enableMetrics: true, enableRelay: true } } : undefined,
      releaseChannel: { channel: props.releaseChannel },
      minMasterVersion: props.minMasterVersion,
      // Nodes get internal IPs only; the endpoint stays public behind authorized networks.
      privateClusterConfig: { enablePrivateNodes: true, enablePrivateEndpoint: false },
      masterAuthorizedNetworksConfig: {
        cidrBlocks: props.masterAuthorizedCidrs.map((cidrBlock) => ({ cidrBlock, displayName: `hoplab ${cidrBlock}` })),
      },
      addonsConfig: { httpLoadBalancing: { disabled: false } },
      gatewayApiConfig: { channel: props.gatewayApiChannel ?? 'CHANNEL_STANDARD' },
      removeDefaultNodePool: true,
      initialNodeCount: 1,
      nodeConfig: props.defaultPoolServiceAccount
        ? {
            serviceAccount: props.defaultPoolServiceAccount,
            oauthScopes: ['https://www.googleapis.com/auth/cloud-platform'],
            workloadMetadataConfig: props.workloadIdentityProject ? { mode: 'GKE_METADATA' } : undefined,
          }
        : undefined,
      workloadIdentityConfig: props.workloadIdentityProject ? { workloadPool: `${props.workloadIdentityProject}.svc.id.goog` } : undefined,
      deletionProtection: false,
      dependsOn: props.dependsOn,
      lifecycle: { ignoreChanges: [...GKE_CLUSTER_IGNORED_CHANGES] },
    });
    this.clusterName = this.cluster.name;
    this.location = this.cluster.location;
    this.endpoint = this.cluster.endpoint;
    this.caCertificate = Fn.base64decode(this.cluster.masterAuth.clusterCaCertificate);
  }
}
