import { ComputeFirewall } from '@cdktf/provider-google/lib/compute-firewall';
import { GOOGLE_L4_HEALTH_CHECK_RANGES, GOOGLE_L7_SOURCE_RANGES, GkeHealthCheckFirewall, GkeHealthCheckFirewallProps } from '../../../lib/constructs/gcp/gke-health-check-firewall';
import { named, synthScope } from '../../support/synth';

const PROPS: GkeHealthCheckFirewallProps = { name: 'lab-gke', networkId: 'projects/p/global/networks/lab-gke', targetTags: ['lab-gke-node'], podPorts: [8080] };
const synth = (props: Partial<GkeHealthCheckFirewallProps> = {}) => synthScope((scope) => new GkeHealthCheckFirewall(scope, 'lb-firewall', { ...PROPS, ...props }));

describe('GkeHealthCheckFirewall', () => {
  test('GIVEN Google ranges WHEN read THEN they are the documented health-check and proxy ranges, the L4 ones as GKE’s own L4 rules open them', () => {
    expect(GOOGLE_L7_SOURCE_RANGES).toEqual(['130.211.0.0/22', '35.191.0.0/16']);
    expect(GOOGLE_L4_HEALTH_CHECK_RANGES).toEqual(['130.211.0.0/22', '35.191.0.0/16', '209.85.152.0/22', '209.85.204.0/22']);
  });

  test('GIVEN the Pod port WHEN synthesized THEN the L7 rule lets health checks and GFE proxies reach every NodePort (instance groups, healthCheckNodePort) and the Pod port (NEGs)', () => {
    const { config: rule } = named(synth().parsed, 'google_compute_firewall', 'lab-gke-allow-l7-lb');
    expect(rule).toEqual({
      name: 'lab-gke-allow-l7-lb',
      network: 'projects/p/global/networks/lab-gke',
      direction: 'INGRESS',
      priority: 1000,
      target_tags: ['lab-gke-node'],
      source_ranges: ['130.211.0.0/22', '35.191.0.0/16'],
      allow: [{ protocol: 'tcp', ports: ['30000-32767', '8080'] }],
      description: 'hoplab: Google health checks and Application Load Balancer proxies to NodePorts (instance groups) and Pod ports (NEGs)',
    });
  });

  test('GIVEN passthrough Network Load Balancers WHEN synthesized THEN the L4 rule lets their health checks reach healthCheckNodePorts and the node health port', () => {
    const { config: rule } = named(synth().parsed, 'google_compute_firewall', 'lab-gke-allow-l4-lb-hc');
    expect(rule).toEqual({
      name: 'lab-gke-allow-l4-lb-hc',
      network: 'projects/p/global/networks/lab-gke',
      direction: 'INGRESS',
      priority: 1000,
      target_tags: ['lab-gke-node'],
      source_ranges: ['130.211.0.0/22', '35.191.0.0/16', '209.85.152.0/22', '209.85.204.0/22'],
      allow: [{ protocol: 'tcp', ports: ['30000-32767', '10256'] }],
      description: 'hoplab: passthrough Network Load Balancer health checks to healthCheckNodePorts and the node health port',
    });
  });

  test('GIVEN several Pod ports WHEN synthesized THEN the L7 rule opens each; neither rule is open to the internet', () => {
    const { json, parsed } = synth({ podPorts: [8080, 9090] });
    expect(json).toHaveResourceWithProperties(ComputeFirewall, { allow: [{ protocol: 'tcp', ports: ['30000-32767', '8080', '9090'] }] });
    for (const rule of Object.values(parsed.resource.google_compute_firewall)) {
      expect(rule.source_ranges).not.toContain('0.0.0.0/0');
    }
  });

  test('GIVEN no target tags WHEN constructed THEN the error says why they are required', () => {
    expect(() => synth({ targetTags: [] })).toThrow("GkeHealthCheckFirewall lb-firewall: targetTags is empty; give the node pool's network tags, or the rules would open every VM in the network");
  });
});
