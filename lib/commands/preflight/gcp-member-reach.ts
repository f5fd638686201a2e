/**
 * What each attendee with a Google identity holds on the project that reaches
 * inside its GKE clusters beyond roles/container.clusterViewer (GKE authorizes
 * every Kubernetes API request with IAM before RBAC, so such a role opens every
 * cluster of the project, other attendees' included), wherever it is granted:
 * on the project (`projects.getIamPolicy`) or on a folder or the organization
 * above it (`projects.getAncestry`, then `folders.getIamPolicy` and
 * `organizations.getIamPolicy`: a project inherits its ancestors' bindings).
 *
 * A role is judged by its permissions, predefined or custom (`roles.get`,
 * `projects.roles.get`, `organizations.roles.get`): it reaches inside when it
 * holds a Kubernetes API permission ({@link inClusterPermissions}: a
 * `container.<resource>.<verb>` beyond GKE's own `clusters.*` and
 * `operations.*`, which is all clusterViewer holds). A basic role (owner,
 * editor, viewer) or a `roles/container.*` role whose definition cannot be
 * read is judged by its name; any other role that cannot be read is said so.
 *
 * A binding reaches an attendee granted to them, to everyone, to their domain,
 * or to a group they may be in (membership cannot be read: it would need the
 * Cloud Identity Groups API and the group's member list). What could not be
 * read (an ancestor's policy, a role) is said, with the permission it needs.
 * An attendee's Google account cannot be checked before spending either: no
 * API says whether an arbitrary account exists (service accounts of this
 * project are looked up).
 */
import { ApiError, GoogleApiReader } from '../../kit/google/google-api-reader';
import { GOOGLE_CALLS as CALLS, IAM_POLICY_V3 } from '../../lab/checks/google-calls';
import { Finding } from '../../lab/checks/finding';
import { GKE_ATTENDEE_PROJECT_ROLE, GKE_IN_CLUSTER_PROJECT_ROLES, inClusterPermissions } from '../../model/identities';

/** What the attendee check reads of a project's preflight. */
export interface MemberReachInput {
  readonly project: string;
  /** Attendees' Google identities: their environment and IAM member (`user:` or `serviceAccount:`). @default - none */
  readonly attendees?: readonly { readonly env: string; readonly member: string }[];
}

interface Binding {
  readonly role: string;
  readonly members?: readonly string[];
  readonly condition?: { readonly title?: string; readonly expression?: string };
}

/** A resource whose IAM policy applies to the project: the project itself, or a folder or the organization above it. */
interface PolicyHolder {
  readonly kind: 'project' | 'folder' | 'organization';
  readonly id: string;
}

/** A policy the project is subject to, read. */
interface ReadPolicy extends PolicyHolder {
  readonly bindings: readonly Binding[];
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Whether an API error is a 404 (no such resource). */
const notFound = (error: unknown) => error instanceof ApiError && error.status === 404;

/** `folder 123`, `organization 456`, `project my-lab`. */
const named = (holder: PolicyHolder) => `${holder.kind} ${holder.id}`;

/** The permission that reads an ancestor's IAM policy. */
const policyPermission = (holder: PolicyHolder) => `resourcemanager.${holder.kind === 'folder' ? 'folders' : 'organizations'}.getIamPolicy`;

/**
 * The command that removes `member`'s `role` from the policy where it is granted. gcloud's
 * `remove-iam-policy-binding` (projects, resource-manager folders, organizations: the same flags) does not
 * remove a binding from a policy that holds any conditional binding unless told which (it prompts on a
 * terminal and refuses in a script): `--condition=None` for the binding without a condition, `--condition=expression=...,title=...`
 * (matching its description too) for one with, or `--all` for every binding of the member and role
 * (the gcloud reference pages and `googlecloudsdk/command_lib/iam/iam_util.py`, read 2026-12-07). A role
 * is judged here by its permissions whatever the condition, so every binding of the member and role in that
 * policy is flagged alike: where one of them has a condition, `--all` removes exactly those, and no CEL
 * expression (commas, quotes, colons) has to survive gcloud's KEY=VALUE parsing and the shell.
 */
function removeCommand(policy: ReadPolicy, member: string, role: string): string {
  const where = { project: 'gcloud projects', folder: 'gcloud resource-manager folders', organization: 'gcloud organizations' }[policy.kind];
  const conditional = policy.bindings.filter((b) => b.condition);
  const which = conditional.some((b) => b.role === role && (b.members ?? []).includes(member)) ? ' --all' : conditional.length > 0 ? ' --condition=None' : '';
  return `${where} remove-iam-policy-binding ${policy.id} --member=${member} --role=${role}${which}`;
}

/** How a binding's member may stand for an attendee: as them, surely (their domain, everyone), or possibly (a group, a federated set). */
function memberReach(member: string, attendee: string): 'self' | 'sure' | 'maybe' | undefined {
  const lower = member.toLowerCase();
  if (lower === attendee.toLowerCase()) return 'self';
  if (lower === 'allusers' || lower === 'allauthenticatedusers') return 'sure';
  const email = attendee.slice(attendee.indexOf(':') + 1).toLowerCase();
  if (lower.startsWith('domain:')) return email.endsWith(`@${lower.slice('domain:'.length)}`) ? 'sure' : undefined;
  if (lower.startsWith('group:') || lower.startsWith('principalset:')) return 'maybe';
  return undefined;
}

/** Kubernetes API permissions named first when a role is described: a shell, a forwarded port, secrets, new Pods. */
const NOTABLE = ['container.pods.exec', 'container.pods.attach', 'container.pods.portForward', 'container.secrets.get', 'container.secrets.list', 'container.pods.create'];

/** `, with container.pods.exec, container.secrets.get, container.pods.create and 12 more Kubernetes API permissions`. */
function withPermissions(inside: readonly string[]): string {
  const first = [...NOTABLE.filter((p) => inside.includes(p)), ...inside.filter((p) => !NOTABLE.includes(p))];
  return `, with ${first.slice(0, 3).join(', ')}${first.length > 3 ? ` and ${first.length - 3} more Kubernetes API permissions` : ''}`;
}

/** How a role stands: it reaches inside clusters (and why), it does not, or its permissions could not be read. */
type RoleReach = { readonly inside: true; readonly why: string } | { readonly inside: false } | { readonly unread: string };

/** Judges roles by their permissions, reading each role once. */
class RoleJudge {
  private readonly judged = new Map<string, Promise<RoleReach>>();

  constructor(private readonly reader: GoogleApiReader) {}

  judge(role: string): Promise<RoleReach> {
    let reach = this.judged.get(role);
    if (!reach) {
      reach = this.read(role);
      this.judged.set(role, reach);
    }
    return reach;
  }

  private async read(role: string): Promise<RoleReach> {
    let permissions: string[];
    try {
      permissions = await this.permissions(role);
    } catch (error) {
      // The basic roles and GKE's own hold Kubernetes API permissions (the few of GKE's that do not are its service agents').
      if ((GKE_IN_CLUSTER_PROJECT_ROLES as readonly string[]).includes(role) || role.startsWith('roles/container.')) return { inside: true, why: '' };
      return { unread: message(error) };
    }
    const inside = inClusterPermissions(permissions);
    return inside.length > 0 ? { inside: true, why: withPermissions(inside) } : { inside: false };
  }

  private async permissions(role: string): Promise<string[]> {
    const project = /^projects\/([^/]+)\/roles\/([^/]+)$/.exec(role);
    const organization = /^organizations\/([^/]+)\/roles\/([^/]+)$/.exec(role);
    const predefined = /^roles\/([^/]+)$/.exec(role);
    const answer = project
      ? await this.reader.call(CALLS.projectRolesGet, { project: project[1], role: project[2] })
      : organization
      ? await this.reader.call(CALLS.organizationRolesGet, { organization: organization[1], role: organization[2] })
      : predefined
      ? await this.reader.call(CALLS.predefinedRolesGet, { role: predefined[1] })
      : undefined;
    if (!answer) throw new Error(`${role} is not a role name IAM reads`);
    return (answer.includedPermissions as string[] | undefined) ?? [];
  }
}

/**
 * The project's ancestors, bottom up (`projects.getAncestry`: the project, then its folders, then its
 * organization), and their IAM policies; what could not be read is said in `unread`.
 */
async function ancestorPolicies(reader: GoogleApiReader, project: string): Promise<{ policies: ReadPolicy[]; unread?: Finding; ancestors?: PolicyHolder[] }> {
  let ancestors: PolicyHolder[];
  try {
    const answer = await reader.call(CALLS.projectAncestry, { project }, { body: {} });
    const listed = (answer.ancestor as { resourceId?: { type?: string; id?: string } }[] | undefined) ?? [];
    ancestors = listed.map((a) => ({ kind: a.resourceId?.type, id: a.resourceId?.id ?? '' })).filter((a): a is PolicyHolder => (a.kind === 'folder' || a.kind === 'organization') && a.id !== '');
  } catch (error) {
    return {
      policies: [],
      unread: {
        check: 'gcp attendees',
        verdict: 'warn',
        detail: `could not read where ${project} sits (projects.getAncestry), so roles attendees inherit from its folders and organization were not checked: ${message(error)}`,
        fix: `grant the deployer resourcemanager.projects.get on ${project} (roles/browser has it), or check the folders' and organization's IAM policies yourself`,
      },
    };
  }
  const policies: ReadPolicy[] = [];
  const failed: { holder: PolicyHolder; why: string }[] = [];
  for (const holder of ancestors) {
    try {
      const answer =
        holder.kind === 'folder'
          ? await reader.call(CALLS.folderGetIamPolicy, { folder: holder.id }, IAM_POLICY_V3)
          : await reader.call(CALLS.organizationGetIamPolicy, { organization: holder.id }, IAM_POLICY_V3);
      policies.push({ ...holder, bindings: (answer.bindings as Binding[] | undefined) ?? [] });
    } catch (error) {
      failed.push({ holder, why: message(error) });
    }
  }
  if (failed.length === 0) return { policies, ancestors };
  const each = failed.map((f) => `${named(f.holder)} (needs ${policyPermission(f.holder)})`);
  const looks = failed.map((f) => `gcloud ${f.holder.kind === 'folder' ? 'resource-manager folders' : 'organizations'} get-iam-policy ${f.holder.id}`);
  return {
    policies,
    ancestors,
    unread: {
      check: 'gcp attendees',
      verdict: 'warn',
      detail: `could not read the IAM polic${failed.length === 1 ? 'y' : 'ies'} of ${each.join(' and ')}, so roles attendees inherit from there were not checked: ${failed[0].why}`,
      fix: `grant the deployer ${[...new Set(failed.map((f) => policyPermission(f.holder)))].join(
        ' and ',
      )} there (roles/iam.securityReviewer granted on the organization holds both getIamPolicy permissions), or look yourself: ${looks.join('; ')}`,
    },
  };
}

/** What the pass says was read: the project's policy, and its ancestors' or why not. */
function readWords(project: string, policies: readonly ReadPolicy[], ancestors: readonly PolicyHolder[] | undefined): string {
  if (!ancestors) return `the IAM policy of ${project}; its folders' and organization's could not be read`;
  if (ancestors.length === 0) return `the IAM policy of ${project}, which has no folder or organization above it`;
  const read = policies.filter((p) => p.kind !== 'project').map(named);
  const missed = ancestors.filter((a) => !policies.some((p) => p.kind === a.kind && p.id === a.id)).map(named);
  return `the IAM policies of ${[project, ...read].join(', ')}${missed.length > 0 ? `; not ${missed.join(' or ')}, which could not be read` : ''}`;
}

/**
 * For every attendee with a Google identity: what they hold on the project, or inherit from
 * above it, that reaches inside clusters; and whether their service accounts exist.
 */
export async function attendeeReachFindings(reader: GoogleApiReader, input: MemberReachInput): Promise<Finding[]> {
  const attendees = input.attendees ?? [];
  if (attendees.length === 0) return [];
  const project: PolicyHolder = { kind: 'project', id: input.project };
  let own: ReadPolicy;
  try {
    const answer = await reader.call(CALLS.getIamPolicy, { project: input.project }, IAM_POLICY_V3);
    own = { ...project, bindings: (answer.bindings as Binding[] | undefined) ?? [] };
  } catch (error) {
    return [
      {
        check: 'gcp attendees',
        verdict: 'warn',
        detail: `could not read the IAM policy of ${input.project}, so no attendee's roles were checked: ${message(error)}`,
        fix: 'grant the deployer resourcemanager.projects.getIamPolicy (roles/resourcemanager.projectIamAdmin has it)',
      },
    ];
  }
  const above = await ancestorPolicies(reader, input.project);
  const policies = [own, ...above.policies];
  const roles = new RoleJudge(reader);
  const conditional = (b: Binding) => (b.condition ? ` (when ${b.condition.title ?? b.condition.expression ?? 'a condition holds'})` : '');
  const inherited = (p: ReadPolicy) => (p.kind === 'project' ? '' : ` (inherited from ${named(p)})`);
  const findings: Finding[] = above.unread ? [above.unread] : [];
  for (const { env, member } of attendees) {
    const check = `gcp attendee ${env}`;
    const sure: string[] = [];
    const maybe: string[] = [];
    const unread: string[] = [];
    const fixes: string[] = [];
    let maybeInherited = false;
    for (const policy of policies) {
      for (const binding of policy.bindings) {
        if (binding.role === GKE_ATTENDEE_PROJECT_ROLE) continue;
        for (const through of binding.members ?? []) {
          const how = memberReach(through, member);
          if (!how) continue;
          const reach = await roles.judge(binding.role);
          if ('unread' in reach) {
            unread.push(`${binding.role} (granted to ${through}${policy.kind === 'project' ? '' : ` on ${named(policy)}`})`);
            continue;
          }
          if (!reach.inside) continue;
          const line = `${binding.role}${reach.why}${how === 'self' ? '' : ` through ${through}`}${conditional(binding)}${inherited(policy)}`;
          if (how === 'maybe') {
            maybe.push(line);
            if (policy.kind !== 'project') maybeInherited = true;
          } else {
            sure.push(line);
            fixes.push(removeCommand(policy, through, binding.role));
          }
        }
      }
    }
    if (sure.length > 0) {
      findings.push({
        check,
        verdict: 'warn',
        detail:
          `${member} holds ${sure.join('; ')} on ${input.project}: beyond ${GKE_ATTENDEE_PROJECT_ROLE}, that reaches inside every GKE cluster of the project ` +
          "(GKE authorizes Kubernetes API requests with IAM before RBAC), other attendees' included",
        fix: `${[...new Set(fixes)].join(' && ')} (or give each attendee a project of their own)`,
      });
    }
    if (maybe.length > 0) {
      findings.push({
        check,
        verdict: 'warn',
        detail:
          `${maybe.join('; ')}: ${member} may be a member, which cannot be checked here (group membership needs the Cloud Identity Groups API and the group's members); ` +
          "if so, they reach inside every GKE cluster of the project, other attendees' included",
        fix: `make sure no attendee is in these groups, or remove those bindings from ${maybeInherited ? 'where they are granted' : 'the project'}`,
      });
    }
    if (unread.length > 0) {
      findings.push({
        check,
        verdict: 'warn',
        detail: `could not read the role${unread.length === 1 ? '' : 's'} ${unread.join(', ')}, which ${member} may hold: whether ${
          unread.length === 1 ? 'it reaches' : 'they reach'
        } inside clusters is not known`,
        fix: 'grant the deployer iam.roles.get (roles/iam.roleViewer) where the custom role is defined, or look for container.* permissions in the role yourself (gcloud iam roles describe)',
      });
    }
    if (sure.length + maybe.length + unread.length === 0) {
      findings.push({
        check,
        verdict: 'pass',
        detail: `${member} holds nothing on ${input.project} that reaches inside clusters beyond ${GKE_ATTENDEE_PROJECT_ROLE} (${readWords(input.project, above.policies, above.ancestors)})`,
      });
    }
  }
  findings.push(...(await accountFindings(reader, input.project, attendees)));
  return findings;
}

/** Service accounts of this project can be looked up; a Google account cannot. */
async function accountFindings(reader: GoogleApiReader, project: string, attendees: readonly { readonly env: string; readonly member: string }[]): Promise<Finding[]> {
  const findings: Finding[] = [];
  const ownAccounts = attendees.filter((a) => a.member.startsWith('serviceAccount:') && a.member.endsWith(`@${project}.iam.gserviceaccount.com`));
  const missing: string[] = [];
  for (const { env, member } of ownAccounts) {
    try {
      await reader.call(CALLS.serviceAccountsGet, { project, email: member.slice('serviceAccount:'.length) });
    } catch (error) {
      if (notFound(error)) missing.push(`${env}: ${member}`);
    }
  }
  if (missing.length > 0) {
    findings.push({
      check: 'gcp attendee accounts',
      verdict: 'fail',
      detail: `no such service account in ${project}: ${missing.join(', ')}; granting it a role fails the cluster stack's apply`,
      fix: 'create the service account first, or correct the attendee\'s "gcp" member',
    });
  }
  const unchecked = attendees.length - ownAccounts.length;
  if (unchecked > 0) {
    findings.push({
      check: 'gcp attendee accounts',
      verdict: 'skip',
      detail:
        `whether ${unchecked} attendee account${
          unchecked === 1 ? ' exists' : 's exist'
        } is not checked: no Google API says whether an arbitrary Google account (or another project's service account) exists. ` +
        "The apply that grants the role fails for one that does not, and so does one outside the customer IDs of a domain-restricted-sharing organization policy (constraints/iam.allowedPolicyMemberDomains), if the project's organization has one",
    });
  }
  return findings;
}
