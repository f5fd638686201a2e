/**
 * `npm run teardown`: destroys every stack in reverse dependency order (lb
 * stacks first, so the controllers delete their load balancers while the
 * clusters run), then checks each cloud for anything left of each environment.
 */
import { runCli } from '../lib/kit/cli/cli';
import { TEARDOWN_COMMAND } from '../lib/commands/lifecycle/command';
import { teardown } from '../lib/commands/lifecycle/teardown';

runCli(TEARDOWN_COMMAND, () => teardown(process.argv.slice(2)));
