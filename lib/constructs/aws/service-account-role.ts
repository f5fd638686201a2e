import { DataAwsIamPolicyDocument } from '@cdktf/provider-aws/lib/data-aws-iam-policy-document';
import { IamRole } from '@cdktf/provider-aws/lib/iam-role';
import { IamRolePolicyAttachment } from '@cdktf/provider-aws/lib/iam-role-policy-attachment';
import { Fn } from 'cdktf';
import { Construct } from 'constructs';

export interface ServiceAccountRoleProps {
  /** IAM role name (at most 64 characters). Required. */
  readonly roleName: string;
  /** ARN of the cluster's IAM OIDC provider. Required. */
  readonly oidcProviderArn: string;
  /** The cluster's OIDC issuer URL (`https://oidc.eks.<region>.amazonaws.com/id/<id>`). Required. */
  readonly oidcIssuerUrl: string;
  /** Namespace of the Kubernetes service account allowed to assume the role. Required. */
  readonly namespace: string;
  /** Name of the Kubernetes service account allowed to assume the role. Required. */
  readonly serviceAccount: string;
  /**
   * IAM policies to attach, by a stable key (the key is part of the attachment's
   * construct id, so reordering does not recreate attachments).
   * @default - none
   */
  readonly policies?: Readonly<Record<string, string>>;
}

/**
 * An IAM role for one Kubernetes service account (IAM Roles for Service
 * Accounts): its trust policy lets only `system:serviceaccount:<ns>:<name>`
 * assume it, through the cluster's OIDC provider, with audience `sts.amazonaws.com`.
 */
export class ServiceAccountRole extends Construct {
  /** The role's ARN, for the service account's `eks.amazonaws.com/role-arn` annotation. */
  public readonly roleArn: string;
  /** The role's name. */
  public readonly roleName: string;
  /** The role resource, for attachments and dependencies. */
  public readonly role: IamRole;
  /** The role's policy attachments, for dependencies (what uses the role must go before they do). */
  public readonly policyAttachments: IamRolePolicyAttachment[];

  constructor(scope: Construct, id: string, props: ServiceAccountRoleProps) {
    super(scope, id);
    if (props.roleName.length > 64) {
      throw new Error(`ServiceAccountRole ${id}: roleName "${props.roleName}" is ${props.roleName.length} characters; IAM allows 64: shorten the environment name (it prefixes the role name)`);
    }
    const issuerHostPath = Fn.replace(props.oidcIssuerUrl, 'https://', '');
    const trust = new DataAwsIamPolicyDocument(this, 'trust', {
      statement: [
        {
          effect: 'Allow',
          actions: ['sts:AssumeRoleWithWebIdentity'],
          principals: [{ type: 'Federated', identifiers: [props.oidcProviderArn] }],
          condition: [
            { test: 'StringEquals', variable: `${issuerHostPath}:sub`, values: [`system:serviceaccount:${props.namespace}:${props.serviceAccount}`] },
            { test: 'StringEquals', variable: `${issuerHostPath}:aud`, values: ['sts.amazonaws.com'] },
          ],
        },
      ],
    });
    this.role = new IamRole(this, 'role', { name: props.roleName, assumeRolePolicy: trust.json });
    this.roleArn = this.role.arn;
    this.roleName = this.role.name;
    this.policyAttachments = Object.entries(props.policies ?? {}).map(([key, policyArn]) => new IamRolePolicyAttachment(this, `policy-${key}`, { role: this.role.name, policyArn }));
  }
}
