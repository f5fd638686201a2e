import { EksAccessEntry } from '@cdktf/provider-aws/lib/eks-access-entry';
import { EksAccessPolicyAssociation } from '@cdktf/provider-aws/lib/eks-access-policy-association';
import { Op } from 'cdktf';
import { Construct } from 'constructs';
import { EKS_ACCESS_POLICIES, eksAccessPolicyArn, isRefusal, parseIamPrincipal } from '../../model/identities';

export interface EksAttendeeAccessProps {
  /** The attendee's name, for messages. Required. */
  readonly attendee: string;
  /** The cluster (name or a reference to it). Required. */
  readonly clusterName: string;
  /** The attendee's IAM role or user ARN (with its path, if any; not an STS session ARN). Required. */
  readonly principalArn: string;
  /** The namespace the attendee may change things in (`AmazonEKSEditPolicy`, access scope `namespace`). Required. */
  readonly namespace: string;
  /**
   * Kubernetes groups the access entry maps the attendee to, for RBAC beyond
   * the access policies (hoplab binds `hoplab-attendees` to node get/list/cordon/drain).
   * @default - none
   */
  readonly kubernetesGroups?: readonly string[];
  /**
   * The identity that deploys (the cluster admin entry's principal). The
   * attendee's entry is refused at plan when it is the same principal: EKS
   * allows one access entry per principal.
   * @default - no check (the emulator has no access entries)
   */
  readonly deployerArn?: string;
}

/**
 * An attendee's access to one EKS cluster, theirs: an access entry for their
 * IAM principal with `AmazonEKSViewPolicy` at cluster scope (read most
 * objects, no Secrets, no nodes) and `AmazonEKSEditPolicy` scoped to one
 * namespace (scale, roll out, edit Services, exec into Pods there). Nothing
 * cluster-admin. Kept apart from the cluster's admin entries (the deployer's
 * and `aws.clusterAdminArns`, in `EksCluster`), which Terraform authenticates
 * through; nothing in the cluster depends on this entry.
 */
export class EksAttendeeAccess extends Construct {
  /** The access entry. */
  public readonly entry: EksAccessEntry;
  /** The two policy associations: view (cluster), edit (namespace). */
  public readonly associations: readonly EksAccessPolicyAssociation[];

  constructor(scope: Construct, id: string, props: EksAttendeeAccessProps) {
    super(scope, id);
    const parsed = parseIamPrincipal(props.principalArn);
    if (isRefusal(parsed)) {
      throw new Error(`EksAttendeeAccess ${id}: principalArn "${props.principalArn}" ${parsed.reason}`);
    }
    this.entry = new EksAccessEntry(this, 'entry', {
      clusterName: props.clusterName,
      principalArn: props.principalArn,
      type: 'STANDARD',
      kubernetesGroups: props.kubernetesGroups && props.kubernetesGroups.length > 0 ? [...props.kubernetesGroups] : undefined,
      tags: { 'hoplab-attendee': props.attendee },
      lifecycle: props.deployerArn
        ? {
            precondition: [
              {
                condition: Op.neq(props.principalArn, props.deployerArn) as unknown as string,
                errorMessage: `attendee ${props.attendee}'s aws identity ${props.principalArn} is the identity that deploys, cluster admin already (its own access entry): give the attendee an identity of their own`,
              },
            ],
          }
        : undefined,
    });
    const view = new EksAccessPolicyAssociation(this, 'view', {
      clusterName: props.clusterName,
      principalArn: this.entry.principalArn,
      policyArn: eksAccessPolicyArn(EKS_ACCESS_POLICIES.view),
      accessScope: { type: 'cluster' },
    });
    const edit = new EksAccessPolicyAssociation(this, 'edit', {
      clusterName: props.clusterName,
      principalArn: this.entry.principalArn,
      policyArn: eksAccessPolicyArn(EKS_ACCESS_POLICIES.edit),
      accessScope: { type: 'namespace', namespaces: [props.namespace] },
    });
    this.associations = [view, edit];
  }
}
