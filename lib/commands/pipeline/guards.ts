/**
 * The checks the generated jobs run against the committed config before
 * anything else (`npx hoplab pipeline --confirm-workshop NAME`,
 * `--check-expiry TIME`, `--check-canary NAME`): each returns the line it
 * prints when the check passes and throws, naming the config file it read,
 * when it does not.
 */
import { relative } from 'node:path';
import { LabConfig } from '../../config/schema';
import { chooseCanary } from '../../lab/selection/canary';
import { selectEnvironments } from '../../lab/selection/selection';
import { CONFIRM_VARIABLE } from './jobs';

/** What a deploy job refused by a guard says to do: the pipelines are older than the config. */
const REGENERATE = 'regenerate them with the npx hoplab pipeline command their first lines name, and commit them; nothing was deployed';

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
    throw new Error(`workshop.expiresAt is ${actual === undefined ? 'unset' : `"${actual}"`} (${from}), but the reaper's schedule in these pipelines was written for ${expected}: ${REGENERATE}`);
  }
  return `workshop.expiresAt ${actual} is the date the reaper's schedule was written for (${from})`;
}

/**
 * The canary job's guard: the pipelines deploy `expected` first, the
 * environment deploy chose as its canary when they were written. Once the
 * head of the attendee list has changed (the first one removed, or another
 * put before it), the job would deploy first an environment deploy would not
 * choose, or one the config no longer has.
 */
export function checkCanary(config: LabConfig, source: string, expected: string, cwd?: string): string {
  const envs = selectEnvironments(config);
  // A config down to one environment: that one is its own canary.
  const first = chooseCanary(envs, { noCanary: false }).env ?? envs[0];
  const from = configSourceText(source, cwd);
  if (first !== expected) {
    throw new Error(`these pipelines deploy ${expected} first, as the canary, but deploy would now choose ${first}, the config's first environment (${from}): ${REGENERATE}`);
  }
  return `the canary ${expected} is the environment deploy applies first (${from})`;
}
