import { TerraformOutput, TerraformStack } from 'cdktf';
import { Construct } from 'constructs';
import { gcpDataplane } from '../model/datapaths';
import { gkeMaxNodesForPodRange, gkePerNodeRangePrefix, gkePerNodeRangeSize } from '../model/gke-limits';
import { LabEnvironment } from '../config/environments';
import { CLUSTER_OUTPUTS, GCP_CLUSTER_OUTPUT_DESCRIPTIONS, GCP_CLUSTER_OUTPUTS, GcpClusterStackOutputs, PLACEMENT_OUTPUT, PLACEMENT_OUTPUT_DESCRIPTION } from '../model/contract';
import { GcpSlot, placementOutput } from '../model/slots';
import { GkeAttendeeIam } from '../constructs/gcp/gke-attendee-iam';
import { GkeCluster, gkeLocation } from '../constructs/gcp/gke-cluster';
import { GkeHealthCheckFirewall } from '../constructs/gcp/gke-health-check-firewall';
import { GkeNetwork } from '../constructs/gcp/gke-network';
import { GkeNodePool } from '../constructs/gcp/gke-node-pool';
import { GkeNodeServiceAccount } from '../constructs/gcp/gke-node-service-account';
import { GkeSourceSecurityPolicy } from '../constructs/gcp/gke-source-security-policy';
import { gkeNeedsSecurityPolicy } from '../model/exposure-facts';
import { labGoogleProvider } from '../constructs/gcp/gke-providers';
import { DEMO_APP_PORT } from '../constructs/k8s/demo-app';
import { labNames } from '../model/names';
import { labTags } from '../model/tags';

export interface GcpClusterStackProps {
  /** The validated config of this environment (with its attendee's identities, in a workshop). Required. */
  readonly config: LabEnvironment;
  /**
   * The slot the environment is placed in (lib/lab/placement): the google provider's project and
   * region, and the zones. Given, the stack also exports `placement`.
   * @default - the config's gcp.project, gcp.region and gcp.zones, no `placement` output
   */
  readonly slot?: GcpSlot;
}

/**
 * `<env>-gcp-cluster`: the VPC network and node subnet (secondary ranges for
 * Pods and Services), Cloud Router and NAT for the private nodes, the
 * VPC-native GKE cluster and its node pool, and the firewall rules that let
 * Google's load balancers reach nodes and Pods; with a narrowed
 * `app.allowedSourceCidrs` and a GKE Ingress or Gateway, the Cloud Armor
 * policy that admits only those clients to them.
 */
export class GcpClusterStack extends TerraformStack {
  /** The GKE cluster, for the `-lb` stack's providers. */
  public readonly cluster: GkeCluster;
  /** The network. */
  public readonly network: GkeNetwork;
  /** The node pool. */
  public readonly nodePool: GkeNodePool;
  /** The attendee's project role (credentials only), when the environment's attendee has a Google identity. */
  public readonly attendeeIam?: GkeAttendeeIam;
  /**
   * The Cloud Armor policy that admits only `app.allowedSourceCidrs` to the GKE Ingress and Gateway, when the list
   * is narrowed and one of them is deployed. Here, not in `<env>-gcp-lb`: created before and destroyed after every
   * object and load balancer that uses it.
   */
  public readonly securityPolicy?: GkeSourceSecurityPolicy;
  /** The slot the stack is placed in, when placement is configured (the `-lb` stack's providers follow it). */
  public readonly slot?: GcpSlot;
  /** The project and region of the stack's resources: the slot's, else the config's. */
  public readonly project: string;
  public readonly region: string;

  constructor(scope: Construct, id: string, props: GcpClusterStackProps) {
    super(scope, id);
    const { config, slot } = props;
    // The slot's project, region and zones in place of the config's, when placed.
    const gcp = slot ? { ...config.gcp, project: slot.project, region: slot.region, zones: [...slot.zones] } : config.gcp;
    this.slot = slot;
    this.project = gcp.project;
    this.region = gcp.region;
    const names = labNames(config);
    const nodeTag = `${names.gkeCluster}-node`;

    labGoogleProvider(this, 'google', { project: gcp.project, region: gcp.region, labels: labTags(config, id) });

    this.network = new GkeNetwork(this, 'network', {
      name: names.gkeCluster,
      region: gcp.region,
      nodeCidr: gcp.nodeSubnetCidr,
      podCidr: gcp.podCidr,
      serviceCidr: gcp.serviceCidr,
    });

    const nodeAccount = new GkeNodeServiceAccount(this, 'node-sa', { project: gcp.project, accountId: `${names.gkeCluster}-nodes` });

    const where = gkeLocation(gcp.region, gcp.zones);
    this.cluster = new GkeCluster(this, 'gke', {
      name: names.gkeCluster,
      location: where.location,
      nodeLocations: where.nodeLocations,
      networkId: this.network.networkId,
      subnetId: this.network.subnetId,
      podRangeName: this.network.podRangeName,
      serviceRangeName: this.network.serviceRangeName,
      releaseChannel: gcp.releaseChannel,
      minMasterVersion: gcp.kubernetesVersion,
      dataplaneV2: gcp.datapath === 'dataplane-v2',
      observability: gcp.observability,
      masterAuthorizedCidrs: gcp.masterAuthorizedCidrs,
      defaultMaxPodsPerNode: gcp.maxPodsPerNode,
      defaultPoolServiceAccount: nodeAccount.email,
      // Workload Identity: Pods get the GKE metadata server, not the node account's token.
      workloadIdentityProject: gcp.project,
      // The default pool runs as the node account as soon as the cluster is created.
      dependsOn: [nodeAccount.binding],
    });

    this.nodePool = new GkeNodePool(this, 'nodes', {
      name: `${names.gkeCluster}-nodes`,
      clusterName: this.cluster.clusterName,
      location: this.cluster.location,
      zones: gcp.zones,
      nodeCountPerZone: gcp.nodeCount,
      machineType: gcp.machineType,
      maxPodsPerNode: gcp.maxPodsPerNode,
      networkTags: [nodeTag],
      labels: { 'hoplab.dev/env': config.name },
      serviceAccount: nodeAccount.email,
      workloadIdentity: true,
      dependsOn: [this.network.nat, nodeAccount.binding],
    });

    // Enough to fetch credentials, nothing inside a cluster: the attendee's rights come from RBAC in their own cluster (<env>-gcp-lb).
    if (config.attendee?.gcp) {
      this.attendeeIam = new GkeAttendeeIam(this, 'attendee-iam', { project: gcp.project, member: config.attendee.gcp });
    }

    new GkeHealthCheckFirewall(this, 'lb-firewall', {
      name: names.gkeCluster,
      networkId: this.network.networkId,
      targetTags: [nodeTag],
      podPorts: [DEMO_APP_PORT],
    });

    if (gkeNeedsSecurityPolicy(config.exposures, config.app.allowedSourceCidrs)) {
      this.securityPolicy = new GkeSourceSecurityPolicy(this, 'source-policy', { name: names.gkeSecurityPolicy, sourceRanges: config.app.allowedSourceCidrs });
    }

    const podRangePrefix = Number(gcp.podCidr.split('/')[1]);
    const perNodePrefix = gkePerNodeRangePrefix(gcp.maxPodsPerNode);
    const perNodeSize = gkePerNodeRangeSize(gcp.maxPodsPerNode);
    const outputs: GcpClusterStackOutputs = {
      [CLUSTER_OUTPUTS.cloud]: 'gcp',
      [CLUSTER_OUTPUTS.clusterName]: this.cluster.clusterName,
      [CLUSTER_OUTPUTS.region]: gcp.region,
      [CLUSTER_OUTPUTS.location]: gcp.zones.join(','),
      [CLUSTER_OUTPUTS.nodeCount]: gcp.nodeCount * gcp.zones.length,
      [CLUSTER_OUTPUTS.maxPodsPerNode]: gcp.maxPodsPerNode,
      [CLUSTER_OUTPUTS.maxPodsPerNodeReason]:
        `GKE VPC-native: max Pods per node set to ${gcp.maxPodsPerNode}; each node gets a /${perNodePrefix} alias range ` +
        `(${perNodeSize} addresses, at least twice the max Pods) from the Pod range ${gcp.podCidr}`,
      [CLUSTER_OUTPUTS.podAddressRange]: [gcp.podCidr],
      [CLUSTER_OUTPUTS.podNetworking]: `gke-vpc-native: Pods get alias IPs from the subnet's secondary range "${this.network.podRangeName}"`,
      [GCP_CLUSTER_OUTPUTS.clusterLocation]: this.cluster.location,
      [GCP_CLUSTER_OUTPUTS.clusterEndpoint]: this.cluster.endpoint,
      [GCP_CLUSTER_OUTPUTS.clusterCaCertificate]: this.cluster.cluster.masterAuth.clusterCaCertificate,
      [GCP_CLUSTER_OUTPUTS.kubernetesVersion]: this.cluster.cluster.masterVersion,
      [GCP_CLUSTER_OUTPUTS.releaseChannel]: gcp.releaseChannel,
      [CLUSTER_OUTPUTS.dataplane]: gcpDataplane(gcp.datapath),
      [GCP_CLUSTER_OUTPUTS.perNodePodRangePrefix]: perNodePrefix,
      [GCP_CLUSTER_OUTPUTS.perNodePodRangeSize]: perNodeSize,
      [GCP_CLUSTER_OUTPUTS.maxNodesForPodRange]: gkeMaxNodesForPodRange(podRangePrefix, gcp.maxPodsPerNode),
      [GCP_CLUSTER_OUTPUTS.serviceAddressRange]: gcp.serviceCidr,
      [GCP_CLUSTER_OUTPUTS.nodeAddressRange]: gcp.nodeSubnetCidr,
      [GCP_CLUSTER_OUTPUTS.networkName]: this.network.network.name,
      [GCP_CLUSTER_OUTPUTS.nodeNetworkTag]: nodeTag,
    };
    for (const [name, value] of Object.entries(outputs)) {
      new TerraformOutput(this, name, { value, description: GCP_CLUSTER_OUTPUT_DESCRIPTIONS[name as keyof GcpClusterStackOutputs] });
    }
    if (slot) new TerraformOutput(this, PLACEMENT_OUTPUT, { value: placementOutput(slot), description: PLACEMENT_OUTPUT_DESCRIPTION });
  }
}
