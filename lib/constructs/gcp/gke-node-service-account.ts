import { ProjectIamMember } from '@cdktf/provider-google/lib/project-iam-member';
import { ServiceAccount } from '@cdktf/provider-google/lib/service-account';
import { Construct } from 'constructs';

/** The one role GKE documents for a least-privilege node service account (logging, monitoring, metadata). */
export const GKE_NODE_SERVICE_ACCOUNT_ROLE = 'roles/container.defaultNodeServiceAccount';

export interface GkeNodeServiceAccountProps {
  /** Google Cloud project ID. Required. */
  readonly project: string;
  /** Service account ID: 6 to 30 lowercase letters, digits and hyphens, starting with a letter. Required. */
  readonly accountId: string;
}

/**
 * A service account of its own for the lab's nodes, with only the role GKE
 * needs. The Compute Engine default service account often holds Editor on the
 * project, and any Pod can ask the metadata server for the node's token: in a
 * workshop where attendees run commands in Pods, that would hand them the project.
 */
export class GkeNodeServiceAccount extends Construct {
  /** The account's email, for the node pool's `service_account`. */
  public readonly email: string;
  /** The role binding; nodes should wait for it so they can write logs from the start. */
  public readonly binding: ProjectIamMember;

  constructor(scope: Construct, id: string, props: GkeNodeServiceAccountProps) {
    super(scope, id);
    if (!/^[a-z][a-z0-9-]{4,28}[a-z0-9]$/.test(props.accountId)) {
      throw new Error(`GkeNodeServiceAccount ${id}: accountId "${props.accountId}" is not a service account ID; use 6 to 30 lowercase letters, digits and hyphens, starting with a letter`);
    }
    const account = new ServiceAccount(this, 'account', {
      project: props.project,
      accountId: props.accountId,
      displayName: `hoplab GKE nodes (${props.accountId})`,
    });
    this.email = account.email;
    this.binding = new ProjectIamMember(this, 'node-role', {
      project: props.project,
      role: GKE_NODE_SERVICE_ACCOUNT_ROLE,
      member: account.member,
    });
  }
}
