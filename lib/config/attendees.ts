/**
 * The rules between attendees (see docs/attendees.md): names and identities
 * are each one attendee's only, and no attendee identity is also a host's.
 * The shape of each identity is checked by the schema.
 */
import { identityKey } from '../model/identities';
import { ConfigProblem } from './problems';
import { Attendee } from './schema';

/** An attendee with the identities that get access to their environment (none for a plain name). */
export interface AttendeeIdentities {
  readonly name: string;
  /** IAM role or user ARN: an EKS access entry in this attendee's cluster. */
  readonly aws?: string;
  /** `user:` or `serviceAccount:` IAM member: credentials for and RBAC in this attendee's GKE cluster. */
  readonly gcp?: string;
}

/** An `attendees` entry as an object: a plain name has no identities. */
export function attendeeIdentities(entry: Attendee): AttendeeIdentities {
  return typeof entry === 'string' ? { name: entry } : entry;
}

/** What is valid of an attendee entry on its own: its name and identities, each present only when the schema accepts it. */
export type AttendeeParts = Partial<AttendeeIdentities>;

/**
 * Problems between attendees: a name listed twice (each repeat names where it
 * was first), an identity given to two attendees (it would reach both
 * environments; EKS also allows one access entry per principal), an AWS
 * identity that is in `aws.clusterAdminArns` (admin of every environment
 * already, and one access entry per principal). `entries` keeps the config's
 * positions, each with the fields the schema accepts (an entry with a bad
 * `gcp` still has its `aws` checked), `undefined` for an entry that is
 * neither a name nor an object, so paths name the right index.
 */
export function checkAttendees(entries: readonly (Attendee | AttendeeParts | undefined)[], clusterAdminArns: readonly string[] = []): ConfigProblem[] {
  const attendees: (AttendeeParts | undefined)[] = entries.map((entry) => (typeof entry === 'string' ? { name: entry } : entry));
  const problems: ConfigProblem[] = [];
  const firstNamed = new Map<string, number>();
  attendees.forEach((attendee, index) => {
    const name = attendee?.name;
    if (name === undefined) return;
    const first = firstNamed.get(name);
    if (first === undefined) firstNamed.set(name, index);
    else
      problems.push({
        path: `attendees[${index}]`,
        value: name,
        reason: `is listed more than once (first as attendees[${first}]); each attendee needs a unique name because stacks and cloud resources are named after it (e.g. "${name}-2")`,
      });
  });
  const admins = new Set(clusterAdminArns.map(identityKey));
  for (const cloud of ['aws', 'gcp'] as const) {
    const firstHolder = new Map<string, number>();
    attendees.forEach((attendee, index) => {
      const identity = attendee?.[cloud];
      if (attendee === undefined || identity === undefined) return;
      const path = `attendees[${index}].${cloud}`;
      const key = identityKey(identity);
      const first = firstHolder.get(key);
      if (first !== undefined) {
        const holder = attendees[first]?.name;
        problems.push({
          path,
          value: identity,
          reason: `is also attendees[${first}].${cloud}${holder ? ` (${holder})` : ''}; an identity belongs to one attendee only, or it would reach both environments: give each attendee their own`,
        });
        return;
      }
      firstHolder.set(key, index);
      if (cloud === 'aws' && admins.has(key)) {
        problems.push({
          path,
          value: identity,
          reason:
            'is in aws.clusterAdminArns, so it is cluster admin of every environment already, and EKS allows one access entry per identity: ' +
            'give the attendee an identity of their own, or remove it from aws.clusterAdminArns',
        });
      }
    });
  }
  return problems;
}
