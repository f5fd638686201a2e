/** `npm run cost`: the estimated cost and wall time of the configured lab, as `deploy` prints them first. */
import { runCli } from '../lib/kit/cli/cli';
import { cost } from '../lib/commands/cost/cost';

runCli(() => cost(process.argv.slice(2)));
