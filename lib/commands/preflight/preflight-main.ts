/**
 * `npm run preflight`: everything that can be checked before a deploy spends
 * money. See `npm run preflight -- --help`.
 */
import { renderFindings } from '../../lab/checks/finding';
import { formatPlacement, placementMarkdown } from '../../lab/placement/placement-report';
import { terminalWidth } from '../../kit/terminal/terminal';
import { wrapIndented } from '../../kit/terminal/text-table';
import { confirm } from '../../kit/cli/cli';
import { runPreflight } from './preflight';
import { parsePreflightArgs } from './preflight-cli';
import { SYSTEM_WALL_CLOCK, WallClock } from '../../kit/cli/wall-clock';
import { QUOTA_REQUESTS_FILE, requestCommand, requestLines } from './quota-requests';
import { requestQuotas } from './quota-filing';

/** The command: parses `argv` (the arguments after the command's name) and runs it; resolves with the exit code. `clock`: the date it checks on (tests). */
export async function preflight(argv: readonly string[], clock: WallClock = SYSTEM_WALL_CLOCK): Promise<number> {
  const now = clock.now();
  const args = parsePreflightArgs(argv, now);
  if (!args) return 0;
  const result = await runPreflight({
    now,
    config: args.config,
    envs: args.envs,
    kinds: args.kinds,
    shard: args.shard,
    myIp: args.myIp,
    awsEndpoint: process.env.HOPLAB_AWS_ENDPOINT || undefined,
    progress: (line) => console.error(line),
  });
  const placement = result.placement;
  const email = result.filing.email;
  const requests = result.requests.map((r) => ({ ...r, command: requestCommand(r, email) }));
  const meta = { ...result.meta, ...(placement ? { placement: placement.report } : {}), quota_requests: requests };
  const width = terminalWidth(process.stdout);
  // The findings wrap on a terminal only: a log or a file keeps one line per finding, for grep.
  process.stdout.write(renderFindings(result.findings, args.format, meta, process.stdout.isTTY ? width : undefined));
  // Where each environment goes, after the findings (in the JSON form it is the `placement` field).
  if (placement && args.format === 'table') process.stdout.write(`${formatPlacement(placement.report, placement.order, width).join('\n')}\n`);
  if (placement && args.format === 'markdown') process.stdout.write(placementMarkdown(placement.report, placement.order));
  // The request for each quota found short, ready to paste (in the JSON form: `quota_requests`).
  if (args.format !== 'json' && result.requests.length > 0) {
    const lines = [
      ...wrapIndented(
        `Quota requests (${result.requests.length}): in use + what the lab needs; they take hours to days, so file them a week before the workshop (--request-quotas files them):`,
        width,
        '',
        '  ',
      ),
      ...result.requests.flatMap((r) => [...wrapIndented(`${r.cloud} ${r.quota.name} in ${r.where}: ${r.desired}`, width, '  ', '    '), ...requestLines(r, email, width)]),
    ];
    process.stdout.write(args.format === 'markdown' ? `\n\`\`\`\n${lines.join('\n')}\n\`\`\`\n` : `${lines.join('\n')}\n`);
  }
  let filed = true;
  if (args.requestQuotas) {
    filed = await requestQuotas(result.requests, result.filing, {
      confirm: (question) => confirm('preflight', question, args.yes),
      write: (line) => console.log(line),
      recordFile: QUOTA_REQUESTS_FILE,
    });
  }
  return result.ok && filed ? 0 : 1;
}
