/**
 * The branch the generated workflows run on: the OIDC subjects the cloud
 * roles must trust name it (`...:ref:refs/heads/BRANCH`), and so does a
 * GitLab pipeline schedule's target branch. `--branch NAME`, else the
 * repository's default branch as git knows it (`origin/HEAD`), else the
 * current branch, else `main`, said as assumed.
 */
import { ToolRunner } from '../../lab/checks/host-checks';

/** The branch, and where its name came from. */
export interface WorkflowBranch {
  readonly name: string;
  /** Where the name came from, as the printed trust says it. */
  readonly from: string;
  /**
   * Whether it is the repository's default branch as git knows it
   * (`refs/remotes/origin/HEAD`): GitHub runs scheduled workflows only there.
   * Undefined when git does not know the default branch.
   */
  readonly isDefault?: boolean;
}

/** What `--branch` takes: a branch's short name that the trust's quoted strings can hold. */
const BRANCH_NAME = /^(?!-)(?!refs\/)(?!.*\.\.)(?!.*\/\/)[A-Za-z0-9._/+-]+(?<![./])(?<!\.lock)$/;

/** Checks `--branch`'s value (the flag's parse). */
export function parseBranch(text: string): string {
  if (!BRANCH_NAME.test(text)) {
    throw new Error(`"${text}" is not a branch name hoplab takes: its short name (main, not refs/heads/main), of letters, digits and . _ / + -`);
  }
  return text;
}

/** The default branch `git -C dir` knows for origin, e.g. `main` from `origin/main`; undefined when it knows none. */
function originDefault(dir: string, run: ToolRunner): string | undefined {
  const head = run('git', ['-C', dir, 'symbolic-ref', '--short', 'refs/remotes/origin/HEAD']);
  const name = head.ok ? head.output.trim().replace(/^origin\//, '') : '';
  return BRANCH_NAME.test(name) ? name : undefined;
}

/** The branch of the repository at `dir`: `given` (--branch), else origin's default branch, else the current one, else `main`. */
export function workflowBranch(dir: string, given: string | undefined, run: ToolRunner): WorkflowBranch {
  const known = originDefault(dir, run);
  if (given !== undefined) return { name: given, from: 'as given with --branch', isDefault: known === undefined ? undefined : known === given };
  if (known !== undefined) return { name: known, from: "origin's default branch as git knows it (refs/remotes/origin/HEAD)", isDefault: true };
  const current = run('git', ['-C', dir, 'branch', '--show-current']);
  // Detached (no branch checked out): git prints nothing.
  const name = current.ok ? current.output.trim() : '';
  const unknown = 'git knows no default branch for origin (git remote set-head origin --auto asks the remote)';
  if (BRANCH_NAME.test(name)) return { name, from: `the current one: ${unknown}; --branch names another` };
  return { name: 'main', from: `assumed: ${unknown}, and no branch is checked out; --branch names the right one` };
}
