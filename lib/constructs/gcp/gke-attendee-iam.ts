import { ProjectIamMember } from '@cdktf/provider-google/lib/project-iam-member';
import { Construct } from 'constructs';
import { GKE_ATTENDEE_PROJECT_ROLE, isRefusal, parseGcpMember } from '../../model/identities';

export interface GkeAttendeeIamProps {
  /** Google Cloud project ID of the clusters. Required. */
  readonly project: string;
  /** The attendee's IAM member: `user:<email>` or `serviceAccount:<email>`. Required. */
  readonly member: string;
}

/**
 * The one IAM grant an attendee needs on Google Cloud: `roles/container.clusterViewer`
 * on the project, which holds `container.clusters.get`, what
 * `gcloud container clusters get-credentials` needs, and authorizes nothing
 * inside any cluster. What they may do inside their own cluster comes from
 * Kubernetes RBAC there (`AttendeeRbac` in `<env>-gcp-lb`), the pattern GKE
 * documents; roles such as `roles/container.viewer` or `developer` would reach
 * into every cluster of the project through GKE's IAM authorizer.
 *
 * The binding is non-authoritative (`google_project_iam_member`): it adds
 * this member to the role and removes only that on destroy.
 */
export class GkeAttendeeIam extends Construct {
  /** The binding. */
  public readonly binding: ProjectIamMember;

  constructor(scope: Construct, id: string, props: GkeAttendeeIamProps) {
    super(scope, id);
    const parsed = parseGcpMember(props.member);
    if (isRefusal(parsed)) {
      throw new Error(`GkeAttendeeIam ${id}: member "${props.member}" ${parsed.reason}`);
    }
    this.binding = new ProjectIamMember(this, 'cluster-viewer', { project: props.project, role: GKE_ATTENDEE_PROJECT_ROLE, member: props.member });
  }
}
