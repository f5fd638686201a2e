/**
 * One preflight check's verdict, and the report of all of them as a table,
 * Markdown or JSON. Only `fail` blocks a deploy.
 */
import { markdownTable, wrapIndented } from '../../kit/terminal/text-table';

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
export function renderFindings(
  findings: readonly Finding[],
  format: ReportFormat,
  meta: { readonly title: string; readonly [key: string]: unknown },
  /** The table's width: each detail wrapped to it (a terminal's, terminalWidth). @default - not wrapped (a log or a file) */
  width?: number,
): string {
  const blockers = blocking(findings);
  const verdictLine = blockers.length === 0 ? 'nothing blocks a deploy' : `${blockers.length} finding${blockers.length === 1 ? '' : 's'} block${blockers.length === 1 ? 's' : ''} a deploy`;
  if (format === 'json') {
    return `${JSON.stringify({ schema: 'hoplab.preflight/v1', ...meta, ok: blockers.length === 0, findings }, null, 2)}\n`;
  }
  if (format === 'markdown') {
    const rows = findings.map((f) => [f.check, MARK[f.verdict], f.detail, f.fix ?? '']);
    return [`## ${meta.title}`, '', markdownTable(['check', 'verdict', 'detail', 'fix'], rows), '', `**${verdictLine}**`, ''].join('\n');
  }
  // Table: one aligned line per check; the fix on the next line. Wrapped to a terminal's width, a detail that
  // does not fit beside its check goes under it, over the width less 6; unwrapped (a log, a file) each stays one line.
  // A fix is never wrapped: it often holds a command to paste, which a line break would cut (the terminal folds it).
  const column = Math.min(30, Math.max(...findings.map((f) => f.check.length), 5));
  const fit = (text: string, first: string, rest: string) => (width === undefined ? [`${first}${text}`] : wrapIndented(text, width, first, rest));
  const under = width === undefined ? ' '.repeat(column + 8) : ' '.repeat(6);
  const detail = (f: Finding) => {
    const beside = `${MARK[f.verdict].padEnd(4)}  ${f.check.padEnd(column)}  `;
    return width === undefined || beside.length + f.detail.length <= width ? [`${beside}${f.detail}`] : [`${MARK[f.verdict].padEnd(4)}  ${f.check}`, ...fit(f.detail, under, under)];
  };
  const lines = findings.flatMap((f) => [...detail(f), ...(f.fix ? [`${under}fix: ${f.fix}`] : [])]);
  return `${[...fit(meta.title, '', '  '), ...lines, ...fit(verdictLine, '', '  ')].join('\n')}\n`;
}
