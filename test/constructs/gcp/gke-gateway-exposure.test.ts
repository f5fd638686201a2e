import { NamespaceV1 } from '@cdktf/provider-kubernetes/lib/namespace-v1';
import { TerraformOutput } from 'cdktf';
import { GkeGatewayExposure } from '../../../lib/constructs/gcp/gke-gateway-exposure';
import { DEMO_APP_LABELS } from '../../../lib/constructs/k8s/demo-app';
import { kubernetesObjects, manifestObjects } from '../../support/k8s-objects';
import { Json, resourceOf, synthScope } from '../../support/synth';

const synth = (className?: string, securityPolicy?: string) =>
  synthScope((scope) => {
    const ns = new NamespaceV1(scope, 'ns', { metadata: { name: 'hoplab' } });
    const exposure = new GkeGatewayExposure(scope, 'gateway', {
      mode: 'gateway',
      namespace: ns.metadata.name,
      selector: DEMO_APP_LABELS,
      targetPort: 8080,
      ...(className ? { gatewayClassName: className } : {}),
      ...(securityPolicy ? { securityPolicy } : {}),
    });
    new TerraformOutput(scope, 'url', { value: exposure.url });
  });

describe('GkeGatewayExposure', () => {
  test('GIVEN the defaults THEN a Gateway of the global external managed class, an HTTPRoute to a ClusterIP Service, the URL from the Gateway status', () => {
    const { parsed } = synth();
    const manifests = parsed.resource.kubernetes_manifest as Record<string, Json>;
    const [gatewayId] = Object.keys(manifests).filter((k) => manifests[k].manifest.kind === 'Gateway');
    const [routeId] = Object.keys(manifests).filter((k) => manifests[k].manifest.kind === 'HTTPRoute');
    expect(manifests[gatewayId].manifest.spec.gatewayClassName).toBe('gke-l7-global-external-managed');
    expect(manifests[gatewayId].timeouts).toEqual({ create: '20m', update: '20m', delete: '20m' });
    const { name: serviceId, config: service } = resourceOf(parsed, 'kubernetes_service_v1');
    expect((service.spec as { type: string }).type).toBe('ClusterIP');
    expect(manifests[routeId].depends_on).toEqual([`kubernetes_manifest.${gatewayId}`, `kubernetes_service_v1.${serviceId}`]);
    const [dataId, data] = Object.entries((parsed.data as Record<string, Record<string, Json>>).kubernetes_resource)[0];
    expect(data.depends_on).toEqual([`kubernetes_manifest.${gatewayId}`, `kubernetes_manifest.${routeId}`]);
    expect((parsed.output as Record<string, { value: string }>).url.value).toBe(`http://\${data.kubernetes_resource.${dataId}.object.status.addresses[0].value}/`);
  });

  test('GIVEN the defaults THEN the Service is valid for Kubernetes and the Gateway API objects for their v1.6.0 CRDs', () => {
    const { parsed } = synth();
    for (const object of [...kubernetesObjects(parsed), ...manifestObjects(parsed)]) {
      expect(() => object.validate()).not.toThrow();
    }
  });

  test('GIVEN another class THEN the Gateway names it', () => {
    const manifests = synth('gke-l7-regional-external-managed').parsed.resource.kubernetes_manifest as Record<string, Json>;
    expect(Object.values(manifests).find((m) => m.manifest.kind === 'Gateway').manifest.spec.gatewayClassName).toBe('gke-l7-regional-external-managed');
  });
  test('GIVEN a security policy THEN a GCPBackendPolicy targeting the Service names it, and the HTTPRoute comes after it', () => {
    const { parsed } = synth(undefined, 'lab-gke-sources');
    const manifests = parsed.resource.kubernetes_manifest as Record<string, Json>;
    const [policyId] = Object.keys(manifests).filter((k) => manifests[k].manifest.kind === 'GCPBackendPolicy');
    const [gatewayId] = Object.keys(manifests).filter((k) => manifests[k].manifest.kind === 'Gateway');
    const [routeId] = Object.keys(manifests).filter((k) => manifests[k].manifest.kind === 'HTTPRoute');
    const { name: serviceId } = resourceOf(parsed, 'kubernetes_service_v1');
    expect(manifests[policyId].manifest).toEqual({
      apiVersion: 'networking.gke.io/v1',
      kind: 'GCPBackendPolicy',
      metadata: {
        name: 'echo-gateway',
        namespace: expect.stringContaining('kubernetes_namespace_v1.'),
        labels: { 'app.kubernetes.io/part-of': 'hoplab', 'hoplab.dev/exposure': 'gateway' },
      },
      spec: {
        default: { securityPolicy: 'lab-gke-sources' },
        targetRef: { group: '', kind: 'Service', name: `\${kubernetes_service_v1.${serviceId}.metadata[0].name}` },
      },
    });
    expect(manifests[routeId].depends_on).toEqual([`kubernetes_manifest.${gatewayId}`, `kubernetes_service_v1.${serviceId}`, `kubernetes_manifest.${policyId}`]);
  });

  test('GIVEN no security policy THEN no GCPBackendPolicy', () => {
    const manifests = synth().parsed.resource.kubernetes_manifest as Record<string, Json>;
    expect(Object.values(manifests).map((m) => m.manifest.kind)).toEqual(['Gateway', 'HTTPRoute']);
  });
});
