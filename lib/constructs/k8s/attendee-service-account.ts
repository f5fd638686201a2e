import { ServiceAccountV1 } from '@cdktf/provider-kubernetes/lib/service-account-v1';
import { Construct } from 'constructs';

export interface AttendeeServiceAccountProps {
  /** The ServiceAccount's name. Required. */
  readonly name: string;
  /** Its namespace: the app's, where the attendee may change things. Required. */
  readonly namespace: string;
  /** The attendee's name, as a label (nothing authorizes by it). Required. */
  readonly attendee: string;
}

/**
 * The in-cluster identity of an attendee who has no cloud identity: a ServiceAccount in their own
 * cluster, which AttendeeRbac binds to what an identity gets (view, edit in the app's namespace,
 * node operations). It holds no credential: no token Secret, and no token mounted into Pods (nothing
 * runs as it). The attendee's token is minted on the day with the TokenRequest API by the host
 * (`handout`), so no token is ever in Terraform state.
 */
export class AttendeeServiceAccount extends Construct {
  public readonly serviceAccount: ServiceAccountV1;
  /** Its name, as a reference (the bindings made after it). */
  public readonly name: string;

  constructor(scope: Construct, id: string, props: AttendeeServiceAccountProps) {
    super(scope, id);
    this.serviceAccount = new ServiceAccountV1(this, 'service-account', {
      metadata: {
        name: props.name,
        namespace: props.namespace,
        labels: { 'app.kubernetes.io/part-of': 'hoplab', 'app.kubernetes.io/component': 'attendee-access', 'hoplab.dev/attendee': props.attendee },
      },
      automountServiceAccountToken: false,
    });
    this.name = this.serviceAccount.metadata.name;
  }
}
