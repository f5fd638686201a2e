/**
 * `npm run verify`: after a deploy, no drift, every exposure ready and as
 * claimed, and a report to keep. See `npm run verify -- --help`.
 */
import { abortOnSignals, runCli } from '../lib/plumbing/cli/cli';
import { runVerify } from '../lib/commands/verify/verify';
import { parseVerifyArgs, renderVerify } from '../lib/commands/verify/verify-cli';

runCli(async () => {
  const args = parseVerifyArgs(process.argv.slice(2));
  if (!args) return 0;
  abortOnSignals('verify', 'stopping (plans only read; nothing to clean up)');
  const report = await runVerify({ ...args.options, awsEndpoint: process.env.HOPLAB_AWS_ENDPOINT || undefined, progress: (line) => console.error(line) });
  process.stdout.write(renderVerify(report, args.format));
  return report.ok ? 0 : 1;
});
