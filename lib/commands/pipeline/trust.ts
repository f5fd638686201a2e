/**
 * The OIDC subjects the generated jobs present, and the trust conditions the
 * cloud roles need to admit them: a job whose token the role does not admit
 * gets no credentials.
 *
 * GitHub: the subject of a job that names an environment is
 * `repo:OWNER/REPO:environment:NAME`, with no branch; of any other job that a
 * branch ran (workflow_dispatch, schedule) `repo:OWNER/REPO:ref:refs/heads/BRANCH`
 * (GitHub's OpenID Connect reference, "Example subject claims",
 * https://docs.github.com/en/actions/reference/security/oidc, read 2026-12-07).
 * So the guarded teardown jobs (`environment: hoplab-teardown`) need a subject
 * of their own beside the branch's (branch.ts: which branch).
 *
 * GitLab: `sub` is `project_path:GROUP/PROJECT:ref_type:branch:ref:BRANCH` for
 * every job; a job's environment is a claim apart (`environment`,
 * `environment_protected`), not part of `sub` (GitLab's "OpenID Connect (OIDC)
 * Authentication Using ID Tokens", token payload,
 * https://docs.gitlab.com/ci/secrets/id_token_authentication/, read 2026-12-07).
 * So one subject admits every job, the guarded ones included.
 */

import { wrapWords } from '../../kit/text/wrap';
import { WorkflowBranch } from './branch';

/** The environment the teardown jobs name; the docs tell hosts to protect it. */
export const TEARDOWN_ENVIRONMENT = 'hoplab-teardown';

/** The branch the docs' placeholders name. */
const PLACEHOLDER_BRANCH: WorkflowBranch = { name: 'main', from: "the docs' example" };

export type CiKind = 'github' | 'gitlab';

/** What the cloud roles must admit for one CI. */
export interface TrustConditions {
  readonly ci: CiKind;
  /** The repository (`owner/repo`) or project (`group/project`) the subjects name, or placeholders. */
  readonly repository: string;
  /** The token issuer's host: the prefix of AWS's condition keys (`<issuer>:sub`). */
  readonly issuer: string;
  /** The branch the jobs run on, which the subjects name. */
  readonly branch: WorkflowBranch;
  /** Every subject a generated job presents, each with the jobs that present it. */
  readonly subjects: readonly { readonly subject: string; readonly jobs: string }[];
  /** The Google Workload Identity provider's attribute condition (CEL) that admits exactly these subjects. */
  readonly gcpCondition: string;
}

const GITHUB_ISSUER = 'token.actions.githubusercontent.com';

/** GitHub's subjects for `repo` (`owner/name`; placeholders when unknown) whose jobs run on `branch`. */
export function githubTrust(repo = '<owner>/<repo>', branch = PLACEHOLDER_BRANCH): TrustConditions {
  const subjects = [
    { subject: `repo:${repo}:ref:refs/heads/${branch.name}`, jobs: 'canary, deploy, gather, leftover check, reaper' },
    { subject: `repo:${repo}:environment:${TEARDOWN_ENVIRONMENT}`, jobs: 'teardown shards' },
  ];
  return { ci: 'github', repository: repo, issuer: GITHUB_ISSUER, branch, subjects, gcpCondition: anyOf(subjects.map((s) => s.subject)) };
}

/** GitLab's subject for `project` (`group/project`; placeholders when unknown) on `issuer` (gitlab.com or your instance's host), its jobs run on `branch`. */
export function gitlabTrust(project = '<group>/<project>', issuer = 'gitlab.com', branch = PLACEHOLDER_BRANCH): TrustConditions {
  const subjects = [{ subject: `project_path:${project}:ref_type:branch:ref:${branch.name}`, jobs: `every job, teardown (environment ${TEARDOWN_ENVIRONMENT}) and the scheduled reaper included` }];
  return { ci: 'gitlab', repository: project, issuer, branch, subjects, gcpCondition: anyOf(subjects.map((s) => s.subject)) };
}

const anyOf = (subjects: readonly string[]) => subjects.map((s) => `assertion.sub == '${s}'`).join(' || ');

/** What `pipeline` prints, 80 columns wide: the subjects for AWS, and Google's condition split at each `||` (one expression; CEL ignores the line breaks). */
export function trustLines(trust: TrustConditions): string[] {
  const prose = (text: string, indent: string) => wrapWords(text, 80 - indent.length, 'punctuation').map((line) => `${indent}${line}`);
  const ci = trust.ci === 'github' ? 'GitHub Actions' : 'GitLab CI';
  const { branch } = trust;
  return [
    ...prose(`${ci}: the cloud roles must trust these OIDC subjects, or the jobs get no credentials (docs/workshops-and-ci.md, "OIDC subjects"):`, ''),
    ...prose(`The jobs run on the branch ${branch.name}, ${branch.from}.`, '  '),
    ...(trust.ci === 'github' && branch.isDefault !== true ? prose(scheduleNote(branch), '  ') : []),
    ...prose(`AWS, the role's trust policy: ${trust.issuer}:sub (StringEquals) is one of`, '  '),
    ...trust.subjects.map((s) => `    ${s.subject}`),
    ...prose("Google, the Workload Identity provider's attribute condition:", '  '),
    ...trust.gcpCondition.split(' || ').map((part, i, all) => `    ${part}${i < all.length - 1 ? ' ||' : ''}`),
    ...(trust.ci === 'github' ? [...prose(IMMUTABLE_NOTE, '  '), `    gh api repos/${trust.repository} --jq '.owner.id, .id'`] : []),
  ];
}

/**
 * GitHub runs a `schedule` workflow only on the default branch: "Scheduled
 * workflows will only run on the default branch." (events that trigger
 * workflows, `schedule`,
 * https://docs.github.com/en/actions/reference/workflows-and-actions/events-that-trigger-workflows#schedule,
 * read 2026-12-07). The reaper's job then presents that branch's subject.
 */
function scheduleNote(branch: WorkflowBranch): string {
  const which = branch.isDefault === false ? `not ${branch.name}` : `git does not know whether it is ${branch.name}`;
  return `GitHub runs the reaper's schedule only on the default branch (${which}), with that branch's subject: give --branch its name or admit its subject too, or the reaper gets no credentials.`;
}

/**
 * GitHub repositories created after 2026-07-15 (or opted in) have subjects
 * with the owner's and repository's ids: `repo:OWNER@OWNER_ID/REPO@REPO_ID:...`
 * (GitHub's OpenID Connect reference, "Immutable subject claims", read 2026-12-07).
 */
const IMMUTABLE_NOTE = 'A repository created after 2026-07-15 puts ids in them (repo:OWNER@OWNER_ID/REPO@REPO_ID:...); this prints the ids:';

/** The host and path (`owner/repo`, `group/sub/project`) of a git remote's URL (https, ssh, or scp-like `git@host:path`). */
export function repositoryOf(url: string): { readonly host: string; readonly path: string } | undefined {
  const text = url.trim();
  let host: string;
  let path: string;
  if (text.includes('://')) {
    if (!URL.canParse(text)) return undefined;
    const parsed = new URL(text);
    host = parsed.hostname;
    path = decodeURIComponent(parsed.pathname);
  } else {
    const scp = /^(?:[^@/]+@)?([^:/]+):(.+)$/.exec(text);
    if (!scp) return undefined;
    [, host, path] = scp;
  }
  const clean = path.replace(/^\/+|\/+$/g, '').replace(/\.git$/, '');
  return host && /^[^/\s]+(\/[^/\s]+)+$/.test(clean) ? { host, path: clean } : undefined;
}
