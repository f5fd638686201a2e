import { ServiceV1 } from '@cdktf/provider-kubernetes/lib/service-v1';
import { Testing, TerraformStack } from 'cdktf';
import { Exposure } from '../../lib/constructs/exposure';
import { DemoApp } from '../../lib/constructs/k8s/demo-app';
import { EXPOSURE_FACTS, exposureBackends } from '../../lib/model/exposure-facts';
import { EXPOSURE_MODES } from '../../lib/model/modes';
import { composeExposures, ExposureBuilder } from '../../lib/stacks/compose-exposures';
import { resourceOf, Synthesized } from '../support/synth';

describe('composeExposures', () => {
  /** A stand-in exposure: one Service per mode. */
  const serviceBuilder: ExposureBuilder = (stack, id, props): Exposure => {
    const service = new ServiceV1(stack, id, { metadata: { name: `echo-${props.mode}`, namespace: props.namespace }, spec: { selector: { ...props.selector } } });
    return { mode: props.mode, url: `http://${props.mode}/`, loadBalancerObjects: [service] };
  };
  const compose = (builders: Parameters<typeof composeExposures>[1]['builders'], modes = [...EXPOSURE_MODES]) => {
    const stack = new TerraformStack(Testing.app(), 'lab-gcp-lb');
    const app = new DemoApp(stack, 'app', { namespace: 'hoplab', image: 'echo:1', replicas: 1 });
    const exposures = composeExposures(stack, {
      cloud: 'gcp',
      modes,
      shared: { namespace: 'hoplab', selector: { app: 'echo' }, targetPort: 8080 },
      builders,
      constructId: (mode) => `x-${mode}`,
      app,
      backends: (facts) => exposureBackends('gcp', facts, 'nodes'),
      outputDescription: (mode) => `the ${mode} exposure`,
    });
    return { exposures, parsed: JSON.parse(Testing.synth(stack)) as Synthesized };
  };
  const allGcp = { 'gce-ingress': serviceBuilder, 'gke-gateway': serviceBuilder, 'gke-passthrough-service': serviceBuilder };

  test('GIVEN every mode on GCP WHEN composed THEN the modes GKE does not offer are left out, each other one is exported with its facts, and the Pods come after every load balancer object', () => {
    const { exposures, parsed } = compose(allGcp);
    const offered = EXPOSURE_MODES.filter((m) => EXPOSURE_FACTS.gcp[m]);
    expect(exposures.map((e) => e.mode)).toEqual(offered);
    expect(Object.keys(parsed.output).sort()).toEqual(offered.map((m) => `exposure_${m.replace(/-/g, '_')}`).sort());
    expect(parsed.output.exposure_native.value).toMatchObject({ mode: 'native', cloud: 'gcp', url: 'http://native/', ...EXPOSURE_FACTS.gcp.native });
    const deployment = resourceOf(parsed, 'kubernetes_deployment_v1').config;
    expect(deployment.depends_on).toEqual(offered.map((m) => `kubernetes_service_v1.x-${m}`));
  });

  test('GIVEN a construct kind without a builder WHEN composed THEN it fails naming the cloud, the mode, the kind and where to add it', () => {
    expect(() => compose({ 'gce-ingress': serviceBuilder }, ['native', 'gateway'])).toThrow(
      'composeExposures: gcp mode "gateway" has facts but no builder for construct kind "gke-gateway"; add it in lib/model/exposure-facts.ts and the gcp -lb stack',
    );
  });
});
