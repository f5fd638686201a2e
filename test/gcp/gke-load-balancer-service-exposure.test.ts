import { NamespaceV1 } from '@cdktf/provider-kubernetes/lib/namespace-v1';
import { TerraformOutput } from 'cdktf';
import { GkeLoadBalancerServiceExposure } from '../../lib/gcp/gke-load-balancer-service-exposure';
import { DEMO_APP_LABELS } from '../../lib/k8s/demo-app';
import { kubernetesObjects } from '../support/k8s-objects';
import { only, synthScope } from './synth';

const synth = () =>
  synthScope((scope) => {
    const ns = new NamespaceV1(scope, 'ns', { metadata: { name: 'hoplab' } });
    const exposure = new GkeLoadBalancerServiceExposure(scope, 'nodeport-local', { namespace: ns.metadata.name, selector: DEMO_APP_LABELS, targetPort: 8080 });
    new TerraformOutput(scope, 'url', { value: exposure.url });
  });

describe('GkeLoadBalancerServiceExposure', () => {
  test('GIVEN the defaults WHEN synthesized THEN a backend service-based (l4-rbs) LoadBalancer Service with externalTrafficPolicy Local waits for its address and ignores the NEG annotations GKE adds', () => {
    const { parsed } = synth();
    const [nsId] = only(parsed, 'kubernetes_namespace_v1');
    const [serviceId, service] = only(parsed, 'kubernetes_service_v1');
    expect(service).toEqual({
      metadata: { name: 'echo-nodeport-local', namespace: `\${kubernetes_namespace_v1.${nsId}.metadata[0].name}`, labels: { 'app.kubernetes.io/part-of': 'hoplab', 'hoplab.dev/exposure': 'nodeport-local' }, annotations: { 'cloud.google.com/l4-rbs': 'enabled' } },
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
});
