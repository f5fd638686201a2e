import { GcpCredentials } from '../../kit/google/google-credentials';

/** A cloud resource of an environment that still exists after teardown. */
export interface Leftover {
  readonly cloud: 'aws' | 'gcp';
  /** Resource kind, e.g. `ec2:vpc`, `elbv2:load-balancer`, `compute:forwarding-rule`. */
  readonly kind: string;
  /** Its ID, ARN or name. */
  readonly id: string;
  /** Why it counts as the environment's (which tag or name matched). */
  readonly matchedBy: string;
}

/** One line per leftover: `aws ec2:vpc vpc-123 (tag hoplab-env=lab)`. */
export function formatLeftover(leftover: Leftover): string {
  return `${leftover.cloud} ${leftover.kind} ${leftover.id} (${leftover.matchedBy})`;
}

/**
 * How the clouds are asked, for leftovers or for tagged resources (tests: stand-ins, or loopback
 * APIs): AWS per slot, GCP per project, and whether there are Google credentials at all.
 */
export interface CloudFinders<AwsQuery, GcpQuery, Found> {
  readonly aws: (query: AwsQuery) => Promise<Found[]>;
  readonly gcp: (query: GcpQuery) => Promise<Found[]>;
  /** Google credentials, or undefined without them. */
  readonly gcpCredentials: () => GcpCredentials | undefined;
}
