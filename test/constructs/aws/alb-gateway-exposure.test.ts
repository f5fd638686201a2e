import { Release } from '@cdktf/provider-helm/lib/release';
import { TerraformOutput, Testing } from 'cdktf';
import { parse } from 'yaml';
import { AlbGatewayExposure, AlbGatewayExposureProps } from '../../../lib/constructs/aws/alb-gateway-exposure';
import { manifestObjects } from '../../support/k8s-objects';
import { Json } from '../../support/synth';

function synthExposure(overrides: Partial<AlbGatewayExposureProps> = {}) {
  const json = JSON.parse(
    Testing.synthScope((scope) => {
      const controller = new Release(scope, 'controller', { name: 'aws-load-balancer-controller', chart: 'aws-load-balancer-controller' });
      const exposure = new AlbGatewayExposure(scope, 'exposure', {
        mode: 'gateway',
        namespace: 'hoplab',
        selector: { app: 'echo' },
        targetPort: 'http',
        tags: { 'hoplab-exposure': 'gateway' },
        kubectlImage: 'registry.k8s.io/kubectl:v1.34.3',
        dependsOn: [controller],
        ...overrides,
      });
      new TerraformOutput(scope, 'url', { value: exposure.url });
    }),
  );
  const releases = json.resource.helm_release as Record<string, Record<string, Json>>;
  const [releaseName, release] = Object.entries(releases).find(([name]) => name.startsWith('exposure_objects'))!;
  const objects = parse(release.values[0]).manifests as Record<string, Json>[];
  return { json, releaseName, release, objects, of: (kind: string) => objects.find((o) => o.kind === kind)! };
}

describe('AlbGatewayExposure', () => {
  describe('GIVEN the gateway exposure', () => {
    const { json, releaseName, release, objects, of } = synthExposure();

    test('THEN the Gateway API objects ask the ALB Gateway controller for an internet-facing ALB with ip targets', () => {
      expect(objects.map((o) => `${o.apiVersion} ${o.kind}`)).toEqual([
        'gateway.networking.k8s.io/v1 GatewayClass',
        'gateway.k8s.aws/v1 LoadBalancerConfiguration',
        'gateway.networking.k8s.io/v1 Gateway',
        'gateway.k8s.aws/v1 TargetGroupConfiguration',
        'gateway.networking.k8s.io/v1 HTTPRoute',
        'v1 ServiceAccount',
        'rbac.authorization.k8s.io/v1 Role',
        'rbac.authorization.k8s.io/v1 RoleBinding',
        'batch/v1 Job',
      ]);
      expect(of('GatewayClass')).toMatchObject({ metadata: { name: 'hoplab-alb' }, spec: { controllerName: 'gateway.k8s.aws/alb' } });
      expect(of('LoadBalancerConfiguration').spec).toEqual({ scheme: 'internet-facing', tags: { 'hoplab-exposure': 'gateway' } });
      expect(of('TargetGroupConfiguration').spec.defaultConfiguration).toMatchObject({ targetType: 'ip', healthCheckConfig: { healthCheckPath: '/', healthCheckProtocol: 'HTTP' } });
      expect(of('HTTPRoute').spec.parentRefs).toEqual([{ group: 'gateway.networking.k8s.io', kind: 'Gateway', name: 'echo-gateway', sectionName: 'http' }]);
    });

    test('THEN every object is valid against its CRD or the Kubernetes schema', () => {
      for (const object of manifestObjects(json)) {
        expect(() => object.validate()).not.toThrow();
      }
    });

    test('THEN the release depends on the controller and the Service, waits (install and uninstall), and the URL is read from the Gateway status after it', () => {
      const [serviceName] = Object.keys(json.resource.kubernetes_service_v1);
      expect(release).toMatchObject({ name: 'echo-gateway', namespace: 'hoplab', wait: true, atomic: true, timeout: 900 });
      expect(release.depends_on).toEqual(['helm_release.controller', `kubernetes_service_v1.${serviceName}`]);
      const [dataName, data] = Object.entries(json.data.kubernetes_resource as Record<string, Record<string, Json>>)[0];
      expect(data).toMatchObject({ api_version: 'gateway.networking.k8s.io/v1', kind: 'Gateway', metadata: { name: 'echo-gateway', namespace: 'hoplab' } });
      expect(data.depends_on).toEqual([`helm_release.${releaseName}`]);
      expect(json.output.url.value).toBe(`http://\${data.kubernetes_resource.${dataName}.object.status.addresses[0].value}/`);
    });

    test('THEN the Service is ClusterIP (ip targets need no NodePort) and created after the controller', () => {
      const [service] = Object.values(json.resource.kubernetes_service_v1) as Record<string, Json>[];
      expect(service.spec.type).toBe('ClusterIP');
      expect(service.depends_on).toEqual(['helm_release.controller']);
    });
  });

  test('GIVEN another GatewayClass name THEN the Gateway names it', () => {
    const { of } = synthExposure({ gatewayClassName: 'workshop-alb' });
    expect(of('GatewayClass').metadata.name).toBe('workshop-alb');
    expect(of('Gateway').spec.gatewayClassName).toBe('workshop-alb');
  });

  test('GIVEN a kubectl image WHEN synthesized THEN the wait Job runs it', () => {
    const { of } = synthExposure({ kubectlImage: 'registry.k8s.io/kubectl:v1.31.12' });
    expect(of('Job').spec.template.spec.containers[0].image).toBe('registry.k8s.io/kubectl:v1.31.12');
  });

  test.each([
    [undefined, undefined],
    [['0.0.0.0/0'], undefined],
    [
      ['203.0.113.0/24', '198.51.100.7/32'],
      ['203.0.113.0/24', '198.51.100.7/32'],
    ],
  ])('GIVEN sourceRanges %j WHEN synthesized THEN the LoadBalancerConfiguration sourceRanges is %j', (sourceRanges, expected) => {
    const { of } = synthExposure(sourceRanges === undefined ? {} : { sourceRanges });
    expect(of('LoadBalancerConfiguration').spec).toEqual({
      scheme: 'internet-facing',
      ...(expected ? { sourceRanges: expected } : {}),
      tags: { 'hoplab-exposure': 'gateway' },
    });
  });
});
