import { NamespaceV1 } from '@cdktf/provider-kubernetes/lib/namespace-v1';
import { TerraformOutput } from 'cdktf';
import { gkeL4Backends, GkeLoadBalancerServiceExposure } from '../../../lib/constructs/gcp/gke-load-balancer-service-exposure';
import { DEMO_APP_LABELS } from '../../../lib/constructs/k8s/demo-app';
import { kubernetesObjects } from '../../support/k8s-objects';
import { resourceOf, synthScope } from '../../support/synth';

const synth = (gkeVersion?: string, sourceRanges?: readonly string[]) =>
  synthScope((scope) => {
    const ns = new NamespaceV1(scope, 'ns', { metadata: { name: 'hoplab' } });
    const exposure = new GkeLoadBalancerServiceExposure(scope, 'nodeport-local', {
      mode: 'nodeport-local',
      namespace: ns.metadata.name,
      selector: DEMO_APP_LABELS,
      targetPort: 8080,
      gkeVersion,
      ...(sourceRanges ? { sourceRanges } : {}),
    });
    new TerraformOutput(scope, 'url', { value: exposure.url });
  });

describe('GkeLoadBalancerServiceExposure', () => {
  test.each([
    [undefined, false, 'the nodes, as GCE_VM_IP NEGs from GKE 1.32.2-gke.1652000, as instance groups before'],
    ['1.31', false, 'instance groups of the nodes'],
    ['1.32', false, 'the nodes, as GCE_VM_IP NEGs from GKE 1.32.2-gke.1652000, as instance groups before'],
    ['1.33', false, 'GCE_VM_IP NEGs of the nodes'],
    ['1.34', true, 'GCE_VM_IP NEGs of the nodes'],
    ['1.35.1-gke.1000', true, 'GCE_VM_IP NEGs of the nodes'],
  ])('GIVEN GKE version %p WHEN the backends are decided THEN class=%p and the backends are %p', (version, useClass, backends) => {
    expect(gkeL4Backends(version)).toEqual({ useClass, backends });
  });

  test('GIVEN GKE 1.34 WHEN synthesized THEN the Service asks for loadBalancerClass l4-regional-external (GCE_VM_IP NEGs) instead of the annotation', () => {
    const { config: service } = resourceOf(synth('1.34').parsed, 'kubernetes_service_v1');
    expect((service.spec as Record<string, unknown>).load_balancer_class).toBe('networking.gke.io/l4-regional-external');
    expect((service.metadata as { annotations: Record<string, string> }).annotations).toEqual({});
  });

  test('GIVEN the defaults WHEN synthesized THEN a backend service-based (l4-rbs) LoadBalancer Service with externalTrafficPolicy Local waits for its address and ignores the NEG annotations GKE adds', () => {
    const { parsed } = synth();
    const { name: nsId } = resourceOf(parsed, 'kubernetes_namespace_v1');
    const { name: serviceId, config: service } = resourceOf(parsed, 'kubernetes_service_v1');
    expect(service).toEqual({
      metadata: {
        name: 'echo-nodeport-local',
        namespace: `\${kubernetes_namespace_v1.${nsId}.metadata[0].name}`,
        labels: { 'app.kubernetes.io/part-of': 'hoplab', 'hoplab.dev/exposure': 'nodeport-local' },
        annotations: { 'cloud.google.com/l4-rbs': 'enabled' },
      },
      spec: {
        type: 'LoadBalancer',
        external_traffic_policy: 'Local',
        selector: { ...DEMO_APP_LABELS },
        port: [{ name: 'http', port: 80, target_port: '8080', protocol: 'TCP' }],
      },
      wait_for_load_balancer: true,
      lifecycle: {
        ignore_changes: ['metadata[0].annotations["cloud.google.com/neg"]', 'metadata[0].annotations["cloud.google.com/neg-status"]'],
      },
    });
    expect(parsed.output?.url.value).toBe(`http://\${kubernetes_service_v1.${serviceId}.status[0].load_balancer[0].ingress[0].ip}/`);
  });

  test('GIVEN the Service WHEN checked THEN it is a valid Kubernetes API object', () => {
    const objects = kubernetesObjects(synth().parsed);
    expect(objects).toHaveLength(2);
    for (const object of objects) {
      expect(() => object.validate()).not.toThrow();
    }
  });

  test.each([
    [undefined, undefined],
    [['0.0.0.0/0'], undefined],
    [
      ['203.0.113.0/24', '198.51.100.7/32'],
      ['203.0.113.0/24', '198.51.100.7/32'],
    ],
  ])('GIVEN sourceRanges %j WHEN synthesized THEN spec.loadBalancerSourceRanges is %j (GKE makes them the source ranges of the Service firewall rule)', (sourceRanges, expected) => {
    const { config: service } = resourceOf(synth(undefined, sourceRanges).parsed, 'kubernetes_service_v1');
    expect((service.spec as Record<string, unknown>).load_balancer_source_ranges).toEqual(expected);
  });
});
