/**
 * What preflight did not check when a cloud gave it no identity: one `skip`
 * finding per check that needs one (IAM simulation or permissions, APIs,
 * account quotas, free names, attendees), so the report (terminal, Markdown
 * and JSON alike) says what ran and what did not, instead of ending at the
 * failed identity.
 */
import { Finding } from '../../lab/checks/finding';
import { plural } from '../../kit/terminal/terminal';

/** The checks of one cloud that need its identity, and how much each would have covered. */
export interface UncheckedScope {
  /** The environments of the selected cluster stacks (the names checked free, the cluster admins). */
  readonly clusterEnvs: readonly string[];
  /** How many IAM actions or permissions the stacks and hoplab need. */
  readonly permissions: number;
  /** GCP: the APIs the stacks call. */
  readonly apis?: readonly string[];
  /** The quotas the selected environments take some of (ids, or metrics with their need). */
  readonly quotas: readonly string[];
  /** GCP: the regions whose zones were not read. @default - none */
  readonly zoneRegions?: readonly string[];
  /** How many attendee identities would have been checked. */
  readonly attendees: number;
}

const names = (envs: readonly string[]) => (envs.length <= 3 ? envs.join(', ') : `${envs.slice(0, 3).join(', ')} and ${envs.length - 3} more`);
const skip = (check: string, detail: string): Finding => ({ check, verdict: 'skip', detail });

/** The AWS checks that did not run, `why` (no identity). */
export function awsNotChecked(scope: UncheckedScope, why: string): Finding[] {
  const not = `not checked (${why})`;
  return [
    ...(scope.clusterEnvs.length > 0 ? [skip('aws cluster admins', `${not}: whether aws.clusterAdminArns lists the deployer`)] : []),
    skip('aws permissions', `${not}: IAM policy simulation of the ${plural(scope.permissions, 'action')} the stacks need`),
    ...(scope.attendees > 0 ? [skip('aws attendees', `${not}: whether the ${plural(scope.attendees, 'attendee identity', 'attendee identities')} exist`)] : []),
    ...(scope.quotas.length > 0 ? [skip('aws quotas', `${not}: the account's own quotas and what is in use (${scope.quotas.join(', ')}); only AWS's documented defaults were compared`)] : []),
    ...(scope.clusterEnvs.length > 0 ? [skip('aws names', `${not}: whether the EKS cluster and IAM names of ${names(scope.clusterEnvs)} are free`)] : []),
  ];
}

/** The GCP checks that did not run, `why` (no token, or a refused one). */
export function gcpNotChecked(scope: UncheckedScope, why: string): Finding[] {
  const not = `not checked (${why})`;
  return [
    ...(scope.apis && scope.apis.length > 0 ? [skip('gcp apis', `${not}: whether the ${plural(scope.apis.length, 'API')} the stacks call are enabled (${scope.apis.join(', ')})`)] : []),
    skip('gcp permissions', `${not}: whether the deployer holds the ${plural(scope.permissions, 'permission')} the stacks and hoplab need (testIamPermissions)`),
    ...(scope.zoneRegions && scope.zoneRegions.length > 0 ? [skip('gcp zones', `${not}: whether the zones of ${scope.zoneRegions.join(', ')} are the project's own (regions.get)`)] : []),
    ...(scope.attendees > 0 ? [skip('gcp attendees', `${not}: what the ${plural(scope.attendees, 'attendee identity', 'attendee identities')} hold in the project`)] : []),
    ...(scope.quotas.length > 0 ? [skip('gcp quotas', `${not}: the project's own quotas and what is in use (${scope.quotas.join(', ')}); only Google Cloud's documented defaults were compared`)] : []),
    ...(scope.clusterEnvs.length > 0 ? [skip('gcp names', `${not}: whether the GKE cluster, network and service account names of ${names(scope.clusterEnvs)} are free`)] : []),
  ];
}
