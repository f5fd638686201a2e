/**
 * `npm run compare`: the deployed environments side by side, optionally
 * probed. See `npm run compare -- --help`.
 */
import { runCompare } from '../lib/commands/compare/compare-cli';
import { COMPARE_COMMAND } from '../lib/commands/compare/command';
import { abortOnSignals, runCli } from '../lib/kit/cli/cli';
import { runWatch } from '../lib/commands/watch/watch-cli';
import { colorEnabled, terminalWidth } from '../lib/kit/terminal/terminal';

runCli(COMPARE_COMMAND, () =>
  runCompare(process.argv.slice(2), {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
    progress: process.stderr,
    watch: (argv) =>
      runWatch(argv, {
        stdout: process.stdout,
        err: (text) => process.stderr.write(text),
        signal: abortOnSignals('watch', 'stopping and printing the summary').signal,
      }),
    columns: terminalWidth(process.stdout),
    color: colorEnabled(process.stdout),
  }),
);
