import { Annotations, TerraformOutput, TerraformStack } from 'cdktf';
import { Construct } from 'constructs';
import { LabEnvironment } from '../config/environments';
import { exposureBackends } from '../model/exposure-facts';
import { AlbGatewayExposure } from '../constructs/aws/alb-gateway-exposure';
import { AlbIngressExposure, AlbTargetType } from '../constructs/aws/alb-ingress-exposure';
import { EksProviders } from '../constructs/aws/eks-providers';
import { LoadBalancerController, READINESS_GATE_INJECT_LABEL } from '../constructs/aws/load-balancer-controller';
import { NlbServiceExposure, NlbTargetType } from '../constructs/aws/nlb-service-exposure';
import { DEMO_APP_LABELS, DEMO_APP_PORT, DemoApp } from '../constructs/k8s/demo-app';
import { GatewayApiCrds } from '../constructs/k8s/gateway-api-crds';
import { DatapathInspector } from '../constructs/k8s/datapath-inspector';
import { awsDataplane } from '../model/datapaths';
import { APP_NAMESPACE_POD_SECURITY, podSecurityLabels, podSecurityVersion } from '../model/pod-security';
import { ATTENDEE_KUBERNETES_GROUP } from '../model/identities';
import { APP_NAMESPACE } from '../model/names';
import { labTags } from '../model/tags';
import { PLACEMENT_OUTPUT, PLACEMENT_OUTPUT_DESCRIPTION } from '../model/contract';
import { placementOutput } from '../model/slots';
import { CILIUM_AGENT_IMAGE, kubectlImage } from '../model/versions';
import { AwsClusterStack } from './aws-cluster-stack';
import { Exposure, ExposureProps } from '../constructs/exposure';
import { AttendeeAccess, addAttendeeAccess } from './attendee-access';
import { composeExposures } from './compose-exposures';

/** Namespace of the demo app and its exposures. */
export const AWS_LB_APP_NAMESPACE = APP_NAMESPACE;
/** Name of the demo app's container port (see `DemoApp`). */
const APP_PORT_NAME = 'http';

export interface AwsLbStackProps {
  /** The validated config of this environment (with its attendee's identities, in a workshop). Required. */
  readonly config: LabEnvironment;
  /** The environment's `<env>-aws-cluster` stack (required): its cluster, VPC and controller role, read through cross-stack references. */
  readonly cluster: AwsClusterStack;
}

/**
 * `<env>-aws-lb`: the AWS Load Balancer Controller, the demo app and one load
 * balancer per exposure mode, in the cluster of `<env>-aws-cluster`.
 *
 * Order, both ways: the Gateway API CRDs (with the `gateway` exposure), the
 * controller, then namespace and exposures (each waits for its
 * load balancer), then the app's Pods (so the webhook sees the `ip` target
 * groups and injects readiness gates). `cdktf destroy` runs it backwards: the
 * Ingresses and Services go first, and each delete waits until the controller
 * has removed its load balancer, target groups and security groups and dropped
 * its finalizer; only then is the controller uninstalled.
 */
export class AwsLbStack extends TerraformStack {
  /** The kubernetes and helm providers. */
  public readonly providers: EksProviders;
  /** The AWS Load Balancer Controller. */
  public readonly controller: LoadBalancerController;
  /** The demo app. */
  public readonly app: DemoApp;
  /** The Gateway API CRDs, when the `gateway` exposure is configured. */
  public readonly gatewayApiCrds?: GatewayApiCrds;
  /** The exposures, in the order of `config.exposures`. */
  public readonly exposures: readonly Exposure[];
  /**
   * The attendee's access: with an AWS identity, node operations (see, cordon, drain) bound to their access entry's group;
   * without one, a ServiceAccount of theirs with view, edit in the app's namespace and node operations.
   */
  public readonly attendeeAccess?: AttendeeAccess;
  /** The read-only datapath inspector attendees read with `kubectl logs` (its own privileged namespace). */
  public readonly inspector: DatapathInspector;

  constructor(scope: Construct, id: string, props: AwsLbStackProps) {
    super(scope, id);
    const { config, cluster } = props;
    const eks = cluster.cluster;

    // In the cluster's slot: its region, and its account's role for the token when placed in one of aws.accounts.
    const region = cluster.region;
    this.providers = new EksProviders(this, 'providers', {
      clusterName: eks.clusterName,
      endpoint: eks.cluster.endpoint,
      certificateAuthorityData: eks.cluster.certificateAuthority.get(0).data,
      region,
      roleArn: cluster.slot?.account?.roleArn,
    });

    // Before the controller: it turns its ALB Gateway controller on only if the CRDs exist when it starts.
    if (config.exposures.includes('gateway')) {
      this.gatewayApiCrds = new GatewayApiCrds(this, 'gateway-api-crds');
    }

    this.controller = new LoadBalancerController(this, 'lb-controller', {
      ...(this.gatewayApiCrds ? { dependsOn: [this.gatewayApiCrds.release] } : {}),
      chartVersion: config.aws.loadBalancerController.chartVersion,
      clusterName: eks.clusterName,
      region,
      vpcId: cluster.vpc.vpcId,
      roleArn: cluster.lbControllerRoleArn,
      defaultTags: labTags(config, id),
      readinessGatePodLabels: DEMO_APP_LABELS,
    });
    const release = this.controller.release;

    // Pod Security baseline in the attendees' namespace, pinned to the cluster's minor: no privileged, host-network or host-path Pods,
    // so no root on a node (and with it no node role through IMDS, no other Pods' service-account tokens).
    const podSecurity = podSecurityLabels(APP_NAMESPACE_POD_SECURITY, podSecurityVersion(config.aws.kubernetesVersion)!);
    this.app = new DemoApp(this, 'app', {
      namespace: AWS_LB_APP_NAMESPACE,
      image: config.app.image,
      replicas: config.app.replicas,
      namespaceLabels: { [READINESS_GATE_INJECT_LABEL]: 'enabled', ...podSecurity },
      dependsOn: [release],
    });

    this.inspector = new DatapathInspector(this, 'inspector', {
      dataplane: awsDataplane(config.aws.datapath),
      image: CILIUM_AGENT_IMAGE,
      appNamespace: AWS_LB_APP_NAMESPACE,
      appPort: DEMO_APP_PORT,
      podSecurityVersion: podSecurityVersion(config.aws.kubernetesVersion),
    });

    // Every exposure comes after the controller (its webhooks) and goes before it; its load balancer carries the mode as a tag.
    // Each load balancer admits only app.allowedSourceCidrs (its security group's inbound rules).
    const onEks = (props: ExposureProps) => ({ ...props, dependsOn: [release], tags: { 'hoplab-exposure': props.mode }, sourceRanges: config.app.allowedSourceCidrs });
    this.exposures = composeExposures(this, {
      cloud: 'aws',
      modes: config.exposures,
      shared: { namespace: this.app.namespace, selector: DEMO_APP_LABELS, targetPort: APP_PORT_NAME },
      builders: {
        'alb-ingress': (scope, id, props, facts) =>
          new AlbIngressExposure(scope, id, { ...onEks(props), targetType: facts.target_type as AlbTargetType, ingressClassName: this.controller.ingressClassName }),
        'alb-gateway': (scope, id, props) => new AlbGatewayExposure(scope, id, { ...onEks(props), kubectlImage: kubectlImage(config.aws.kubernetesVersion) }),
        'nlb-service': (scope, id, props, facts) =>
          new NlbServiceExposure(scope, id, {
            ...onEks(props),
            targetType: facts.target_type as NlbTargetType,
            externalTrafficPolicy: facts.external_traffic_policy,
            loadBalancerClass: this.controller.loadBalancerClass,
          }),
      },
      constructId: (mode) => `exposure-${mode}`,
      app: this.app,
      backends: (facts) => exposureBackends('aws', facts),
      // With Cilium's kube-proxy replacement, Cilium's eBPF programs do the SNAT (and only for Pods on other nodes).
      clientIpSeenAs: (words) => (config.aws.datapath === 'cilium' ? words.replace('SNAT by kube-proxy', 'SNAT by Cilium (eBPF), when the Pod is on another node') : words),
      outputDescription: (mode) => `The ${mode} exposure of ${config.name} on EKS`,
    });

    // View and edit come from the access entry's policies (<env>-aws-cluster); RBAC adds only what they lack: nodes, for cordon and drain.
    const identity = config.attendee?.aws ? { subject: { kind: 'Group', name: ATTENDEE_KUBERNETES_GROUP } as const, viewAndEdit: false } : undefined;
    this.attendeeAccess = addAttendeeAccess(this, config.attendee, this.app.namespace, identity);

    if (cluster.slot) new TerraformOutput(this, PLACEMENT_OUTPUT, { value: placementOutput(cluster.slot), description: PLACEMENT_OUTPUT_DESCRIPTION });

    if (config.app.replicas >= config.aws.nodeCount) {
      Annotations.of(this).addWarning(
        `app.replicas (${config.app.replicas}) is not below aws.nodeCount (${config.aws.nodeCount}): every node may host a Pod, ` +
          `so the nodeport exposure's extra hop may not show; use fewer replicas than nodes`,
      );
    }
  }
}
