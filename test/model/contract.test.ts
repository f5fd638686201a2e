/**
 * The output contract's name maps (lib/model/contract.ts): derived from the tables of
 * descriptions, they must still name every output, by its stable name.
 */
import { AWS_CLUSTER_OUTPUT_DESCRIPTIONS, AWS_CLUSTER_OUTPUTS, CLUSTER_OUTPUTS, GCP_CLUSTER_OUTPUT_DESCRIPTIONS, GCP_CLUSTER_OUTPUTS } from '../../lib/model/contract';

describe('the output name maps', () => {
  test('GIVEN the name maps THEN each maps a camelCase key to the stable output name, as scripts read it', () => {
    // Typed as literals: a name that changes fails the type check too.
    const clusterName: 'cluster_name' = CLUSTER_OUTPUTS.clusterName;
    const roleArn: 'lb_controller_role_arn' = AWS_CLUSTER_OUTPUTS.lbControllerRoleArn;
    const prefix: 'per_node_pod_range_prefix' = GCP_CLUSTER_OUTPUTS.perNodePodRangePrefix;
    expect([clusterName, roleArn, prefix]).toEqual(['cluster_name', 'lb_controller_role_arn', 'per_node_pod_range_prefix']);
    expect(CLUSTER_OUTPUTS).toEqual({
      cloud: 'cloud',
      clusterName: 'cluster_name',
      region: 'region',
      location: 'location',
      nodeCount: 'node_count',
      maxPodsPerNode: 'max_pods_per_node',
      maxPodsPerNodeReason: 'max_pods_per_node_reason',
      podAddressRange: 'pod_address_range',
      podNetworking: 'pod_networking',
      dataplane: 'dataplane',
    });
    expect(AWS_CLUSTER_OUTPUTS).toEqual({
      clusterEndpoint: 'cluster_endpoint',
      clusterCaCertificate: 'cluster_ca_certificate',
      vpcId: 'vpc_id',
      oidcProviderArn: 'oidc_provider_arn',
      lbControllerRoleArn: 'lb_controller_role_arn',
      kubernetesVersion: 'kubernetes_version',
    });
    expect(GCP_CLUSTER_OUTPUTS).toEqual({
      clusterLocation: 'cluster_location',
      clusterEndpoint: 'cluster_endpoint',
      clusterCaCertificate: 'cluster_ca_certificate',
      kubernetesVersion: 'kubernetes_version',
      releaseChannel: 'release_channel',
      perNodePodRangePrefix: 'per_node_pod_range_prefix',
      perNodePodRangeSize: 'per_node_pod_range_size',
      maxNodesForPodRange: 'max_nodes_for_pod_range',
      serviceAddressRange: 'service_address_range',
      nodeAddressRange: 'node_address_range',
      networkName: 'network_name',
      nodeNetworkTag: 'node_network_tag',
    });
  });

  test.each([
    ['aws-cluster', AWS_CLUSTER_OUTPUTS, AWS_CLUSTER_OUTPUT_DESCRIPTIONS],
    ['gcp-cluster', GCP_CLUSTER_OUTPUTS, GCP_CLUSTER_OUTPUT_DESCRIPTIONS],
  ] as const)('GIVEN %s THEN the shared names and its own name every output it describes, each once', (_kind, own, descriptions) => {
    const names = [...Object.values(CLUSTER_OUTPUTS), ...Object.values(own)];
    expect(new Set(names).size).toBe(names.length);
    expect(names.sort()).toEqual(Object.keys(descriptions).sort());
  });
});
