import { DataAwsIamPolicyDocument } from '@cdktf/provider-aws/lib/data-aws-iam-policy-document';
import { EksAccessEntry } from '@cdktf/provider-aws/lib/eks-access-entry';
import { EksAccessPolicyAssociation } from '@cdktf/provider-aws/lib/eks-access-policy-association';
import { EksCluster as EksClusterResource } from '@cdktf/provider-aws/lib/eks-cluster';
import { IamOpenidConnectProvider } from '@cdktf/provider-aws/lib/iam-openid-connect-provider';
import { IamRole } from '@cdktf/provider-aws/lib/iam-role';
import { IamRolePolicyAttachment } from '@cdktf/provider-aws/lib/iam-role-policy-attachment';
import { Construct } from 'constructs';

/** The AWS partition prefix for managed policy ARNs. */
export const AWS_MANAGED_POLICY_PREFIX = 'arn:aws:iam::aws:policy';

/** The EKS access policy that makes a principal cluster admin. */
export const EKS_CLUSTER_ADMIN_POLICY = 'arn:aws:eks::aws:cluster-access-policy/AmazonEKSClusterAdminPolicy';

export interface EksClusterProps {
  /** Cluster name (at most 100 characters). Required. */
  readonly clusterName: string;
  /** Kubernetes version, e.g. `1.34`. Required. */
  readonly kubernetesVersion: string;
  /** Subnets for the control plane's ENIs: the private and public subnets of the VPC. Required. */
  readonly subnetIds: readonly string[];
  /**
   * CIDR blocks allowed to reach the public API endpoint.
   * @default ['0.0.0.0/0']
   */
  readonly endpointPublicAccessCidrs?: readonly string[];
  /**
   * IAM roles or users made cluster admins through EKS access entries, besides
   * the identity that creates the cluster (other workshop hosts, CI runners).
   * @default - none
   */
  readonly adminPrincipalArns?: readonly string[];
  /**
   * Whether EKS installs its self-managed vpc-cni, kube-proxy and CoreDNS when
   * it creates the cluster. `false` for a cluster whose CNI and Service proxy
   * come from elsewhere (Cilium). Changing it replaces the cluster.
   * @default true
   */
  readonly bootstrapSelfManagedAddons?: boolean;
  /**
   * The target is the local emulator (moto), which does not store
   * `access_config`: ignore it so a re-plan after apply is empty.
   * @default false
   */
  readonly emulated?: boolean;
}

/**
 * An EKS control plane with its IAM role and the IAM OIDC provider that IAM
 * Roles for Service Accounts need. The public endpoint is limited to
 * `endpointPublicAccessCidrs`; nodes reach the control plane privately.
 * Authentication is by EKS access entries (and the aws-auth ConfigMap): the
 * identity that creates the cluster becomes its admin, so the `-lb` stack can
 * install into it with the same credentials, and `adminPrincipalArns` get
 * access entries with the cluster admin policy (other hosts, CI runners).
 */
export class EksCluster extends Construct {
  /** The cluster resource. */
  public readonly cluster: EksClusterResource;
  /** The cluster's name. */
  public readonly clusterName: string;
  /** The OIDC issuer URL (`https://...`). */
  public readonly oidcIssuerUrl: string;
  /** ARN of the IAM OIDC provider for the cluster's issuer. */
  public readonly oidcProviderArn: string;

  constructor(scope: Construct, id: string, props: EksClusterProps) {
    super(scope, id);
    const trust = new DataAwsIamPolicyDocument(this, 'role-trust', {
      statement: [
        { effect: 'Allow', actions: ['sts:AssumeRole', 'sts:TagSession'], principals: [{ type: 'Service', identifiers: ['eks.amazonaws.com'] }] },
      ],
    });
    const role = new IamRole(this, 'role', { name: `${props.clusterName}-cluster`, assumeRolePolicy: trust.json });
    const policy = new IamRolePolicyAttachment(this, 'role-policy', { role: role.name, policyArn: `${AWS_MANAGED_POLICY_PREFIX}/AmazonEKSClusterPolicy` });

    this.cluster = new EksClusterResource(this, 'cluster', {
      name: props.clusterName,
      version: props.kubernetesVersion,
      roleArn: role.arn,
      vpcConfig: {
        subnetIds: [...props.subnetIds],
        endpointPrivateAccess: true,
        endpointPublicAccess: true,
        publicAccessCidrs: [...(props.endpointPublicAccessCidrs ?? ['0.0.0.0/0'])],
      },
      accessConfig: { authenticationMode: 'API_AND_CONFIG_MAP', bootstrapClusterCreatorAdminPermissions: true },
      bootstrapSelfManagedAddons: props.bootstrapSelfManagedAddons === false ? false : undefined,
      // The role must keep its policy until the cluster is gone, or EKS cannot clean up its ENIs.
      dependsOn: [policy],
      lifecycle: props.emulated ? { ignoreChanges: ['access_config'] } : undefined,
    });
    this.clusterName = this.cluster.name;
    this.oidcIssuerUrl = this.cluster.identity.get(0).oidc.get(0).issuer;

    for (const principalArn of props.adminPrincipalArns ?? []) {
      // The ARN is part of the construct id, so adding or removing one leaves the others alone.
      const id = `admin-${principalArn.split(':').pop()!.replace(/[^A-Za-z0-9-]/g, '-')}`;
      const entry = new EksAccessEntry(this, id, { clusterName: this.cluster.name, principalArn, type: 'STANDARD' });
      new EksAccessPolicyAssociation(this, `${id}-policy`, {
        clusterName: this.cluster.name,
        principalArn: entry.principalArn,
        policyArn: EKS_CLUSTER_ADMIN_POLICY,
        accessScope: { type: 'cluster' },
      });
    }

    // No thumbprint: IAM trusts the EKS OIDC issuer's certificate authority itself.
    const oidc = new IamOpenidConnectProvider(this, 'oidc-provider', {
      url: this.oidcIssuerUrl,
      clientIdList: ['sts.amazonaws.com'],
      tags: { Name: `${props.clusterName}-irsa` },
    });
    this.oidcProviderArn = oidc.arn;
  }
}
