import { Release } from '@cdktf/provider-helm/lib/release';
import { TerraformOutput, Testing } from 'cdktf';
import { NlbServiceExposure, NlbServiceExposureProps } from '../../../lib/constructs/aws/nlb-service-exposure';
import { Json } from '../../support/synth';

function synthExposure(overrides: Partial<NlbServiceExposureProps> = {}) {
  const json = JSON.parse(
    Testing.synthScope((scope) => {
      const controller = new Release(scope, 'controller', { name: 'aws-load-balancer-controller', chart: 'aws-load-balancer-controller' });
      const exposure = new NlbServiceExposure(scope, 'exposure', {
        mode: 'nodeport-local',
        namespace: 'hoplab',
        selector: { app: 'echo' },
        targetPort: 'http',
        loadBalancerClass: 'service.k8s.aws/nlb',
        tags: { 'hoplab-exposure': 'nodeport-local' },
        dependsOn: [controller],
        ...overrides,
      });
      new TerraformOutput(scope, 'url', { value: exposure.url });
    }),
  );
  const [[serviceName, service]] = Object.entries(json.resource.kubernetes_service_v1) as [string, Record<string, Json>][];
  return { json, serviceName, service, url: json.output.url.value as string };
}

describe('NlbServiceExposure', () => {
  describe('GIVEN the nodeport-local exposure', () => {
    const { json, serviceName, service, url } = synthExposure();

    test('THEN it is one LoadBalancer Service handed to the controller by loadBalancerClass, with externalTrafficPolicy Local', () => {
      expect(Object.keys(json.resource)).toEqual(['helm_release', 'kubernetes_service_v1']);
      expect(service.spec).toEqual({
        type: 'LoadBalancer',
        load_balancer_class: 'service.k8s.aws/nlb',
        external_traffic_policy: 'Local',
        selector: { app: 'echo' },
        port: [{ name: 'http', port: 80, target_port: 'http', protocol: 'TCP' }],
      });
    });

    test('THEN it asks for an internet-facing NLB with instance targets, health-checked over HTTP /healthz, keeping the client IP, cross-zone on', () => {
      expect(service.metadata.annotations).toEqual({
        'service.beta.kubernetes.io/aws-load-balancer-type': 'external',
        'service.beta.kubernetes.io/aws-load-balancer-scheme': 'internet-facing',
        'service.beta.kubernetes.io/aws-load-balancer-nlb-target-type': 'instance',
        'service.beta.kubernetes.io/aws-load-balancer-healthcheck-protocol': 'http',
        'service.beta.kubernetes.io/aws-load-balancer-healthcheck-path': '/healthz',
        'service.beta.kubernetes.io/aws-load-balancer-target-group-attributes': 'preserve_client_ip.enabled=true,deregistration_delay.timeout_seconds=30',
        'service.beta.kubernetes.io/aws-load-balancer-attributes': 'load_balancing.cross_zone.enabled=true',
        'service.beta.kubernetes.io/aws-load-balancer-additional-resource-tags': 'hoplab-exposure=nodeport-local',
      });
    });

    test('THEN the health check port is left to the controller, which uses spec.healthCheckNodePort for Local', () => {
      expect(service.metadata.annotations).not.toHaveProperty(['service.beta.kubernetes.io/aws-load-balancer-healthcheck-port']);
      expect(service.spec).not.toHaveProperty('health_check_node_port');
    });

    test('THEN it is named and labelled after the mode', () => {
      expect(service.metadata).toEqual(
        expect.objectContaining({ name: 'echo-nodeport-local', namespace: 'hoplab', labels: { 'app.kubernetes.io/part-of': 'hoplab', 'hoplab.dev/exposure': 'nodeport-local' } }),
      );
    });

    test('THEN Terraform waits for the NLB, and the Service depends on the controller release', () => {
      expect(service.wait_for_load_balancer).toBe(true);
      expect(service.timeouts).toEqual({ create: '10m' });
      expect(service.depends_on).toEqual([expect.stringMatching(/^helm_release\.controller/)]);
    });

    test('THEN its URL is read back from the Service status', () => {
      expect(url).toBe(`http://\${kubernetes_service_v1.${serviceName}.status[0].load_balancer[0].ingress[0].hostname}/`);
    });
  });

  test('GIVEN no tags THEN the Service has no additional-tags annotation', () => {
    expect(synthExposure({ tags: undefined }).service.metadata.annotations).not.toHaveProperty(['service.beta.kubernetes.io/aws-load-balancer-additional-resource-tags']);
  });
});

describe('NlbServiceExposure target types and traffic policies', () => {
  const annotations = (overrides: Partial<NlbServiceExposureProps>) => synthExposure(overrides).service.metadata.annotations as Record<string, string>;

  test('GIVEN instance targets with externalTrafficPolicy Cluster (nodeport-l4) THEN a TCP health check on the NodePort, client IP preservation said explicitly', () => {
    const { service } = synthExposure({ mode: 'nodeport-l4', externalTrafficPolicy: 'Cluster' });
    expect(service.spec.external_traffic_policy).toBe('Cluster');
    expect(service.spec.allocate_load_balancer_node_ports).toBeUndefined();
    expect(annotations({ mode: 'nodeport-l4', externalTrafficPolicy: 'Cluster' })).toMatchObject({
      'service.beta.kubernetes.io/aws-load-balancer-nlb-target-type': 'instance',
      'service.beta.kubernetes.io/aws-load-balancer-healthcheck-protocol': 'tcp',
      'service.beta.kubernetes.io/aws-load-balancer-healthcheck-port': 'traffic-port',
      'service.beta.kubernetes.io/aws-load-balancer-target-group-attributes': 'preserve_client_ip.enabled=true,deregistration_delay.timeout_seconds=30',
    });
  });

  test('GIVEN ip targets (native-l4) THEN the NLB targets Pod IPs with client IP preservation on, and no NodePorts are allocated', () => {
    const { service } = synthExposure({ mode: 'native-l4', targetType: 'ip', externalTrafficPolicy: 'Cluster' });
    expect(service.spec).toMatchObject({ type: 'LoadBalancer', external_traffic_policy: 'Cluster', allocate_load_balancer_node_ports: false });
    expect(service.metadata.annotations).toMatchObject({
      'service.beta.kubernetes.io/aws-load-balancer-nlb-target-type': 'ip',
      'service.beta.kubernetes.io/aws-load-balancer-target-group-attributes': expect.stringMatching(/^preserve_client_ip\.enabled=true,/),
    });
  });

  test.each([
    [{ targetType: 'ip' as const }, 'NlbServiceExposure exposure: externalTrafficPolicy "Local" has no effect with ip targets (the NLB skips the nodes); use "Cluster"'],
    [{ targetType: 'pod' as never }, 'NlbServiceExposure exposure: targetType "pod" is not an NLB target type; use "instance" (NodePorts) or "ip" (Pod IPs)'],
  ])('GIVEN %j THEN synth stops with a clear message', (overrides, message) => {
    expect(() => synthExposure(overrides)).toThrow(message);
  });

  test.each([
    [undefined, undefined],
    [['0.0.0.0/0'], undefined],
    [['0.0.0.0/0', '203.0.113.0/24'], undefined],
    [
      ['203.0.113.0/24', '198.51.100.7/32'],
      ['203.0.113.0/24', '198.51.100.7/32'],
    ],
  ])('GIVEN sourceRanges %j WHEN synthesized THEN spec.loadBalancerSourceRanges is %j (the controller makes them the NLB security group inbound rules)', (sourceRanges, expected) => {
    const { service } = synthExposure(sourceRanges === undefined ? {} : { sourceRanges });
    expect(service.spec.load_balancer_source_ranges).toEqual(expected);
  });
});
