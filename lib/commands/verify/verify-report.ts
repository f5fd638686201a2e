/**
 * What verify found, as a record (the JSON report's shape) and as the
 * Markdown report a host attaches to an issue: the verdict, drift, readiness,
 * claims, problems and what was left out. No Terraform, network or clock here.
 */
import { plural } from '../../kit/terminal/terminal';
import type { ClaimCheck } from './claims';
import type { DriftResult } from './drift';
import type { ReadyResult } from './readiness';

/** How the why of a check that Ctrl-C (or SIGTERM, or deploy's own) kept from running begins. */
export const INTERRUPTED = 'interrupted (Ctrl-C or SIGTERM)';

/** A check that was asked for and did not run, and why. */
export interface LeftOut {
  /** `drift`, `ready` or `claims`. */
  readonly check: 'drift' | 'ready' | 'claims';
  /** What it would have covered: a stack, or the exposures of one. */
  readonly what: string;
  readonly why: string;
}

/**
 * `passed`: everything asked for ran and passed. `failed`: something failed. `incomplete`: nothing
 * failed, but not everything asked for ran, or an exposure answered and its claims could not be measured.
 */
export type Verdict = 'passed' | 'failed' | 'incomplete';

export interface VerifyReport {
  readonly schema: 'hoplab.verify/v1';
  readonly started_at: string;
  readonly finished_at: string;
  readonly environments: readonly string[];
  readonly stacks: readonly string[];
  readonly emulator: string | null;
  readonly versions: { readonly hoplab: string; readonly terraform: string | null; readonly providers: Readonly<Record<string, string>> };
  readonly prober_address: string | null;
  readonly drift: readonly DriftResult[];
  readonly readiness: readonly ReadyResult[];
  readonly claims: readonly ClaimCheck[];
  readonly problems: readonly string[];
  /** Checks asked for that did not run, with why; never counted as passed. */
  readonly left_out: readonly LeftOut[];
  readonly verdict: Verdict;
  /** `verdict === 'passed'`. */
  readonly ok: boolean;
  /** Where the report files were written. */
  readonly files: { readonly markdown: string; readonly json: string };
}

/** What the verdict rests on: the checks that ran, what was left out, and the problems. */
export type VerdictFindings = Pick<VerifyReport, 'problems' | 'drift' | 'readiness' | 'claims' | 'left_out'>;

/**
 * An exposure that gave no successful reply (or had no URL to probe): its claims are not measured
 * because it does not work, which fails; a claim that is unmeasurable while replies came (the
 * prober's own address unknown, a claim the output does not make) leaves the check undone.
 */
export function unanswered(claim: ClaimCheck): boolean {
  return claim.status === 'not-measured' && (claim.probe === null || claim.probe.ok === 0);
}

/** The claims that could not be measured although the exposure answered. */
export function unmeasured(found: Pick<VerifyReport, 'claims'>): ClaimCheck[] {
  return found.claims.filter((c) => c.status === 'not-measured' && !unanswered(c));
}

/**
 * The verdict, from what was found alone: FAILED when anything that ran failed (a problem, drift or a
 * plan that errs, an exposure not ready, a claim contradicted, an exposure with no successful
 * reply); else INCOMPLETE when a check asked for did not run or a claim could not be measured; else PASSED.
 */
export function verdictOf(found: VerdictFindings): Verdict {
  const failed =
    found.problems.length > 0 || found.drift.some((d) => d.status !== 'clean') || found.readiness.some((r) => !r.ready) || found.claims.some((c) => c.status === 'contradiction' || unanswered(c));
  if (failed) return 'failed';
  return found.left_out.length > 0 || unmeasured(found).length > 0 ? 'incomplete' : 'passed';
}

/** `no changes`, `1 resource would change`, `2 resources would change; 1 changed outside Terraform (refresh only)`, or the error. */
export function driftSummary(d: DriftResult): string {
  if (d.status === 'clean') return 'no changes';
  if (d.status === 'error') return d.error ?? 'error';
  const parts = [`${plural(d.resources.length, 'resource')} would change`];
  if (d.outputs && d.outputs.length > 0) parts.push(`${plural(d.outputs.length, 'output')} would change`);
  if (d.outside_changes.length > 0) parts.push(`${plural(d.outside_changes.length, 'resource')} changed outside Terraform (refresh only)`);
  return parts.join('; ');
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, '<br>');

/** The verdict in one word: PASSED only when every check asked for ran and passed. */
export const VERDICT_WORD: Readonly<Record<Verdict, string>> = { passed: 'PASSED', failed: 'FAILED', incomplete: 'INCOMPLETE' };

/** The lines of one drift result: what an apply would change, then, labelled, what changed outside Terraform. */
export function driftLines(d: DriftResult): string[] {
  return [
    ...d.resources.map((r) => `would change: ${r.address} ${r.actions} (${r.attributes.join(', ') || 'no attribute named'})`),
    ...(d.outputs ?? []).map((o) => `output would change: ${o}`),
    ...d.outside_changes.map((r) => `changed outside Terraform (refresh only; the plan depends on it): ${r.address} (${r.attributes.join(', ')})`),
  ];
}

/** The report in Markdown: verdict first, then drift, readiness and claims with the probe's figures, and what was left out. */
export function renderVerifyMarkdown(report: VerifyReport): string {
  const lines = [
    `# hoplab verify: ${VERDICT_WORD[report.verdict]}`,
    '',
    `- environments: ${report.environments.join(', ')}; stacks: ${report.stacks.join(', ')}`,
    `- started ${report.started_at}, finished ${report.finished_at}${report.emulator ? `; emulator ${report.emulator}` : ''}`,
    `- hoplab ${report.versions.hoplab}, Terraform ${report.versions.terraform ?? 'not found (terraform version could not run)'}${Object.entries(report.versions.providers)
      .map(([p, v]) => `, ${p} ${v}`)
      .join('')}`,
    `- prober's public address: ${report.prober_address ?? 'unknown'}`,
    ...report.problems.map((p) => `- problem: ${p}`),
    '',
    '## Drift (terraform plan)',
    '',
    '| stack | result | what an apply would change; what changed outside Terraform that the plan depends on |',
    '|---|---|---|',
    ...report.drift.map(
      (d) =>
        `| ${d.stack} | ${d.status === 'clean' ? 'no changes' : d.status === 'drift' ? 'DRIFT' : 'ERROR'} (${d.seconds} s) | ${cell(
          d.status === 'error' ? d.error ?? '' : driftLines(d).join('\n'),
        )} |`,
    ),
  ];
  if (report.readiness.length > 0) {
    lines.push('', '## Ready', '', '| exposure | URL | ready | after | last answer |', '|---|---|---|---|---|');
    lines.push(...report.readiness.map((r) => `| ${r.label} | ${r.url ?? '-'} | ${r.ready ? 'yes' : 'NO'} | ${r.seconds} s, ${plural(r.attempts, 'attempt')} | ${cell(r.last)} |`));
  }
  if (report.claims.length > 0) {
    lines.push('', '## Claims against measurement', '', '| exposure | result | facts (claimed / measured) | probe | why |', '|---|---|---|---|---|');
    lines.push(
      ...report.claims.map((c) => {
        const facts = c.facts.map((f) => `${f.fact}: ${String(f.claimed)} / ${String(f.measured)}`).join('<br>');
        const p = c.probe;
        const figures = p
          ? `${p.ok}/${p.sent} ok${p.latency_ms ? `, p50 ${p.latency_ms.p50} ms, p95 ${p.latency_ms.p95} ms` : ''}, ${plural(Object.keys(p.pods).length, 'Pod')}, ${plural(
              Object.keys(p.nodes).length,
              'node',
            )}`
          : '-';
        return `| ${c.env} ${c.cloud} ${c.mode} | ${c.status === 'match' ? 'match' : c.status === 'contradiction' ? 'CONTRADICTION' : 'NOT MEASURED'} | ${facts || '-'} | ${figures} | ${cell(
          c.reason ?? '',
        )} |`;
      }),
    );
  }
  if (report.left_out.length > 0) {
    lines.push('', '## Left out (asked for, not run: not passed)', '', '| check | of | why |', '|---|---|---|');
    lines.push(...report.left_out.map((l) => `| ${l.check} | ${cell(l.what)} | ${cell(l.why)} |`));
  }
  lines.push('', `Exit ${report.ok ? 0 : 1}: ${verdictSentence(report)}.`, '');
  return lines.join('\n');
}

/** Why the verdict is what it is, in one sentence. */
export function verdictSentence(report: VerifyReport): string {
  if (report.verdict === 'passed') return 'no drift, and every exposure ready and as claimed';
  if (report.verdict === 'failed') return 'see above';
  // Interrupted, with nothing else undone: nothing to fix, only to run again.
  if (unmeasured(report).length === 0 && report.left_out.length > 0 && report.left_out.every((l) => l.why.startsWith(INTERRUPTED))) {
    return `nothing that ran failed, but verify was ${INTERRUPTED} before ${plural(report.left_out.length, 'check')} ran (see "Left out"); run it again for a verdict`;
  }
  const undone = [
    ...(report.left_out.length > 0 ? [`${plural(report.left_out.length, 'check')} asked for did not run (see "Left out")`] : []),
    ...(unmeasured(report).length === 1 ? ['1 exposure answered but its claims could not be measured (see "NOT MEASURED")'] : []),
    ...(unmeasured(report).length > 1 ? [`${unmeasured(report).length} exposures answered but their claims could not be measured (see "NOT MEASURED")`] : []),
  ];
  return `nothing that ran failed, but ${undone.join(', and ')}; fix what they name, or verify only what can run here (with HOPLAB_AWS_ENDPOINT: --stacks aws-cluster), for a verdict`;
}
