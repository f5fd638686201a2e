import { formatProblem } from '../../lib/config/problems';
import { validateConfig } from '../../lib/config/validate';
import { validConfig } from '../../lib/config/load';

const messages = (raw: unknown) => {
  const result = validateConfig(raw);
  return result.ok ? [] : result.problems.map(formatProblem);
};

/**
 * The GKE range rules: GIVEN a gcp section with one mistake, WHEN validated,
 * THEN exactly these messages come back (field, value, what is allowed, fix).
 */
const RANGE_CASES: [string, Record<string, unknown>, string[]][] = [
  ['Pod range overlaps the node subnet', { podCidr: '10.10.0.0/16' }, ['gcp.podCidr: "10.10.0.0/16" overlaps gcp.nodeSubnetCidr (10.10.0.0/20); give each range its own addresses']],
  ['Service range inside the Pod range', { serviceCidr: '10.20.16.0/20' }, ['gcp.serviceCidr: "10.20.16.0/20" overlaps gcp.podCidr (10.20.0.0/16); give each range its own addresses']],
  [
    'all three ranges the same',
    { nodeSubnetCidr: '10.0.0.0/16', podCidr: '10.0.0.0/16', serviceCidr: '10.0.0.0/16' },
    [
      'gcp.podCidr: "10.0.0.0/16" overlaps gcp.nodeSubnetCidr (10.0.0.0/16); give each range its own addresses',
      'gcp.serviceCidr: "10.0.0.0/16" overlaps gcp.nodeSubnetCidr (10.0.0.0/16); give each range its own addresses',
      'gcp.serviceCidr: "10.0.0.0/16" overlaps gcp.podCidr (10.0.0.0/16); give each range its own addresses',
    ],
  ],
  [
    'Pod range too small for 110 Pods on 3 nodes',
    { podCidr: '10.20.0.0/23' },
    [
      'gcp.podCidr: "10.20.0.0/23" holds 2 nodes at 110 max Pods per node (a /24 alias range each) but 3 nodes are configured (gcp.nodeCount 3 x 1 zone); use a larger range, fewer nodes or a lower gcp.maxPodsPerNode',
    ],
  ],
  [
    'Pod range too small for 3 zones x 4 nodes at 64 Pods',
    { zones: ['us-central1-a', 'us-central1-b', 'us-central1-c'], nodeCount: 4, maxPodsPerNode: 64, podCidr: '10.20.0.0/23' },
    [
      'gcp.podCidr: "10.20.0.0/23" holds 4 nodes at 64 max Pods per node (a /25 alias range each) but 12 nodes are configured (gcp.nodeCount 4 x 3 zones); use a larger range, fewer nodes or a lower gcp.maxPodsPerNode',
    ],
  ],
  [
    'Pod range smaller than one node range',
    { podCidr: '10.20.0.0/25', nodeCount: 1 },
    ['gcp.podCidr: "10.20.0.0/25" is smaller than the /24 alias range GKE gives each node at 110 max Pods per node; 1 node(s) need at least a /24: use a larger range or a lower gcp.maxPodsPerNode'],
  ],
  [
    'Pod range smaller than one node range, 3 nodes',
    { podCidr: '10.20.0.0/26', maxPodsPerNode: 64 },
    ['gcp.podCidr: "10.20.0.0/26" is smaller than the /25 alias range GKE gives each node at 64 max Pods per node; 3 node(s) need at least a /23: use a larger range or a lower gcp.maxPodsPerNode'],
  ],
  ['node subnet smaller than /29', { nodeSubnetCidr: '10.10.0.0/30' }, ['gcp.nodeSubnetCidr: "10.10.0.0/30" has prefix /30; Google Cloud subnets must be /29 or larger']],
  [
    'node subnet without room for the nodes of two zones',
    { nodeSubnetCidr: '10.10.0.0/29', zones: ['us-central1-a', 'us-central1-b'] },
    ['gcp.nodeSubnetCidr: "10.10.0.0/29" has 4 usable addresses for 6 nodes; use a larger block or fewer nodes'],
  ],
  ['Service range smaller than /27', { serviceCidr: '10.30.0.0/28' }, ['gcp.serviceCidr: "10.30.0.0/28" has prefix /28; GKE needs a Service range of /27 or larger']],
  [
    'a zone of another region',
    { zones: ['us-central1-a', 'europe-west1-b'] },
    ['gcp.zones[1]: "europe-west1-b" is not in region "us-central1", whose zones are us-central1-a, us-central1-b, us-central1-c and us-central1-f: use those, or change gcp.region'],
  ],
  ['Pod range with host bits', { podCidr: '10.20.1.0/16' }, ['gcp.podCidr: "10.20.1.0/16" has host bits set; the network address of that block is "10.20.0.0/16"']],
  [
    'unknown credentials',
    { kubernetesCredentials: 'kubeconfig' },
    ['gcp.kubernetesCredentials: "kubeconfig" is not supported; allowed: gke-gcloud-auth-plugin, access-token. Use "gke-gcloud-auth-plugin" unless the machine running Terraform has no gcloud.'],
  ],
];

describe('gcp config validation', () => {
  test.each(RANGE_CASES)('GIVEN %s WHEN validated THEN the exact messages name field, value and fix', (_name, gcp, expected) => {
    expect(messages({ gcp })).toEqual(expected);
  });

  test.each([
    ['the defaults', {}],
    ['a /24 Pod range for 2 nodes at 110 Pods', { podCidr: '10.20.0.0/23', nodeCount: 2 }],
    ['256 max Pods (/23 per node) on 3 nodes in a /21', { maxPodsPerNode: 256, podCidr: '10.20.0.0/21' }],
    ['four zones', { region: 'us-central1', zones: ['us-central1-a', 'us-central1-b', 'us-central1-c', 'us-central1-f'], nodeCount: 1 }],
    ['access-token credentials', { kubernetesCredentials: 'access-token' }],
  ])('GIVEN %s WHEN validated THEN it is accepted', (_name, gcp) => {
    expect(messages({ gcp })).toEqual([]);
  });

  test('GIVEN no gcp section WHEN loaded THEN the lb stack uses the exec plugin', () => {
    expect(validConfig({}, 'test').gcp.kubernetesCredentials).toBe('gke-gcloud-auth-plugin');
  });
});
