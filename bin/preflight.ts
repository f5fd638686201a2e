/**
 * `npm run preflight`: everything that can be checked before a deploy spends
 * money. See `npm run preflight -- --help`.
 */
import { runCli } from '../lib/cli';
import { renderFindings } from '../lib/preflight/finding';
import { runPreflight } from '../lib/preflight/preflight';
import { parsePreflightArgs } from '../lib/preflight/preflight-cli';

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
