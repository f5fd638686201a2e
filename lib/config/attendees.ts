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

function duplicates<T>(values: readonly T[]): T[] {
  return values.filter((value, index) => values.indexOf(value) !== index);
}

/**
 * Problems between attendees: a name listed twice, an identity given to two
 * attendees (it would reach both environments; EKS also allows one access
 * entry per principal), an AWS identity that is in `aws.clusterAdminArns`
 * (admin of every environment already, and one access entry per principal).
 * `entries` keeps the config's positions: `undefined` for an entry the schema
 * refused, so paths name the right index.
 */
export function checkAttendees(entries: readonly (Attendee | undefined)[], clusterAdminArns: readonly string[] = []): ConfigProblem[] {
  const attendees = entries.map((entry) => (entry === undefined ? undefined : attendeeIdentities(entry)));
  const names = attendees.map((a) => a?.name);
  const problems: ConfigProblem[] = [...new Set(duplicates(names.filter((n): n is string => n !== undefined)))].map((name) => ({
    path: `attendees[${names.lastIndexOf(name)}]`,
    value: name,
    reason: `is listed more than once; each attendee needs a unique name because stacks and cloud resources are named after it (e.g. "${name}-2")`,
  }));
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
        problems.push({
          path,
          value: identity,
          reason: `is also attendees[${first}].${cloud} (${attendees[first]!.name}); an identity belongs to one attendee only, or it would reach both environments: give each attendee their own`,
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
