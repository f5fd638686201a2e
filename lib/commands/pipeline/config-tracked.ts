/**
 * Whether the config a pipeline's jobs will read is committed: the jobs check
 * out the repository and look for `hoplab.config.{json,yaml,yml}` at its
 * root, so a config that is not tracked by git (or lies elsewhere) leaves
 * them running with the defaults, refused for reasons that never name it.
 */
import { realpathSync } from 'node:fs';
import { basename, dirname, relative, sep } from 'node:path';
import { CONFIG_FILE_NAMES } from '../../config/load';
import { runTool, ToolRunner } from '../../lab/checks/host-checks';

/** What git says of the config file: one refusal, or none with notes. */
export interface TrackedCheck {
  /** Why the pipelines must not be written, or undefined when the file is committed. */
  readonly problem?: string;
  /** What the host should know though nothing is refused (uncommitted changes). */
  readonly notes: readonly string[];
}

const PRIVATE = 'keep the repository private: the config names your attendees and their cloud identities';

/** Checks `file` (the config that was read) with git, run as `run` runs it. */
export function checkConfigTracked(file: string, run: ToolRunner = runTool): TrackedCheck {
  const dir = dirname(file);
  const name = basename(file);
  const top = run('git', ['-C', dir, 'rev-parse', '--show-toplevel']);
  if (!top.ok) {
    if (top.output === 'not found on the PATH') return { problem: `git is not on the PATH, so whether ${name} is committed cannot be checked; install git and commit ${name}`, notes: [] };
    if (/not a git repository/i.test(top.output)) {
      return {
        problem: `${dir} is not in a git repository: the pipelines' jobs check out a repository and read ${name} from it; git init, then commit ${name} (${PRIVATE})`,
        notes: [],
      };
    }
    return { problem: `git could not say whether ${name} is committed: ${top.output.split('\n')[0]}`, notes: [] };
  }
  const root = realpathSync(top.output.trim());
  const path = relative(root, realpathSync(file)).split(sep).join('/');
  const tracked = run('git', ['-C', root, 'ls-files', '--error-unmatch', '--', path]);
  if (!tracked.ok) {
    const ignored = run('git', ['-C', root, 'check-ignore', '--verbose', '--', path]);
    const rule = ignored.ok ? /^(.+?:\d+):/.exec(ignored.output)?.[1] : undefined;
    return {
      problem:
        `${path} is not tracked by git: the pipelines' jobs check out the repository and would run without it, with the defaults. ` +
        `${rule ? `Remove the rule at ${rule} that ignores it, then commit` : 'Commit'} it: git add ${path} && git commit (${PRIVATE})`,
      notes: [],
    };
  }
  if (!(CONFIG_FILE_NAMES as readonly string[]).includes(path)) {
    return {
      problem: `${path} is committed, but the pipelines' jobs look for ${CONFIG_FILE_NAMES.join(', ')} at the repository's root (${root}) and would run with the defaults; move it there`,
      notes: [],
    };
  }
  const committed = run('git', ['-C', root, 'diff', '--quiet', 'HEAD', '--', path]);
  return { notes: committed.ok ? [] : [`note: ${path} has changes that are not committed; the jobs run the committed version: commit and push them`] };
}
