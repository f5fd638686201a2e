import { ContainerCluster } from '@cdktf/provider-google/lib/container-cluster';
import { ContainerNodePool } from '@cdktf/provider-google/lib/container-node-pool';
import { GoogleProvider } from '@cdktf/provider-google/lib/provider';
import { Testing } from 'cdktf';
import { validConfig } from '../../lib/config/load';
import { CLUSTER_OUTPUTS, GCP_CLUSTER_OUTPUTS } from '../../lib/model/contract';
import { GcpClusterStack } from '../../lib/stacks/gcp-cluster-stack';
import { gcpLabelValue } from '../../lib/constructs/gcp/gke-providers';
import { labNames } from '../../lib/model/names';
import { labTags } from '../../lib/model/tags';
import { named, resourceOf, Synthesized } from '../support/synth';

function synth(raw: Record<string, unknown> = {}): { json: string; parsed: Synthesized; stack: GcpClusterStack } {
  const config = validConfig(raw, 'test');
  const stack = new GcpClusterStack(Testing.app(), labNames(config).gcpClusterStack, { config });
  const json = Testing.synth(stack);
  return { json, parsed: JSON.parse(json) as Synthesized, stack };
}

const outputs = (parsed: Synthesized) => Object.fromEntries(Object.entries(parsed.output ?? {}).map(([k, v]) => [k, v.value]));

describe('GcpClusterStack', () => {
  test('GIVEN the default config WHEN synthesized THEN it matches the snapshot (update only for intended changes)', () => {
    expect(synth().json).toMatchSnapshot();
  });

  test('GIVEN a project, region and name WHEN synthesized THEN the google provider uses them and labels everything with the environment', () => {
    const raw = { name: 'team-a', gcp: { project: 'acme-lab-1', region: 'europe-west1', zones: ['europe-west1-b'] } };
    const { json, parsed, stack } = synth(raw);
    expect(stack.node.id).toBe('team-a-gcp-cluster');
    const labels = Object.fromEntries(Object.entries(labTags(validConfig(raw, 'test'), 'team-a-gcp-cluster')).map(([k, v]) => [k, gcpLabelValue(v)]));
    expect(labels).toMatchObject({ 'hoplab-env': 'team-a', 'hoplab-stack': 'team-a-gcp-cluster', 'managed-by': 'hoplab' });
    expect(parsed.provider?.google).toEqual([{ project: 'acme-lab-1', region: 'europe-west1', default_labels: labels }]);
    expect(json).toHaveProviderWithProperties(GoogleProvider, { project: 'acme-lab-1', region: 'europe-west1' });
    expect(json).toHaveResourceWithProperties(ContainerCluster, { name: 'team-a-gke', location: 'europe-west1-b' });
  });

  test('GIVEN the default config WHEN synthesized THEN cluster, node pool and firewall all use the network and the node subnet of this stack', () => {
    const { parsed } = synth();
    const { name: networkId } = resourceOf(parsed, 'google_compute_network');
    const { name: subnetId, config: subnet } = resourceOf(parsed, 'google_compute_subnetwork');
    const { name: clusterId, config: cluster } = resourceOf(parsed, 'google_container_cluster');
    const { config: pool } = resourceOf(parsed, 'google_container_node_pool');
    const { name: natId } = resourceOf(parsed, 'google_compute_router_nat');
    expect(subnet.secondary_ip_range).toEqual([
      { range_name: 'pods', ip_cidr_range: '10.20.0.0/16' },
      { range_name: 'services', ip_cidr_range: '10.30.0.0/20' },
    ]);
    expect([cluster.network, cluster.subnetwork]).toEqual([`\${google_compute_network.${networkId}.id}`, `\${google_compute_subnetwork.${subnetId}.id}`]);
    expect([pool.cluster, pool.location]).toEqual([`\${google_container_cluster.${clusterId}.name}`, `\${google_container_cluster.${clusterId}.location}`]);
    const { name: bindingId } = resourceOf(parsed, 'google_project_iam_member');
    expect(pool.depends_on).toEqual([`google_compute_router_nat.${natId}`, `google_project_iam_member.${bindingId}`]);
    for (const rule of Object.values(parsed.resource.google_compute_firewall)) {
      expect([rule.network, rule.target_tags]).toEqual([`\${google_compute_network.${networkId}.id}`, ['lab-gke-node']]);
    }
    expect((pool.node_config as { tags: string[] }).tags).toEqual(['lab-gke-node']);
    expect(named(parsed, 'google_compute_firewall', 'lab-gke-allow-l7-lb').config.allow).toEqual([{ protocol: 'tcp', ports: ['30000-32767', '8080'] }]);
  });

  test('GIVEN a project WHEN synthesized THEN Workload Identity is on: the cluster has the workload pool and the nodes serve Pods the GKE metadata server', () => {
    const { parsed } = synth({ gcp: { project: 'acme-lab-1' } });
    const { config: cluster } = resourceOf(parsed, 'google_container_cluster');
    const { config: pool } = resourceOf(parsed, 'google_container_node_pool');
    expect(cluster.workload_identity_config).toEqual({ workload_pool: 'acme-lab-1.svc.id.goog' });
    expect((pool.node_config as { workload_metadata_config: unknown }).workload_metadata_config).toEqual({ mode: 'GKE_METADATA' });
  });

  test("GIVEN the default config WHEN synthesized THEN the cluster waits for the node account's IAM binding (its default pool runs as that account at once)", () => {
    const { parsed } = synth();
    const { config: cluster } = resourceOf(parsed, 'google_container_cluster');
    const { name: bindingId } = resourceOf(parsed, 'google_project_iam_member');
    expect(cluster.depends_on).toEqual([`google_project_iam_member.${bindingId}`]);
  });

  test.each([
    [{ datapath: 'dataplane-v2', observability: true }, { advanced_datapath_observability_config: { enable_metrics: true, enable_relay: true } }],
    [{ datapath: 'dataplane-v2' }, undefined],
    [{}, undefined],
  ])('GIVEN gcp %j WHEN synthesized THEN the cluster monitoring_config is %j (managed Hubble only when asked)', (gcp, monitoring) => {
    expect(resourceOf(synth({ gcp }).parsed, 'google_container_cluster').config.monitoring_config).toEqual(monitoring);
  });

  test('GIVEN three zones, gcp.datapath dataplane-v2, a version and authorized networks WHEN synthesized THEN the regional cluster and pool follow the config', () => {
    const zones = ['us-central1-a', 'us-central1-b', 'us-central1-c'];
    const { json } = synth({
      gcp: {
        zones,
        nodeCount: 2,
        maxPodsPerNode: 64,
        datapath: 'dataplane-v2',
        kubernetesVersion: '1.33',
        releaseChannel: 'STABLE',
        masterAuthorizedCidrs: ['198.51.100.0/24'],
        machineType: 'e2-standard-4',
      },
    });
    expect(json).toHaveResourceWithProperties(ContainerCluster, {
      location: 'us-central1',
      node_locations: zones,
      datapath_provider: 'ADVANCED_DATAPATH',
      min_master_version: '1.33',
      release_channel: { channel: 'STABLE' },
      default_max_pods_per_node: 64,
      master_authorized_networks_config: { cidr_blocks: [{ cidr_block: '198.51.100.0/24', display_name: 'hoplab 198.51.100.0/24' }] },
      deletion_protection: false,
      remove_default_node_pool: true,
    });
    expect(json).toHaveResourceWithProperties(ContainerNodePool, { node_locations: zones, node_count: 2, max_pods_per_node: 64 });
  });

  test('GIVEN the default config WHEN synthesized THEN the contract outputs say gcp, and the alias-range facts come from the config', () => {
    const values = outputs(synth().parsed);
    expect(values).toMatchObject({
      [CLUSTER_OUTPUTS.cloud]: 'gcp',
      [CLUSTER_OUTPUTS.region]: 'us-central1',
      [CLUSTER_OUTPUTS.location]: 'us-central1-a',
      [CLUSTER_OUTPUTS.nodeCount]: 3,
      [CLUSTER_OUTPUTS.maxPodsPerNode]: 110,
      [CLUSTER_OUTPUTS.maxPodsPerNodeReason]:
        'GKE VPC-native: max Pods per node set to 110; each node gets a /24 alias range (256 addresses, at least twice the max Pods) from the Pod range 10.20.0.0/16',
      [CLUSTER_OUTPUTS.podAddressRange]: ['10.20.0.0/16'],
      [CLUSTER_OUTPUTS.podNetworking]: 'gke-vpc-native: Pods get alias IPs from the subnet\'s secondary range "pods"',
      [GCP_CLUSTER_OUTPUTS.perNodePodRangePrefix]: 24,
      [GCP_CLUSTER_OUTPUTS.perNodePodRangeSize]: 256,
      [GCP_CLUSTER_OUTPUTS.maxNodesForPodRange]: 256,
      [GCP_CLUSTER_OUTPUTS.releaseChannel]: 'REGULAR',
      [CLUSTER_OUTPUTS.dataplane]: 'kube-proxy-iptables',
      [GCP_CLUSTER_OUTPUTS.serviceAddressRange]: '10.30.0.0/20',
      [GCP_CLUSTER_OUTPUTS.nodeAddressRange]: '10.10.0.0/20',
      [GCP_CLUSTER_OUTPUTS.nodeNetworkTag]: 'lab-gke-node',
    });
    expect(Object.keys(values).sort()).toEqual([...Object.values(CLUSTER_OUTPUTS), ...Object.values(GCP_CLUSTER_OUTPUTS)].sort());
    expect(values[CLUSTER_OUTPUTS.clusterName]).toMatch(/^\$\{google_container_cluster\.gke_cluster_\w+\.name\}$/);
    expect(values[GCP_CLUSTER_OUTPUTS.kubernetesVersion]).toMatch(/^\$\{google_container_cluster\.gke_cluster_\w+\.master_version\}$/);
    // What a kubeconfig needs beside the endpoint: the cluster's CA, as GKE hands it over (base64 PEM, not decoded).
    expect(values[GCP_CLUSTER_OUTPUTS.clusterCaCertificate]).toMatch(/^\$\{google_container_cluster\.gke_cluster_\w+\.master_auth\[0\]\.cluster_ca_certificate\}$/);
  });

  test.each([
    [{ maxPodsPerNode: 8, podCidr: '10.20.0.0/24', zones: ['us-central1-a', 'us-central1-b'] }, 16, 28, 16, 6, 'cilium-ebpf'],
    [{ maxPodsPerNode: 32, podCidr: '10.20.0.0/20' }, 64, 26, 64, 3, 'kube-proxy-iptables'],
    [{ maxPodsPerNode: 256, podCidr: '10.20.0.0/14' }, 512, 23, 512, 3, 'kube-proxy-iptables'],
  ])('GIVEN %j WHEN synthesized THEN the per-node range is %i addresses (/%i), the Pod range holds %i nodes, on %i nodes, dataplane %s', (gcp, size, prefix, maxNodes, nodeCount, dataplane) => {
    const values = outputs(synth({ gcp: { ...gcp, datapath: dataplane === 'cilium-ebpf' ? 'dataplane-v2' : 'legacy' } }).parsed);
    expect([
      values[GCP_CLUSTER_OUTPUTS.perNodePodRangeSize],
      values[GCP_CLUSTER_OUTPUTS.perNodePodRangePrefix],
      values[GCP_CLUSTER_OUTPUTS.maxNodesForPodRange],
      values[CLUSTER_OUTPUTS.nodeCount],
      values[CLUSTER_OUTPUTS.dataplane],
    ]).toEqual([size, prefix, maxNodes, nodeCount, dataplane]);
  });
  test.each([
    ['the default open list', {}],
    ['a list with a /0 block among others', { app: { allowedSourceCidrs: ['203.0.113.0/24', '0.0.0.0/0'] } }],
    ['a narrowed list with only L4 exposures', { exposures: ['nodeport-l4', 'nodeport-local', 'native-l4'], app: { allowedSourceCidrs: ['203.0.113.0/24'] } }],
  ])('GIVEN %s WHEN synthesized THEN no Cloud Armor security policy', (_name, raw) => {
    const { parsed, stack } = synth(raw);
    expect(parsed.resource.google_compute_security_policy).toBeUndefined();
    expect(stack.securityPolicy).toBeUndefined();
  });

  test.each([[['native']], [['nodeport']], [['gateway']], [['native', 'gateway', 'nodeport', 'nodeport-l4']]])(
    'GIVEN a narrowed list and exposures %j WHEN synthesized THEN one Cloud Armor policy named for the environment admits the list and denies the rest',
    (exposures) => {
      const { parsed } = synth({ name: 'team-a', exposures, app: { allowedSourceCidrs: ['203.0.113.0/24', '198.51.100.7/32'] } });
      const { config } = named(parsed, 'google_compute_security_policy', 'team-a-gke-sources');
      expect((config.rule as { action: string; priority: number; match: { config: { src_ip_ranges: string[] } } }[]).map((r) => [r.action, r.priority, r.match.config.src_ip_ranges])).toEqual([
        ['allow', 1000, ['203.0.113.0/24', '198.51.100.7/32']],
        ['deny(403)', 2147483647, ['*']],
      ]);
    },
  );
});
