import { ContainerCluster } from '@cdktf/provider-google/lib/container-cluster';
import { TerraformOutput } from 'cdktf';
import { DATAPATH, GKE_CLUSTER_IGNORED_CHANGES, GkeCluster, GkeClusterProps, gkeLocation } from '../../../lib/constructs/gcp/gke-cluster';
import { resourceOf, synthScope } from '../../support/synth';

const PROPS: GkeClusterProps = {
  name: 'lab-gke',
  location: 'us-central1-a',
  networkId: 'projects/p/global/networks/lab-gke',
  subnetId: 'projects/p/regions/us-central1/subnetworks/lab-gke-nodes',
  podRangeName: 'pods',
  serviceRangeName: 'services',
  releaseChannel: 'REGULAR',
  masterAuthorizedCidrs: ['203.0.113.0/24'],
};

const synth = (props: Partial<GkeClusterProps> = {}) => synthScope((scope) => new GkeCluster(scope, 'gke', { ...PROPS, ...props }));
const cluster = (props: Partial<GkeClusterProps> = {}) => resourceOf(synth(props).parsed, 'google_container_cluster').config;

describe('gkeLocation', () => {
  test.each([
    [['us-central1-a'], { location: 'us-central1-a' }],
    [['us-central1-a', 'us-central1-b'], { location: 'us-central1', nodeLocations: ['us-central1-a', 'us-central1-b'] }],
  ])('GIVEN zones %j WHEN placed THEN the cluster is %j', (zones, expected) => {
    expect(gkeLocation('us-central1', zones)).toEqual(expected);
  });

  test('GIVEN no zones WHEN placed THEN the error says what to give', () => {
    expect(() => gkeLocation('us-central1', [])).toThrow('gkeLocation: zones is empty; give at least one zone of the region (e.g. ["us-central1-a"])');
  });
});

describe('GkeCluster', () => {
  test('GIVEN the defaults WHEN synthesized THEN the whole cluster resource is pinned down', () => {
    expect(cluster()).toEqual({
      name: 'lab-gke',
      location: 'us-central1-a',
      network: 'projects/p/global/networks/lab-gke',
      subnetwork: 'projects/p/regions/us-central1/subnetworks/lab-gke-nodes',
      networking_mode: 'VPC_NATIVE',
      ip_allocation_policy: { cluster_secondary_range_name: 'pods', services_secondary_range_name: 'services', stack_type: 'IPV4' },
      default_max_pods_per_node: 110,
      datapath_provider: 'LEGACY_DATAPATH',
      release_channel: { channel: 'REGULAR' },
      private_cluster_config: { enable_private_nodes: true, enable_private_endpoint: false },
      master_authorized_networks_config: { cidr_blocks: [{ cidr_block: '203.0.113.0/24', display_name: 'hoplab 203.0.113.0/24' }] },
      addons_config: { http_load_balancing: { disabled: false } },
      gateway_api_config: { channel: 'CHANNEL_STANDARD' },
      remove_default_node_pool: true,
      initial_node_count: 1,
      deletion_protection: false,
      lifecycle: { ignore_changes: ['node_config', 'node_pool', 'initial_node_count'] },
    });
  });

  test('GIVEN VPC-native ranges WHEN synthesized THEN Pods and Services use the subnet secondary ranges by name, not new ranges', () => {
    expect(synth().json).toHaveResourceWithProperties(ContainerCluster, {
      networking_mode: 'VPC_NATIVE',
      ip_allocation_policy: { cluster_secondary_range_name: 'pods', services_secondary_range_name: 'services', stack_type: 'IPV4' },
    });
  });

  test.each([
    [true, 'ADVANCED_DATAPATH'],
    [false, 'LEGACY_DATAPATH'],
  ])('GIVEN dataplaneV2 %s WHEN synthesized THEN datapath_provider is %s', (dataplaneV2, provider) => {
    expect(cluster({ dataplaneV2 }).datapath_provider).toBe(provider);
    expect(Object.values(DATAPATH)).toContain(provider);
  });

  test('GIVEN a minimum version WHEN synthesized THEN min_master_version is set; without one it is left to the channel', () => {
    expect(cluster({ minMasterVersion: '1.33' }).min_master_version).toBe('1.33');
    expect(cluster()).not.toHaveProperty('min_master_version');
  });

  test('GIVEN a regional location WHEN synthesized THEN node_locations limits the cluster to the configured zones', () => {
    const c = cluster({ location: 'us-central1', nodeLocations: ['us-central1-b', 'us-central1-c'] });
    expect([c.location, c.node_locations]).toEqual(['us-central1', ['us-central1-b', 'us-central1-c']]);
  });

  test('GIVEN several authorized CIDRs and a max Pods setting WHEN synthesized THEN each becomes a block and the default pool gets the max', () => {
    const c = cluster({ masterAuthorizedCidrs: ['0.0.0.0/0', '198.51.100.0/24'], defaultMaxPodsPerNode: 64 });
    expect(c.master_authorized_networks_config).toEqual({
      cidr_blocks: [
        { cidr_block: '0.0.0.0/0', display_name: 'hoplab 0.0.0.0/0' },
        { cidr_block: '198.51.100.0/24', display_name: 'hoplab 198.51.100.0/24' },
      ],
    });
    expect(c.default_max_pods_per_node).toBe(64);
  });

  test.each([
    [undefined, undefined],
    [false, undefined],
    [true, { advanced_datapath_observability_config: { enable_metrics: true, enable_relay: true } }],
  ])('GIVEN Dataplane V2 with observability %s WHEN synthesized THEN monitoring_config is %j', (observability, monitoring) => {
    expect(cluster({ dataplaneV2: true, observability }).monitoring_config).toEqual(monitoring);
  });

  test('GIVEN observability without Dataplane V2 WHEN constructed THEN the error names the props and the fix', () => {
    expect(() => synth({ observability: true })).toThrow('GkeCluster gke: observability (managed Hubble) needs dataplaneV2; set dataplaneV2: true or observability: false');
  });

  test('GIVEN no authorized CIDR WHEN constructed THEN the error names the prop and the fix', () => {
    expect(() => synth({ masterAuthorizedCidrs: [] })).toThrow('GkeCluster gke: masterAuthorizedCidrs is empty; list the CIDR blocks that may reach the control plane (["0.0.0.0/0"] for any)');
  });

  test('GIVEN the construct WHEN read THEN the endpoint and the PEM CA come from the cluster (the CA base64-decoded)', () => {
    const { parsed } = synthScope((scope) => {
      const made = new GkeCluster(scope, 'gke', PROPS);
      new TerraformOutput(scope, 'ca', { value: made.caCertificate });
      new TerraformOutput(scope, 'endpoint', { value: made.endpoint });
    });
    const { name: id } = resourceOf(parsed, 'google_container_cluster');
    expect(parsed.output?.ca.value).toBe(`\${base64decode(google_container_cluster.${id}.master_auth[0].cluster_ca_certificate)}`);
    expect(parsed.output?.endpoint.value).toBe(`\${google_container_cluster.${id}.endpoint}`);
    expect(GKE_CLUSTER_IGNORED_CHANGES).toEqual(['node_config', 'node_pool', 'initial_node_count']);
  });
});
