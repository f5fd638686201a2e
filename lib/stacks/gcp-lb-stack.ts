import { Fn, TerraformOutput, TerraformStack } from 'cdktf';
import { Construct } from 'constructs';
import { LabEnvironment } from '../config/environments';
import { ExposureMode } from '../model/modes';
import { ciliumWords, exposureBackends, GKE_DATAPLANE_V2 } from '../model/exposure-facts';
import { GceIngressExposure } from '../constructs/gcp/gce-ingress-exposure';
import { GkeGatewayExposure } from '../constructs/gcp/gke-gateway-exposure';
import { gkeL4Backends, GkeLoadBalancerServiceExposure } from '../constructs/gcp/gke-load-balancer-service-exposure';
import { GkeProviders } from '../constructs/gcp/gke-providers';
import { DEMO_APP_LABELS, DEMO_APP_PORT, DemoApp } from '../constructs/k8s/demo-app';
import { DatapathInspector } from '../constructs/k8s/datapath-inspector';
import { gcpDataplane } from '../model/datapaths';
import { APP_NAMESPACE_POD_SECURITY, podSecurityLabels } from '../model/pod-security';
import { CILIUM_AGENT_IMAGE } from '../model/versions';
import { isRefusal, parseGcpMember } from '../model/identities';
import { APP_NAMESPACE } from '../model/names';
import { labTags } from '../model/tags';
import { PLACEMENT_OUTPUT, PLACEMENT_OUTPUT_DESCRIPTION } from '../model/contract';
import { placementOutput } from '../model/slots';
import { GcpClusterStack } from './gcp-cluster-stack';
import { Exposure } from '../constructs/exposure';
import { AttendeeAccess, addAttendeeAccess } from './attendee-access';
import { composeExposures } from './compose-exposures';

/** Namespace of the demo app on GKE. */
export const GCP_DEMO_NAMESPACE = APP_NAMESPACE;

export interface GcpLbStackProps {
  /** The validated config of this environment (with its attendee's identities, in a workshop). Required. */
  readonly config: LabEnvironment;
  /** The cluster stack whose cluster this stack deploys into (cross-stack references). Required. */
  readonly cluster: GcpClusterStack;
}

/**
 * `<env>-gcp-lb`: the demo app and one exposure per mode in
 * `config.exposures`, each exported as `exposure_<mode>` with the URL read
 * back from the load balancer status and the facts of docs/design.md.
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
  public readonly exposures: Partial<Record<ExposureMode, Exposure>> = {};
  /** The attendee's access (view, edit in the app's namespace, node operations): bound to their Google identity, or to a ServiceAccount of theirs without one. */
  public readonly attendeeAccess?: AttendeeAccess;
  /** The read-only datapath inspector attendees read with `kubectl logs` (its own privileged namespace). */
  public readonly inspector: DatapathInspector;

  constructor(scope: Construct, id: string, props: GcpLbStackProps) {
    super(scope, id);
    const { config, cluster } = props;

    new GkeProviders(this, 'providers', {
      endpoint: cluster.cluster.endpoint,
      caCertificate: cluster.cluster.caCertificate,
      project: cluster.project,
      region: cluster.region,
      credentials: config.gcp.kubernetesCredentials,
      labels: labTags(config, id),
    });

    // Pod Security baseline in the attendees' namespace (see AwsLbStack), pinned to the minor the control plane reports
    // (gcp.kubernetesVersion is only a minimum, and the release channel picks the version).
    const podSecurityVersion = `v${Fn.regex('^[0-9]+\\.[0-9]+', cluster.cluster.cluster.masterVersion)}`;
    this.app = new DemoApp(this, 'app', {
      namespace: GCP_DEMO_NAMESPACE,
      image: config.app.image,
      replicas: config.app.replicas,
      namespaceLabels: podSecurityLabels(APP_NAMESPACE_POD_SECURITY, podSecurityVersion),
    });
    this.inspector = new DatapathInspector(this, 'inspector', {
      dataplane: gcpDataplane(config.gcp.datapath),
      image: CILIUM_AGENT_IMAGE,
      appNamespace: GCP_DEMO_NAMESPACE,
      appPort: DEMO_APP_PORT,
      podSecurityVersion,
    });
    // GKE Dataplane V2 is Google-managed Cilium, without kube-proxy: it SNATs only for Pods on other nodes and answers
    // the node health port in kube-proxy's place (worded as explain derives it).
    const dataplaneV2 = config.gcp.datapath === 'dataplane-v2';
    const exposures = composeExposures(this, {
      cloud: 'gcp',
      modes: config.exposures,
      shared: { namespace: this.app.namespace, selector: DEMO_APP_LABELS, targetPort: DEMO_APP_PORT },
      builders: {
        // Narrowed app.allowedSourceCidrs: the cluster stack's Cloud Armor policy filters the Application Load Balancers.
        'gce-ingress': (scope, id, props) => new GceIngressExposure(scope, id, { ...props, securityPolicy: cluster.securityPolicy?.policyName }),
        'gke-gateway': (scope, id, props) => new GkeGatewayExposure(scope, id, { ...props, securityPolicy: cluster.securityPolicy?.policyName }),
        'gke-passthrough-service': (scope, id, props, facts) =>
          new GkeLoadBalancerServiceExposure(scope, id, {
            ...props,
            externalTrafficPolicy: facts.external_traffic_policy,
            gkeVersion: config.gcp.kubernetesVersion,
            sourceRanges: config.app.allowedSourceCidrs,
          }),
      },
      constructId: (mode) => mode,
      app: this.app,
      backends: (facts) => exposureBackends('gcp', facts, gkeL4Backends(config.gcp.kubernetesVersion).backends),
      clientIpSeenAs: (words) => (dataplaneV2 ? ciliumWords.clientIpSeenAs(words, GKE_DATAPLANE_V2) : words),
      healthCheck: (words) => (dataplaneV2 ? ciliumWords.healthCheck(words, GKE_DATAPLANE_V2) : words),
      outputDescription: (mode) => `The ${mode} exposure of ${config.name} on GKE`,
    });
    for (const exposure of exposures) this.exposures[exposure.mode] = exposure;

    if (cluster.slot) new TerraformOutput(this, PLACEMENT_OUTPUT, { value: placementOutput(cluster.slot), description: PLACEMENT_OUTPUT_DESCRIPTION });

    // GKE knows a Google account (or service account) in RBAC by its email: a User subject.
    let identity: { readonly subject: { readonly kind: 'User'; readonly name: string } } | undefined;
    if (config.attendee?.gcp !== undefined) {
      const member = parseGcpMember(config.attendee.gcp);
      if (isRefusal(member)) throw new Error(`GcpLbStack ${id}: attendee ${config.attendee.name}'s gcp identity "${config.attendee.gcp}" ${member.reason}`);
      identity = { subject: { kind: 'User', name: member.email } };
    }
    this.attendeeAccess = addAttendeeAccess(this, config.attendee, this.app.namespace, identity);
  }
}
