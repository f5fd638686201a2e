/**
 * `npm run verify`: after a deploy, no drift, every exposure ready and as
 * claimed, and a report to keep. See `npm run verify -- --help`.
 */
import { abortOnSignals } from '../../kit/cli/cli';
import { runVerify } from './verify';
import { parseVerifyArgs, renderVerify } from './verify-cli';

/** The command: parses `argv` (the arguments after the command's name) and runs it; resolves with the exit code. */
export async function verify(argv: readonly string[]): Promise<number> {
  const args = parseVerifyArgs(argv);
  if (!args) return 0;
  // Ctrl-C: no new check starts, the waits and probes end, and the report says what ran (INCOMPLETE, exit 1, unless something that ran failed).
  const abort = abortOnSignals('verify', 'stopping: the report says what ran (plans only read; nothing to clean up)');
  const report = await runVerify({
    ...args.options,
    awsEndpoint: process.env.HOPLAB_AWS_ENDPOINT || undefined,
    progress: (line) => console.error(line),
    progressStream: process.stderr,
    signal: abort.signal,
  });
  process.stdout.write(renderVerify(report, args.format));
  return report.ok ? 0 : 1;
}
