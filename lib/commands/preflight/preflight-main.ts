/**
 * `npm run preflight`: everything that can be checked before a deploy spends
 * money. See `npm run preflight -- --help`.
 */
import { renderFindings } from '../../lab/checks/finding';
import { formatPlacement, placementMarkdown } from '../../lab/placement/placement-report';
import { terminalWidth } from '../../kit/terminal/terminal';
import { runPreflight } from './preflight';
import { parsePreflightArgs } from './preflight-cli';
import { SYSTEM_WALL_CLOCK, WallClock } from '../../kit/cli/wall-clock';

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
  process.stdout.write(renderFindings(result.findings, args.format, placement ? { ...result.meta, placement: placement.report } : result.meta));
  // Where each environment goes, after the findings (in the JSON form it is the `placement` field).
  if (placement && args.format === 'table') process.stdout.write(`${formatPlacement(placement.report, placement.order, terminalWidth(process.stdout)).join('\n')}\n`);
  if (placement && args.format === 'markdown') process.stdout.write(placementMarkdown(placement.report, placement.order));
  return result.ok ? 0 : 1;
}
