/**
 * `npm run handout`: a Markdown file, a self-contained HTML page and an access
 * card per attendee, and the host's index. See `npm run handout -- --help`.
 */
import { runCli } from '../lib/kit/cli/cli';
import { HANDOUT_COMMAND } from '../lib/commands/handout/command';
import { handout } from '../lib/commands/handout/handout';

runCli(HANDOUT_COMMAND, () => handout(process.argv.slice(2)));
