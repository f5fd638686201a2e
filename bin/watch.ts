/**
 * `npm run watch`: a live view of the traffic through each exposure (also
 * `npm run compare -- --watch`). See `npm run watch -- --help`.
 */
import { abortOnSignals, runCli } from '../lib/kit/cli/cli';
import { runWatch } from '../lib/commands/watch/watch-cli';
import { WATCH_COMMAND } from '../lib/commands/watch/command';

runCli(WATCH_COMMAND, () =>
  runWatch(process.argv.slice(2), {
    stdout: process.stdout,
    err: (text) => process.stderr.write(text),
    signal: abortOnSignals('watch', 'stopping and printing the summary').signal,
  }),
);
