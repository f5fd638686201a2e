import { dependable, TerraformOutput, TerraformStack } from 'cdktf';
import { Construct } from 'constructs';
import { LabConfig } from '../config/schema';
import { ExposureMode } from '../model/modes';
import { ExposureOutput, exposureOutputName } from '../model/contract';
import { exposureBackends, exposureFacts } from '../model/exposure-facts';
import { GceIngressExposure } from '../constructs/gcp/gce-ingress-exposure';
import { GkeGatewayExposure } from '../constructs/gcp/gke-gateway-exposure';
import { gkeL4Backends, GkeLoadBalancerServiceExposure } from '../constructs/gcp/gke-load-balancer-service-exposure';
import { GkeProviders } from '../constructs/gcp/gke-providers';
import { DEMO_APP_LABELS, DEMO_APP_PORT, DemoApp } from '../constructs/k8s/demo-app';
import { labTags } from '../model/tags';
import { GcpClusterStack } from './gcp-cluster-stack';

/** Namespace of the demo app on GKE. */
export const GCP_DEMO_NAMESPACE = 'hoplab';

export interface GcpLbStackProps {
  /** The validated lab config. Required. */
  readonly config: LabConfig;
  /** The cluster stack whose cluster this stack deploys into (cross-stack references). Required. */
  readonly cluster: GcpClusterStack;
}

/**
 * `<env>-gcp-lb`: the demo app and one exposure per mode in
 * `config.exposures`, each exported as `exposure_<mode>` with the URL read
 * back from the load balancer status and the facts of DESIGN.md.
 *
 * Create order: namespace, then every Service and Ingress, then the Deployment
 * (so GKE adds the NEG readiness gate to its Pods). Destroy order, the reverse:
 * the Deployment, then Ingresses and Services (each waits for GKE to delete its
 * load balancer), then the namespace they name. This whole stack depends on
 * `<env>-gcp-cluster` (cross-stack references), so `cdktf destroy` removes it,
 * and with it every load balancer, NEG and `k8s-*` firewall rule GKE created,
 * before the cluster and network.
 */
export class GcpLbStack extends TerraformStack {
  /** The demo app. */
  public readonly app: DemoApp;
  /** The exposures created, by mode. */
  public readonly exposures: Partial<Record<ExposureMode, GceIngressExposure | GkeLoadBalancerServiceExposure | GkeGatewayExposure>> = {};

  constructor(scope: Construct, id: string, props: GcpLbStackProps) {
    super(scope, id);
    const { config, cluster } = props;

    new GkeProviders(this, 'providers', {
      endpoint: cluster.cluster.endpoint,
      caCertificate: cluster.cluster.caCertificate,
      project: config.gcp.project,
      region: config.gcp.region,
      credentials: config.gcp.kubernetesCredentials,
      labels: labTags(config, id),
    });

    this.app = new DemoApp(this, 'app', { namespace: GCP_DEMO_NAMESPACE, image: config.app.image, replicas: config.app.replicas });
    const common = {
      namespace: this.app.namespace,
      selector: DEMO_APP_LABELS,
      targetPort: DEMO_APP_PORT,
    };

    // The node dataplane, worded as explain derives it: with Dataplane V2 there is no kube-proxy to SNAT.
    const dataplane = config.gcp.datapath === 'dataplane-v2' ? 'GKE Dataplane V2 (eBPF)' : 'kube-proxy';
    for (const mode of config.exposures) {
      const facts = exposureFacts('gcp', mode);
      if (!facts) {
        // Not offered on GKE (EXPOSURE_UNAVAILABLE says why): nothing is made or exported for it.
        continue;
      }
      let exposure: GceIngressExposure | GkeLoadBalancerServiceExposure | GkeGatewayExposure;
      if (facts.lb_kind === 'gcp-passthrough-nlb') {
        exposure = new GkeLoadBalancerServiceExposure(this, mode, {
          ...common,
          mode,
          externalTrafficPolicy: facts.external_traffic_policy,
          gkeVersion: config.gcp.kubernetesVersion,
        });
      } else if (mode === 'gateway') {
        exposure = new GkeGatewayExposure(this, mode, { ...common, mode });
      } else if (mode === 'native' || mode === 'nodeport') {
        exposure = new GceIngressExposure(this, mode, { ...common, mode });
      } else {
        throw new Error(`GcpLbStack: exposure mode "${mode}" has no GKE construct; leave it out of exposures`);
      }
      this.exposures[mode] = exposure;
      const value: ExposureOutput = {
        mode,
        cloud: 'gcp',
        url: exposure.url,
        ...facts,
        backends: exposureBackends('gcp', facts, gkeL4Backends(config.gcp.kubernetesVersion).backends),
        client_ip_seen_as: facts.client_ip_seen_as.replace('SNAT by kube-proxy', `SNAT by ${dataplane}`),
      };
      new TerraformOutput(this, exposureOutputName(mode), { value });
    }
    // Pods come after the Services and Ingresses that select them: GKE adds the
    // `cloud.google.com/load-balancer-neg-ready` readiness gate only to Pods created
    // while a NEG-backed Service selects them. On destroy the Deployment goes first.
    this.app.deployment.dependsOn = [
      ...(this.app.deployment.dependsOn ?? []),
      ...Object.values(this.exposures)
        .flatMap((e) => (e instanceof GceIngressExposure ? [e.service, e.ingress] : e instanceof GkeGatewayExposure ? e.dependables : [e.service]))
        .map((r) => dependable(r)),
    ];
  }
}
