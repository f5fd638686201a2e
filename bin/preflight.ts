/**
 * `npm run preflight`: everything that can be checked before a deploy spends
 * money. See `npm run preflight -- --help`.
 */
import { runCli } from '../lib/kit/cli/cli';
import { PREFLIGHT_COMMAND } from '../lib/commands/preflight/command';
import { preflight } from '../lib/commands/preflight/preflight-main';

runCli(PREFLIGHT_COMMAND, () => preflight(process.argv.slice(2)));
