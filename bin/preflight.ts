/**
 * `npm run preflight`: everything that can be checked before a deploy spends
 * money. See `npm run preflight -- --help`.
 */
import { runCli } from '../lib/plumbing/cli/cli';
import { renderFindings } from '../lib/plumbing/cli/finding';
import { runPreflight } from '../lib/commands/preflight/preflight';
import { parsePreflightArgs } from '../lib/commands/preflight/preflight-cli';

runCli(async () => {
  const args = parsePreflightArgs(process.argv.slice(2));
  if (!args) return 0;
  const result = await runPreflight({
    config: args.config,
    envs: args.envs,
    kinds: args.kinds,
    myIp: args.myIp,
    awsEndpoint: process.env.HOPLAB_AWS_ENDPOINT || undefined,
    progress: (line) => console.error(line),
  });
  process.stdout.write(renderFindings(result.findings, args.format, result.meta));
  return result.ok ? 0 : 1;
});
