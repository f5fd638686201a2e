/**
 * `npm run verify`: after a deploy, no drift, every exposure ready and as
 * claimed, and a report to keep. See `npm run verify -- --help`.
 */
import { runCli } from '../lib/kit/cli/cli';
import { VERIFY_COMMAND } from '../lib/commands/verify/command';
import { verify } from '../lib/commands/verify/verify-main';

runCli(VERIFY_COMMAND, () => verify(process.argv.slice(2)));
