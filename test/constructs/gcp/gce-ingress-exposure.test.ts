import { NamespaceV1 } from '@cdktf/provider-kubernetes/lib/namespace-v1';
import { TerraformOutput } from 'cdktf';
import { Construct } from 'constructs';
import { GceIngressExposure, GceIngressExposureProps } from '../../../lib/constructs/gcp/gce-ingress-exposure';
import { DEMO_APP_LABELS } from '../../../lib/constructs/k8s/demo-app';
import { kubernetesObjects } from '../../support/k8s-objects';
import { resourceOf, synthScope } from '../../support/synth';

function build(scope: Construct, props: Partial<GceIngressExposureProps> & Pick<GceIngressExposureProps, 'mode'>) {
  const ns = new NamespaceV1(scope, 'ns', { metadata: { name: 'hoplab' } });
  const exposure = new GceIngressExposure(scope, props.mode, { namespace: ns.metadata.name, selector: DEMO_APP_LABELS, targetPort: 8080, ...props });
  new TerraformOutput(scope, 'url', { value: exposure.url });
}
const synth = (props: Partial<GceIngressExposureProps> & Pick<GceIngressExposureProps, 'mode'>) => synthScope((scope) => build(scope, props));

describe('GceIngressExposure', () => {
  test('GIVEN native WHEN synthesized THEN a ClusterIP Service asks for NEGs and ignores the neg-status annotation GKE writes', () => {
    const { parsed } = synth({ mode: 'native' });
    const { name: nsId } = resourceOf(parsed, 'kubernetes_namespace_v1');
    const { config: service } = resourceOf(parsed, 'kubernetes_service_v1');
    expect(service).toEqual({
      metadata: {
        name: 'echo-native',
        namespace: `\${kubernetes_namespace_v1.${nsId}.metadata[0].name}`,
        labels: { 'app.kubernetes.io/part-of': 'hoplab', 'hoplab.dev/exposure': 'native' },
        annotations: { 'cloud.google.com/neg': '{"ingress": true}' },
      },
      spec: {
        type: 'ClusterIP',
        selector: { ...DEMO_APP_LABELS },
        port: [{ name: 'http', port: 80, target_port: '8080', protocol: 'TCP' }],
      },
      lifecycle: { ignore_changes: ['metadata[0].annotations["cloud.google.com/neg-status"]'] },
    });
  });

  test('GIVEN nodeport WHEN synthesized THEN a NodePort Service with externalTrafficPolicy Cluster opts out of NEGs, so the backends stay instance groups', () => {
    const { config: service } = resourceOf(synth({ mode: 'nodeport' }).parsed, 'kubernetes_service_v1');
    expect(service.metadata).toMatchObject({
      name: 'echo-nodeport',
      labels: { 'app.kubernetes.io/part-of': 'hoplab', 'hoplab.dev/exposure': 'nodeport' },
      annotations: { 'cloud.google.com/neg': '{"ingress": false}' },
    });
    expect(service.spec).toMatchObject({ type: 'NodePort', external_traffic_policy: 'Cluster' });
    expect(service.lifecycle).toEqual({ ignore_changes: ['metadata[0].annotations["cloud.google.com/neg-status"]'] });
  });

  test.each(['native', 'nodeport'] as const)('GIVEN %s WHEN synthesized THEN a class gce Ingress sends everything to the Service and waits for its address', (mode) => {
    const { parsed } = synth({ mode });
    const { name: nsId } = resourceOf(parsed, 'kubernetes_namespace_v1');
    const { name: serviceId } = resourceOf(parsed, 'kubernetes_service_v1');
    const { name: ingressId, config: ingress } = resourceOf(parsed, 'kubernetes_ingress_v1');
    expect(ingress).toEqual({
      metadata: {
        name: `echo-${mode}`,
        namespace: `\${kubernetes_namespace_v1.${nsId}.metadata[0].name}`,
        labels: { 'app.kubernetes.io/part-of': 'hoplab', 'hoplab.dev/exposure': mode },
        annotations: { 'kubernetes.io/ingress.class': 'gce' },
      },
      spec: { default_backend: { service: { name: `\${kubernetes_service_v1.${serviceId}.metadata[0].name}`, port: { number: 80 } } } },
      wait_for_load_balancer: true,
      timeouts: { create: '20m', delete: '20m' },
    });
    expect(ingress.spec).not.toHaveProperty('ingress_class_name');
    expect(parsed.output?.url.value).toBe(`http://\${kubernetes_ingress_v1.${ingressId}.status[0].load_balancer[0].ingress[0].ip}/`);
  });

  test('GIVEN a Deployment dependency WHEN synthesized THEN Service and Ingress depend on it, so they are destroyed before it', () => {
    const { parsed } = synthScope((scope) => {
      const ns = new NamespaceV1(scope, 'ns', { metadata: { name: 'hoplab' } });
      const other = new NamespaceV1(scope, 'other', { metadata: { name: 'stand-in-for-the-deployment' } });
      new GceIngressExposure(scope, 'native', { mode: 'native', namespace: ns.metadata.name, selector: DEMO_APP_LABELS, targetPort: 8080, dependsOn: [other] });
    });
    const otherId = Object.entries(parsed.resource.kubernetes_namespace_v1).find(([, r]) => (r.metadata as { name: string }).name === 'stand-in-for-the-deployment')![0];
    expect(resourceOf(parsed, 'kubernetes_service_v1').config.depends_on).toEqual([`kubernetes_namespace_v1.${otherId}`]);
    expect(resourceOf(parsed, 'kubernetes_ingress_v1').config.depends_on).toEqual([`kubernetes_namespace_v1.${otherId}`]);
  });

  test.each(['native', 'nodeport'] as const)('GIVEN %s WHEN its objects are checked THEN each is a valid Kubernetes API object', (mode) => {
    const objects = kubernetesObjects(synth({ mode }).parsed);
    expect(objects.map((o) => o.address.split('.')[0]).sort()).toEqual(['kubernetes_ingress_v1', 'kubernetes_namespace_v1', 'kubernetes_service_v1']);
    for (const object of objects) {
      expect(() => object.validate()).not.toThrow();
    }
  });

  test('GIVEN a mode that is not an Ingress mode WHEN constructed THEN the error names it and the allowed modes', () => {
    expect(() => synth({ mode: 'nodeport-local' as never })).toThrow('GceIngressExposure nodeport-local: mode "nodeport-local" is not an Ingress exposure; use native or nodeport');
  });
  test.each(['native', 'nodeport'] as const)(
    'GIVEN %s with a security policy THEN a BackendConfig names it, the Service points at the BackendConfig, and both Service and Ingress come after it',
    (mode) => {
      const { parsed } = synth({ mode, securityPolicy: 'lab-gke-sources' });
      const manifests = Object.entries(parsed.resource.kubernetes_manifest ?? {});
      expect(manifests).toHaveLength(1);
      const [configId, backendConfig] = manifests[0];
      expect(backendConfig.manifest).toEqual({
        apiVersion: 'cloud.google.com/v1',
        kind: 'BackendConfig',
        metadata: {
          name: `echo-${mode}`,
          namespace: expect.stringContaining('kubernetes_namespace_v1.'),
          labels: { 'app.kubernetes.io/part-of': 'hoplab', 'hoplab.dev/exposure': mode },
        },
        spec: { securityPolicy: { name: 'lab-gke-sources' } },
      });
      const { config: service } = resourceOf(parsed, 'kubernetes_service_v1');
      expect(service.metadata.annotations['cloud.google.com/backend-config']).toBe(`{"default":"echo-${mode}"}`);
      expect(JSON.parse(service.metadata.annotations['cloud.google.com/backend-config'])).toEqual({ default: `echo-${mode}` });
      expect(service.depends_on).toEqual([`kubernetes_manifest.${configId}`]);
      expect(resourceOf(parsed, 'kubernetes_ingress_v1').config.depends_on).toEqual([`kubernetes_manifest.${configId}`]);
    },
  );

  test.each(['native', 'nodeport'] as const)('GIVEN %s without a security policy THEN no BackendConfig and no backend-config annotation', (mode) => {
    const { parsed } = synth({ mode });
    expect(parsed.resource.kubernetes_manifest).toBeUndefined();
    const { config: service } = resourceOf(parsed, 'kubernetes_service_v1');
    expect(Object.keys(service.metadata.annotations)).toEqual(['cloud.google.com/neg']);
    expect(service.depends_on).toBeUndefined();
  });
});
