import { DataAwsIamPolicyDocument } from '@cdktf/provider-aws/lib/data-aws-iam-policy-document';
import { IamPolicy } from '@cdktf/provider-aws/lib/iam-policy';
import { ITerraformDependable } from 'cdktf';
import { Construct } from 'constructs';
import { ServiceAccountRole } from './service-account-role';

/** Namespace and service account of the Cilium operator (the chart's `serviceAccounts.operator.name`). */
export const CILIUM_NAMESPACE = 'kube-system';
export const CILIUM_OPERATOR_SERVICE_ACCOUNT = 'cilium-operator';

/**
 * The EC2 actions Cilium's ENI IPAM documentation ("Required Privileges",
 * Documentation/network/concepts/ipam/eni.rst) lists for the operator: ENI
 * creation and IP allocation, plus `DescribeTags` because ENI garbage collection
 * is on and hoplab sets no custom `--eni-gc-tags`. Releasing excess IPs, IPv6
 * and `--instance-tags-filter` are off, so their extra actions are not granted.
 */
export const CILIUM_OPERATOR_EC2_ACTIONS = [
  'ec2:DeleteNetworkInterface',
  'ec2:DescribeInstanceTypes',
  'ec2:DescribeNetworkInterfaces',
  'ec2:DescribeSubnets',
  'ec2:DescribeVpcs',
  'ec2:DescribeRouteTables',
  'ec2:DescribeSecurityGroups',
  'ec2:CreateNetworkInterface',
  'ec2:AttachNetworkInterface',
  'ec2:ModifyNetworkInterfaceAttribute',
  'ec2:AssignPrivateIpAddresses',
  'ec2:DescribeManagedPrefixLists',
  'ec2:GetManagedPrefixListEntries',
  'ec2:DescribeTags',
] as const;

/**
 * Cilium's "Required Privileges" also list `ec2:CreateTags`, on `*`: the operator
 * tags only the ENIs it creates (its `--eni-tags`, as they are created), so
 * hoplab grants it on network interfaces alone, not on every EC2 resource of the account.
 */
export const CILIUM_OPERATOR_TAG_RESOURCE = 'arn:aws:ec2:*:*:network-interface/*';

export interface CiliumOperatorRoleProps {
  /** EKS cluster name; the role is `<cluster>-cilium-operator`. Required. */
  readonly clusterName: string;
  /** ARN of the cluster's IAM OIDC provider. Required. */
  readonly oidcProviderArn: string;
  /** The cluster's OIDC issuer URL. Required. */
  readonly oidcIssuerUrl: string;
  /**
   * A policy of explicit denies attached beside the operator's own (its environment's `EnvironmentFence`).
   * @default - none
   */
  readonly fencePolicyArn?: string;
}

/**
 * The IAM role of the Cilium operator in ENI mode (IRSA): only
 * `kube-system/cilium-operator` can assume it, and its policy carries the EC2
 * actions Cilium documents. The operator is the only Cilium component that calls
 * the EC2 API; agents and nodes get no ENI permissions.
 */
export class CiliumOperatorRole extends Construct {
  /** The role's ARN, for the operator service account's annotation. */
  public readonly roleArn: string;
  /** The role, for dependencies. */
  public readonly role: ServiceAccountRole;
  /**
   * The role and its policy attachment: what the Cilium release waits for, and
   * what outlives it on destroy (the operator keeps its EC2 permissions while it
   * is uninstalled and while the nodes drain).
   */
  public readonly dependables: ITerraformDependable[];

  constructor(scope: Construct, id: string, props: CiliumOperatorRoleProps) {
    super(scope, id);
    const document = new DataAwsIamPolicyDocument(this, 'policy-document', {
      statement: [
        { sid: 'CiliumEniIpam', effect: 'Allow', actions: [...CILIUM_OPERATOR_EC2_ACTIONS], resources: ['*'] },
        { sid: 'CiliumEniTags', effect: 'Allow', actions: ['ec2:CreateTags'], resources: [CILIUM_OPERATOR_TAG_RESOURCE] },
      ],
    });
    const policy = new IamPolicy(this, 'policy', {
      name: `${props.clusterName}-cilium-operator`,
      description: 'Cilium operator, ENI IPAM mode: the EC2 actions of Cilium\'s "Required Privileges"',
      policy: document.json,
    });
    this.role = new ServiceAccountRole(this, 'role', {
      roleName: `${props.clusterName}-cilium-operator`,
      oidcProviderArn: props.oidcProviderArn,
      oidcIssuerUrl: props.oidcIssuerUrl,
      namespace: CILIUM_NAMESPACE,
      serviceAccount: CILIUM_OPERATOR_SERVICE_ACCOUNT,
      policies: { eni: policy.arn, ...(props.fencePolicyArn ? { fence: props.fencePolicyArn } : {}) },
    });
    this.roleArn = this.role.roleArn;
    this.dependables = [this.role.role, ...this.role.policyAttachments];
  }
}
