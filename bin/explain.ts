/**
 * `npm run explain`: how each exposure's path goes, from the synthesized
 * stacks. See `npm run explain -- --help`.
 */
import { runCli } from '../lib/kit/cli/cli';
import { EXPLAIN_COMMAND } from '../lib/commands/explain/command';
import { runExplain } from '../lib/commands/explain/explain-cli';
import { colorEnabled, terminalWidth } from '../lib/kit/terminal/terminal';

runCli(EXPLAIN_COMMAND, () =>
  runExplain(process.argv.slice(2), {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
    columns: terminalWidth(process.stdout),
    color: colorEnabled(process.stdout),
  }),
);
