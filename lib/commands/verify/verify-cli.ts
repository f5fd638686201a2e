/**
 * The `verify` command line. Kept apart from bin/verify.ts so tests can parse
 * it in-process.
 */
import { parseSelection } from '../../lab/selection/selection';
import { readLabConfig } from '../../lab/files/config-file';
import { ReportFormat } from '../../lab/checks/finding';
import { VERIFY_COMMAND } from './command';
import { VerifyOptions } from './verify';
import { driftLines, renderVerifyMarkdown, VERDICT_WORD, verdictSentence, VerifyReport } from './verify-report';

export interface VerifyArgs {
  readonly options: Omit<VerifyOptions, 'progress' | 'awsEndpoint' | 'cwd' | 'progressStream' | 'clock' | 'waitClock' | 'signal'>;
  readonly format: ReportFormat;
}

export function parseVerifyArgs(argv: readonly string[]): VerifyArgs | undefined {
  const values = VERIFY_COMMAND.parse(argv);
  if (!values) return undefined;
  const probe = { count: values.count, concurrency: values.concurrency, timeoutMs: values.timeout, ...(values['my-ip'] !== undefined ? { myIp: values['my-ip'] } : {}) };
  const config = readLabConfig().config;
  const { envs, kinds } = parseSelection(config, values);
  return { options: { config, envs, kinds, waitMs: values.wait * 1000, probe, outputsFile: values.outputs, reportPath: values.report }, format: values.format };
}

/** What verify prints to stdout. */
export function renderVerify(report: VerifyReport, format: ReportFormat): string {
  if (format === 'json') return `${JSON.stringify(report, null, 2)}\n`;
  if (format === 'markdown') return renderVerifyMarkdown(report);
  const lines = [`hoplab verify: ${VERDICT_WORD[report.verdict]} (${report.environments.join(', ')})`];
  for (const d of report.drift) {
    lines.push(`  drift   ${d.stack}: ${d.status === 'clean' ? 'no changes' : d.status === 'drift' ? 'DRIFT' : `ERROR ${d.error}`}`);
    if (d.status === 'drift') for (const line of driftLines(d)) lines.push(`            ${line}`);
  }
  for (const r of report.readiness) lines.push(`  ready   ${r.label}: ${r.ready ? `yes after ${r.seconds} s` : `NO (${r.last})`}`);
  for (const c of report.claims)
    lines.push(`  claims  ${c.env} ${c.cloud} ${c.mode}: ${c.status === 'match' ? 'as claimed' : c.status === 'contradiction' ? 'CONTRADICTION' : 'NOT MEASURED'}${c.reason ? `: ${c.reason}` : ''}`);
  for (const l of report.left_out) lines.push(`  left out ${l.check} of ${l.what}: ${l.why}`);
  for (const p of report.problems) lines.push(`  problem ${p}`);
  if (report.verdict === 'incomplete') lines.push(`  ${verdictSentence(report)}`);
  lines.push(`report: ${report.files.markdown} and ${report.files.json}`);
  return `${lines.join('\n')}\n`;
}
