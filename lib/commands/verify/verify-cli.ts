/**
 * The `verify` command line. Kept apart from bin/verify.ts so tests can parse
 * it in-process.
 */
import { parseSelection } from '../../lab/selection/selection';
import { SHARD_OPTION } from '../../lab/selection/shard';
import { strictArgs, UsageError } from '../../kit/cli/cli';
import { PROBE_LIMITS } from '../../lab/probe/probe';
import { loadConfig } from '../../config/load';
import { parseReportFormat, ReportFormat } from '../../lab/checks/finding';
import { checkMyIp } from '../../lab/checks/host-checks';
import { VerifyOptions } from './verify';
import { driftLines, renderVerifyMarkdown, VERDICT_WORD, verdictSentence, VerifyReport } from './verify-report';

export const VERIFY_HELP = `usage: npm run verify -- [--env a,b] [--stacks kinds] [--wait SECONDS] [--my-ip ADDRESS]
                        [--count N] [--concurrency N] [--timeout MS] [--outputs FILE]
                        [--report PATH] [--format table|markdown|json] [--shard K/N]

After npm run deploy, for the selected environments and stack kinds:
  1. no drift   terraform plan -detailed-exitcode of every stack shows no changes; a
                non-empty plan is listed resource by resource with the differing attributes
  2. ready      each exposure's load balancer answers (2xx/3xx) within --wait, with progress
  3. claims     compare --probe measures every exposure; source NAT and where the Pod finds
                the client address (source_nat, client_ip_via) must equal the exposure's
                exported claims; a contradiction is named; "nothing measured" fails too
  4. report     Markdown and JSON (schema hoplab.verify/v1) with environment, versions,
                timestamps and the probe's figures, written to PATH.md and PATH.json
                (default .hoplab/verify/verify-<timestamp>): attach it to a bug report

  --env a,b          only these environments
  --stacks kinds     only these stack kinds (aws-cluster,aws-lb,gcp-cluster,gcp-lb)
  --wait SECONDS     wait per exposure for its load balancer (default 300, 0-1800)
  --my-ip ADDRESS    your public address as the load balancers see it (default: one
                     request to checkip.amazonaws.com)
  --count N, --concurrency N, --timeout MS   probe settings, as for compare
  --outputs FILE     outputs as cdktf output --outputs-file writes them (default: terraform
                     output -json of each -lb stack)
  --report PATH      report path without extension
  --format FORMAT    what goes to stdout: table (default), markdown or json
  --shard K/N        only the environments of shard K of N, as deploy --shard puts them
                     (needs an s3 or gcs backend); combined with --env, the environments in both
  -h, --help         this help
Drift is what an apply would change; objects changed outside Terraform are listed apart,
and only in the attributes the plan depends on (refresh-only differences nothing uses are left out).
With HOPLAB_AWS_ENDPOINT set only the aws-cluster stacks are verified (drift), against the emulator;
the other stacks, and the readiness and claims of their exposures, are listed as left out, and the
verdict is INCOMPLETE, never PASSED, when something asked for did not run.
Exit 0 only when every check asked for ran, no stack drifted and every exposure is ready and as
claimed (PASSED); 1 otherwise (FAILED or INCOMPLETE); 2 for a bad command line.`;

function bounded(flag: string, text: string | undefined, min: number, max: number, fallback: number): number {
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max) throw new UsageError(`${flag}: ${JSON.stringify(text)} is not a whole number from ${min} to ${max}`);
  return Number(text);
}

export interface VerifyArgs {
  readonly options: Omit<VerifyOptions, 'progress' | 'awsEndpoint' | 'cwd' | 'progressStream' | 'clock'>;
  readonly format: ReportFormat;
}

export function parseVerifyArgs(argv: readonly string[]): VerifyArgs | undefined {
  const values = strictArgs(argv, {
    env: { type: 'string' },
    stacks: { type: 'string' },
    wait: { type: 'string' },
    'my-ip': { type: 'string' },
    count: { type: 'string' },
    concurrency: { type: 'string' },
    timeout: { type: 'string' },
    outputs: { type: 'string' },
    report: { type: 'string' },
    format: { type: 'string', default: 'table' },
    ...SHARD_OPTION,
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (values.help) {
    console.log(VERIFY_HELP);
    return undefined;
  }
  const format = parseReportFormat(values.format);
  const probe = {
    count: bounded('--count', values.count, PROBE_LIMITS.count.min, PROBE_LIMITS.count.max, PROBE_LIMITS.count.default),
    concurrency: bounded('--concurrency', values.concurrency, PROBE_LIMITS.concurrency.min, PROBE_LIMITS.concurrency.max, PROBE_LIMITS.concurrency.default),
    timeoutMs: bounded('--timeout', values.timeout, PROBE_LIMITS.timeout.min, PROBE_LIMITS.timeout.max, PROBE_LIMITS.timeout.default),
    ...(values['my-ip'] !== undefined ? { myIp: checkMyIp(values['my-ip']) } : {}),
  };
  const waitMs = bounded('--wait', values.wait, 0, 1800, 300) * 1000;
  const config = loadConfig().config;
  const { envs, kinds } = parseSelection(config, values);
  return { options: { config, envs, kinds, waitMs, probe, outputsFile: values.outputs, reportPath: values.report }, format };
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
