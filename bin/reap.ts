/**
 * `npx hoplab reap`: once workshop.expiresAt has passed, tears the lab down as
 * teardown does; then searches every slot for labs past their hoplab-expires.
 */
import { runCli } from '../lib/kit/cli/cli';
import { REAP_COMMAND } from '../lib/commands/lifecycle/command';
import { reap } from '../lib/commands/lifecycle/reap';

runCli(REAP_COMMAND, () => reap(process.argv.slice(2)));
