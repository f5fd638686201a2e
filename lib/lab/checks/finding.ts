/**
 * One preflight check's verdict, and the report of all of them as a table,
 * Markdown or JSON. Only `fail` blocks a deploy.
 */
import { markdownTable } from '../../kit/terminal/text-table';

/** `pass`: fine. `warn`: look at it, does not block. `fail`: blocks a deploy. `skip`: could not or need not run. */
export type Verdict = 'pass' | 'warn' | 'fail' | 'skip';

export interface Finding {
  /** Short name of the check, e.g. `aws identity`. */
  readonly check: string;
  readonly verdict: Verdict;
  /** One line: what was found. */
  readonly detail: string;
  /** On `fail` or `warn`: how to fix it. */
  readonly fix?: string;
}

export const REPORT_FORMATS = ['table', 'markdown', 'json'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export const blocking = (findings: readonly Finding[]) => findings.filter((f) => f.verdict === 'fail');

const MARK: Record<Verdict, string> = { pass: 'ok', warn: 'WARN', fail: 'FAIL', skip: 'skip' };

/** The preflight report in `format`. */
export function renderFindings(findings: readonly Finding[], format: ReportFormat, meta: { readonly title: string; readonly [key: string]: unknown }): string {
  const blockers = blocking(findings);
  const verdictLine = blockers.length === 0 ? 'nothing blocks a deploy' : `${blockers.length} finding${blockers.length === 1 ? '' : 's'} block${blockers.length === 1 ? 's' : ''} a deploy`;
  if (format === 'json') {
    return `${JSON.stringify({ schema: 'hoplab.preflight/v1', ...meta, ok: blockers.length === 0, findings }, null, 2)}\n`;
  }
  if (format === 'markdown') {
    const rows = findings.map((f) => [f.check, MARK[f.verdict], f.detail, f.fix ?? '']);
    return [`## ${meta.title}`, '', markdownTable(['check', 'verdict', 'detail', 'fix'], rows), '', `**${verdictLine}**`, ''].join('\n');
  }
  // Table: one aligned line per check; the fix on the next line.
  const width = Math.min(30, Math.max(...findings.map((f) => f.check.length), 5));
  const lines = findings.flatMap((f) => [`${MARK[f.verdict].padEnd(4)}  ${f.check.padEnd(width)}  ${f.detail}`, ...(f.fix ? [`${' '.repeat(width + 8)}fix: ${f.fix}`] : [])]);
  return `${meta.title}\n${lines.join('\n')}\n${verdictLine}\n`;
}
