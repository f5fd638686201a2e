/**
 * Deploy's canary: with more than one environment, deploy applies one of them
 * end to end (both clouds, cluster and lb stacks), verifies it as `verify`
 * does, and only then the others. A mistake every environment shares (a
 * permission, a quota, a controller that never makes its load balancer) then
 * stands in one lab, not in thirty: deploy stops there with the verify report
 * and what the canary costs per hour while it stands. Which environment, and
 * when there is none: chooseCanary (lib/lab/selection/canary.ts), which the
 * pipelines' canary job takes too.
 */
import { plural } from '../../kit/terminal/terminal';
import type { VerifyReport } from '../verify/verify';
import { renderVerify } from '../verify/verify-cli';
import type { LifecycleResult } from './lifecycle';

export interface CanaryRun {
  readonly env: string;
  readonly others: readonly string[];
  /** Applies the stacks of these environments (runLifecycle). */
  readonly apply: (envs: readonly string[]) => Promise<LifecycleResult>;
  /** Verifies one environment as `npx hoplab verify --env <env>` does (same stacks). */
  readonly verify: (env: string) => Promise<VerifyReport>;
  /** What one environment costs per hour while it stands, e.g. `$0.62/h (AWS $0.41/h + GCP $0.21/h)`. */
  readonly costPerHour: string;
  /** Ordinary lines (stdout). */
  readonly write: (line: string) => void;
  /** The verdict lines of a stop (stderr). */
  readonly error: (line: string) => void;
  /** Ctrl-C: stop after the canary's apply or verify, before the others. */
  readonly signal?: AbortSignal;
}

/**
 * Applies the canary and verifies it. Resolves with undefined when the others may go ahead (verify
 * PASSED, or INCOMPLETE with something checked and nothing failed, said), else with the exit code deploy stops with,
 * having said why, what the canary costs while it stands and what to do.
 */
export async function runCanary(run: CanaryRun): Promise<number | undefined> {
  const { env, others } = run;
  const named = others.length <= 5 ? others.join(', ') : `${others.slice(0, 4).join(', ')} and ${others.length - 4} more`;
  const one = others.length === 1;
  const waiting = `the other ${one ? 'environment' : plural(others.length, 'environment')} (${named})`;
  run.write(`canary: ${env} first, end to end, then verify; ${waiting} ${one ? 'waits' : 'wait'} for it`);
  const stop = (why: string, costs: string) => {
    run.error(`hoplab deploy: stopped after the canary: ${why}; ${waiting} ${one ? 'was' : 'were'} not started.`);
    run.error(`  ${env} stands and ${costs} while it does: fix the cause and deploy again (what applied shows no changes, the rest continue), or remove it: npx hoplab teardown --env ${env}`);
  };
  const applied = await run.apply([env]);
  if (!applied.ok) {
    stop(`not every stack of ${env} applied (see above and .hoplab/logs)`, `costs up to ${run.costPerHour} (all its stacks)`);
    return run.signal?.aborted ? 130 : 1;
  }
  if (run.signal?.aborted) {
    stop(`interrupted before verify of ${env}`, `costs about ${run.costPerHour}`);
    return 130;
  }
  run.write(`canary: ${env} applied; verify ${env} before the others`);
  const report = await run.verify(env);
  const where = `report: ${report.files.markdown}`;
  if (run.signal?.aborted) {
    stop(`interrupted during verify of ${env} (${where})`, `costs about ${run.costPerHour}`);
    return 130;
  }
  if (report.verdict === 'failed') {
    for (const line of renderVerify(report, 'table').trimEnd().split('\n')) run.write(line);
    stop(`verify of ${env} FAILED (${where})`, `costs about ${run.costPerHour}`);
    return 1;
  }
  // INCOMPLETE with nothing run (no credentials for verify, say) checked nothing: not a canary that passed.
  if (report.verdict === 'incomplete' && report.drift.length + report.readiness.length + report.claims.length === 0) {
    for (const line of renderVerify(report, 'table').trimEnd().split('\n')) run.write(line);
    stop(`verify of ${env} could check nothing (${where})`, `costs about ${run.costPerHour}`);
    return 1;
  }
  if (report.verdict === 'incomplete') {
    run.write(`canary: verify of ${env} INCOMPLETE: nothing that ran failed, but ${plural(report.left_out.length, 'check')} could not run (${where}); going on with ${waiting}`);
    return undefined;
  }
  run.write(`canary: verify of ${env} PASSED (${where}); now ${waiting}`);
  return undefined;
}
