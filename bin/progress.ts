/**
 * `npx hoplab progress`: each attendee's handout exercises, checked in their
 * clusters. See `npx hoplab progress --help`.
 */
import { runCli } from '../lib/kit/cli/cli';
import { PROGRESS_COMMAND } from '../lib/commands/progress/command';
import { progress } from '../lib/commands/progress/progress';

runCli(PROGRESS_COMMAND, () => progress(process.argv.slice(2)));
