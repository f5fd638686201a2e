/**
 * `npm run teardown`: destroys every stack in reverse dependency order (lb
 * stacks first, so the controllers delete their load balancers while the
 * clusters run), then checks each cloud for anything left of each environment.
 */
import { runCli } from '../lib/kit/cli/cli';
import { teardown } from '../lib/commands/lifecycle/teardown';

runCli(() => teardown(process.argv.slice(2)));
