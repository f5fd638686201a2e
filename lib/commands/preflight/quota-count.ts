/**
 * One quota of one slot (or project) against its limit, for the AWS and the
 * GCP checks alike: what is in use now, plus what the selected environments
 * still take. An environment already deployed (its cluster state says where)
 * holds its part in what is in use, so counting its need again would refuse
 * a deploy run again after a failure, or after attendees were added, in a
 * slot that had just enough room. Its part is therefore not counted again,
 * and the verdict says so: `5 in use (the 4 environments deployed here among
 * them, their state says) + 1 for the rest of this lab = 6 of 5`. Only what
 * their cluster stacks make counts so (preflight.ts): whether their load
 * balancers exist is not read, so those are counted again. (One that failed part-way may hold less than its
 * part: what it still creates is then not counted, and the cloud's own quota
 * error names it, as on the deploy that failed.)
 */
import { Verdict } from '../../lab/checks/finding';

/** What the selected environments of a slot take of one quota. */
export interface QuotaNeedCount {
  /** Every selected environment's need, deployed or not. */
  readonly need: number;
  /** Of `need`, the part of the environments already deployed (their state), which is in use already. @default 0 */
  readonly deployedNeed?: number;
  /** How many of the selected environments are deployed. @default 0 */
  readonly deployedEnvs?: number;
}

/** The verdict of one quota, its words after the quota's name, and what the lab still needs (a request asks `used + still`). */
export interface QuotaCountVerdict {
  readonly verdict: Extract<Verdict, 'pass' | 'fail'>;
  /** `2 in use + 4 for this lab = 6 of 10`, and with deployed environments that they are among those in use. */
  readonly text: string;
  /** The need of the environments not yet deployed. */
  readonly still: number;
}

/**
 * What the lab still needs on top of what is in use, in words without a limit:
 * `2 in use + 4 for this lab = 6`, or with deployed environments that they are among those in use.
 */
export function inUsePlusNeed(used: number, count: QuotaNeedCount, forLab = 'for this lab'): { readonly text: string; readonly still: number } {
  const deployedEnvs = count.deployedEnvs ?? 0;
  // Never more than is in use: what the deployed environments hold is part of it.
  const deployedNeed = deployedEnvs === 0 ? 0 : Math.min(count.deployedNeed ?? 0, count.need, used);
  const still = count.need - deployedNeed;
  if (deployedNeed === 0) return { text: `${used} in use + ${still} ${forLab} = ${used + still}`, still };
  const envs = deployedEnvs === 1 ? 'the environment' : `the ${deployedEnvs} environments`;
  return { text: `${used} in use (${envs} deployed here among them, their state says) + ${still} for the rest of this lab = ${used + still}`, still };
}

/**
 * `used + still > limit` fails (a need exactly at the limit fits); `forLab` words the need
 * (`for this lab`, `for this lab (3 node VMs)`).
 */
export function countQuota(used: number, count: QuotaNeedCount, limit: number, forLab = 'for this lab'): QuotaCountVerdict {
  const { text, still } = inUsePlusNeed(used, count, forLab);
  return { verdict: used + still > limit ? 'fail' : 'pass', text: `${text} of ${limit}`, still };
}
