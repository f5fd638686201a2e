import { CloudwatchLogGroup } from '@cdktf/provider-aws/lib/cloudwatch-log-group';
import { DataAwsCallerIdentity } from '@cdktf/provider-aws/lib/data-aws-caller-identity';
import { DataAwsIamPolicyDocument } from '@cdktf/provider-aws/lib/data-aws-iam-policy-document';
import { DataAwsIamSessionContext } from '@cdktf/provider-aws/lib/data-aws-iam-session-context';
import { EksAccessEntry } from '@cdktf/provider-aws/lib/eks-access-entry';
import { EksAccessPolicyAssociation } from '@cdktf/provider-aws/lib/eks-access-policy-association';
import { EksCluster as EksClusterResource } from '@cdktf/provider-aws/lib/eks-cluster';
import { IamOpenidConnectProvider } from '@cdktf/provider-aws/lib/iam-openid-connect-provider';
import { IamRole } from '@cdktf/provider-aws/lib/iam-role';
import { IamRolePolicyAttachment } from '@cdktf/provider-aws/lib/iam-role-policy-attachment';
import { ITerraformDependable, Op } from 'cdktf';
import { Construct } from 'constructs';

/** The AWS partition prefix for managed policy ARNs. */
export const AWS_MANAGED_POLICY_PREFIX = 'arn:aws:iam::aws:policy';

/** The EKS access policy that makes a principal cluster admin. */
export const EKS_CLUSTER_ADMIN_POLICY = 'arn:aws:eks::aws:cluster-access-policy/AmazonEKSClusterAdminPolicy';

/**
 * Control-plane log types the lab turns on: the API server's own log (`api`: its errors and what it was asked,
 * the first place to look when an apply against the cluster fails), who called the API (`audit`) and how they
 * authenticated (`authenticator`). The exact strings are EKS's (`api`, `audit`, `authenticator`, `controllerManager`, `scheduler`).
 */
export const CONTROL_PLANE_LOG_TYPES = ['api', 'audit', 'authenticator'] as const;

/** Days CloudWatch keeps the control-plane logs: long enough to look back on a workshop, short enough to cost little. */
export const CONTROL_PLANE_LOG_RETENTION_DAYS = 3;

/** The log group EKS writes control-plane logs to (EKS creates it if missing, untagged and kept forever). */
export function controlPlaneLogGroupName(clusterName: string): string {
  return `/aws/eks/${clusterName}/cluster`;
}

export interface EksClusterProps {
  /** Cluster name (at most 100 characters). Required. */
  readonly clusterName: string;
  /** Kubernetes version, e.g. `1.34`. Required. */
  readonly kubernetesVersion: string;
  /** Subnets for the control plane's ENIs: the private subnets of the VPC (not the public ones, which the load balancers need). Required. */
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
   * Days to keep the control-plane logs (`api`, `audit`, `authenticator`) in CloudWatch.
   * @default CONTROL_PLANE_LOG_RETENTION_DAYS (3)
   */
  readonly logRetentionDays?: number;
  /**
   * The target is the local emulator (moto), which does not store
   * `access_config` (ignored so a re-plan after apply is empty) and has no
   * access entry API (the deploying identity's access entry is left out).
   * @default false
   */
  readonly emulated?: boolean;
}

/**
 * An EKS control plane with its IAM role and the IAM OIDC provider that IAM
 * Roles for Service Accounts need. The public endpoint is limited to
 * `endpointPublicAccessCidrs`; nodes reach the control plane privately.
 * Authentication is by EKS access entries (and the aws-auth ConfigMap), all of
 * them in Terraform: `bootstrap_cluster_creator_admin_permissions` is off (an
 * admin Terraform cannot see, and listing the same identity again fails with
 * ResourceInUseException); instead the identity that deploys gets an explicit
 * access entry with the cluster admin policy, so the `-lb` stack can install
 * into the cluster with the same credentials, as terraform-aws-modules/eks v21
 * does. An assumed role's caller ARN is an STS session ARN, so the entry uses
 * `aws_iam_session_context`'s `issuer_arn` (the IAM role). `adminPrincipalArns`
 * get entries too; one that is the deploying identity is refused at plan.
 * Control-plane `api`, `audit` and `authenticator` logs go to a log group made here,
 * before the cluster (else EKS makes it, untagged and kept forever), tagged,
 * with a short retention, and destroyed with the stack.
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
  /** The IAM role or user that deploys (its access entry is cluster admin); unset against the emulator, which has no access entries. */
  public readonly deployerArn?: string;
  /**
   * The access entries and policy associations Terraform itself reaches the
   * Kubernetes API through: the deploying identity's, and those of
   * `adminPrincipalArns` (a CI runner or another host may run the next apply or
   * the teardown). Everything in this stack that talks to the Kubernetes API
   * (a Helm release, a Kubernetes object) must depend on all of them: created
   * after them, and destroyed before them, else `terraform destroy` removes the
   * access in its first wave and the uninstall that follows gets Unauthorized.
   * Every cluster-admin entry made here is in the list, so one added later is
   * picked up by whatever depends on the list. (Access entries for people who do
   * not run Terraform, such as workshop attendees, do not belong here.)
   */
  public readonly adminAccess: ITerraformDependable[] = [];

  constructor(scope: Construct, id: string, props: EksClusterProps) {
    super(scope, id);
    const trust = new DataAwsIamPolicyDocument(this, 'role-trust', {
      statement: [{ effect: 'Allow', actions: ['sts:AssumeRole', 'sts:TagSession'], principals: [{ type: 'Service', identifiers: ['eks.amazonaws.com'] }] }],
    });
    const role = new IamRole(this, 'role', { name: `${props.clusterName}-cluster`, assumeRolePolicy: trust.json });
    const policy = new IamRolePolicyAttachment(this, 'role-policy', { role: role.name, policyArn: `${AWS_MANAGED_POLICY_PREFIX}/AmazonEKSClusterPolicy` });
    const logGroup = new CloudwatchLogGroup(this, 'control-plane-logs', {
      name: controlPlaneLogGroupName(props.clusterName),
      retentionInDays: props.logRetentionDays ?? CONTROL_PLANE_LOG_RETENTION_DAYS,
      tags: { Name: `${props.clusterName}-control-plane` },
    });

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
      accessConfig: { authenticationMode: 'API_AND_CONFIG_MAP', bootstrapClusterCreatorAdminPermissions: false },
      bootstrapSelfManagedAddons: props.bootstrapSelfManagedAddons === false ? false : undefined,
      enabledClusterLogTypes: [...CONTROL_PLANE_LOG_TYPES],
      // The role must keep its policy until the cluster is gone, or EKS cannot clean up its ENIs;
      // the log group must exist first, or EKS creates its own.
      dependsOn: [policy, logGroup],
      lifecycle: props.emulated ? { ignoreChanges: ['access_config'] } : undefined,
    });
    this.clusterName = this.cluster.name;
    this.oidcIssuerUrl = this.cluster.identity.get(0).oidc.get(0).issuer;

    const admin = (id: string, principalArn: string, precondition?: { condition: string; errorMessage: string }) => {
      const entry = new EksAccessEntry(this, id, {
        clusterName: this.cluster.name,
        principalArn,
        type: 'STANDARD',
        lifecycle: precondition ? { precondition: [precondition] } : undefined,
      });
      const association = new EksAccessPolicyAssociation(this, `${id}-policy`, {
        clusterName: this.cluster.name,
        principalArn: entry.principalArn,
        policyArn: EKS_CLUSTER_ADMIN_POLICY,
        accessScope: { type: 'cluster' },
      });
      this.adminAccess.push(entry, association);
    };
    // moto has no access entry API; the emulator does not check authentication anyway.
    const deployer = props.emulated ? undefined : new DataAwsIamSessionContext(this, 'deployer', { arn: new DataAwsCallerIdentity(this, 'caller').arn }).issuerArn;
    this.deployerArn = deployer;
    if (deployer) admin('deployer-admin', deployer);
    for (const principalArn of props.adminPrincipalArns ?? []) {
      // The ARN is part of the construct id, so adding or removing one leaves the others alone.
      const id = `admin-${principalArn
        .split(':')
        .pop()!
        .replace(/[^A-Za-z0-9-]/g, '-')}`;
      admin(
        id,
        principalArn,
        deployer
          ? {
              condition: Op.neq(principalArn, deployer) as unknown as string,
              errorMessage: `aws.clusterAdminArns lists ${principalArn}, the identity that deploys; it is made cluster admin already (its own access entry): remove it from aws.clusterAdminArns`,
            }
          : undefined,
      );
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
