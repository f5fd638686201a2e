/**
 * Attendees' cloud identities: an IAM role or user ARN on AWS (what an EKS
 * access entry names) and an IAM member on Google Cloud (what a project IAM
 * binding names; GKE's RBAC names the same account by its email). Parsed
 * here, once, for the config's validation and for the constructs that grant
 * access (see docs/attendees.md).
 */

/** An IAM role or user ARN, split. */
export interface IamPrincipal {
  readonly arn: string;
  readonly partition: string;
  readonly account: string;
  readonly kind: 'role' | 'user';
  /** The path between `role/` and the name, with its trailing `/` (`''` for none). */
  readonly path: string;
  readonly name: string;
}

/** A Google Cloud IAM member hoplab grants to: one Google account or one service account. */
export interface GcpMember {
  readonly member: string;
  readonly kind: 'user' | 'serviceAccount';
  /** The address GKE's RBAC knows the account by (a `User` subject's name). */
  readonly email: string;
}

/** Why an identity string was refused, phrased to follow the value (`"x" is not ...`). */
export interface IdentityRefusal {
  readonly reason: string;
}

/** An IAM name character: letters, digits and `+=,.@_-`. */
const NAME = String.raw`[\w+=,.@-]+`;
const IAM_PRINCIPAL = new RegExp(String.raw`^arn:(aws(?:-[a-z]+)*):iam::(\d{12}):(role|user)/((?:${NAME}/)*)(${NAME})$`);
const STS_ASSUMED_ROLE = new RegExp(String.raw`^arn:(aws(?:-[a-z]+)*):sts::(\d{12}):assumed-role/(${NAME})/(${NAME})$`);
/** The path IAM gives service-linked roles; EKS refuses access entries for them. */
const SERVICE_LINKED_PATH = 'aws-service-role/';

export const AWS_IDENTITY_EXAMPLE = 'arn:aws:iam::123456789012:role/ann';
export const GCP_IDENTITY_EXAMPLE = 'user:ann@example.com';

/**
 * An IAM role or user ARN, with or without a path, as an EKS access entry
 * takes it; or why not: an STS assumed-role (session) ARN, which EKS refuses
 * (the fix names the role's own ARN), a service-linked role, or another shape.
 */
export function parseIamPrincipal(text: string): IamPrincipal | IdentityRefusal {
  const sts = STS_ASSUMED_ROLE.exec(text);
  if (sts) {
    const role = `arn:${sts[1]}:iam::${sts[2]}:role/${sts[3]}`;
    return {
      reason:
        `is an STS assumed-role (session) ARN, which EKS access entries refuse; use the role's own ARN, "${role}" ` +
        `(with the role's path if it has one, as SSO roles do: \`aws iam get-role --role-name ${sts[3]} --query Role.Arn\` prints it)`,
    };
  }
  const match = IAM_PRINCIPAL.exec(text);
  if (!match) {
    return {
      reason: `is not an IAM role or user ARN; use one such as "${AWS_IDENTITY_EXAMPLE}" (a path is fine: "arn:aws:iam::123456789012:role/workshop/ann")`,
    };
  }
  const [, partition, account, kind, path, name] = match;
  if (kind === 'role' && path.startsWith(SERVICE_LINKED_PATH)) {
    return { reason: 'is a service-linked role, which EKS access entries refuse; use a role or user the attendee signs in as' };
  }
  return { arn: text, partition, account, kind: kind as 'role' | 'user', path, name };
}

const EMAIL = /^[a-z0-9._%+-]+@[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}$/;

/**
 * A `user:` or `serviceAccount:` IAM member, or why not. `group:` members are
 * refused: GKE's RBAC sees Google groups only with Google Groups for RBAC (a
 * `gke-security-groups@<domain>` group set on the cluster, the attendee's
 * group nested in it), which hoplab does not configure. `domain:`,
 * `allUsers`, `allAuthenticatedUsers` and federated principals are not one
 * person. Addresses must be lowercase: RBAC compares user names exactly.
 */
export function parseGcpMember(text: string): GcpMember | IdentityRefusal {
  const colon = text.indexOf(':');
  const type = colon < 0 ? '' : text.slice(0, colon);
  const email = colon < 0 ? text : text.slice(colon + 1);
  if (colon < 0 && text.includes('@')) {
    return { reason: `has no member type; write "user:${text}" for a Google account or "serviceAccount:${text}" for a service account` };
  }
  if (type === 'group') {
    return {
      reason:
        "is a Google group; GKE's RBAC sees groups only with Google Groups for RBAC (the cluster set up with a gke-security-groups@<domain> group), " +
        'which hoplab does not configure: give each attendee their own "user:" or "serviceAccount:" member',
    };
  }
  if (type !== 'user' && type !== 'serviceAccount') {
    return { reason: `is not one person's identity; use "user:<email>" (a Google account) or "serviceAccount:<name>@<project>.iam.gserviceaccount.com", e.g. "${GCP_IDENTITY_EXAMPLE}"` };
  }
  if (email !== email.toLowerCase()) {
    return { reason: `has capital letters; GKE's RBAC compares user names exactly and Google signs accounts in with the address in lowercase: write "${type}:${email.toLowerCase()}"` };
  }
  if (!EMAIL.test(email)) {
    return { reason: `is not an email address after "${type}:"; e.g. "${GCP_IDENTITY_EXAMPLE}"` };
  }
  if (type === 'serviceAccount' && !email.endsWith('.gserviceaccount.com')) {
    return { reason: 'is not a service account address (they end in .gserviceaccount.com); for a Google account write "user:" instead' };
  }
  return { member: text, kind: type, email };
}

export function isRefusal(value: object): value is IdentityRefusal {
  return 'reason' in value;
}

/** The key two spellings of one identity share (IAM role and user names are case-insensitive). */
export function identityKey(identity: string): string {
  return identity.toLowerCase();
}

/** The EKS access policies hoplab associates, by name (`arn:aws:eks::aws:cluster-access-policy/<name>`). */
export const EKS_ACCESS_POLICIES = {
  view: 'AmazonEKSViewPolicy',
  edit: 'AmazonEKSEditPolicy',
  admin: 'AmazonEKSAdminPolicy',
  clusterAdmin: 'AmazonEKSClusterAdminPolicy',
} as const;

/** An EKS access policy's ARN. */
export function eksAccessPolicyArn(name: string): string {
  return `arn:aws:eks::aws:cluster-access-policy/${name}`;
}

/**
 * The one project-level IAM role an attendee gets on Google Cloud: enough to
 * fetch their cluster's credentials (`container.clusters.get`), nothing inside
 * any cluster. Roles such as `roles/container.viewer`, `developer` or `admin`
 * would grant Kubernetes API rights in every cluster of the project through
 * GKE's IAM authorizer.
 */
export const GKE_ATTENDEE_PROJECT_ROLE = 'roles/container.clusterViewer';

/**
 * Project roles that reach inside every cluster of the project; never granted to an attendee. Preflight
 * judges a role an attendee holds by its permissions ({@link inClusterPermissions}), and these (with every
 * other `roles/container.*` role) by their names only when their definitions cannot be read.
 */
export const GKE_IN_CLUSTER_PROJECT_ROLES = [
  'roles/container.admin',
  'roles/container.clusterAdmin',
  'roles/container.developer',
  'roles/container.viewer',
  'roles/owner',
  'roles/editor',
  'roles/viewer',
] as const;

/**
 * The Kubernetes API permissions among a role's: `container.<resource>.<verb>` for a
 * resource inside the cluster (pods, secrets, roleBindings ...), not GKE's own
 * `container.clusters.*` and `container.operations.*` (what clusterViewer holds is of those).
 */
export function inClusterPermissions(permissions: readonly string[]): string[] {
  return permissions.filter((p) => /^container\.(?!clusters\.|operations\.)\w+\.\w+$/.test(p));
}

/** The Kubernetes group an EKS attendee's access entry maps to, bound to the node-operations ClusterRole. */
export const ATTENDEE_KUBERNETES_GROUP = 'hoplab-attendees';

/**
 * The ServiceAccount of an attendee given without a cloud identity, in their own cluster's app namespace
 * (`hoplab`): bound to what an identity gets there, and the subject of the token `handout` mints for their
 * kubeconfig (TokenRequest, never a Terraform resource: no token is in state).
 */
export const ATTENDEE_SERVICE_ACCOUNT = 'hoplab-attendee';
