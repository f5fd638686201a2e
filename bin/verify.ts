/**
 * `npm run verify`: after a deploy, no drift, every exposure ready and as
 * claimed, and a report to keep. See `npm run verify -- --help`.
 */
import { runCli } from '../lib/kit/cli/cli';
import { verify } from '../lib/commands/verify/verify-main';

runCli(() => verify(process.argv.slice(2)));
