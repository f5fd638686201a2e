/** `npm run cost`: the estimated cost and wall time of the configured lab, as `deploy` prints them first. */
import { runCli } from '../lib/kit/cli/cli';
import { cost } from '../lib/commands/cost/cost';
import { COST_COMMAND } from '../lib/commands/cost/command';

runCli(COST_COMMAND, () => cost(process.argv.slice(2)));
