import { ContainerNodePool } from '@cdktf/provider-google/lib/container-node-pool';
import { TerraformOutput } from 'cdktf';
import { ComputeRouterNat } from '@cdktf/provider-google/lib/compute-router-nat';
import { GKE_NODE_POOL_IGNORED_CHANGES, GkeNodePool, GkeNodePoolProps } from '../../../lib/constructs/gcp/gke-node-pool';
import { resourceOf, synthScope } from '../../support/synth';

const PROPS: GkeNodePoolProps = {
  name: 'lab-gke-nodes',
  clusterName: 'lab-gke',
  location: 'us-central1',
  zones: ['us-central1-a', 'us-central1-b'],
  nodeCountPerZone: 2,
  machineType: 'e2-standard-2',
  maxPodsPerNode: 110,
  networkTags: ['lab-gke-node'],
};

const synth = (props: Partial<GkeNodePoolProps> = {}) => synthScope((scope) => new GkeNodePool(scope, 'nodes', { ...PROPS, ...props }));
const pool = (props: Partial<GkeNodePoolProps> = {}) => resourceOf(synth(props).parsed, 'google_container_node_pool').config;

describe('GkeNodePool', () => {
  test('GIVEN two zones and two nodes per zone WHEN synthesized THEN the whole node pool is pinned down', () => {
    expect(pool()).toEqual({
      name: 'lab-gke-nodes',
      cluster: 'lab-gke',
      location: 'us-central1',
      node_locations: ['us-central1-a', 'us-central1-b'],
      node_count: 2,
      max_pods_per_node: 110,
      management: { auto_repair: true, auto_upgrade: true },
      upgrade_settings: { strategy: 'SURGE', max_surge: 1, max_unavailable: 0 },
      node_config: {
        machine_type: 'e2-standard-2',
        image_type: 'COS_CONTAINERD',
        disk_size_gb: 50,
        disk_type: 'pd-balanced',
        oauth_scopes: ['https://www.googleapis.com/auth/cloud-platform'],
        tags: ['lab-gke-node'],
        metadata: { 'disable-legacy-endpoints': 'true' },
        shielded_instance_config: { enable_secure_boot: true, enable_integrity_monitoring: true },
      },
      lifecycle: { ignore_changes: ['node_config[0].resource_labels', 'node_config[0].kubelet_config'] },
    });
    expect(GKE_NODE_POOL_IGNORED_CHANGES).toHaveLength(2);
  });

  test.each([8, 32, 110, 256])('GIVEN max Pods per node %i WHEN synthesized THEN the pool sets it (GKE sizes each node alias range from it)', (maxPodsPerNode) => {
    expect(synth({ maxPodsPerNode }).json).toHaveResourceWithProperties(ContainerNodePool, { max_pods_per_node: maxPodsPerNode });
  });

  test('GIVEN labels, disk size and a machine type WHEN synthesized THEN the node config carries them', () => {
    const config = pool({ labels: { 'hoplab.dev/env': 'lab' }, diskSizeGb: 100, machineType: 'n2-standard-4' }).node_config as Record<string, unknown>;
    expect([config.labels, config.disk_size_gb, config.machine_type]).toEqual([{ 'hoplab.dev/env': 'lab' }, 100, 'n2-standard-4']);
  });

  test('GIVEN the NAT as a dependency WHEN synthesized THEN the pool is created after it and destroyed before it', () => {
    const { parsed } = synthScope((scope) => {
      const nat = new ComputeRouterNat(scope, 'nat', { name: 'nat', router: 'r', sourceSubnetworkIpRangesToNat: 'ALL_SUBNETWORKS_ALL_IP_RANGES' });
      const made = new GkeNodePool(scope, 'nodes', { ...PROPS, dependsOn: [nat] });
      new TerraformOutput(scope, 'pool', { value: made.nodePool.name });
    });
    const { name: natId } = resourceOf(parsed, 'google_compute_router_nat');
    expect(resourceOf(parsed, 'google_container_node_pool').config.depends_on).toEqual([`google_compute_router_nat.${natId}`]);
  });

  test.each([
    [{ zones: [] }, 'GkeNodePool nodes: zones is empty; give the zones to run nodes in (e.g. ["us-central1-a"])'],
    [{ nodeCountPerZone: 0 }, 'GkeNodePool nodes: nodeCountPerZone is 0; use a whole number of at least 1'],
    [{ nodeCountPerZone: 1.5 }, 'GkeNodePool nodes: nodeCountPerZone is 1.5; use a whole number of at least 1'],
  ])('GIVEN %j WHEN constructed THEN the error names the prop, the value and the fix', (props, message) => {
    expect(() => synth(props)).toThrow(message);
  });
});
