/**
 * Terraform's own recovery file, kept from the next synth. When Terraform
 * cannot write a stack's state to its backend after changing resources (the
 * bucket unreachable, credentials expired mid-apply), it writes the state to
 * `errored.tfstate` in its working directory, the stack's folder under
 * `cdktf.out/stacks`, and says to push it with `terraform state push
 * errored.tfstate`; applying again before that forks the state. A synth
 * replaces those folders, so it would delete the file, and with it the only
 * record of what that run created: synth refuses while one is there.
 */
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/** Terraform's name for the state it could not write to the backend. */
export const ERRORED_STATE_FILE = 'errored.tfstate';

/** The `errored.tfstate` files in the stack folders of `outdir`. */
export function erroredStateFiles(outdir: string): string[] {
  const stacks = join(outdir, 'stacks');
  if (!existsSync(stacks)) return [];
  return readdirSync(stacks, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(stacks, entry.name, ERRORED_STATE_FILE)))
    .map((entry) => join(stacks, entry.name, ERRORED_STATE_FILE))
    .sort();
}

/** Throws, naming each file and what to do, when a stack folder of `outdir` holds an `errored.tfstate`. */
export function refuseErroredState(outdir: string, cwd: string = process.cwd()): void {
  const files = erroredStateFiles(outdir);
  if (files.length === 0) return;
  // Relative to the project directory (cdktf.out/stacks/<stack>) when under it.
  const dirs = files.map((f) => dirname(f)).map((d) => (relative(cwd, d).startsWith('..') ? d : relative(cwd, d)));
  throw new Error(
    `${files.length === 1 ? 'a stack folder holds' : `${files.length} stack folders hold`} ${ERRORED_STATE_FILE}, the state Terraform could not write to its backend ` +
      `(${dirs.join(', ')}); synthesizing would delete it, and with it the only record of what that run created. ` +
      `In each: terraform state push ${ERRORED_STATE_FILE}, then move the file out of cdktf.out (keep it until a deploy shows no changes), and run the command again`,
  );
}
