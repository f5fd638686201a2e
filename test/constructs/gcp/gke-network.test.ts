import { ComputeNetwork } from '@cdktf/provider-google/lib/compute-network';
import { ComputeRouter } from '@cdktf/provider-google/lib/compute-router';
import { ComputeSubnetwork } from '@cdktf/provider-google/lib/compute-subnetwork';
import { GkeNetwork, GkeNetworkProps, POD_RANGE_NAME, SERVICE_RANGE_NAME } from '../../../lib/constructs/gcp/gke-network';
import { resourceOf, synthScope } from '../../support/synth';

const PROPS: GkeNetworkProps = { name: 'lab-gke', region: 'us-central1', nodeCidr: '10.10.0.0/20', podCidr: '10.20.0.0/16', serviceCidr: '10.30.0.0/20' };

const synth = (props: Partial<GkeNetworkProps> = {}) => synthScope((scope) => new GkeNetwork(scope, 'network', { ...PROPS, ...props }));

describe('GkeNetwork', () => {
  test('GIVEN a name WHEN synthesized THEN the network is custom-mode (no auto-created subnets) and regional', () => {
    const { json, parsed } = synth();
    expect(json).toHaveResourceWithProperties(ComputeNetwork, { name: 'lab-gke', auto_create_subnetworks: false, routing_mode: 'REGIONAL' });
    expect(Object.keys(parsed.resource)).toEqual(expect.arrayContaining(['google_compute_network', 'google_compute_subnetwork', 'google_compute_router', 'google_compute_router_nat']));
  });

  test('GIVEN node, Pod and Service ranges WHEN synthesized THEN one node subnet holds them: primary for nodes, named secondaries for Pods and Services', () => {
    const { parsed } = synth();
    const { config: subnet } = resourceOf(parsed, 'google_compute_subnetwork');
    const { name: networkId } = resourceOf(parsed, 'google_compute_network');
    expect(subnet).toEqual({
      name: 'lab-gke-nodes',
      network: `\${google_compute_network.${networkId}.id}`,
      region: 'us-central1',
      ip_cidr_range: '10.10.0.0/20',
      private_ip_google_access: true,
      secondary_ip_range: [
        { range_name: 'pods', ip_cidr_range: '10.20.0.0/16' },
        { range_name: 'services', ip_cidr_range: '10.30.0.0/20' },
      ],
    });
    expect([POD_RANGE_NAME, SERVICE_RANGE_NAME]).toEqual(['pods', 'services']);
  });

  test('GIVEN other ranges WHEN synthesized THEN the subnet carries them unchanged', () => {
    const { json } = synth({ nodeCidr: '192.168.0.0/24', podCidr: '172.16.0.0/14', serviceCidr: '172.20.0.0/22' });
    expect(json).toHaveResourceWithProperties(ComputeSubnetwork, {
      ip_cidr_range: '192.168.0.0/24',
      secondary_ip_range: [
        { range_name: 'pods', ip_cidr_range: '172.16.0.0/14' },
        { range_name: 'services', ip_cidr_range: '172.20.0.0/22' },
      ],
    });
  });

  test('GIVEN private nodes WHEN synthesized THEN a Cloud Router and NAT translate every range of the node subnet (and only it)', () => {
    const { json, parsed } = synth();
    expect(json).toHaveResourceWithProperties(ComputeRouter, { name: 'lab-gke-router', region: 'us-central1' });
    const { name: routerId } = resourceOf(parsed, 'google_compute_router');
    const { name: subnetId } = resourceOf(parsed, 'google_compute_subnetwork');
    const { config: nat } = resourceOf(parsed, 'google_compute_router_nat');
    expect(nat).toEqual({
      name: 'lab-gke-nat',
      router: `\${google_compute_router.${routerId}.name}`,
      region: 'us-central1',
      nat_ip_allocate_option: 'AUTO_ONLY',
      source_subnetwork_ip_ranges_to_nat: 'LIST_OF_SUBNETWORKS',
      subnetwork: [{ name: `\${google_compute_subnetwork.${subnetId}.id}`, source_ip_ranges_to_nat: ['ALL_IP_RANGES'] }],
      log_config: { enable: true, filter: 'ERRORS_ONLY' },
    });
  });
});
