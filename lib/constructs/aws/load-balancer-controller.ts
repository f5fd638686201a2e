import { Release } from '@cdktf/provider-helm/lib/release';
import { ITerraformDependable } from 'cdktf';
import { Construct } from 'constructs';
import { stringify } from 'yaml';
import { LB_CONTROLLER_CHART_VERSIONS } from '../../model/versions';
import { LB_CONTROLLER_POLICY_FILE, LB_CONTROLLER_POLICY_VERSION } from './load-balancer-controller-policy';
import { LB_CONTROLLER_NAMESPACE, LB_CONTROLLER_SERVICE_ACCOUNT } from './load-balancer-controller-role';

/** Where the controller's official chart is published. */
export const LB_CONTROLLER_CHART_REPOSITORY = 'https://aws.github.io/eks-charts';
export const LB_CONTROLLER_CHART = 'aws-load-balancer-controller';

/**
 * The controller release each supported chart version installs (the chart's
 * `appVersion`). Keyed by the config's allowed versions, so the two lists
 * cannot drift apart.
 */
export const LB_CONTROLLER_APP_VERSIONS: Readonly<Record<(typeof LB_CONTROLLER_CHART_VERSIONS)[number], string>> = {
  '3.5.0': 'v3.5.0',
};

/** IngressClass the chart creates; Ingresses name it in `spec.ingressClassName`. */
export const ALB_INGRESS_CLASS = 'alb';
/** `spec.loadBalancerClass` that hands a `type: LoadBalancer` Service to the controller. */
export const NLB_LOAD_BALANCER_CLASS = 'service.k8s.aws/nlb';
/** Namespace label that turns on readiness-gate injection for Pods behind `ip` target groups. */
export const READINESS_GATE_INJECT_LABEL = 'elbv2.k8s.aws/pod-readiness-gate-inject';

export interface LoadBalancerControllerProps {
  /** Helm chart version (required); must be one of `LB_CONTROLLER_APP_VERSIONS` whose controller matches the IAM policy the role carries. */
  readonly chartVersion: string;
  /** EKS cluster name (required): the controller tags what it creates with it and finds subnets by it. */
  readonly clusterName: string;
  /**
   * AWS region (required): set explicitly because the controller's Pods, in their own network namespace, cannot
   * reach the instance metadata service (the launch template's hop limit 1). That limit keeps out Pods in their own
   * network namespace only, not host-network ones; attendees cannot create those because namespace hoplab enforces
   * Pod Security `baseline`.
   */
  readonly region: string;
  /** VPC of the cluster (required), for the same reason as `region`. */
  readonly vpcId: string;
  /** ARN of the IAM role for the controller's service account (required); it must trust `kube-system/aws-load-balancer-controller`. */
  readonly roleArn: string;
  /**
   * Tags for every AWS resource the controller creates (load balancers, target groups, security groups).
   * @default - none besides the controller's own `elbv2.k8s.aws/cluster` tags
   */
  readonly defaultTags?: Readonly<Record<string, string>>;
  /**
   * Labels of the Pods whose readiness gates the webhook injects (its `objectSelector`);
   * with them its failure policy is `Fail`, so such a Pod is never created without its gate.
   * @default - every Pod of a namespace labelled `elbv2.k8s.aws/pod-readiness-gate-inject: enabled`, failure policy `Ignore`
   */
  readonly readinessGatePodLabels?: Readonly<Record<string, string>>;
  /**
   * Controller replicas; with 2 or more a PodDisruptionBudget keeps one running during node drains.
   * @default 2
   */
  readonly replicas?: number;
  /**
   * Resources that must exist before the controller (e.g. nodes).
   * @default - none
   */
  readonly dependsOn?: ITerraformDependable[];
}

/**
 * The AWS Load Balancer Controller from its official Helm chart, pinned, in
 * `kube-system` under the IAM role of the cluster stack (IRSA). Installs the
 * `alb` IngressClass (not the cluster default) and the webhooks that inject Pod
 * readiness gates and hand new `type: LoadBalancer` Services to the controller.
 * Helm waits until the controller and its webhooks answer.
 *
 * Everything that makes the controller create AWS resources must depend on
 * {@link release}, so that Terraform deletes it, and waits for the controller
 * to remove those resources, before it uninstalls the controller.
 */
export class LoadBalancerController extends Construct {
  /** The Helm release: the dependency of every Ingress or Service the controller serves. */
  public readonly release: Release;
  /** The chart values, as installed. */
  public readonly values: Readonly<Record<string, unknown>>;
  /** IngressClass name for ALB Ingresses. */
  public readonly ingressClassName = ALB_INGRESS_CLASS;
  /** `spec.loadBalancerClass` for NLB Services. */
  public readonly loadBalancerClass = NLB_LOAD_BALANCER_CLASS;

  constructor(scope: Construct, id: string, props: LoadBalancerControllerProps) {
    super(scope, id);
    const appVersion = (LB_CONTROLLER_APP_VERSIONS as Readonly<Record<string, string | undefined>>)[props.chartVersion];
    if (appVersion !== LB_CONTROLLER_POLICY_VERSION) {
      const known = Object.keys(LB_CONTROLLER_APP_VERSIONS).join(', ');
      throw new Error(
        appVersion === undefined
          ? `LoadBalancerController ${id}: chartVersion "${props.chartVersion}" is not a chart hoplab knows; use one of ${known}`
          : `LoadBalancerController ${id}: chartVersion "${props.chartVersion}" installs controller ${appVersion}, but the IAM role carries the policy of ${LB_CONTROLLER_POLICY_VERSION}; ` +
            `use the chart of ${LB_CONTROLLER_POLICY_VERSION}, or replace ${LB_CONTROLLER_POLICY_FILE} with the policy of the chart's release (see load-balancer-controller-policy.ts)`,
      );
    }
    const replicas = props.replicas ?? 2;
    if (!Number.isInteger(replicas) || replicas < 1) {
      throw new Error(`LoadBalancerController ${id}: replicas ${replicas} is not a whole number of at least 1; use 2 for a highly available controller`);
    }
    const podLabels = props.readinessGatePodLabels;

    this.values = {
      clusterName: props.clusterName,
      region: props.region,
      vpcId: props.vpcId,
      replicaCount: replicas,
      serviceAccount: {
        create: true,
        name: LB_CONTROLLER_SERVICE_ACCOUNT,
        annotations: { 'eks.amazonaws.com/role-arn': props.roleArn },
      },
      ...(replicas > 1 ? { podDisruptionBudget: { maxUnavailable: 1 } } : {}),
      resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { memory: '256Mi' } },
      priorityClassName: 'system-cluster-critical',
      // Keep the webhook certificate across upgrades instead of rotating it on every `helm upgrade`.
      keepTLSSecret: true,
      createIngressClassResource: true,
      ingressClass: ALB_INGRESS_CLASS,
      ingressClassConfig: { default: false },
      // Say it rather than inherit it: an Ingress without a target-type annotation gets NodePort (instance) targets.
      defaultTargetType: 'instance',
      defaultTags: { ...(props.defaultTags ?? {}) },
      // Listeners and rules carry the `elbv2.k8s.aws/cluster` tag too (the chart's default, said here because the
      // environment's fence allows listener and rule actions only on resources tagged for this cluster).
      controllerConfig: { featureGates: { ListenerRulesTagging: true } },
      ...(podLabels ? { podMutatorWebhookConfig: { failurePolicy: 'Fail' }, objectSelector: { matchLabels: { ...podLabels } } } : {}),
    };

    this.release = new Release(this, 'release', {
      name: LB_CONTROLLER_CHART,
      repository: LB_CONTROLLER_CHART_REPOSITORY,
      chart: LB_CONTROLLER_CHART,
      version: props.chartVersion,
      namespace: LB_CONTROLLER_NAMESPACE,
      // Quoted strings: the cluster name, VPC and role ARN are Terraform references until apply.
      values: [stringify(this.values, { defaultStringType: 'QUOTE_DOUBLE', defaultKeyType: 'PLAIN' })],
      wait: true,
      timeout: 600,
      atomic: true,
      cleanupOnFail: true,
      maxHistory: 5,
      dependsOn: props.dependsOn,
    });
  }
}
