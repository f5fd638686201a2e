import { Release, ReleaseConfig } from '@cdktf/provider-helm/lib/release';
import { TerraformOutput, Testing } from 'cdktf';
import { AlbIngressExposure, AlbIngressExposureProps } from '../../../lib/constructs/aws/alb-ingress-exposure';
import { Json } from '../../support/synth';

const releaseConfig: ReleaseConfig = { name: 'aws-load-balancer-controller', chart: 'aws-load-balancer-controller' };

function synthExposure(overrides: Partial<AlbIngressExposureProps> = {}) {
  const json = JSON.parse(
    Testing.synthScope((scope) => {
      const controller = new Release(scope, 'controller', releaseConfig);
      const exposure = new AlbIngressExposure(scope, 'exposure', {
        mode: 'native',
        namespace: 'hoplab',
        selector: { app: 'echo' },
        targetPort: 'http',
        targetType: 'ip',
        ingressClassName: 'alb',
        tags: { 'hoplab-exposure': 'native' },
        dependsOn: [controller],
        ...overrides,
      });
      new TerraformOutput(scope, 'url', { value: exposure.url });
    }),
  );
  const [[serviceName, service]] = Object.entries(json.resource.kubernetes_service_v1) as [string, Record<string, Json>][];
  const [[ingressName, ingress]] = Object.entries(json.resource.kubernetes_ingress_v1) as [string, Record<string, Json>][];
  return { serviceName, service, ingressName, ingress, url: json.output.url.value as string };
}

describe('AlbIngressExposure', () => {
  describe.each([
    { targetType: 'ip' as const, mode: 'native' as const, serviceType: 'ClusterIP', policy: undefined },
    { targetType: 'instance' as const, mode: 'nodeport' as const, serviceType: 'NodePort', policy: 'Cluster' },
  ])('GIVEN $targetType targets', ({ targetType, mode, serviceType, policy }) => {
    const { service, serviceName, ingress } = synthExposure({ targetType, mode, tags: { 'hoplab-exposure': mode } });

    test(`THEN the Service is ${serviceType}${policy ? ` with externalTrafficPolicy ${policy}` : ', with no NodePort'}`, () => {
      expect(service.spec.type).toBe(serviceType);
      expect(service.spec.external_traffic_policy).toBe(policy);
      expect(service.spec.port).toEqual([{ name: 'http', port: 80, target_port: 'http', protocol: 'TCP' }]);
      expect(service.spec.selector).toEqual({ app: 'echo' });
    });

    test('THEN Service and Ingress are named and labelled after the mode', () => {
      for (const object of [service, ingress]) {
        expect(object.metadata).toEqual(
          expect.objectContaining({
            name: `echo-${mode}`,
            namespace: 'hoplab',
            labels: { 'app.kubernetes.io/part-of': 'hoplab', 'hoplab.dev/exposure': mode },
          }),
        );
      }
    });

    test(`THEN the Ingress asks for its own internet-facing ALB on HTTP 80 with ${targetType} targets`, () => {
      expect(ingress.metadata.annotations).toEqual({
        'alb.ingress.kubernetes.io/scheme': 'internet-facing',
        'alb.ingress.kubernetes.io/target-type': targetType,
        'alb.ingress.kubernetes.io/listen-ports': '[{"HTTP":80}]',
        'alb.ingress.kubernetes.io/inbound-cidrs': '0.0.0.0/0',
        'alb.ingress.kubernetes.io/healthcheck-path': '/',
        'alb.ingress.kubernetes.io/success-codes': '200',
        'alb.ingress.kubernetes.io/target-group-attributes': 'deregistration_delay.timeout_seconds=30',
        'alb.ingress.kubernetes.io/tags': `hoplab-exposure=${mode}`,
      });
      expect(Object.keys(ingress.metadata.annotations)).not.toContain('alb.ingress.kubernetes.io/group.name');
    });

    test('THEN the Ingress uses the controller IngressClass and routes / to the Service', () => {
      expect(ingress.spec).toEqual({
        ingress_class_name: 'alb',
        rule: [
          {
            http: {
              path: [{ path: '/', path_type: 'Prefix', backend: { service: { name: `\${kubernetes_service_v1.${serviceName}.metadata[0].name}`, port: { number: 80 } } } }],
            },
          },
        ],
      });
    });

    test('THEN Terraform waits for the ALB on create and for the controller finalizer on delete', () => {
      expect(ingress.wait_for_load_balancer).toBe(true);
      expect(ingress.timeouts).toEqual({ create: '10m', delete: '15m' });
    });

    test('THEN Service and Ingress depend on the controller release', () => {
      expect(service.depends_on).toEqual([expect.stringMatching(/^helm_release\.controller/)]);
      expect(ingress.depends_on).toEqual([expect.stringMatching(/^helm_release\.controller/)]);
    });
  });

  test('GIVEN an exposure THEN its URL is read back from the Ingress status once the ALB exists', () => {
    const { ingressName, url } = synthExposure();
    expect(url).toBe(`http://\${kubernetes_ingress_v1.${ingressName}.status[0].load_balancer[0].ingress[0].hostname}/`);
  });

  test('GIVEN no tags THEN the Ingress has no tags annotation', () => {
    const { ingress } = synthExposure({ tags: undefined });
    expect(ingress.metadata.annotations).not.toHaveProperty(['alb.ingress.kubernetes.io/tags']);
  });

  test('GIVEN a target type the ALB does not have THEN construction fails naming it', () => {
    expect(() => synthExposure({ targetType: 'pod' as never })).toThrow('AlbIngressExposure exposure: targetType "pod" is not an ALB target type; use "ip" (Pod IPs) or "instance" (NodePorts)');
  });

  test.each([
    [undefined, '0.0.0.0/0'],
    [['0.0.0.0/0'], '0.0.0.0/0'],
    [['203.0.113.0/24', '198.51.100.7/32'], '203.0.113.0/24,198.51.100.7/32'],
  ])('GIVEN sourceRanges %j WHEN synthesized THEN the ALB security group admits %p (inbound-cidrs)', (sourceRanges, expected) => {
    const { ingress } = synthExposure(sourceRanges === undefined ? {} : { sourceRanges });
    expect(ingress.metadata.annotations['alb.ingress.kubernetes.io/inbound-cidrs']).toBe(expected);
  });
});
