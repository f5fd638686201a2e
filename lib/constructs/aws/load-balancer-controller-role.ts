import { IamPolicy } from '@cdktf/provider-aws/lib/iam-policy';
import { Construct } from 'constructs';
import { LB_CONTROLLER_POLICY_VERSION, lbControllerPolicyDocument } from './load-balancer-controller-policy';
import { ServiceAccountRole } from './service-account-role';

/** Where the controller's Helm chart puts its service account. */
export const LB_CONTROLLER_NAMESPACE = 'kube-system';
export const LB_CONTROLLER_SERVICE_ACCOUNT = 'aws-load-balancer-controller';

export interface LoadBalancerControllerRoleProps {
  /** Cluster name; prefixes the role and policy names. Required. */
  readonly clusterName: string;
  /** ARN of the cluster's IAM OIDC provider. Required. */
  readonly oidcProviderArn: string;
  /** The cluster's OIDC issuer URL. Required. */
  readonly oidcIssuerUrl: string;
  /**
   * A policy of explicit denies attached beside the controller's own (its environment's `EnvironmentFence`).
   * @default - none: the upstream policy alone
   */
  readonly fencePolicyArn?: string;
}

/**
 * The IAM role the AWS Load Balancer Controller runs under: the controller's
 * official IAM policy (pinned release, see `LB_CONTROLLER_POLICY_VERSION`) and a
 * trust policy that only the `kube-system/aws-load-balancer-controller` service
 * account can assume; with `fencePolicyArn`, its environment's fence beside it.
 */
export class LoadBalancerControllerRole extends Construct {
  /** The role's ARN. */
  public readonly roleArn: string;
  /** The controller release whose policy the role carries. */
  public readonly policyVersion = LB_CONTROLLER_POLICY_VERSION;

  constructor(scope: Construct, id: string, props: LoadBalancerControllerRoleProps) {
    super(scope, id);
    const policy = new IamPolicy(this, 'policy', {
      name: `${props.clusterName}-aws-lb-controller`,
      description: `AWS Load Balancer Controller ${LB_CONTROLLER_POLICY_VERSION} for EKS cluster ${props.clusterName}`,
      policy: lbControllerPolicyDocument(),
    });
    const role = new ServiceAccountRole(this, 'role', {
      roleName: `${props.clusterName}-aws-lb-controller`,
      oidcProviderArn: props.oidcProviderArn,
      oidcIssuerUrl: props.oidcIssuerUrl,
      namespace: LB_CONTROLLER_NAMESPACE,
      serviceAccount: LB_CONTROLLER_SERVICE_ACCOUNT,
      policies: { controller: policy.arn, ...(props.fencePolicyArn ? { fence: props.fencePolicyArn } : {}) },
    });
    this.roleArn = role.roleArn;
  }
}
