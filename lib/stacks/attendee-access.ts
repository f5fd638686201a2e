/**
 * An attendee's access inside the cluster of an `-lb` stack, the same on both clouds but for the
 * subject their cloud identity has in Kubernetes.
 */
import { Construct } from 'constructs';
import { AttendeeIdentities } from '../config/attendees';
import { AttendeeRbac, AttendeeRbacProps } from '../constructs/k8s/attendee-rbac';
import { AttendeeServiceAccount } from '../constructs/k8s/attendee-service-account';
import { ATTENDEE_SERVICE_ACCOUNT } from '../model/identities';

/** What {@link addAttendeeAccess} made. */
export interface AttendeeAccess {
  /** The attendee's RBAC, bound to their identity's subject or to their ServiceAccount. */
  readonly rbac: AttendeeRbac;
  /** The ServiceAccount of an attendee without an identity on the cloud (their kubeconfig's token is minted for it by `handout`). */
  readonly serviceAccount?: AttendeeServiceAccount;
}

/**
 * The attendee's access in `stack` (construct ids `attendee-rbac` and `attendee-service-account`):
 * with an identity on the cloud, RBAC bound to `identity`, the subject Kubernetes knows it by; without
 * one, a ServiceAccount of their own in `namespace`, bound to what an identity gets (view, edit in
 * `namespace`, node operations). Nothing for an environment without an attendee.
 */
export function addAttendeeAccess(
  stack: Construct,
  attendee: AttendeeIdentities | undefined,
  namespace: string,
  identity: Omit<AttendeeRbacProps, 'namespace'> | undefined,
): AttendeeAccess | undefined {
  if (!attendee) return undefined;
  if (identity) return { rbac: new AttendeeRbac(stack, 'attendee-rbac', { ...identity, namespace }) };
  const serviceAccount = new AttendeeServiceAccount(stack, 'attendee-service-account', { name: ATTENDEE_SERVICE_ACCOUNT, namespace, attendee: attendee.name });
  const rbac = new AttendeeRbac(stack, 'attendee-rbac', { subject: { kind: 'ServiceAccount', name: serviceAccount.name, namespace }, namespace });
  return { rbac, serviceAccount };
}
