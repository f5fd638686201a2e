/**
 * The checks the generated jobs run against the committed config before
 * anything else (`npx hoplab pipeline --confirm-workshop NAME`,
 * `--check-expiry TIME`): each returns the line it prints when the check
 * passes and throws, naming the config file it read, when it does not.
 */
import { relative } from 'node:path';
import { LabConfig } from '../../config/schema';
import { CONFIRM_VARIABLE } from './jobs';

/** The config file as a job's log names it: relative to the working directory, or that there was none. */
function configSourceText(source: string, cwd = process.cwd()): string {
  return source === 'defaults' ? 'no hoplab.config.json, .yaml or .yml found: the defaults' : relative(cwd, source) || source;
}

/**
 * The teardown's guard: `given` (what the host typed: GitHub's required
 * input, GitLab's variable) must be the config's `workshop.name`, so that no
 * teardown starts with one click or against another workshop's config.
 */
export function confirmWorkshop(config: LabConfig, source: string, given: string | undefined, cwd?: string): string {
  const name = config.workshop.name;
  const from = configSourceText(source, cwd);
  if (given !== name) {
    const named = given === undefined || given === '' ? `names no workshop (${CONFIRM_VARIABLE} is empty)` : `names "${given}"`;
    throw new Error(
      `teardown not confirmed: it ${named}, but workshop.name is "${name}" (${from}); nothing was torn down. ` +
        "Run it again typing the workshop's name (GitHub: the workflow's input; GitLab: the variable " +
        `${CONFIRM_VARIABLE} in Run pipeline)`,
    );
  }
  return `teardown confirmed: "${given}" is workshop.name (${from})`;
}

/**
 * The deploy's guard: the reaper's schedule was written for `expected`; a
 * config whose `workshop.expiresAt` has moved since would be reaped at the
 * wrong time, or (outside the schedule's days) never.
 */
export function checkExpiry(config: LabConfig, source: string, expected: string, cwd?: string): string {
  const actual = config.workshop.expiresAt;
  const from = configSourceText(source, cwd);
  if (actual === undefined || new Date(actual).getTime() !== new Date(expected).getTime()) {
    throw new Error(
      `workshop.expiresAt is ${actual === undefined ? 'unset' : `"${actual}"`} (${from}), but the reaper's schedule in these pipelines was written for ${expected}: ` +
        'regenerate them with the npx hoplab pipeline command their first lines name, and commit them; nothing was deployed',
    );
  }
  return `workshop.expiresAt ${actual} is the date the reaper's schedule was written for (${from})`;
}
